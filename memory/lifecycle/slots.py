"""Attribute slots: the single-valued things a fact can say about its subject.

:func:`find_slots` reads a fact's normalised body (see :mod:`memory.lifecycle.reading`)
for the attributes a member has one of at a time: where they live, where they are from,
their job and employer, relationship status, age, what they study, a pet's name, a
favourite thing. Every pattern is anchored on the subject (the body's first word): in
"Sarah's sister lives in Boston" nothing is said of Sarah's home. Plans, wishes and the
past ("is moving to", "wants to be", "used to live in") fill no slot: they change nothing
yet, or any more. A move ("moved to Denver") does: it says where the subject lives now.

:func:`compare_slots` tells whether two facts give one slot different values (a
contradiction), or share their slots with equal values (a sign of the same fact).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from memory.lifecycle.lexicon import LANGUAGES, OCCUPATIONS, PETS, SYNONYMS
from memory.lifecycle.reading import words_match

_S = r"^\S+ "  # the subject
_ADVERBS = (
    r"(?:(?:now|still|currently|recently|just|finally|actually|officially|also|really"
    r"|originally|already|again|happily) )*"
)
_DET = r"(?:a|an|the|their|his|her|my|our)"
_STOP = (
    r"(?=$| [.,;:!?()]| (?:and|but|with|w|for|since|because|near|now|at|on|in|from|to|while"
    r"|until|as|after|before|by|lol|lmao|tbh|rn|again|anymore|though|tho|too|so|who|which"
    r"|where|when|if|full|part|originally|mostly|these|this|last|next)\b)"
)
_VALUE = rf"(?P<value>[\w'-]+(?: [\w'-]+){{0,3}}?){_STOP}"
_NAME = rf"(?P<value>[\w'-]+){_STOP}"
_PET = "(?P<pet>" + "|".join(sorted(PETS, key=len, reverse=True)) + ")"
_FAVOURITE = r"(?:favorite|favourite|fav|fave)"
_FRAGMENT_END = r"(?: (?:now|today|these days|rn|lol|lmao|tho|btw|again))*$"
"""What may follow a verb-less fragment ("ana nurse now", "priya 30 now lol")."""
_JOB_VERBS = (
    r"(?:works|is working|has worked|has been working|worked|started working|got a job"
    r"|got a new job|has a job|found a job|took a job|started a new job|is employed"
    r"|has been employed|is now working)"
)
_STUDY_DEGREE = r"(?:degree|phd|masters|master 's|ba|bsc|ma|msc|diploma|course)"


class Verdict(StrEnum):
    """What two facts' slots say about the pair."""

    CONFLICT = "conflict"  # one slot, two different values
    AGREE = "agree"  # the same slots with the same values
    PARTIAL = "partial"  # some slot shared with agreeing values, but not all the same
    NONE = "none"  # no slot in common


@dataclass(frozen=True)
class Slot:
    """One attribute a fact gives: ``key`` ("home", "pet:dog"...), its value, where it is."""

    key: str
    value: str
    start: int
    end: int


@dataclass(frozen=True)
class _Pattern:
    key: str
    regex: re.Pattern[str]
    value: str | None = None  # a fixed value ("none" for "lost their job")


def _p(key: str, pattern: str, value: str | None = None) -> _Pattern:
    return _Pattern(key, re.compile(pattern), value)


_LIVE = r"(?:lives|is living|has been living|has lived|resides|is based|is settled)"
_MOVE = r"(?:moved|has moved|relocated|has relocated)(?: back)?"
PATTERNS: tuple[_Pattern, ...] = (
    # where they live, and where from
    _p("home", rf"{_S}{_ADVERBS}{_LIVE} (?:(?:with|w) {_DET} \w+ )?in "
               rf"(?:{_DET} \w+(?: \w+)? in )?(?!{_DET} ){_VALUE}"),
    _p("home", rf"{_S}{_ADVERBS}{_MOVE} (?:from [\w ]+? )?to (?!{_DET} ){_VALUE}"),
    _p("origin", rf"{_S}{_ADVERBS}(?:is (?:originally )?from|comes from|grew up in|was born in)"
                 rf" {_VALUE}"),
    # work
    _p("job", rf"{_S}{_ADVERBS}{_JOB_VERBS} as (?:a |an )?{_VALUE}"),
    _p("job", rf"{_S}{_ADVERBS}(?:is|became|has become|has been) (?:now )?(?:a|an) "
              rf"(?P<value>(?:[\w-]+ ){{0,2}}(?:{'|'.join(OCCUPATIONS)})){_STOP}"),
    _p("job", rf"{_S}'s (?:job|occupation|profession) is (?:as )?(?:a |an )?{_VALUE}"),
    _p("job", rf"{_S}{_ADVERBS}(?:(?:a|an) )?(?P<value>(?:[\w-]+ )?(?:{'|'.join(OCCUPATIONS)}))"
              rf"{_FRAGMENT_END}"),  # a verb-less fragment: "ana nurse now"
    _p("job", rf"{_S}{_ADVERBS}teaches\b", "teacher"),
    _p("job", rf"{_S}{_ADVERBS}(?:quit|lost|left|has quit|has lost) {_DET} job\b", "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:got|was|has been|just got) (?:fired|laid off|sacked)\b",
       "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:is|has) (?:now )?(?:unemployed|jobless|out of work"
              rf"|between jobs|retired)\b", "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:retired|has retired)\b", "none"),
    _p("employer", rf"{_S}{_ADVERBS}{_JOB_VERBS} (?:at|for) "
                   rf"(?!home\b|night|weekend|the weekend|a distance\b){_VALUE}"),
    # relationship status (the patterns naming a partner first)
    _p("status", rf"{_S}{_ADVERBS}(?:is|got) married to (?P<partner>\w+)", "married"),
    _p("status", rf"{_S}{_ADVERBS}(?:is|got) engaged to (?P<partner>\w+)", "engaged"),
    _p("status", rf"{_S}{_ADVERBS}(?:is|has been) (?:dating|seeing) (?P<partner>\w+)", "dating"),
    _p("status", rf"{_S}{_ADVERBS}is in a relationship(?: with (?P<partner>\w+))?", "dating"),
    _p("status", rf"{_S}{_ADVERBS}(?:broke up|split up)(?: with (?P<partner>\w+))?", "single"),
    _p("status", rf"{_S}and (?P<partner>\w+) (?:broke up|split up|split)\b", "single"),
    _p("status", rf"{_S}{_ADVERBS}(?:is|got|has gotten|has got) (?:now )?"
                 rf"(?P<value>single|married|engaged|divorced|separated|widowed)\b"),
    _p("status", rf"{_S}{_ADVERBS}has been (?P<value>married|engaged|divorced|single)\b"),
    _p("status", rf"{_S}{_ADVERBS}has (?:a|an) (?:boyfriend|girlfriend|partner|bf|gf)\b",
       "dating"),
    _p("status", rf"{_S}{_ADVERBS}has (?:a|an) (?:husband|wife)\b", "married"),
    _p("status", rf"{_S}{_ADVERBS}is not (?:in a relationship|seeing anyone|dating anyone)\b",
       "single"),
    # age
    _p("age", rf"{_S}{_ADVERBS}(?:is|turned|has turned|turns) (?P<value>\d{{1,3}})"
              rf"(?: years? old| yrs? old| yo)?(?=$| [.,;:!?]| now| today| and)"),
    _p("age", rf"{_S}'s age is (?P<value>\d{{1,3}})\b"),
    _p("age", rf"{_S}{_ADVERBS}(?P<value>\d{{1,3}})(?: years? old| yrs? old| yo)?{_FRAGMENT_END}"),
    # studies
    _p("studies", rf"{_S}{_ADVERBS}(?:majors|is majoring|has majored|majored) in {_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}(?:is doing|is taking|is pursuing|has|is studying for) "
                  rf"(?:a |an |{_DET} )?{_STUDY_DEGREE} in {_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}switched {_DET} (?:{_STUDY_DEGREE}|major|studies) to "
                  rf"{_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}(?:studies|is studying|has been studying) "
                  rf"(?!for |to |a |an |the |hard\b){_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}is (?:a|an) (?P<value>\w+(?: \w+)?) student\b"),
    _p("school", rf"{_S}{_ADVERBS}(?:goes to|attends|is at|studies at) "
                 rf"(?P<value>\w+(?: \w+)?) (?:university|college|uni)\b"),
    # pets
    _p("pet", rf"{_S}'s {_PET} (?:is )?(?:called|named) {_NAME}"),
    _p("pet", rf"{_S}'s {_PET} 's name is {_NAME}"),
    _p("pet", rf"{_S}{_ADVERBS}has (?:a|an) {_PET} (?:called|named) {_NAME}"),
    _p("pet", rf"{_S}{_ADVERBS}named {_DET} {_PET} {_NAME}"),
    _p("pet", rf"^(?P<value>\w+) is \S+ 's {_PET}$"),
    # favourites
    _p("favorite", rf"{_S}'s {_FAVOURITE} (?P<thing>\w+(?: \w+)?) is {_VALUE}"),
    _p("favorite", rf"{_S}'s {_FAVOURITE} is {_VALUE}"),
    _p("favorite", rf"^(?P<value>[\w' -]+?) (?:is|are) \S+ 's {_FAVOURITE}"
                   rf"(?: (?P<thing>\w+(?: \w+)?))?$"),
)  # fmt: skip
"""What fills each slot (``value`` group, or the pattern's fixed value)."""

_DROPPED = frozenset({"a", "an", "the", "their", "his", "her", "my", "our", "'s", "-"})


@lru_cache(maxsize=8192)
def find_slots(body: str) -> tuple[Slot, ...]:
    """The slots a fact's normalised body fills (at most one per key and span)."""
    found: dict[str, Slot] = {}
    for pattern in PATTERNS:
        match = pattern.regex.search(body)
        if match is None:
            continue
        key, value = _key_and_value(pattern, match)
        if key == "studies" and LANGUAGES.intersection(value.split()):
            continue  # a language learnt beside whatever else they study
        if key not in found and value:
            found[key] = Slot(key, value, match.start(), match.end())
    return tuple(found.values())


def compare_slots(first: Iterable[Slot], second: Iterable[Slot]) -> Verdict:
    """Whether two facts' slots conflict, agree, agree in part, or share nothing."""
    mine = {slot.key: slot.value for slot in first}
    theirs = {slot.key: slot.value for slot in second}
    shared = mine.keys() & theirs.keys()
    if not shared:
        return Verdict.NONE
    if any(not values_agree(key, mine[key], theirs[key]) for key in shared):
        return Verdict.CONFLICT
    same = mine.keys() == theirs.keys() and all(mine[k] == theirs[k] for k in shared)
    return Verdict.AGREE if same else Verdict.PARTIAL


def values_agree(key: str, first: str, second: str) -> bool:
    """Two values of one slot can both hold: equal, or one a part of the other ("Boston" /
    "Boston, Massachusetts"); a relationship status also by its partner's name."""
    if key == "status":
        return _statuses_agree(first, second)
    mine, theirs = first.split(), second.split()
    return _within(mine, theirs) or _within(theirs, mine)


def _within(part: list[str], whole: list[str]) -> bool:
    return all(any(words_match(word, other) for other in whole) for word in part)


def residual(body: str, slots: Iterable[Slot]) -> str:
    """``body`` without the spans of its slots (what the fact says besides them)."""
    kept = body
    for slot in sorted(slots, key=lambda s: s.start, reverse=True):
        kept = kept[: slot.start] + " " + kept[slot.end :]
    return kept


def _key_and_value(pattern: _Pattern, match: re.Match[str]) -> tuple[str, str]:
    groups = match.groupdict()
    key = pattern.key
    if groups.get("pet"):
        key = f"pet:{PETS[groups['pet']]}"
    elif key == "favorite":
        thing = groups.get("thing") or ""
        key = "favorite:" + " ".join(SYNONYMS.get(word, word) for word in thing.split())
    if pattern.value is not None:
        partner = groups.get("partner") or ""
        return key, f"{pattern.value} {partner}".strip()
    words = [SYNONYMS.get(word, word) for word in groups["value"].split()]
    return key, " ".join(word for word in words if word not in _DROPPED)


def _statuses_agree(first: str, second: str) -> bool:
    status_a, _, partner_a = first.partition(" ")
    status_b, _, partner_b = second.partition(" ")
    if partner_a and partner_b and partner_a != partner_b:
        return False
    return status_a == status_b
