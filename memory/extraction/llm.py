"""``LLMExtractor``: candidate facts from one chat completion per batch of messages.

Any OpenAI-compatible endpoint works (OpenAI, vLLM, llama.cpp, Ollama, LM Studio, ...). The
wire contract is fixed so that every backend and every test double can speak it:

* request: the instructions and the batch as JSON, with a strict ``json_schema`` response
  format (:mod:`memory.extraction.llm_request` builds it and describes it);
* answer: ``{"facts": [{"message_id", "subject", "fact", "type", "confidence",
  "evidence"}]}`` where ``subject`` is ``"author"``, ``"lore"`` or the id of a member that
  message mentions; a fact naming a message that is not in the request, or any other
  subject, is dropped.

The answer is parsed tolerantly (raw JSON, a fenced code block, or the text between the first
``{`` and the last ``}``); single malformed facts are skipped, a malformed answer fails the
batch with :class:`ExtractionError`. Retries (429, 5xx, timeouts, connection errors) are the
openai client's (``memory.llm.endpoint``); an unparseable answer is never retried. Grounding
and safety filters are the queue's job, not this module's.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

import openai

from memory.errors import ConfigError, MemorybotError
from memory.extraction import MAX_FACTS_PER_MESSAGE, BaseExtractor, ContextTurn, SourceMessage
from memory.extraction.llm_request import RESPONSE_FORMAT, build_messages
from memory.llm.answers import json_kind, loads_tolerant
from memory.llm.endpoint import OpenAIEndpoint, llm_options
from memory.models import LORE_SUBJECT, CandidateFact
from memory.settings import LLM_COOLDOWN, Settings

log = logging.getLogger(__name__)

MAX_ANSWER_CHARS = 1_000_000
"""Longest answer content (characters) that is parsed at all."""

FACT_TYPES = frozenset({"preference", "profile", "relationship", "project", "event", "other"})
AUTHOR_SUBJECT = "author"
LORE_KEYWORD = "lore"


class ExtractionError(MemorybotError):
    """An LLM extraction failed: the request failed for good or the answer is unusable."""


# --- the answer ---------------------------------------------------------------------------


class AnswerError(ValueError):
    """The answer content is unusable (the reason is the message)."""


def parse_answer(content: str) -> list[Any]:
    """The ``facts`` list of an answer: the raw text as JSON, else the first fenced code
    block, else the text from the first ``{`` to the last ``}``. Raises :class:`AnswerError`
    when the answer is too large, not JSON, or not an object with a ``facts`` list."""
    if len(content) > MAX_ANSWER_CHARS:
        raise AnswerError(f"answer too large ({len(content) / 1_000_000:.1f} MB)")
    document = loads_tolerant(content)
    if not isinstance(document, dict):
        raise AnswerError(f"answer is a JSON {json_kind(document)}, not an object")
    if "facts" not in document:
        raise AnswerError('answer has no "facts" list')
    facts = document["facts"]
    if not isinstance(facts, list):
        raise AnswerError(f'answer\'s "facts" is a JSON {json_kind(facts)}, not a list')
    return facts


def map_facts(raw_facts: Sequence[Any], messages: Sequence[SourceMessage]) -> list[CandidateFact]:
    """Candidate facts from the answer's ``facts``: each tied to its own message, subjects
    resolved, types normalised, confidence clamped, at most ``MAX_FACTS_PER_MESSAGE`` per
    message (the first ones). Malformed or ungrounded facts are skipped (logged at debug)."""
    by_id = {m.message_id: m for m in messages}
    kept: dict[str, int] = {}
    candidates: list[CandidateFact] = []
    for index, raw in enumerate(raw_facts):
        candidate = _map_fact(raw, by_id)
        if isinstance(candidate, str):
            log.debug("skipped fact %d of the answer: %s", index, candidate)
            continue
        count = kept.get(candidate.source_message_id, 0)
        if count >= MAX_FACTS_PER_MESSAGE:
            log.debug(
                "skipped fact %d of the answer: more than %d facts for message %s",
                index,
                MAX_FACTS_PER_MESSAGE,
                candidate.source_message_id,
            )
            continue
        kept[candidate.source_message_id] = count + 1
        candidates.append(candidate)
    return candidates


_STRING_FIELDS = ("message_id", "subject", "fact", "type", "evidence")


def _map_fact(raw: Any, by_id: dict[str, SourceMessage]) -> CandidateFact | str:
    """The candidate ``raw`` stands for, or why it is skipped."""
    if not isinstance(raw, dict):
        return f"a JSON {json_kind(raw)}, not an object"
    for field in (*_STRING_FIELDS, "confidence"):
        if field not in raw:
            return f'no "{field}"'
    for field in _STRING_FIELDS:
        if not isinstance(raw[field], str):
            return f'"{field}" is a JSON {json_kind(raw[field])}, not a string'
    confidence = raw["confidence"]
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return f'"confidence" is a JSON {json_kind(confidence)}, not a number'
    if not math.isfinite(confidence):
        return f'"confidence" is {confidence}'
    text = raw["fact"].strip()
    if not text:
        return '"fact" is empty'
    message = by_id.get(raw["message_id"].strip())
    if message is None:
        return f"message_id {raw['message_id']!r} is not in the request"
    subject = _resolve_subject(raw["subject"], message)
    if subject is None:
        return f"subject {raw['subject']!r} is not the author, lore or a mention of the message"
    fact_type = raw["type"].strip().lower()
    return CandidateFact(
        subject=subject,
        fact=text,
        fact_type=fact_type if fact_type in FACT_TYPES else "other",
        confidence=min(1.0, max(0.0, float(confidence))),
        evidence=raw["evidence"].strip(),
        source_message_id=message.message_id,
    )


def _resolve_subject(subject: str, message: SourceMessage) -> str | None:
    wanted = subject.strip()
    keyword = wanted.lower()
    if keyword == AUTHOR_SUBJECT:
        return message.author_id
    if keyword == LORE_KEYWORD:
        return LORE_SUBJECT
    if any(mention.id == wanted for mention in message.mentions):
        return wanted
    return None


# --- the extractor ------------------------------------------------------------------------


class LLMExtractor(OpenAIEndpoint, BaseExtractor):
    """Extracts candidate facts with one chat completion per batch of messages.

    ``base_url`` / ``api_key`` unset: the openai client's ``OPENAI_BASE_URL`` /
    ``OPENAI_API_KEY``; no key anywhere: a placeholder, for local servers without auth.
    ``timeout`` is each request's deadline, retries included; ``max_retries`` counts the
    client's retries after the first request; ``cooldown`` is how long an endpoint found
    down is left alone (see ``memory.llm.endpoint``). A ``client`` passed in is used with
    this extractor's timeout and retries, and stays the caller's to close.
    """

    name = "llm"
    remote = True

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 4,
        cooldown: float = LLM_COOLDOWN,
        batch_size: int = 8,
        batch_gap: float = 3.0,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        if not model:
            raise ConfigError("the llm extractor needs a model (MEMORYBOT_LLM_MODEL)")
        super().__init__(
            "LLM extraction",
            model,
            client=client,
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            cooldown=cooldown,
        )
        self.batch_size = batch_size
        self.batch_gap = batch_gap

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMExtractor:
        """An extractor configured by ``MEMORYBOT_LLM_*`` and ``MEMORYBOT_EXTRACTION_*``."""
        return cls(
            **llm_options(settings, "the llm extractor needs"),
            batch_size=settings.extraction_batch_size,
            batch_gap=settings.extraction_batch_gap,
        )

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        """Candidate facts of ``messages``; raises :class:`ExtractionError` on failure."""
        if not messages:
            return []
        raw_facts = await self._chat_answer(
            build_messages(messages, context), temperature=0, response_format=RESPONSE_FORMAT,
            parse=parse_answer, error=ExtractionError,
        )  # fmt: skip
        facts = map_facts(raw_facts, messages)
        log.debug(
            "%s: %d message(s), %d fact(s) proposed, %d kept",
            self._what,
            len(messages),
            len(raw_facts),
            len(facts),
        )
        return facts
