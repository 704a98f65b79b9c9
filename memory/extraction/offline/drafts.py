"""What a rewrite produces: the speaker a clause is about, the draft fact, its type
and the confidence it is said with."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

PLAIN, HEDGED, GROUP = 0.9, 0.6, 0.8
MAX_FACT_CHARS = 190


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who says the clause, and the conversation around it."""

    name: str
    said: date
    partner: str | None
    """The one other person of the recent conversation, when there is exactly one: who
    "you" is."""
    previous_other: str
    """The last turn of someone else before this message (what a reaction reacts to)."""
    company: str | None = None
    """Who "we" is when the message names them ("with my kids" → "their kids")."""


@dataclass(frozen=True, slots=True)
class Draft:
    fact: str
    fact_type: str
    confidence: float
    dated: bool
    content_words: int
    thing: str | None = None
    """What the speaker has, made or got, for a following "it" / "they" to refer to."""


STOP_WORDS = frozenset({"a", "an", "the", "to", "of", "in", "on", "at", "for", "with", "and", "or",
                   "it", "this", "that", "their", "them", "some", "so", "very", "really",
                   "is", "are", "was", "be", "been", "my", "me", "up", "out", "about", "as",
                   "just", "all", "too", "by", "from", "into", "what", "how", "there"})  # fmt: skip
_RELATION_WORDS = (
    r"husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?|kids?|children|son|daughter|mom|"
    r"mum|mother|dad|father|parents|sister|brother|siblings?|family|friends?|married|"
    r"divorced|dating|engaged|single|cousin|grandma|grandpa|grandmother|grandfather|baby|aunt|"
    r"uncle|niece|nephew|roommate|bestie|bff"
)
RELATIONS = re.compile(rf"\b(?:{_RELATION_WORDS})\b", re.I)
_PREFERENCE_LEMMAS = frozenset({"love", "like", "enjoy", "adore", "prefer", "hate", "dislike",
                                "dig", "fancy", "detest", "crave"})  # fmt: skip
_PROFILE_LEMMAS = frozenset({"live", "work", "study", "grow", "come", "bear", "teach",
                             "speak", "own", "major"})  # fmt: skip
_PROJECT_LEMMAS = frozenset({"build", "make", "create", "write", "develop", "code", "design",
                             "launch", "open", "start", "learn", "train", "practice",
                             "practise", "plan", "organize", "organise", "run", "found",
                             "compose", "record", "save"})  # fmt: skip


def draft(fact: str, lemma: str, past: bool, dated: bool, confidence: float) -> Draft | None:
    fact = " ".join(fact.split()).strip(" ,;:-")
    if not fact:
        return None
    fact = fact[0].upper() + fact[1:]
    if not fact.endswith((".", "!")):
        fact += "."
    if len(fact) > MAX_FACT_CHARS:
        return None
    content = sum(1 for w in re.findall(r"[a-z0-9']+", fact.lower()) if w not in STOP_WORDS)
    return Draft(fact, _type(lemma, fact, past, dated), confidence, dated, content)


_FAN = re.compile(r"\bfavourite\b|\ba (?:big |huge )?fan of\b", re.I)


def _type(lemma: str, fact: str, past: bool, dated: bool) -> str:
    if lemma in _PREFERENCE_LEMMAS or _FAN.search(fact):
        return "preference"
    related = _RELATED.search(fact)
    if related and lemma in ("be", "have", "marry", "date", "get", "love", "divorce"):
        return "relationship"
    if past or dated:
        return "event"
    if lemma in _PROFILE_LEMMAS or (lemma == "be" and _IDENTITY.search(fact)):
        return "profile"
    if lemma in _PROJECT_LEMMAS:
        return "project"
    return "relationship" if related else "other"


_RELATED = re.compile(
    rf"(?:\btheir|'s|\bwith|\ba|\bhas)\s+(?:\w+\s+)?(?:{_RELATION_WORDS})\b"
    r"|\b(?:married|engaged|divorced|dating|single|widowed|pregnant)\b",
    re.I,
)
"""A relation of the person's own ("their husband", "Sarah's sister", "has a son",
"married"), not "the children's hospital"."""
_IDENTITY = re.compile(
    r"\b(?:is|was) an? \w|\ballergic\b|\bvegan\b|\bvegetarian\b|\byears old\b|"
    r"\bis from\b|\bborn\b|\bcolou?r ?blind\b|\bleft-handed\b|\bdiabetic\b",
    re.I,
)
