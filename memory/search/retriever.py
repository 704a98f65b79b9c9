"""Hybrid search over durable facts and the prompt memory slice (DESIGN "Retrieval").

Facts are scored (``scoring.py``) and gated for relevance; ``search`` is strict (nothing when
nothing passes), the slice falls back to the ungated ranking. Messages are found by full text
(BM25), fused over the guild, the current channel and the members the query names, and each
comes with its neighbouring turns. Every item carries its provenance.
"""

from __future__ import annotations

import asyncio
import heapq
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from memory.extraction.safety import fold
from memory.ids import MENTION
from memory.lifecycle.value import DEFAULT_HALF_LIFE_DAYS, worth
from memory.models import subject_name
from memory.search import lexical, message_gate
from memory.search.asker import about_the_asker
from memory.search.budget import FACT_SHARE, pack
from memory.search.fts import query_tokens, term_groups
from memory.search.results import FactHit, MemorySlice, MessageHit
from memory.search.scoring import score_fact
from memory.search.semantic import Semantic
from memory.settings import SLICE_BUDGET
from memory.storage.protocol import Storage
from memory.storage.windows import Narrow

USER_FACTS = 40  # candidates for the slice's budget (``budget.pack``)
RELEVANT_FACTS = 60
ALL_OF_A_MEMBER = 120  # a member's active facts (80 at most; lore 120): their whole profile
RELEVANT_MESSAGES = 8  # messages a search shows
MESSAGE_CHARS = 250  # a slice asks for a message hit per this many characters of budget
NEIGHBOURS = 4  # turns either side a slice may show with a hit (``budget.pack`` picks)
CANDIDATES = 60  # facts by full text, and as many by meaning, that a big guild's search scores
MESSAGE_POOL = 100  # messages ranked by BM25 (plus the channel's and named members' newest)
RRF_K = 10
_WORD = re.compile(r"\w+")


def _norm(text: str) -> str:
    """Folded words (look-alike letters, accents, invisible characters): for names."""
    return " ".join(_WORD.findall(fold(text)))


@dataclass(slots=True)
class _Members:
    """A guild's member names as a retriever caches them."""

    version: int
    by_alias: dict[str, set[str]] = field(default_factory=dict)  # normalised name -> users
    names: dict[str, str] = field(default_factory=dict)  # user -> display name
    words: dict[str, set[str]] = field(default_factory=dict)  # user -> words of their names


# --- the retriever ----------------------------------------------------------------------------


class Retriever:
    """Search and slices over one store (lexical; semantic when given vectors' scores)."""

    def __init__(
        self, store: Storage, semantic: Semantic | None = None, *, min_confidence: float = 0.0,
        budget: int = SLICE_BUDGET, half_life_days: float = DEFAULT_HALF_LIFE_DAYS,
    ) -> None:  # fmt: skip
        self.store = store
        self.semantic = semantic
        self.min_confidence = min_confidence  # facts less sure than this stay out of slices
        self.budget = budget  # characters a slice shows unless its caller sets its own
        self.half_life_days = half_life_days  # a fact's value (the asker's profile)
        self._counts: dict[str, tuple[int, int]] = {}
        self._members: dict[str, _Members] = {}
        self._profiles = lexical.Profiles()

    async def named_members(self, guild_id: str, query: str) -> dict[str, str]:
        """Members the query names — by display name, username, first name or mention —
        as ``user_id -> display name``."""
        by_alias, names = await self._aliases(guild_id)
        found: dict[str, str] = {}
        for user_id in MENTION.findall(query):
            if user_id in names:
                found[user_id] = names[user_id]
        words = _norm(MENTION.sub(" ", query)).split()
        for size in (3, 2, 1):
            for start in range(len(words) - size + 1):
                for user_id in by_alias.get(" ".join(words[start : start + size]), ()):
                    found[user_id] = names[user_id]
        return found

    async def _aliases(self, guild_id: str) -> tuple[dict[str, set[str]], dict[str, str]]:
        """Normalised names -> user ids, and user id -> display name, of the guild's members."""
        members = await self._guild_members(guild_id)
        return members.by_alias, members.names

    async def _guild_members(self, guild_id: str) -> _Members:
        """The guild's member names, cached until members are written again
        (``Storage.members_version``)."""
        version = self.store.members_version
        cached = self._members.get(guild_id)
        if cached is not None and cached.version == version:
            return cached
        members = _Members(version)
        for user_id, display, username in await self.store.members(guild_id):
            members.names[user_id] = display or username or user_id
            for alias in {display, username, (display.split() or [""])[0]}:
                key = _norm(alias)
                if len(key) >= 2:
                    members.by_alias.setdefault(key, set()).add(user_id)
                    members.words.setdefault(user_id, set()).update(key.split())
        self._members[guild_id] = members
        return members

    async def _fact_count(self, guild_id: str) -> int:
        """Active facts of the guild, counted again only after facts changed."""
        version = self.store.vector_version
        cached = self._counts.get(guild_id)
        if cached is None or cached[0] != version:
            cached = self._counts[guild_id] = (
                version,
                await self.store.count_active_facts(guild_id),
            )
        return cached[1]

    async def close(self) -> None:
        """Close the embedder (its HTTP client) when there is one."""
        if self.semantic is not None:
            await self.semantic.embedder.aclose()

    async def _name_words(self, guild_id: str, user_ids: Iterable[str]) -> set[str]:
        wanted = set(user_ids)
        if not wanted:
            return set()
        words = (await self._guild_members(guild_id)).words
        return {word for user_id in wanted for word in words.get(user_id, ())}

    async def search(
        self,
        guild_id: str,
        query: str,
        *,
        channel_id: str | None = None,
        limit: int = 10,
        strict: bool = True,
        subjects: Sequence[str] | None = None,
        semantic: Mapping[int, float] | None = None,
        named: Mapping[str, str] | None = None,
        now: datetime | None = None,
    ) -> list[FactHit]:
        """Hybrid search over the guild's active facts (``subjects``: only theirs).

        Strict: only facts that pass the relevance gate; otherwise the ungated ranking.
        ``named``: the members the query names, when the caller resolved them already."""
        if named is None:
            named = await self.named_members(guild_id, query)
        query = MENTION.sub(" ", query)
        # A member's name says whose facts are wanted, not which: it is not a lexical match.
        name_words = await self._name_words(guild_id, named)
        all_tokens = query_tokens(query)
        tokens = [t for t in all_tokens if t not in name_words]
        topic = " ".join(w for w in _norm(query).split() if w not in name_words)
        wanted = list(subjects) if subjects is not None else list(named)
        if semantic is None and self.semantic is not None:
            # Every fact about a member resembles their name: when the query names members
            # and says more, meaning is measured on the rest ("Kai" + "quantum physics").
            text = topic if named and tokens else query
            semantic = await self.semantic.similarities(guild_id, text)
        if subjects is not None:  # some members' facts: at most 80 active each, take them all
            candidates = await self.store.facts_of(guild_id, subjects)
        elif await self._fact_count(guild_id) <= 2 * CANDIDATES:
            candidates = await self.store.active_facts(guild_id)
        else:  # the best full-text candidates, the nearest by meaning, the named members'
            found = await lexical.candidates(
                self.store,
                lexical.FACTS,
                guild_id,
                term_groups(all_tokens),
                limit=CANDIDATES,
                profiles=self._profiles,
            )
            ids = dict.fromkeys(found.order)
            if semantic:
                ids.update(
                    dict.fromkeys(heapq.nlargest(CANDIDATES, semantic, key=semantic.__getitem__))
                )
            candidates = await self.store.facts_by_ids(guild_id, list(ids))
            if wanted:
                known = {f.id for f in candidates}
                more = await self.store.facts_of(guild_id, wanted)
                candidates += [f for f in more if f.id not in known]
        if subjects is not None:
            allowed = set(subjects)
            candidates = [f for f in candidates if f.subject in allowed]
        _aliases, names = await self._aliases(guild_id)
        moment = now or datetime.now(UTC)
        scored = []
        for fact in candidates:
            sem = semantic.get(fact.id) if semantic is not None else None
            if tokens or fact.subject not in named:
                scores = score_fact(
                    fact, topic, tokens, semantic=sem, channel_id=channel_id, now=moment
                )
            else:  # the query is only a name ("tell me about Kai"): all of Kai's facts
                scores = score_fact(
                    fact, fact.fact, [], semantic=sem, channel_id=channel_id, now=moment
                )
            if scores.passed or not strict:
                scored.append((scores, fact))
        best = heapq.nlargest(limit, scored, key=lambda p: (p[0].passed, p[0].combined))
        return [FactHit(fact, subject_name(fact.subject, names), scores) for scores, fact in best]

    async def messages(
        self,
        guild_id: str,
        query: str,
        *,
        channel_id: str | None = None,
        limit: int = RELEVANT_MESSAGES,
        named: Iterable[str] = (),
        context: int = 2,
        distinct: bool = True,
        strict: bool = False,
    ) -> list[MessageHit]:
        """Messages by full text, fused over the guild, the current channel and the named
        members' own messages; each with ``context`` turns before and after (``distinct``:
        a hit among the turns of a better one is left out; ``strict``: only messages that
        pass the relevance gate, ``message_gate``)."""
        named_ids = list(named)
        name_words = await self._name_words(guild_id, named_ids)
        query = MENTION.sub(" ", query)
        tokens = [t for t in query_tokens(query) if t not in name_words] or query_tokens(query)
        groups = term_groups(tokens)
        if not groups:
            return []
        # The guild's best matches, plus the newest matches in the channel and by the named
        # members; all ranked by BM25, then the three rankings fused.
        extra: dict[str, Narrow] = {}
        if channel_id:
            extra["channel"] = Narrow("channel_id", (channel_id,))
        if named_ids:
            extra["named"] = Narrow("author_id", tuple(named_ids))
        found = await lexical.candidates(
            self.store,
            lexical.MESSAGES,
            guild_id,
            groups,
            limit=MESSAGE_POOL,
            extra=extra,
            profiles=self._profiles,
        )
        rows = dict.fromkeys(found.order)
        for window in found.extra.values():
            rows.update(dict.fromkeys(window))
        by_row = {m.row_id: m for m in await self.store.messages_by_rows(guild_id, list(rows))}
        bm25 = lexical.rank(groups, found.idf, {r: m.content for r, m in by_row.items()})
        pool = sorted(by_row, key=lambda r: (bm25[r], r), reverse=True)
        if strict:
            pool = [r for r in pool if message_gate.relevant(groups, found.idf, by_row[r].content)]
        lists = [pool]
        if channel_id:
            lists.append([r for r in pool if by_row[r].channel_id == channel_id])
        if named_ids:
            wanted = set(named_ids)
            lists.append([r for r in pool if by_row[r].author_id in wanted])
        fused: dict[int, float] = {}
        for ranked in lists:
            for rank, row_id in enumerate(ranked):
                fused[row_id] = fused.get(row_id, 0.0) + 1.0 / (RRF_K + rank)
        order = sorted(fused, key=lambda r: fused[r], reverse=True)
        hits: list[MessageHit] = []
        covered: set[int] = set()
        while order and len(hits) < limit:
            batch = [by_row[r] for r in order[: limit - len(hits) + 2]]
            order = order[len(batch) :]
            turns_of = await self.store.neighbours(guild_id, batch, context, context)
            for message, (before, after) in zip(batch, turns_of, strict=True):
                if len(hits) == limit:
                    break
                if message.row_id in covered:
                    continue
                turns = (*before, message, *after)
                if distinct:
                    covered.update(m.row_id for m in turns)
                hits.append(MessageHit(message, fused[message.row_id], turns))
        return hits

    async def search_messages(
        self, guild_id: str, query: str, *, channel_id: str | None = None,
        limit: int = RELEVANT_MESSAGES,
    ) -> list[MessageHit]:  # fmt: skip
        """Search's messages: the members the query names resolved, only messages that pass
        the relevance gate (``message_gate``), each with two turns either side."""
        named = await self.named_members(guild_id, query)
        return await self.messages(
            guild_id, query, channel_id=channel_id, limit=limit, named=named, strict=True
        )

    async def slice(
        self,
        guild_id: str,
        query: str,
        *,
        channel_id: str | None = None,
        user_id: str | None = None,
        semantic: Mapping[int, float] | None = None,
        budget: int | None = None,
    ) -> MemorySlice:
        """The prompt memory slice for ``user_id`` asking ``query`` in ``channel_id``: the
        best facts and messages that fill ``budget`` characters shown (``budget.pack``)."""
        budget = self.budget if budget is None else budget
        named = await self.named_members(guild_id, query)
        async with asyncio.TaskGroup() as tasks:  # the messages are found meanwhile
            found = tasks.create_task(self.messages(
                guild_id, query, channel_id=channel_id, named=named,
                limit=max(2, budget // MESSAGE_CHARS), context=NEIGHBOURS, distinct=False,
            ))  # fmt: skip
            mine, relevant, share = await self._slice_facts(
                guild_id, query, channel_id, user_id, semantic, named
            )
        return pack(mine, relevant, found.result(), budget, fact_share=share)

    async def _slice_facts(
        self, guild_id: str, query: str, channel_id: str | None, user_id: str | None,
        semantic: Mapping[int, float] | None, named: Mapping[str, str],
    ) -> tuple[list[FactHit], list[FactHit], float]:  # fmt: skip
        """A slice's facts: the asker's own, the relevant ones, and the share of the budget
        they may fill."""
        if semantic is None and self.semantic is not None:
            semantic = await self.semantic.similarities(guild_id, query)
        sure = self.min_confidence
        mine: list[FactHit] = []
        share = FACT_SHARE
        if user_id:
            profile = about_the_asker(query, await self._name_words(guild_id, [user_id]))
            mine = await self.search(
                guild_id, query, channel_id=channel_id, strict=False, subjects=[user_id],
                limit=ALL_OF_A_MEMBER if profile else USER_FACTS, semantic=semantic, named=named,
            )  # fmt: skip
            mine = [h for h in mine if h.fact.confidence >= sure]
            if profile:  # "what do you know about me?": their profile, the whole budget
                now = datetime.now(UTC)
                mine.sort(key=lambda h: (-worth(h.fact, now, self.half_life_days), h.fact.id))
                share = 1.0
        seen = {h.fact.id for h in mine}
        relevant = await self.search(
            guild_id, query, channel_id=channel_id, limit=RELEVANT_FACTS + len(seen),
            strict=False, semantic=semantic, named=named,
        )  # fmt: skip
        relevant = [h for h in relevant if h.fact.confidence >= sure and h.fact.id not in seen]
        if named:  # facts about the members the query names come first among equals
            relevant.sort(key=lambda h: (h.fact.subject in named, h.scores.combined), reverse=True)
        return mine, relevant, share
