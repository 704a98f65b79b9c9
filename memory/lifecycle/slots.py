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

from memory.lifecycle.lexicon import (
    CITIES,
    COUNTRIES,
    DISTRICTS,
    JOB_ALIASES,
    LANGUAGES,
    OCCUPATIONS,
    PETS,
    PLACE_ALIASES,
    REGIONS,
    STOPWORDS,
    SYNONYMS,
    UNIVERSITIES,
    US_STATES,
)
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
_FAVOURITE = r"(?:(?:all-time |all time |absolute |top )?(?:favorite|favourite|fav|fave)|go-to)"
_FRAGMENT_END = r"(?: (?:now|today|these days|rn|lol|lmao|tho|btw|again))*$"
"""What may follow a verb-less fragment ("ana nurse now", "priya 30 now lol")."""
_JOB_VERBS = (
    r"(?:works|is (?:now |currently |still )?(?:working|employed)|has worked|has been working"
    r"|worked|started working|(?:got|has|found|took|landed|has taken|started|accepted) "
    r"(?:a |a new )?(?:job|role|position)|has been employed|(?:got|was|has been) hired)"
)
_FAV_IS = r"(?:is|:|\?|has always been|has become|became|remains) (?:now |still )?"
_YEARS_OLD = r"(?: years? old| yrs? old| yo| years? of age)"
_SAYS = r"(?:(?:says|said|thinks|reckons|decided) (?:that )?)?"
_TRANSFER = r"(?:transferred|transfered|has transferred|switched|changed schools|moved)"
_ATTENDS = (
    rf"(?:goes to|attends|is (?:now )?at|studies at|started at|(?:is )?enrolled (?:at|in)"
    rf"|{_TRANSFER}(?: schools?| unis?| colleges?)? to)"
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


_LIVE = (
    r"(?:lives|settled|has settled|is (?:now |currently |still )?(?:living|based|settled)"
    r"|has been living|has lived|resides|is residing)"
)
_IN_THE = r"(?:the (?=(?:uk|us|usa|states|united \w+|netherlands|philippines|bay area)\b))?"
"""In "lives in the UK" the article is part of the place; in "lives in the city" it is not."""
_SCHOOL = r"(?:university|college|uni|high school|high|school|academy)"
_PARTNER_NAMED = r"(?:(?P<partner>\w+)(?=$| [.,;:!?]))?"
"""A partner's name ends the fact ("'s wife is Ana"); "'s wife is a nurse" names none."""
_PARTNER = r"(?:(?:a|an) (?:man|woman|guy|girl|person) (?:named|called) )?(?P<partner>\w+)"
"""A partner, by name: "married to Jun", "married to a man named Jun"."""
_CALLED = r"(?:called |named )?"
_MOVE = r"(?:moved|has moved|relocated|has relocated)(?: back)?"
PATTERNS: tuple[_Pattern, ...] = (
    # where they live, and where from
    _p("home", rf"{_S}{_ADVERBS}{_LIVE} (?:(?:with|w) {_DET} \w+ )?in "
               rf"(?:{_DET} \w+(?: \w+)? in )?{_IN_THE}(?!{_DET} ){_VALUE}"),
    _p("home", rf"{_S}{_ADVERBS}{_MOVE} (?:from [\w ]+? )?to {_IN_THE}(?!{_DET} ){_VALUE}"),
    _p("home", rf"{_S}'s (?:current |new |present )?(?:home|residence|city of residence) "
               rf"(?:is|:) (?:now )?(?:in )?{_IN_THE}{_VALUE}"),
    _p("home", rf"{_S}'s (?:current |new |present )?(?:place|flat|apartment|house) "
               rf"(?:is|:) (?:now )?in {_IN_THE}{_VALUE}"),
    _p("origin", rf"{_S}'s (?:home town|hometown) (?:is|:) {_IN_THE}{_VALUE}"),
    _p("home", rf"{_S}{_ADVERBS}(?:calls|now calls) (?P<value>[\w'-]+(?: [\w'-]+){{0,2}}?) "
               rf"home\b"),
    _p("home", rf"^\S+ (?:now |still )?in (?P<value>\w+(?: \w+)?){_FRAGMENT_END}"),
    _p("origin", rf"{_S}{_ADVERBS}(?:is (?:originally )?from|comes from|grew up in|was born in)"
                 rf" {_IN_THE}{_VALUE}"),
    # work
    _p("job", rf"{_S}{_ADVERBS}{_JOB_VERBS}(?: (?:in|at|for) [\w'-]+(?: [\w'-]+){{0,2}}?)? as "
              rf"(?:a |an )?{_VALUE}"),
    _p("job", rf"{_S}{_ADVERBS}(?:is|became|has become|has been) (?:now )?(?:a|an) "
              rf"(?P<value>(?:[\w-]+ ){{0,2}}(?:{'|'.join(OCCUPATIONS)})){_STOP}"),
    _p("job", rf"{_S}'s (?:current |new )?(?:job|occupation|profession|job title|role) "
              rf"(?:is|:) (?:now )?(?:as )?(?:a |an )?{_VALUE}"),
    _p("job", rf"{_S}{_ADVERBS}(?:(?:a|an) )?(?P<value>(?:[\w-]+ )?(?:{'|'.join(OCCUPATIONS)}))"
              rf"{_FRAGMENT_END}"),  # a verb-less fragment: "ana nurse now"
    _p("job", rf"{_S}{_ADVERBS}teaches\b", "teacher"),
    _p("job", rf"{_S}{_ADVERBS}(?:quit|lost|left|has quit|has lost) {_DET} job\b", "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:got|was|has been|just got) (?:fired|laid off|sacked)\b",
       "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:is|has) (?:now )?(?:unemployed|jobless|out of work"
              rf"|between jobs|retired)\b", "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:retired|has retired)\b", "none"),
    _p("employer", rf"{_S}{_ADVERBS}(?:accepted|took|got|has accepted) (?:an? )?(?:new )?"
                   rf"(?:offer|job|position|role) (?:from|at|with) {_VALUE}"),
    _p("employer", rf"{_S}{_ADVERBS}is (?:a|an) (?P<value>\w+(?: \w+)?) employee\b"),
    _p("employer", rf"{_S}{_ADVERBS}(?:got|was|has been|just got) (?:fired|laid off|sacked)\b",
       "none"),  # from wherever they worked
    _p("employer", rf"{_S}{_ADVERBS}{_JOB_VERBS} (?:at|for|by) "
                   rf"(?!home\b|night|weekend|the weekend|a distance\b){_VALUE}"),
    # relationship status (the patterns naming a partner first)
    _p("status", rf"{_S}{_ADVERBS}(?:is|got) married to {_PARTNER}", "married"),
    _p("status", rf"{_S}'s (?:husband|wife|spouse) is {_CALLED}{_PARTNER_NAMED}", "married"),
    _p("status", rf"{_S}{_ADVERBS}(?:tied the knot|got hitched)(?: with (?P<partner>\w+))?",
       "married"),
    _p("status", rf"{_S}'s (?:girlfriend|boyfriend|partner|gf|bf) is {_CALLED}{_PARTNER_NAMED}",
       "dating"),
    _p("status", rf"{_S}{_ADVERBS}(?:is|got) engaged to {_PARTNER}", "engaged"),
    _p("status", rf"{_S}{_ADVERBS}(?:is|has been) (?:dating|seeing) (?P<partner>\w+)", "dating"),
    _p("status", rf"{_S}{_ADVERBS}(?:is|has been) in a relationship(?: with (?P<partner>\w+))?",
       "dating"),
    _p("status", rf"{_S}{_ADVERBS}(?:broke up|split up)(?: with (?P<partner>\w+))?", "single"),
    _p("status", rf"{_S}{_ADVERBS}called off {_DET} (?:engagement|wedding)\b", "single"),
    _p("status", rf"{_S}{_ADVERBS}(?:divorced|has divorced|separated from) (?P<partner>\w+)",
       "divorced"),
    _p("status", rf"{_S}and (?P<partner>\w+) (?:got divorced|divorced|separated)\b",
       "divorced"),
    _p("status", rf"{_S}{_ADVERBS}(?:married|has married) (?P<partner>\w+)", "married"),
    _p("status", r"^(?P<partner>\w+) is \S+ 's (?:wife|husband|spouse)$", "married"),
    _p("status", r"^(?P<partner>\w+) is \S+ 's (?:girlfriend|boyfriend|partner|gf|bf)$",
       "dating"),
    _p("status", rf"{_S}and (?P<partner>\w+) (?:broke up|split up|split)\b", "single"),
    _p("status", rf"{_S}{_ADVERBS}(?:is|got|has gotten|has got) (?:(?:now|currently) )?"
                 rf"(?P<value>single|married|engaged|divorced|separated|widowed)\b"),
    _p("status", rf"{_S}{_ADVERBS}has been (?P<value>married|engaged|divorced|single)\b"),
    _p("status", rf"{_S}{_ADVERBS}(?P<value>single|married|engaged|divorced){_FRAGMENT_END}"),
    _p("status", rf"{_S}{_ADVERBS}has (?:a|an) (?:boyfriend|girlfriend|partner|bf|gf)"
                 rf"(?: (?:named|called) (?P<partner>\w+))?\b", "dating"),
    _p("status", rf"{_S}{_ADVERBS}has (?:a|an) (?:husband|wife) (?:named|called) "
                 rf"(?P<partner>\w+)", "married"),
    _p("status", rf"{_S}{_ADVERBS}has (?:a|an) (?:husband|wife)\b", "married"),
    _p("status", rf"{_S}{_ADVERBS}is not (?:in a relationship|seeing anyone|dating anyone)\b",
       "single"),
    # age
    _p("age", rf"{_S}{_ADVERBS}(?:is|turned|has turned|turns|just turned) (?:aged )?"
              rf"(?P<value>\d{{1,3}}){_YEARS_OLD}?(?=$| [.,;:!?]| now| today| and)"),
    _p("age", rf"{_S}'s age (?:is|:) (?:now )?(?P<value>\d{{1,3}})\b"),
    _p("age", rf"{_S}{_ADVERBS}(?:celebrated|had|has had) (?:{_DET} )?(?P<value>\d{{1,3}})"
              rf"(?:st|nd|rd|th) birthday\b"),
    _p("age", rf"{_S}{_ADVERBS}(?:aged )?(?P<value>\d{{1,3}}){_YEARS_OLD}?{_FRAGMENT_END}"),
    # studies
    _p("studies", rf"{_S}{_ADVERBS}(?:majors|is majoring|has majored|majored) in {_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}(?:is doing|is taking|is pursuing|has|is studying for) "
                  rf"(?:a |an |{_DET} )?{_STUDY_DEGREE} in {_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}(?:switched|changed) "
                  rf"(?:{_DET} (?:{_STUDY_DEGREE}|major|studies) to |to (?:studying|majoring in) )"
                  rf"{_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}(?:studies|is studying|has been studying) "
                  rf"(?!for |to |a |an |the |hard\b){_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}is (?:a|an) (?P<value>\w+(?: \w+)?) student\b"),
    _p("school", rf"{_S}{_ADVERBS}{_ATTENDS} "
                 rf"(?:the )?(?P<value>\w+(?: \w+)?) {_SCHOOL}\b"),
    _p("school", rf"{_S}{_ADVERBS}{_ATTENDS} "
                 rf"(?P<value>{'|'.join(sorted(UNIVERSITIES))}){_STOP}"),
    _p("school", rf"{_S}{_ADVERBS}{_ATTENDS} "
                 rf"the (?:university|college) of (?P<value>\w+(?: \w+)?){_STOP}"),
    # pets
    _p("pet", rf"{_S}'s {_PET} (?:is )?(?:(?:now|still) )?(?:called|named) {_NAME}"),
    _p("pet", rf"{_S}'s {_PET} 's name is {_NAME}"),
    _p("pet", rf"{_S}{_ADVERBS}(?:has|owns) (?:a|an) {_PET} (?:called|named) {_NAME}"),
    _p("pet", rf"{_S}{_ADVERBS}(?:named|renamed|has renamed|called|calls) {_DET} {_PET} "
              rf"(?:to )?{_NAME}"),
    _p("pet", rf"^(?P<value>\w+) is \S+ 's {_PET}$"),
    # favourites
    _p("favorite", rf"{_S}(?:'s )?{_FAVOURITE} (?P<thing>\w+(?: \w+){{0,2}}?) {_FAV_IS}"
                   rf"{_VALUE}"),
    _p("favorite", rf"{_S}(?:'s )?{_FAVOURITE} {_FAV_IS}{_VALUE}"),
    _p("favorite", rf"^(?P<value>[\w' -]+?) (?:is|are) \S+ 's {_FAVOURITE}"
                   rf"(?: (?P<thing>\w+(?: \w+)?))?$"),
    _p("favorite", rf"{_S}{_SAYS}(?P<value>[\w' -]+?) (?:is|are) (?:now |still )?"
                   rf"(?:his|her|their) {_FAVOURITE} (?P<thing>\w+){_FRAGMENT_END}"),
    _p("favorite", rf"{_S}(?:'s |[.:,-] )?{_FAVOURITE} (?P<thing>\w+) (?:now |still )?"
                   rf"(?P<value>\w+(?: \w+)??){_FRAGMENT_END}"),  # "ola fave band muse"
    # the language they grew up speaking
    _p("native", rf"{_S}'s (?:native|first|mother) (?:language|tongue|lang) {_FAV_IS}"
                 rf"(?:actually )?{_VALUE}"),
    _p("native", rf"{_S}(?:[.:,-] )?(?:native|first) (?:language|lang) :? ?{_VALUE}"),
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
            end = match.end()
            tail = _REGION_TAIL.match(body, end) if key in _PLACE_KEYS else None
            if tail is not None and _within_place(_alias(tail.group(1), _PLACE_ALIAS)):
                value, end = f"{value} {_alias(tail.group(1), _PLACE_ALIAS)}", tail.end()
            found[key] = Slot(key, value, match.start(), end)
    return tuple(found.values())


_REGION_TAIL = re.compile(r" , (?:in )?([a-z]+(?: [a-z]+){0,2}?)(?=$| [.,;:!?]| now\b)")
"""A place after a place, comma-separated: "houston, texas", "bandra, mumbai"."""


def _within_place(tail: str) -> bool:
    """Whether a comma's tail after a place names the larger place it lies in: a region,
    or words none of which is a function word ("bandra, mumbai"; not "leeds, with his gf")."""
    return tail in REGIONS or STOPWORDS.isdisjoint(tail.split())


def compare_slots(first: Iterable[Slot], second: Iterable[Slot]) -> Verdict:
    """Whether two facts' slots conflict, agree, agree in part, or share nothing."""
    mine = {slot.key: slot.value for slot in first}
    theirs = {slot.key: slot.value for slot in second}
    shared = mine.keys() & theirs.keys()
    if not shared:
        return Verdict.NONE
    if any(not values_agree(key, mine[key], theirs[key]) for key in shared):
        return Verdict.CONFLICT
    same = mine.keys() == theirs.keys() and all(
        _equal(key, mine[key], theirs[key]) for key in shared
    )
    return Verdict.AGREE if same else Verdict.PARTIAL


def values_agree(key: str, first: str, second: str) -> bool:
    """Two values of one slot can both hold: equal, or one a part of the other ("Boston" /
    "Boston, Massachusetts"); a relationship status also by its partner's name; a home or
    origin when one is a country, US state or large region and the other is not (a city
    there, as far as the words tell: "Texas" / "Houston")."""
    if first == second:
        return True
    if key == "status":
        return _statuses_agree(first, second)
    mine, theirs = first.split(), second.split()
    if _within(mine, theirs) or _within(theirs, mine):
        return True
    if key not in _PLACE_KEYS:
        return False
    if DISTRICTS.get(first) == second or DISTRICTS.get(second) == first:
        return True
    if (first in REGIONS) == (second in REGIONS):
        return False
    region, city = (first, second) if first in REGIONS else (second, first)
    known = CITIES.get(city)  # a well-known city lies in known places, and no others
    return known is None or region in known or region not in _STATES_AND_COUNTRIES


def _equal(key: str, first: str, second: str) -> bool:
    """The same value, typos aside ("seatle" / "seattle"); a place also with its region
    named ("boston" / "boston massachusetts")."""
    if key == "status" or first == second:
        return first == second
    mine, theirs = first.split(), second.split()
    if len(mine) == len(theirs):
        return _within(mine, theirs) and _within(theirs, mine)
    if key not in _PLACE_KEYS:
        return False
    short, long = (mine, theirs) if len(mine) < len(theirs) else (theirs, mine)
    if not _within(short, long):
        return False  # "Boston" / "Boston Massachusetts": the rest names the region
    rest = " ".join(word for word in long if not any(words_match(word, s) for s in short))
    return rest in REGIONS


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
    value = " ".join(word for word in words if word not in _DROPPED)
    if key in _PLACE_KEYS:
        value = _alias(value, _PLACE_ALIAS)
    elif key == "job":
        value = _alias(value, _JOB_ALIAS)
    return key, value


def _alias_pattern(aliases: dict[str, str]) -> re.Pattern[str]:
    names = sorted(aliases, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(name) for name in names) + r")\b")


_PLACE_KEYS = frozenset({"home", "origin"})
_STATES_AND_COUNTRIES = US_STATES | COUNTRIES
_PLACE_ALIAS = (_alias_pattern(PLACE_ALIASES), PLACE_ALIASES)
_JOB_ALIAS = (_alias_pattern(JOB_ALIASES), JOB_ALIASES)


def _alias(value: str, aliases: tuple[re.Pattern[str], dict[str, str]]) -> str:
    """``value`` with its abbreviations and synonyms written one way ("nyc" → "new york")."""
    pattern, names = aliases
    return pattern.sub(lambda match: names[match.group(0)], value)


def _statuses_agree(first: str, second: str) -> bool:
    status_a, _, partner_a = first.partition(" ")
    status_b, _, partner_b = second.partition(" ")
    if partner_a and partner_b and partner_a != partner_b:
        return False
    return status_a == status_b
