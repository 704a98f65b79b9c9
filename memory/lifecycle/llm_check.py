"""``LLMFactCheck``: with an LLM configured, a second opinion on the pairs of facts the offline
judge decides, or might have missed, before a step's facts are stored.

The offline judge (:class:`memory.lifecycle.judge.FactJudge`) is fast but misses clean
rewordings ("Chloé lives in Montreal." / "According to her message, Chloé recently
relocated to Vancouver for a new job."). For each new fact of a step the check picks
candidate pairs with the member's active facts and the step's earlier facts of that member,
asks the LLM once per guild in the step (one chat completion, a JSON answer) how each pair
relates, and hands the answers to the store as advice (``placing.Advice``), which
``place_fact`` follows instead of the judge for those pairs. Candidates, most useful first,
at most ``MAX_PAIRS`` per request (the rest keep the offline verdict):

1. pairs the judge calls ``same`` or ``contradicts``: a wrong merge or supersession loses a
   fact, so these are worth a veto;
2. pairs of two new facts of one member in the same step;
3. pairs the judge calls unrelated that fill the same attribute slot ("job", "home");
4. the ``NEAREST`` most similar active facts by the bundled embedder, at ``NEAR_FLOOR`` or
   above.

A request holds only fact texts of one guild. Lore is never judged. Whatever goes wrong
(HTTP error, timeout, a malformed or partial answer) is one warning line: the pairs not
answered keep the offline verdict, and the facts are stored all the same.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import NamedTuple

import openai
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONSchema

from memory.errors import MemorybotError, endpoint_down
from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation
from memory.lifecycle.similarity import FactSimilarity
from memory.lifecycle.slots import find_slots
from memory.llm.answers import json_kind, loads_tolerant
from memory.llm.endpoint import OpenAIEndpoint, llm_options
from memory.models import LORE_SUBJECT, CandidateFact, Fact, FactOrigin
from memory.settings import LLM_COOLDOWN, Settings
from memory.storage.placing import Advice, Judge

log = logging.getLogger(__name__)

MAX_PAIRS = 40
"""Pairs asked about in one request; more would make a long answer slow and error-prone."""
NEAREST = 3
"""Most similar active facts of the member asked about per new fact (besides the rest)."""
NEAR_FLOOR = 0.45
"""Lowest embedding similarity for a pair the judge calls unrelated to be asked about. On
the labelled pairs of ``bench/data/lifecycle`` it keeps about two thirds of the
contradictions and paraphrases the judge misses (their median is about 0.5), while a random
pair of one member's facts is at 0.40 in the median: with ``NEAREST`` it adds a few pairs
per fact of a member with many facts and next to none for one with few."""

ANSWERS = {"same": "same", "contradicts": "contradicts", "neither": "unrelated",
           "unrelated": "unrelated"}  # fmt: skip
"""The answer's words and the verdicts they stand for."""

INSTRUCTIONS = """\
You check the memory a Discord bot keeps about people. Each pair holds two facts about the \
same person: "held" (already remembered) and "new" (just said). Say how the new fact \
relates to the held one:
- "same": the same fact said again in other words; keeping either wording loses nothing.
- "contradicts": both cannot be true now; the new fact replaces the held one (moved, \
changed job, split up, stopped liking something, a different name or age).
- "neither": both can be true, including a related update, a fact that adds detail, or \
two different events.
Answer with JSON only: {"pairs": [{"id": <the pair's id>, "relation": "same" | \
"contradicts" | "neither"}]}, one entry for every pair."""

_RELATION = {"type": "string", "enum": ["same", "contradicts", "neither"]}
RESPONSE_FORMAT: ResponseFormatJSONSchema = {
    "type": "json_schema",
    "json_schema": {
        "name": "fact_relations",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {
                "pairs": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "integer"},
                            "relation": _RELATION,
                        },
                        "required": ["id", "relation"],
                        "additionalProperties": False,
                    },
                }
            },
            "required": ["pairs"],
            "additionalProperties": False,
        },
    },
}

ReadFacts = Callable[[str, Sequence[str]], Awaitable[list[Fact]]]
"""``(guild, subjects) -> their active facts`` (``Storage.facts_of``)."""


class FactCheckError(MemorybotError):
    """The LLM's check of some pairs failed: the request failed for good or the answer is
    unusable."""


class Candidate(NamedTuple):
    """A pair asked about: a new fact of ``subject`` and one it will be placed beside."""

    guild_id: str
    subject: str
    new: str
    old: str
    offline: str  # the judge's verdict, kept unless the LLM answers

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.guild_id, self.subject, self.new, self.old)


class Answer(NamedTuple):
    """What the LLM said: verdicts by pair index, and how many entries were no use."""

    verdicts: dict[int, str]
    unusable: int


def parse_answer(content: str, count: int) -> Answer:
    """The verdicts of an answer about ``count`` pairs (ids 1..count); ``ValueError`` when
    it is not an object with a ``pairs`` list. Entries naming no pair, a pair answered
    already or an unknown relation are counted as unusable."""
    document = loads_tolerant(content)
    if not isinstance(document, dict):
        raise ValueError(f"answer is a JSON {json_kind(document)}, not an object")
    if not isinstance(document.get("pairs"), list):
        raise ValueError('answer has no "pairs" list')
    verdicts: dict[int, str] = {}
    unusable = 0
    for entry in document["pairs"]:
        number = entry.get("id") if isinstance(entry, dict) else None
        said = entry.get("relation") if isinstance(entry, dict) else None
        verdict = ANSWERS.get(said.strip().lower()) if isinstance(said, str) else None
        if (
            isinstance(number, bool) or not isinstance(number, int)
            or not 1 <= number <= count or number - 1 in verdicts or verdict is None
        ):  # fmt: skip
            unusable += 1
            continue
        verdicts[number - 1] = verdict
    return Answer(verdicts, unusable)


class LLMFactCheck(OpenAIEndpoint):
    """Asks the LLM about the candidate pairs of a step's facts (see the module docstring).

    ``judge`` is the store's judge (its verdicts are what the LLM may overrule),
    ``similarity`` the embedder that finds the nearest facts, ``read_facts`` the store's
    reading of a guild's active facts about some members. Endpoint options are the LLM
    extractor's (``memory.llm.endpoint``): each request gets ``timeout`` seconds and the
    client's ``max_retries``.
    """

    def __init__(
        self,
        *,
        model: str,
        judge: Judge,
        similarity: FactSimilarity,
        read_facts: ReadFacts,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 4,
        cooldown: float = LLM_COOLDOWN,
        max_pairs: int = MAX_PAIRS,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        super().__init__(
            "LLM fact check", model, client=client, base_url=base_url, api_key=api_key,
            timeout=timeout, max_retries=max_retries, cooldown=cooldown,
        )  # fmt: skip
        self.judge = judge
        self.similarity = similarity
        self.read_facts = read_facts
        self.max_pairs = max_pairs

    @classmethod
    def from_settings(
        cls, settings: Settings, judge: Judge, similarity: FactSimilarity, read_facts: ReadFacts
    ) -> LLMFactCheck:
        """A check on the ``MEMORYBOT_LLM_*`` endpoint."""
        options = llm_options(settings, "the LLM fact check needs")
        return cls(**options, judge=judge, similarity=similarity, read_facts=read_facts)

    async def advise(self, facts: Sequence[tuple[FactOrigin, CandidateFact]]) -> Advice:
        """The LLM's verdicts on the candidate pairs of ``facts`` (a step's, in the order
        they are stored), one request per guild; on any failure one warning line and no
        advice for that guild's pairs."""
        by_guild: dict[str, list[CandidateFact]] = {}
        for origin, cand in facts:
            if cand.subject != LORE_SUBJECT and origin.guild_id:
                by_guild.setdefault(origin.guild_id, []).append(cand)
        advice: dict[tuple[str, str, str, str], str] = {}
        for guild_id, cands in by_guild.items():
            try:
                held = await self.read_facts(guild_id, [cand.subject for cand in cands])
                news = [(cand.subject, cand.fact) for cand in cands]
                olds = [(fact.subject, fact.fact) for fact in held]
                pairs = await asyncio.to_thread(self.candidates, guild_id, news, olds)
                if not pairs:
                    continue
                verdicts = await self.relations([(pair.old, pair.new) for pair in pairs])
            except Exception as exc:  # the LLM's, or reading or embedding: offline it is
                log.log(  # an endpoint found down is logged once, by its breaker
                    logging.DEBUG if endpoint_down(exc) else logging.WARNING,
                    "LLM fact check of guild %s failed, the offline verdicts stand: %s",
                    guild_id, exc,
                )  # fmt: skip
                continue
            for index, verdict in verdicts.items():
                advice[pairs[index].key] = verdict
        return advice

    def candidates(
        self, guild_id: str, news: Sequence[tuple[str, str]], olds: Sequence[tuple[str, str]]
    ) -> list[Candidate]:
        """The pairs to ask about (at most ``max_pairs``, most useful first) for the new
        facts ``news`` of a guild's step, in order, beside the active facts ``olds``: both
        ``(subject, text)``. Blocking (the judge and the embedder): run it off the loop."""
        held: dict[str, list[str]] = {}
        for subject, text in olds:
            held.setdefault(subject, []).append(text)
        ranked: list[tuple[tuple[int, float], Candidate]] = []
        earlier: dict[str, list[str]] = {}
        for subject, new in news:
            mine = held.get(subject, [])
            if subject == LORE_SUBJECT or new in mine or new in earlier.get(subject, []):
                continue  # lore is not judged; a fact held already is not judged again
            ranked += self._against_held(guild_id, subject, new, mine)
            before = earlier.setdefault(subject, [])
            if before:
                verdicts = self.judge(new, before, None)
                scores = self.similarity.scores(new, before)
                ranked += [
                    ((1, -score), Candidate(guild_id, subject, new, old, str(verdict)))
                    for old, verdict, score in zip(before, verdicts, scores, strict=True)
                ]
            before.append(new)
        ranked.sort(key=lambda entry: entry[0])
        return [pair for _, pair in ranked[: self.max_pairs]]

    def _against_held(
        self, guild_id: str, subject: str, new: str, olds: list[str]
    ) -> list[tuple[tuple[int, float], Candidate]]:
        """The candidate pairs of ``new`` with its member's active facts, with their rank."""
        if not olds:
            return []
        verdicts = [str(verdict) for verdict in self.judge(new, olds, (guild_id, subject))]
        scores = self.similarity.scores(new, olds)
        mine = _slot_keys(new)
        nearest = sorted(range(len(olds)), key=lambda index: -scores[index])[:NEAREST]
        ranked = []
        for index, (old, verdict, score) in enumerate(zip(olds, verdicts, scores, strict=True)):
            if verdict != Relation.UNRELATED:
                tier = 0
            elif mine & _slot_keys(old):
                tier = 2
            elif index in nearest and score >= NEAR_FLOOR:
                tier = 3
            else:
                continue
            ranked.append(((tier, -score), Candidate(guild_id, subject, new, old, verdict)))
        return ranked

    async def relations(self, pairs: Sequence[tuple[str, str]]) -> dict[int, str]:
        """The LLM's verdict on each ``(held, new)`` pair it answered, by index, in one
        request; a partial answer is logged (one warning) and the rest left out.
        :class:`FactCheckError` when the request fails or the answer is unusable."""
        if not pairs:
            return {}
        listed = [{"id": n, "held": old, "new": new} for n, (old, new) in enumerate(pairs, 1)]
        chat: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": json.dumps({"pairs": listed}, ensure_ascii=False)},
        ]
        answer = await self._chat_answer(
            chat, temperature=0, response_format=RESPONSE_FORMAT,
            parse=lambda content: parse_answer(content, len(pairs)), error=FactCheckError,
        )  # fmt: skip
        missing = len(pairs) - len(answer.verdicts)
        if missing or answer.unusable:
            log.warning(
                "%s: %d of %d pair(s) not answered (%d unusable entries): they keep the "
                "offline verdict", self._what, missing, len(pairs), answer.unusable,
            )  # fmt: skip
        return answer.verdicts


def _slot_keys(text: str) -> frozenset[str]:
    """The attribute slots a fact fills ("home", "job", ...)."""
    return frozenset(slot.key for slot in find_slots(read(text).body))
