"""With an LLM configured, a condensed paragraph per member, written from their facts.

For each member of a guild (never the lore) with at least ``MIN_FACTS`` active facts at or
above ``MEMORYBOT_SLICE_MIN_CONFIDENCE``, whose facts changed since their paragraph was
written (or who has none), one chat completion gets their ``MAX_FACTS`` most valued current
facts (``memory.lifecycle.value.most_valued``, as ``memory_journals/profiles.py`` ranks them),
each with its id, and answers ``{"paragraph": "..."}``: one to three sentences, each citing the
ids it rests on (``[12]``, ``[12, 15]``). The answer is kept only when it is grounded
(:func:`check_paragraph`): every sentence cites, every cited id was sent, at most
``MAX_CHARS`` characters, and it passes the filters facts pass (no instruction to the bot, no
secret). MEMORY.md shows it while every fact it cites is active.

Whatever goes wrong (HTTP error, timeout, an unusable or refused answer) is one warning line
for that member: their previous paragraph stays, nothing raises into the caller, and no fact
is touched. A request holds only one guild's facts about one member.

When passes run: ``memory.profile_pass``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import openai
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONSchema

from memory.audit import SYSTEM, MemoryEvent
from memory.errors import MemorybotError
from memory.extraction.safety import instruction_reason, secret_reason
from memory.lifecycle.value import most_valued
from memory.llm.answers import json_kind, loads_tolerant
from memory.llm.endpoint import OpenAIEndpoint, llm_options
from memory.models import LORE_SUBJECT, Fact, MemberProfile, utc_iso
from memory.profile_pass import ProfileTally
from memory.settings import LLM_COOLDOWN, Settings
from memory.text import clean_text

if TYPE_CHECKING:
    from memory.storage.protocol import Storage

log = logging.getLogger(__name__)

MIN_FACTS = 3
"""Active facts (at or above the slice's confidence floor) a member needs for a paragraph."""
MAX_FACTS = 15
"""Most valued facts sent per member."""
MAX_CHARS = 500
"""Longest paragraph kept."""

INSTRUCTIONS = """\
You write a short profile of one member of a Discord community for the bot that remembers \
them, from the facts it holds about them (each with its id). Write 1 to 3 plain sentences, \
500 characters at most, about who they are, what they do, what they like and what happened \
to them lately (with dates where the facts have them). Use only what the facts say: add \
nothing, guess nothing. End every sentence, before its full stop, with the ids of the facts \
it rests on in square brackets, like [12] or [12, 15]. Answer with JSON only: \
{"paragraph": "<the sentences>"}."""

RESPONSE_FORMAT: ResponseFormatJSONSchema = {
    "type": "json_schema",
    "json_schema": {
        "name": "member_profile",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {"paragraph": {"type": "string"}},
            "required": ["paragraph"],
            "additionalProperties": False,
        },
    },
}

CITATION = re.compile(r"\[\s*(\d+(?:\s*,\s*\d+)*)\s*\]")
LEADING_CITATIONS = re.compile(r"(?:\[\s*\d+(?:\s*,\s*\d+)*\s*\]\s*)+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class ProfileError(MemorybotError):
    """A member's paragraph could not be written: the request failed for good, or the answer
    is unusable or refused by the checks."""


def split_sentences(text: str) -> list[str]:
    """The sentences of a paragraph; citations after a full stop ("... Denver. [12]") stay
    with the sentence before them."""
    sentences: list[str] = []
    for piece in SENTENCE_END.split(text):
        lead = LEADING_CITATIONS.match(piece)
        if lead and sentences:
            sentences[-1] += " " + lead.group().strip()
            piece = piece[lead.end() :]
        if piece.strip():
            sentences.append(piece.strip())
    return sentences


def check_paragraph(content: str, sent: Collection[int]) -> tuple[str, tuple[int, ...]]:
    """The paragraph of an answer and the ids it cites (sorted), when it is grounded in the
    facts ``sent``; ``ValueError`` with the reason otherwise (not a JSON object with a string
    ``paragraph``, empty, too long, a sentence citing nothing, an id not sent, text that reads
    as an instruction to the bot or holds a secret)."""
    document = loads_tolerant(content)
    if not isinstance(document, dict):
        raise ValueError(f"answer is a JSON {json_kind(document)}, not an object")
    paragraph = document.get("paragraph")
    if not isinstance(paragraph, str):
        raise ValueError('answer has no "paragraph" string')
    text = clean_text(paragraph)
    if not text:
        raise ValueError("the paragraph is empty")
    if len(text) > MAX_CHARS:
        raise ValueError(f"the paragraph has {len(text)} characters, over {MAX_CHARS}")
    sentences = split_sentences(text)
    cited: set[int] = set()
    for number, sentence in enumerate(sentences, 1):
        ids = {int(i) for group in CITATION.findall(sentence) for i in group.split(",")}
        if not ids:
            raise ValueError(f"sentence {number} of {len(sentences)} cites no fact")
        cited |= ids
    unknown = sorted(cited - set(sent))
    if unknown:
        raise ValueError(f"it cites fact(s) {unknown} that were not sent")
    reason = instruction_reason(text) or secret_reason(text)
    if reason:
        raise ValueError(f"the paragraph was refused: {reason}")
    return text, tuple(sorted(cited))


def facts_digest(facts: Sequence[Fact]) -> str:
    """What a member's paragraph is written from, as a digest: their eligible facts' ids,
    texts and types (a fact said again does not change it; a new, superseded or edited one
    does)."""
    rows = sorted((f.id, f.fact, f.fact_type) for f in facts)
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()[:32]


class ProfileWriter(OpenAIEndpoint):
    """Writes members' paragraphs (see the module docstring) into ``store``; ``on_written``
    is told each guild whose paragraphs changed (its MEMORY.md is refreshed)."""

    def __init__(
        self,
        *,
        model: str,
        store: Storage,
        min_confidence: float = 0.65,
        half_life_days: float = 180.0,
        on_written: Callable[[str], None] | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 4,
        cooldown: float = LLM_COOLDOWN,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        super().__init__(
            "LLM profile writer", model, client=client, base_url=base_url, api_key=api_key,
            timeout=timeout, max_retries=max_retries, cooldown=cooldown,
        )  # fmt: skip
        self.store = store
        self.min_confidence = min_confidence
        self.half_life_days = half_life_days
        self.on_written = on_written

    @classmethod
    def from_settings(
        cls, settings: Settings, store: Storage, on_written: Callable[[str], None] | None = None
    ) -> ProfileWriter:
        """A writer on the ``MEMORYBOT_LLM_*`` endpoint (``ConfigError`` without a model)."""
        return cls(
            **llm_options(settings, "the profile writer needs"), store=store,
            min_confidence=settings.slice_min_confidence,
            half_life_days=settings.fact_half_life_days, on_written=on_written,
        )  # fmt: skip

    async def write_all(self, progress: Callable[[int], None] | None = None) -> ProfileTally:
        """A pass over every guild."""
        tally = ProfileTally()
        for guild_id in await self.store.guild_ids():
            tally.add(await self.write_guild(guild_id, progress))
        return tally

    async def write_guild(
        self, guild_id: str, progress: Callable[[int], None] | None = None
    ) -> ProfileTally:
        """Write the paragraphs of the guild's members whose facts changed since theirs;
        ``progress`` is told each subject with active facts done (lore included)."""
        tally = ProfileTally(guilds=1)
        facts = await self.store.active_facts(guild_id)
        names = await self.store.member_names(guild_id)
        held = {p.subject: p for p in await self.store.member_profiles(guild_id)}
        by_subject: dict[str, list[Fact]] = {}
        for fact in facts:
            if fact.guild_id == guild_id:  # the store's promise, kept here too
                by_subject.setdefault(fact.subject, []).append(fact)
        for subject, mine in sorted(by_subject.items()):
            if subject != LORE_SUBJECT:
                outcome = await self._write_member(guild_id, subject, mine, names, held)
                setattr(tally, outcome, getattr(tally, outcome) + 1)
            if progress is not None:
                progress(1)
        if tally.written and self.on_written is not None:
            self.on_written(guild_id)
        return tally

    async def _write_member(
        self, guild_id: str, subject: str, facts: list[Fact], names: dict[str, str],
        held: dict[str, MemberProfile],
    ) -> str:  # fmt: skip
        """One member's paragraph; the tally's field for what happened."""
        eligible = [f for f in facts if f.confidence >= self.min_confidence]
        if len(eligible) < MIN_FACTS:
            return "skipped"
        digest = facts_digest(eligible)
        before = held.get(subject)
        if before is not None and before.digest == digest:
            return "unchanged"
        chosen = most_valued(eligible, datetime.now(UTC), self.half_life_days)[:MAX_FACTS]
        try:
            text, cited = await self.paragraph(names.get(subject, ""), chosen)
            profile = MemberProfile(
                guild_id, subject, text, cited, digest, self.model, utc_iso()
            )  # fmt: skip
            detail = f"{self.model}: {len(text)} characters citing fact(s) {list(cited)}"
            event = MemoryEvent(guild_id, "profile.written", SYSTEM, subject, subject, detail)
            await self.store.write_member_profile(profile, event)
        except Exception as exc:  # the LLM's, or the store's: the previous paragraph stays
            kept = "the previous one stays" if before is not None else "none is shown"
            log.warning(
                "profile of member %s in guild %s not written (%s): %s",
                subject, guild_id, kept, " ".join(str(exc).split()),
            )  # fmt: skip
            return "failed"
        return "written"

    async def paragraph(self, name: str, facts: Sequence[Fact]) -> tuple[str, tuple[int, ...]]:
        """The LLM's paragraph about a member called ``name`` from ``facts`` (one request),
        checked by :func:`check_paragraph`, and the ids it cites. :class:`ProfileError`
        when the request fails or the answer is unusable or refused."""
        listed = [
            {"id": f.id, "fact": f.fact, "type": f.fact_type, "said_on": f.said_on} for f in facts
        ]
        member = {"member": clean_text(name) or "this member", "facts": listed}
        chat: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": json.dumps(member, ensure_ascii=False)},
        ]
        sent = [f.id for f in facts]
        return await self._chat_answer(
            chat, temperature=0, response_format=RESPONSE_FORMAT,
            parse=lambda content: check_paragraph(content, sent), error=ProfileError,
        )  # fmt: skip
