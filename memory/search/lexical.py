"""Full-text candidates and BM25 ranking that stay fast on a guild of a million messages.

FTS5's own ``bm25()`` counts, on every query, every match of every query term in the whole
index (all guilds): a common word costs tens of milliseconds. So the index is only asked
for *windows* — a guild's most recent matches of one term group, newest first, which FTS5
reads straight off the end of the term's doclist — and the ranking is done here:

1. one window per query term group (the token and its word forms, ``memory.search.fts``) and any
   caller's extra windows (a channel, some authors), all in one round trip, plus (every
   ``PROFILE_TTL`` seconds) a probe of the guild's own newest documents. No ``AND`` window:
   on a big guild, finding the few documents that hold two common words walks most of
   both doclists;
2. each group's document frequency is estimated from its window: a window that is not full
   holds every match; a full one covers a span of the guild's history, and the share of
   the guild's documents in that span that match is the group's share overall;
3. candidates are ordered by the summed IDF of the groups they matched (a first cut);
4. callers fetch the best candidates' text and rank them by BM25 (:func:`bm25`).

Everything is scoped by the indexed ``guild_id`` column inside ``MATCH``: nothing reads
another guild's documents, and a small guild is as fast as a big one.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from memory.search.fts import TermGroup, fts_words
from memory.storage.protocol import Storage
from memory.storage.windows import Corpus, Narrow, Window

GUILD_PROBE = 1000  # the guild's newest documents, to estimate its size and density
TERM_WINDOW = 200  # newest matches of one term group
EXTRA_WINDOW = 40  # newest matches of a caller's extra window (a channel, some authors)
PROFILE_TTL = 30.0  # seconds a guild's probe is reused (it only steers estimates)
K1 = 1.2
B = 0.75


MESSAGES: Corpus = "messages"
FACTS: Corpus = "facts"


@dataclass(slots=True)
class Candidates:
    """What the windows found: rows best first by the first cut, each group's IDF, and the
    rows of the caller's extra windows (newest first)."""

    order: list[int]
    idf: dict[str, float]
    extra: dict[str, list[int]] = field(default_factory=dict)
    documents: int = 0


def _idf(df: float, n: float) -> float:
    """BM25's IDF (Lucene's form, always positive)."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


class GuildProfile:
    """The guild's newest document row ids (descending) and its estimated size."""

    def __init__(self, newest: list[int], oldest: int | None) -> None:
        self.ascending = sorted(newest)
        self.full = len(newest) >= GUILD_PROBE
        if not newest:
            self.size = 0.0
            self.density = 0.0
        elif not self.full or oldest is None:
            self.size = float(len(newest))
            self.density = 0.0
        else:
            top, bottom = self.ascending[-1], self.ascending[0]
            self.density = len(newest) / (top - bottom + 1)
            self.size = max(float(len(newest)), self.density * (top - oldest + 1))

    def documents_since(self, row_id: int) -> float:
        """The guild's documents with row id >= ``row_id`` (exact within the probe)."""
        inside = len(self.ascending) - bisect.bisect_left(self.ascending, row_id)
        if not self.full or row_id >= self.ascending[0]:
            return float(inside)
        return inside + self.density * (self.ascending[0] - row_id)

    def frequency(self, window: Sequence[int], limit: int) -> float:
        """Estimated document frequency of a group from its newest-first ``window``."""
        if len(window) < limit:
            return float(len(window))
        span = max(self.documents_since(window[-1]), float(len(window)))
        return min(self.size, len(window) * self.size / span)


async def candidates(
    store: Storage,
    corpus: Corpus,
    guild_id: str,
    groups: Sequence[TermGroup],
    *,
    limit: int,
    extra: Mapping[str, Narrow] | None = None,
    window: int = TERM_WINDOW,
    profiles: Profiles | None = None,
) -> Candidates:
    """The guild's documents matching any of ``groups``, best ``limit`` first by summed IDF;
    ``extra`` names narrowings (``"channel": Narrow("channel_id", (…,))``) whose newest
    matches of any group are returned as well."""
    if not groups:
        return Candidates([], {})
    every = tuple(g.forms for g in groups)
    profile = profiles.get(corpus, guild_id) if profiles is not None else None
    asked: list[Window] = []
    if profile is None:
        asked += [Window(None, GUILD_PROBE), Window(None, 1, ascending=True)]
    asked += [Window((g.forms,), window) for g in groups]
    extras = dict(extra or {})
    asked += [Window(every, EXTRA_WINDOW, narrow=n) for n in extras.values()]
    results = await store.fts_windows(corpus, guild_id, asked)
    if profile is None:
        newest, oldest, *results = results
        profile = GuildProfile(newest, oldest[0] if oldest else None)
        if profiles is not None:
            profiles.put(corpus, guild_id, profile)
    n = max(profile.size, 1.0)
    windows = results[: len(groups)]
    idf = {
        g.token: _idf(profile.frequency(w, window), n) for g, w in zip(groups, windows, strict=True)
    }
    score: dict[int, float] = {}
    for group, rows in zip(groups, windows, strict=True):
        weight = idf[group.token]
        for row in rows:
            score[row] = score.get(row, 0.0) + weight
    order = heapq.nlargest(limit, score, key=lambda r: (score[r], r))
    found = results[len(groups) :]
    return Candidates(order, idf, dict(zip(extras, found, strict=True)), int(n))


class Profiles:
    """Guild profiles per full-text table, each reused for ``PROFILE_TTL`` seconds."""

    def __init__(self, ttl: float = PROFILE_TTL) -> None:
        self.ttl = ttl
        self._cache: dict[tuple[str, str], tuple[float, GuildProfile]] = {}

    def get(self, corpus: Corpus, guild_id: str) -> GuildProfile | None:
        cached = self._cache.get((corpus, guild_id))
        if cached is None or time.monotonic() - cached[0] > self.ttl:
            return None
        return cached[1]

    def put(self, corpus: Corpus, guild_id: str, profile: GuildProfile) -> None:
        self._cache[(corpus, guild_id)] = (time.monotonic(), profile)


@functools.lru_cache(maxsize=16384)
def cached_words(text: str) -> tuple[str, ...]:
    """:func:`memory.search.fts.fts_words`, remembered: recent messages come back again (to
    rank, then to gate)."""
    return tuple(fts_words(text))


def rank(groups: Sequence[TermGroup], idf: Mapping[str, float], texts: Mapping[int, str]
         ) -> dict[int, float]:  # fmt: skip
    """BM25 of each text (by row id) for the query's groups: a word counts for a group when
    it is one of the group's forms or starts with its prefix. The average length is taken
    over the texts given."""
    form_group = {form: i for i, g in enumerate(groups) for form in g.forms}
    prefixes = [(g.prefix, i) for i, g in enumerate(groups) if g.prefix]
    any_prefix = tuple(p for p, _ in prefixes)
    weights = [idf.get(g.token, 0.0) for g in groups]
    counted: dict[int, tuple[int, list[int]]] = {}
    for row, text in texts.items():
        words = cached_words(text)
        tf = [0] * len(groups)
        for word in words:
            i = form_group.get(word)
            if i is not None:
                tf[i] += 1
            elif any_prefix and word.startswith(any_prefix):
                tf[next(j for p, j in prefixes if word.startswith(p))] += 1
        counted[row] = (len(words), tf)
    average = max(sum(n for n, _ in counted.values()) / max(len(counted), 1), 1.0)
    scores = {}
    for row, (length, tf) in counted.items():
        norm = K1 * (1 - B + B * length / average)
        scores[row] = sum(
            w * t * (K1 + 1) / (t + norm) for w, t in zip(weights, tf, strict=True) if t
        )
    return scores
