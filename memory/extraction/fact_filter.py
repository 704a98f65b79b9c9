"""The filters every candidate fact passes before it is stored, whatever proposed it.

In order (DESIGN "Extraction"): the subject must be the speaker, a member the message
mentions, or lore; the fact is normalised (whitespace collapsed, 4..190 characters, end
punctuation) and its type mapped; fact and evidence must be grounded in the source message;
neither may read as an instruction to the bot or hold a secret (``memory.extraction.safety``).

Grounding compares word tokens, never raw substrings: "Pizza!" is not grounded in "pizzas
are good". A fact is grounded when its normalised text occurs in the source on word
boundaries, or when at least max(2, ⌈0.45 × its tokens⌉) of its tokens occur in the source
(the names of the speaker and of mentioned members count as present; a token matches the
same word with or without a plural / verb ending: "works" ~ "work"). Tokens are the claim's
content words: function words ("to", "be", "does") are not counted.

Chinese, Japanese and Korean have no spaces between words: their runs are compared as
character bigrams ("看護師" → 看護 護師, ``memory.search.scripts``), and bigrams of hiragana
only (particles, endings: は, です, として) count as function words. So 田中さんは看護師です is
grounded in 田中さんは看護師として働いています, and 田中さんは医者です is not.

Two refinements, so a rewrite passes and an invention does not: a date word the message
does not have counts for neither side ("yesterday" becomes "on 7 May 2023" in a fact); and
at least 40 % of the claim's own words (those that are no lent name and no resolved date)
must be the message's, so "Sarah went to a pottery class" is not grounded by "I went to a
support group".
"""

from __future__ import annotations

import logging
import math
import re
from typing import NamedTuple

from memory.errors import InvalidMessageError
from memory.extraction import SourceMessage
from memory.extraction.safety import fold, unsafe_reason
from memory.models import LORE_SUBJECT, CandidateFact
from memory.search.scripts import is_grammar, spaced
from memory.text import clean_text

log = logging.getLogger(__name__)

MIN_FACT_CHARS = 4
MAX_FACT_CHARS = 190
MAX_EVIDENCE_CHARS = 220
FACT_TYPES = frozenset({"preference", "profile", "relationship", "project", "event", "other"})
GROUNDING_SHARE = 0.45
_TOKEN = re.compile(r"\w+")
_NOT = re.compile(r"n't\b")
# Function words carry no claim: "does not want to be called Benny" is grounded by
# "Benny" and "call", not by "to" and "be". They count only when a claim is nothing else.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "and",
        "or",
        "as",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "their",
        "there",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "has",
        "have",
        "had",
        "will",
        "would",
        "can",
        "could",
        "should",
        "may",
        "might",
        "just",
        "so",
        "than",
        "then",
        "also",
        "very",
    ]
)


class Verdict(NamedTuple):
    """The fact as it will be stored, or None with the reason it was refused."""

    fact: CandidateFact | None
    reason: str = ""


def tokens(text: str) -> list[str]:
    """Folded word tokens (case, accents, look-alikes and invisible characters folded;
    ``n't`` read as ``not``); a Chinese, Japanese or Korean run as its character bigrams."""
    folded = fold(spaced(text)).replace("can't", "can not").replace("won't", "will not")
    return _TOKEN.findall(_NOT.sub(" not", folded))


def _forms(token: str) -> set[str]:
    """``token`` and the base forms it may have ("likes" → like, "studies" → study)."""
    forms = {token}
    if len(token) > 3:
        if token.endswith("s"):
            forms.add(token[:-1])
        if token.endswith("es"):
            forms.add(token[:-2])
        if token.endswith("ies"):
            forms.add(token[:-3] + "y")
        if token.endswith("ed"):
            forms |= {token[:-1], token[:-2]}
        if token.endswith("ing") and len(token) > 5:
            forms |= {token[:-3], token[:-3] + "e"}
    return forms


_DATE_WORDS = frozenset({
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday", "week", "weekend", "weeks", "weekends", "days", "months", "years",
    "before", "after", "spring", "summer", "autumn", "fall", "winter",
})  # fmt: skip


OWN_SHARE = 0.4
"""Of a claim's own words (all but names the message does not say and resolved dates), the
share that must be the message's: with the name counting as present, "Sarah went to a
pottery class" would otherwise be grounded by "I went to a support group"."""


def _is_date_word(token: str) -> bool:
    """A word of a date a rewrite resolves ("on 7 May 2023", "the week before 3 July 2023"):
    neither evidence for a claim nor against it."""
    return token in _DATE_WORDS or (token.isdigit() and (len(token) <= 2 or len(token) == 4))


def is_grounded(claim: str, source: str, speaker: str = "") -> bool:
    """Whether ``claim`` is supported by ``source`` (see the module docstring). Date words
    count for neither side: "yesterday" becomes "on 7 May 2023" in a fact."""
    claim_tokens = tokens(claim)
    if not claim_tokens:
        return False
    source_tokens = tokens(source)
    if _contains_run(source_tokens, claim_tokens):
        return True
    names, said = set(tokens(speaker)), set(source_tokens)
    present = said | names
    forms = set().union(*(_forms(t) for t in present))
    # A date word the message does not have was resolved ("yesterday" → "on 7 May 2023"):
    # it counts for neither side.
    content = [
        t for t in claim_tokens
        if t not in STOPWORDS and not is_grammar(t) and (t in present or not _is_date_word(t))
    ] or claim_tokens  # fmt: skip
    found = [t for t in content if t in present or _forms(t) & forms]
    # The names count as present, but the message's own words must carry the claim too:
    # "Sarah went" alone grounds no "pottery class".
    lent = names - said  # names the message itself does not say
    own = [t for t in content if t not in lent and len(t) > 1]
    own_found = sum(1 for t in found if t not in lent and len(t) > 1)
    enough = len(found) >= max(2, math.ceil(GROUNDING_SHARE * len(content)))
    return enough and own_found >= OWN_SHARE * len(own)


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    """``needle`` as consecutive whole tokens of ``haystack`` (substring on word boundaries)."""
    width = len(needle)
    first = needle[0]
    return any(
        haystack[i] == first and haystack[i : i + width] == needle
        for i in range(len(haystack) - width + 1)
    )


def normalise_fact(text: str) -> str:
    """Whitespace collapsed, end punctuation added (``""`` if nothing is left)."""
    text = clean_text(text).strip(" -–—•*")
    if text and text[-1] not in ".!?…":
        text += "."
    return text


def normalise_type(fact_type: str) -> str:
    """The stored types (``FACT_TYPES``); ``general`` and anything unknown become ``other``."""
    value = clean_text(str(fact_type)).lower()
    return value if value in FACT_TYPES else "other"


def _cut_evidence(text: str) -> str:
    text = clean_text(text)
    if len(text) <= MAX_EVIDENCE_CHARS:
        return text
    cut = text[:MAX_EVIDENCE_CHARS]
    space = cut.rfind(" ")
    return cut[:space] if space > MAX_EVIDENCE_CHARS // 2 else cut


def check_fact(message: SourceMessage, candidate: CandidateFact) -> Verdict:
    """Apply every filter to one candidate proposed from ``message``."""
    allowed = {message.author_id, LORE_SUBJECT, *(m.id for m in message.mentions)}
    if candidate.subject not in allowed:
        return Verdict(None, "subject is neither the speaker, a mentioned member nor lore")
    if candidate.source_message_id != message.message_id:
        return Verdict(None, "tied to another message")
    fact = normalise_fact(candidate.fact)
    if not MIN_FACT_CHARS <= len(fact) <= MAX_FACT_CHARS:
        return Verdict(None, f"fact length {len(fact)} outside {MIN_FACT_CHARS}..{MAX_FACT_CHARS}")
    evidence = _cut_evidence(candidate.evidence)
    # Checked as given too: normalising turns "|" into "/", which would hide "<|im_start|>".
    for text in dict.fromkeys((candidate.fact, candidate.evidence, fact, evidence)):
        reason = unsafe_reason(text)
        if reason:
            return Verdict(None, reason)
    # A mention shows as its member's name in Discord: names count as present, like the
    # speaker's own.
    names = " ".join([message.author_name, *(m.name for m in message.mentions)])
    if not is_grounded(fact, message.text, names):
        return Verdict(None, "fact not grounded in its message")
    if evidence and not is_grounded(evidence, message.text):
        return Verdict(None, "evidence not grounded in its message")
    try:
        confidence = float(candidate.confidence)
    except (TypeError, ValueError):
        return Verdict(None, "confidence is not a number")
    if math.isnan(confidence):
        return Verdict(None, "confidence is not a number")
    confidence = min(1.0, max(0.0, confidence))
    return Verdict(
        CandidateFact(
            subject=candidate.subject,
            fact=fact,
            fact_type=normalise_type(candidate.fact_type),
            confidence=confidence,
            evidence=evidence,
            source_message_id=message.message_id,
        )
    )


def filter_fact(message: SourceMessage, candidate: CandidateFact) -> CandidateFact | None:
    """``check_fact`` for the ingest queue: the fact to store, or None (logged at debug)."""
    verdict = check_fact(message, candidate)
    if verdict.fact is None:
        log.debug("fact refused (%s): message %s", verdict.reason, message.message_id)
    return verdict.fact


def checked_edit(text: str | None, fact_type: str | None) -> tuple[str | None, str | None]:
    """A moderator's new text (normalised as every stored fact is) and type for a fact, as
    the filters allow them: ``InvalidMessageError`` for a length out of range, an
    instruction or a secret (checked as given and normalised, as ``check_fact`` does), or an
    unknown type."""
    if text is not None:
        fact = normalise_fact(text)
        if not MIN_FACT_CHARS <= len(fact) <= MAX_FACT_CHARS:
            raise InvalidMessageError(f"a fact has {MIN_FACT_CHARS}..{MAX_FACT_CHARS} characters")
        for shown in dict.fromkeys((text, fact)):
            if (reason := unsafe_reason(shown)) is not None:
                raise InvalidMessageError(f"refused: {reason}")
        text = fact
    if fact_type is not None and fact_type not in FACT_TYPES:
        raise InvalidMessageError(f"type must be one of {', '.join(sorted(FACT_TYPES))}")
    return text, fact_type


def keep_fact(message: SourceMessage, candidate: CandidateFact) -> CandidateFact | None:
    """No filtering at all (for tests of the ingest queue's mechanics)."""
    return candidate
