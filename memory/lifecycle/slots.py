"""Attribute slots: the single-valued things a fact can say about its subject.

:func:`find_slots` reads a fact's normalised body (see :mod:`memory.lifecycle.reading`)
for the attributes a member has one of at a time: where they live, where they are from,
their job and employer, relationship status, age, what they study, a pet's name, a
favourite thing, their first language, their only pet, their rank in a game ("Gold 2 in
Valorant") or a martial art, their time zone, their hand, their rent and floor, a sport's
position, the platform they stream on, their level, team, placement and main programming
language at work, how they read and watch, any thing they have one of told as what it is
("her car is a Ford Focus") or named; and for siblings, children and pets, none or some of a
kind ("has no pets" / "adopted a kitten" conflict). The patterns are the tables of the
``*_patterns`` modules. Every pattern is anchored on the subject (the body's first word): in
"Sarah's sister lives in Boston" nothing is said of Sarah's home. Plans, wishes and the past
("is moving to", "used to live in") fill no slot; a move ("moved to Denver") does.

:func:`compare_slots` tells whether two facts give one slot different values (a
contradiction), or share their slots with equal values (a sign of the same fact).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from memory.extraction.offline.verbs import verb
from memory.lifecycle.age_patterns import AGE_PATTERNS
from memory.lifecycle.career_patterns import CAREER_PATTERNS, CAREER_VALUES
from memory.lifecycle.creator_patterns import CREATOR_PATTERNS, CREATOR_VALUES, NAMES
from memory.lifecycle.game_patterns import GAME_PATTERNS, SERVERS
from memory.lifecycle.gear_patterns import GEAR_PATTERNS, INPUTS
from memory.lifecycle.home_patterns import HOME_PATTERNS, HOME_VALUES, LIVING, VISIT
from memory.lifecycle.household_patterns import HOUSEHOLD_PATTERNS
from memory.lifecycle.identity_patterns import IDENTITY_PATTERNS, PRONOUNS, visa_value
from memory.lifecycle.language_patterns import EXAM_LANGUAGES, LANGUAGE_PATTERNS, LANGUAGE_VALUES
from memory.lifecycle.lexicon import (
    FILLERS,
    JOB_ALIASES,
    LANGUAGES,
    OCCUPATIONS,
    PETS,
    STOPWORDS,
    STUDY_ALIASES,
    SYNONYMS,
)
from memory.lifecycle.media_patterns import MEDIA_PATTERNS, MEDIA_VALUES
from memory.lifecycle.pet_patterns import PET_PATTERNS
from memory.lifecycle.places import PLACE_ALIASES, REGIONS, is_place, without_city
from memory.lifecycle.possessive_patterns import POSSESSIVE_PATTERNS
from memory.lifecycle.relationship_patterns import RELATIONSHIP_PATTERNS
from memory.lifecycle.routine_patterns import DISTANCES, ROUTINE_PATTERNS, best_time
from memory.lifecycle.slot_patterns import PATTERNS as _PATTERNS
from memory.lifecycle.slot_patterns import SlotPattern
from memory.lifecycle.slot_values import (
    COUNTED,
    PLACE_KEYS,
    equal_values,
    initials,
    values_agree,
)
from memory.lifecycle.sport_patterns import POSITIONS, SPORT_PATTERNS, SPORT_VALUES
from memory.lifecycle.word_match import sets_match
from memory.lifecycle.zone_patterns import A_ZONE, ZONE_PATTERNS, zone_offset
from memory.lifecycle.zones import place_offset, written


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


_DROPPED = frozenset({"a", "an", "the", "their", "his", "her", "my", "our", "'s", "-"}) | FILLERS
"""Words a slot's value and thing are read without ("diamond in apex rn": "apex")."""
_NO_THING = _DROPPED | {"now", "here", "rn", "atm", "currently"}
"""Words a thing is read without: "fave now is the gr yaris" names no thing."""


PATTERNS = (
    *HOME_PATTERNS, *_PATTERNS, *AGE_PATTERNS, *PET_PATTERNS, *HOUSEHOLD_PATTERNS,
    *ROUTINE_PATTERNS, *ZONE_PATTERNS, *IDENTITY_PATTERNS, *GEAR_PATTERNS, *GAME_PATTERNS,
    *SPORT_PATTERNS, *CREATOR_PATTERNS, *RELATIONSHIP_PATTERNS, *CAREER_PATTERNS,
    *MEDIA_PATTERNS, *LANGUAGE_PATTERNS, *POSSESSIVE_PATTERNS,
)  # fmt: skip
"""Every slot pattern: where the member lives, who they are, then their routine, time zone and
pronouns (keys of their own), and last any thing they have one of ("of:<thing>")."""


@lru_cache(maxsize=8192)
def find_slots(body: str) -> tuple[Slot, ...]:
    """The slots a fact's normalised body fills (at most one per key and span)."""
    found: dict[str, Slot] = {}
    for pattern in PATTERNS:
        match = pattern.regex.search(body)
        if match is None:
            continue
        key, value = _key_and_value(pattern, match)
        if pattern.place and not is_place(value):
            continue
        if key == "studies" and LANGUAGES.intersection(value.split()):
            continue  # a language learnt beside whatever else they study
        if key in PLACE_KEYS and A_ZONE.fullmatch(value):
            continue  # a zone, no place: "lives in cet"
        if key == "home" and VISIT.search(body) and not LIVING.search(match.group(0)):
            continue  # "kat in iloilo this week , visiting fam"
        if key == "home" and value in NO_HOMES:
            continue  # a move on the pitch or online: "moved to lock", "moved to youtube"
        if key == "job" and _duties(value):
            continue  # "her job is serving tables": what she does, no job's name
        if key.startswith("of:") and any(
            slot.start < match.end() and match.start() < slot.end for slot in found.values()
        ):
            continue  # a thing another slot has read ("her favourite colour is")
        if key not in found and value:
            end = match.end()
            tail = _REGION_TAIL.match(body, end) if key in PLACE_KEYS else None
            if tail is not None and _within_place(_alias(tail.group(1), _PLACE_ALIAS)):
                value, end = f"{value} {_alias(tail.group(1), _PLACE_ALIAS)}", tail.end()
            found[key] = Slot(key, value, match.start(), end)
    for slot in list(found.values()):
        if slot.key.startswith("pet:") and "pets" not in found:  # a pet named is a pet had
            found["pets"] = Slot("pets", f"a {slot.key[4:]}", slot.start, slot.end)
    if _commuted_to(body, found):  # "rides his bike to the office": how they go, not where
        del found["workplace"]
    if "best:" in found and sum(key.startswith("best:") for key in found) > 1:
        del found["best:"]  # its distance told after all: "smashed her 10k pb , ran 46 : 50"
    return tuple(found.values())


def _commuted_to(body: str, found: dict[str, Slot]) -> bool:
    """The workplace is only where the commute ends ("cycles to the office"), not told as
    where they work now ("takes the train to the office now")."""
    commute, workplace = found.get("commute"), found.get("workplace")
    if commute is None or workplace is None or workplace.end != commute.end:
        return False
    return not body.startswith(" now", workplace.end)


def _duties(value: str) -> bool:
    """A job told by what is done in it ("serving tables", "doing the accounts"), no name of
    a job in it ("counselling", "training manager" name one)."""
    words = value.split()
    return len(words) > 1 and words[0].endswith("ing") and OCCUPATIONS.isdisjoint(words)


_REGION_TAIL = re.compile(r" , (?:in )?([a-z]+(?: [a-z]+){0,2}?)(?=$| [.,;:!?]| now\b)")
"""A place after a place, comma-separated: "houston, texas", "bandra, mumbai"."""


def _within_place(tail: str) -> bool:
    """Whether a comma's tail after a place names the larger place it lies in: a region,
    or words none of which is a function word or a verb ("bandra, mumbai"; not "leeds, with
    his gf", "vancouver now, moved")."""
    words = tail.split()
    if words[0] in ("because", "cause", "cuz", "so", "though"):
        return False  # "vancouver , bc": chat's "because" (the place unknown)
    return tail in REGIONS or (
        STOPWORDS.isdisjoint(words) and all(verb(word) is None for word in words)
    )


def compare_slots(first: Iterable[Slot], second: Iterable[Slot]) -> Verdict:
    """Whether two facts' slots conflict, agree, agree in part, or share nothing."""
    mine = {slot.key: slot.value for slot in first}
    theirs = {slot.key: slot.value for slot in second}
    mine = _thing_told(mine, theirs)
    theirs = _thing_told(theirs, mine)
    shared = mine.keys() & theirs.keys()
    if _out_of_work(mine, theirs) or _out_of_work(theirs, mine):
        return Verdict.CONFLICT  # "is unemployed" / "started a job at the warehouse"
    if _clash(mine, theirs) or _clash(theirs, mine):
        return Verdict.CONFLICT  # "lives with her partner" / "split up, on her own"
    if _zone_elsewhere(mine, theirs) or _zone_elsewhere(theirs, mine):
        return Verdict.CONFLICT  # "is on gmt" / "moved to lagos"
    if not shared:
        return Verdict.NONE
    if any(not values_agree(key, mine[key], theirs[key]) for key in shared):
        return Verdict.CONFLICT
    same = mine.keys() == theirs.keys() and all(
        equal_values(key, mine[key], theirs[key]) for key in shared
    )
    return Verdict.AGREE if same else Verdict.PARTIAL


def _out_of_work(slots: dict[str, str], other: dict[str, str]) -> bool:
    """No job on one side, an employer on the other (and no job there to say otherwise)."""
    return (
        slots.get("job") == "none" and "job" not in other
        and other.get("employer", "none") != "none"
    )  # fmt: skip


def _zone_elsewhere(slots: dict[str, str], other: dict[str, str]) -> bool:
    """A time zone on one side, on the other a home in a place of another zone, and no zone
    told there ("is on gmt" / "moved to lagos": West Africa Time)."""
    if "timezone" not in slots or "home" not in other or "timezone" in other:
        return False
    hours = place_offset(other["home"])
    return hours is not None and zone_offset(written(hours)) != slots["timezone"]


def _clash(slots: dict[str, str], other: dict[str, str]) -> bool:
    """Two slots that cannot both hold (``_CLASHES``)."""
    return any(
        slots.get(key) in values and other.get(other_key) in other_values
        for key, values, other_key, other_values in _CLASHES
    )


_CLASHES = (
    ("household", {"partner"}, "status", {"single", "divorced", "widowed"}),
    ("bedtime", {"late"}, "waketime", {"early"}),
    ("job", {"none"}, "hours", {"part", "full"}),
    ("job", {"none"}, "away", {"back"}),
)
"""Values of two slots that cannot both hold: living with a partner, single again ("lives
with her partner" / "split up, on her own"); a night owl, an early riser ("up at 6 now"); out
of work, and working part or full time or back at work ("stay at home mum" / "back to work")."""


def _thing_told(slots: dict[str, str], other: dict[str, str]) -> dict[str, str]:
    """A favourite, a rank or a best told without its thing ("fave is the finals now",
    "finally hit plat", "smashed her pb , ran 3 : 31") as one of the one thing the other fact
    names ("kenta's fave game is apex", "gold
    in league"); a thing told with a typo ("valorent") or a word less ("show" / "tv show") as
    the other fact's."""
    told = dict(slots)
    for kind in ("favorite:", "rank:", "best:", "main:", "main_role:"):
        mine = [key for key in told if key.startswith(kind)]
        things = [key for key in other if key.startswith(kind)]
        if len(mine) != 1 or len(things) != 1 or mine[0] == things[0]:
            continue
        thing, theirs = mine[0][len(kind) :], things[0][len(kind) :]
        if (
            (not thing and kind not in other)
            or (thing and sets_match(frozenset(thing.split()), frozenset(theirs.split())))
            or _one_more_word(thing, theirs)
            or initials(thing.split(), theirs.split())  # "rl" / "rocket league"
            or initials(theirs.split(), thing.split())
            or (kind.startswith("main") and told[mine[0]] == other[things[0]])
        ):  # one character is one game's: "kirby in smash" / "kirby in ssbu"
            told[things[0]] = told.pop(mine[0])
    return told


def _one_more_word(thing: str, theirs: str) -> bool:
    """One thing is the other with a word more before it ("tv show" / "show", "television
    programme" / "programme"): one kind of thing, said more or less precisely."""
    short, long = sorted((thing.split(), theirs.split()), key=len)
    return len(long) == len(short) + 1 and bool(short) and long[1:] == short


def residual(body: str, slots: Iterable[Slot]) -> str:
    """``body`` without the spans of its slots (what the fact says besides them)."""
    kept = body
    for slot in sorted(slots, key=lambda s: s.start, reverse=True):
        kept = kept[: slot.start] + " " + kept[slot.end :]
    return kept


def _key_and_value(pattern: SlotPattern, match: re.Match[str]) -> tuple[str, str]:
    groups = match.groupdict()
    key = pattern.key
    if groups.get("pet"):
        key = f"pet:{PETS[groups['pet']]}"
    elif key in ("age", "rating", "best") and groups.get("thing"):  # "age:son", "best:10k"
        thing = groups["thing"]
        key = f"{key}:{DISTANCES.get(thing, PETS.get(thing, thing))}"  # "pup": "age:dog"
    elif key == "best":  # a best told without its distance: the other fact's (``_thing_told``)
        key = "best:"
    elif key in ("favorite", "rank", "main", "main_role", "of", "name", "language_level"):
        # of a thing: "rank:valorant", "language_level:german"
        words = [_THINGS.get(w, SYNONYMS.get(w, w)) for w in (groups.get("thing") or "").split()]
        if len(words) > 1 and words[-1].isdigit():
            words.pop()  # a game whatever its number: "overwatch 2", "counterstrike 2"
        key = f"{key}:" + " ".join(word for word in words if word not in _NO_THING)
    if pattern.value is not None:
        partner = groups.get("partner") or ""
        return key, f"{pattern.value} {partner}".strip()
    if pattern.key in ("main", "main_role"):  # a name: "support" is no liking
        return key, groups["value"]
    words = [SYNONYMS.get(word, word) for word in groups["value"].split()]
    words += (groups.get("partner") or "").split()  # "ana and jo are engaged": "engaged jo"
    value = " ".join(word for word in words if word not in _DROPPED)
    slot = pattern.key  # the slot itself: ``key`` may name its thing ("rank:valorant")
    if slot in PLACE_KEYS:
        value = without_city(_alias(value, _PLACE_ALIAS))
    elif slot == "job" and value.split()[0] in ("retired", "former"):
        value = "none"  # "a retired teacher" works no more
    elif slot == "job":  # "a licensed pharmacist" is a pharmacist
        value = _alias(
            " ".join(w for w in value.split() if w not in _QUALIFIED) or value, _JOB_ALIAS
        )
    elif slot == "studies":  # "a linguistics phd student" studies linguistics
        subject = " ".join(word for word in value.split() if word not in _DEGREES)
        value = _alias(subject or value, _STUDY_ALIAS)
    elif slot == "timezone":  # "cet" / "gmt 1", "edt" / "utc minus 5"
        value = zone_offset(value)
    elif slot == "best":  # "45 : 02" / "45:02", "52 minutes" / "52:00"
        value = best_time(value)
    elif slot == "pronouns":
        value = PRONOUNS.get(value, value)
    elif slot == "visa":  # "ilr" / "indefinite leave to remain", "ghanaian citizen"
        value = visa_value(value, groups.get("nation"), groups.get("country"))
    elif slot == "phone":  # one phone at a time, by its maker: "iphone" / "apple"
        value = _PHONE_MAKERS.get(value, value)
    elif slot == "input":  # "kbm" / "mouse and keyboard"
        value = INPUTS.get(value, value)
    elif slot == "server":  # "euw" / "eu"
        value = SERVERS.get(value, value)
    elif slot == "shift":  # "nights", "night shift", "overnights": "night" ("days" is a filler)
        value = groups["value"] if groups["value"] in _SHIFTS else groups["value"].rstrip("s")
        value = _SHIFTS.get(value, value)
    elif slot == "commute":
        value = _COMMUTES.get(value.split()[-1], value)
    elif slot in _WRITTEN:  # "cb" / "centre half", "top" / "1st", "davinci" / "resolve"
        value = _WRITTEN[slot](groups["value"])
    elif slot == "hand":  # "lefty" / "left-handed"
        value = "left" if value.startswith("left") else "right"
    elif slot == "rank":  # "plat iv" / "platinum 4"
        value = " ".join(_TIERS.get(word, word) for word in value.split())
    elif slot in COUNTED:
        count, kind = groups.get("count") or "a", _KINDS.get(value, value)
        if count in _ORDINALS:  # "her third baby": her third child
            count, kind = _ORDINALS[count], "child" if kind == "baby" else kind
        if groups.get("among"):  # "1 of 4 children": 3 siblings
            count, kind = str(int(groups["among"]) - 1), "sibling"
        value = f"{count} {kind}"  # "2 brother"
    return key, value


def _alias_pattern(aliases: dict[str, str]) -> re.Pattern[str]:
    names = sorted(aliases, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(name) for name in names) + r")\b")


NO_HOMES = frozenset(POSITIONS) | frozenset(NAMES)
"""What a move is to that is no home: a position, a platform, a program."""
_WRITTEN: dict[str, Callable[[str], str]] = {**SPORT_VALUES, **CREATOR_VALUES, **HOME_VALUES,
                                              **CAREER_VALUES, **MEDIA_VALUES,
                                              **LANGUAGE_VALUES}  # fmt: skip
"""Slots whose values are written one way by a table ("cb" / "centre half", "top" / "1st")."""
_QUALIFIED = frozenset({"licensed", "qualified", "certified", "registered", "trained",
                        "professional", "fully"})  # fmt: skip
"""Words before a job that say it is held by the book, no other job."""
_THINGS = {"cs": "counterstrike", **EXAM_LANGUAGES}
"""A thing ranked or played by its short name ("gold nova in cs": Counter-Strike, no
computer science)."""
_PHONE_MAKERS = {"iphone": "apple", "galaxy": "samsung", "pixel": "google", "redmi": "xiaomi"}
"""A phone by its maker ("galaxy s21": samsung); "android" is any of them but apple."""
_SHIFTS = {"overnight": "night", "graveyard": "night", "late": "evening", "lates": "evening",
           "early": "morning", "earlies": "morning", "earlys": "morning"}  # fmt: skip
"""One name per shift: overnight and graveyard shifts are nights, late ones evenings."""
_COMMUTES = {"cycles": "bike", "cycle": "bike", "bikes": "bike", "bicycle": "bike", "walks": "foot",
             "cycling": "bike", "biking": "bike", "walking": "foot", "driving": "car",
             "drives": "car", "runs": "foot", "tube": "train", "subway": "train",
             "metro": "train", "tram": "train", "rail": "train", "trains": "train",
             "buses": "bus", "busses": "bus", "scoots": "scooter"}  # fmt: skip
"""One name per way to work: "cycles to work" / "goes to work by bike"."""
_TIERS = {"plat": "platinum", "asc": "ascendant", "masters": "master",
          "grandmasters": "grandmaster", "i": "1", "ii": "2", "iii": "3", "iv": "4",
          "v": "5"}  # fmt: skip
_KINDS = {"kid": "child", "kids": "child", "brothers": "brother", "sisters": "sister",
          "siblings": "sibling", "sons": "son", "daughters": "daughter", "babies": "baby",
          **PETS}  # fmt: skip
"""One name for each kind a counted slot holds, after ``SYNONYMS`` ("children" is "kid"
there, "bro" is "brother"): "kids" / "children", "pony" / "horse"."""
_DEGREES = frozenset({"phd", "masters", "master", "msc", "ma", "bsc", "ba", "degree", "doctorate",
                      "undergrad", "postgrad"})  # fmt: skip
_ORDINALS = {"second": "2", "third": "3", "fourth": "4", "fifth": "5"}  # "her third baby"
_PLACE_ALIAS = (_alias_pattern(PLACE_ALIASES), PLACE_ALIASES)
_JOB_ALIAS = (_alias_pattern(JOB_ALIASES), JOB_ALIASES)
_STUDY_ALIAS = (_alias_pattern(STUDY_ALIASES), STUDY_ALIASES)


def _alias(value: str, aliases: tuple[re.Pattern[str], dict[str, str]]) -> str:
    """``value`` with its abbreviations and synonyms written one way ("nyc" → "new york")."""
    pattern, names = aliases
    return pattern.sub(lambda match: names[match.group(0)], value)
