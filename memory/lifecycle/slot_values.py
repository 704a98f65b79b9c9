"""Whether two values of one attribute slot can both hold, or are one value.

    values_agree("home", "texas", "houston") → True
    values_agree("job", "nurse", "teacher") → False
    equal_values("home", "boston", "boston massachusetts") → True

:func:`values_agree` decides a conflict of :func:`memory.lifecycle.slots.compare_slots`;
:func:`equal_values` whether two facts' shared slots say the same. Values are as
:func:`memory.lifecycle.slots.find_slots` writes them: lowercase, abbreviations written out,
counted kinds as "2 brother", "none".
"""

from __future__ import annotations

import re

from memory.lifecycle.places import (
    CITIES,
    COUNTIES,
    COUNTRIES,
    REGIONS,
    US_STATES,
    is_place,
    within_city,
)
from memory.lifecycle.spelling import MIN_COUNT
from memory.lifecycle.word_list import dictionary
from memory.lifecycle.word_match import typos_apart, within, words_match

PLACE_KEYS = frozenset({"home", "origin"})
"""Slots whose values are places."""
COUNTED = frozenset({"siblings", "children", "pets"})
"""Slots whose values are "none" or a kind: every kind can hold beside the others."""
_RELATED_COMPANY = re.compile(r"\b(?:parent|sister|holding|daughter) company\b")
_STATES_AND_COUNTRIES = US_STATES | COUNTRIES
_NATIONS = dict.fromkeys(("england", "scotland", "wales", "northern ireland"), "united kingdom")
"""Countries within a country."""


_DEPUTY = frozenset({"vice", "deputy", "assistant"})
"""Words before a post that make it another one ("deputy head", "assistant manager")."""


def _worker_of(mine: list[str], theirs: list[str]) -> bool:
    """A field of work and who works in it, by their last words' stems ("graphic design" /
    "graphic designer", "teaching" / "teacher", "pharmacy" / "pharmacist")."""
    if len(mine) != len(theirs) or mine[:-1] != theirs[:-1] or mine == theirs:
        return False
    stems = {re.sub(r"(?:er|ing|ist|y)$", "", word) for word in (mine[-1], theirs[-1])}
    return len(stems) == 1 and len(next(iter(stems))) >= 4


def values_agree(key: str, first: str, second: str) -> bool:
    """Two values of one slot can both hold: equal, or one a part of the other ("Boston" /
    "Boston, Massachusetts"), or a place cut short ("melb" / "melbourne"); a relationship
    status also by its partner's name; a home or origin when one is a country, US state or
    large region and the other is not (a city there, as far as the words tell: "Texas" /
    "Houston"; not "Perth, Australia" / "the UK"); a value written apart or by its initials
    ("fulstack" / "ful stack", "start-up" / "startup", "sre" / "site reliability engineer",
    "nyc" / "new york city") or cut short ("vet nurse" / "veterinary nurse", "physio" /
    "physiotherapy"); an engineer and a developer; a field of work and who works in it
    ("graphic design" / "graphic designer"); an android phone and a phone of its makers."""
    if first == second:
        return True
    if key == "status":
        return _statuses_agree(first, second)
    if key in COUNTED:
        return (first == "none") == (second == "none") and not _recounted(first, second)
    if key == "employer" and _RELATED_COMPANY.search(f"{first} {second}"):
        return True  # "facebook's parent company" may be meta: a name is needed
    if key == "visa" and first.startswith("citizen ") and second.startswith("citizen "):
        return True  # two citizenships can both hold: "ghanaian citizen" / "british citizen"
    if key == "phone":  # an android is any phone but an iphone
        return "android" in (first, second) and "apple" not in (first, second)
    mine, theirs = first.replace("-", "").split(), second.replace("-", "").split()
    if key not in PLACE_KEYS:  # "a bubble tea shop" / "a bubble tea place": one employer
        mine, theirs = _unplaced(mine), _unplaced(theirs)
    if key == "job" and _DEPUTY.isdisjoint(mine) != _DEPUTY.isdisjoint(theirs):
        return False  # "vice principal" / "principal": another post
    if within(mine, theirs) or within(theirs, mine):
        return True
    if _written_alike(mine, theirs):
        return True
    if key == "job" and _one_job(first, second):
        return True  # "a software engineer" (a developer) / "works as an engineer"
    if key == "job" and _worker_of(mine, theirs):
        return True  # "a graphic designer" / "her job is graphic design"
    if key not in PLACE_KEYS:
        return False
    if within_city(first, second) or within_city(second, first):
        return True
    short, long = sorted((first, second), key=len)
    if len(short) >= 4 and " " not in short and long.startswith(short):
        return True  # a place cut short: "melb" / "melbourne, aus"
    if _mistyped(first, second):
        return True  # a name mistyped: "izmir" / "izmr", "wellingotn" / "welington"
    if {first, second} & COUNTIES and {first, second} & {"england", "united kingdom"}:
        return True  # "norfolk" / "england"
    if (first in REGIONS) == (second in REGIONS):
        return False
    region, city = (first, second) if first in REGIONS else (second, first)
    named = _country_named(city)
    if region in COUNTRIES and named not in ("", region) and _NATIONS.get(named) != region:
        return False  # "perth australia" / "united kingdom": the city's country is named
    known = CITIES.get(city)  # a well-known city lies in known places, and no others
    return known is None or region in known or region not in _STATES_AND_COUNTRIES


def _country_named(place: str) -> str:
    """The country a place's last words name ("perth australia": "australia"), else ""."""
    words = place.split()
    for size in (2, 1):
        tail = " ".join(words[-size:])
        if len(words) > size and tail in COUNTRIES:
            return tail
    return ""


def equal_values(key: str, first: str, second: str) -> bool:
    """The same value, typos aside ("seatle" / "seattle"); a place also with its region
    named ("boston" / "boston massachusetts")."""
    if key == "status" or first == second:
        return first == second
    mine, theirs = first.split(), second.split()
    if _written_alike(mine, theirs) or (key == "job" and _one_job(first, second)):
        return True  # "a software engineer" (a developer) / "works there as an engineer"
    if key in PLACE_KEYS and len(mine) == len(theirs) == 1:
        return _mistyped(first, second)  # "izmir" / "izmr"; not "york" / "cork"
    if len(mine) == len(theirs):
        return within(mine, theirs) and within(theirs, mine)
    if key not in PLACE_KEYS:
        return False
    short, long = (mine, theirs) if len(mine) < len(theirs) else (theirs, mine)
    if not within(short, long):
        return False  # "Boston" / "Boston Massachusetts": the rest names the region
    rest = " ".join(word for word in long if not any(words_match(word, s) for s in short))
    return rest in REGIONS or (
        len(rest) >= 5 and any(typos_apart(rest, region) <= 1 for region in REGIONS)
    )  # "vienna austira"


_ONE_JOB = (
    frozenset({"engineer", "developer"}),
    frozenset({"cook", "chef"}),
    frozenset({"courier", "delivery driver"}),
    frozenset({"bricklayer", "brickie"}),
    frozenset({"electrician", "sparky", "sparkie"}),
    frozenset({"firefighter", "fireman", "firewoman"}),
    frozenset({"postman", "postie", "postwoman", "mail carrier", "postal worker"}),
)
"""Names of one job."""


def _one_job(first: str, second: str) -> bool:
    """Two names of one job, typos aside ("electrition" / "sparky")."""
    return any(_named(first, names) and _named(second, names) for names in _ONE_JOB)


def _named(value: str, names: frozenset[str]) -> bool:
    return value in names or (" " not in value and any(words_match(value, n) for n in names))


def _written_alike(mine: list[str], theirs: list[str]) -> bool:
    """One value written apart or by its initials: "fulstack" / "ful stack", "pm" / "product
    manager"."""
    if "".join(mine) == "".join(theirs) or initials(mine, theirs) or initials(theirs, mine):
        return True
    return len(mine) == len(theirs) and _shortened(mine, theirs)


def _shortened(mine: list[str], theirs: list[str]) -> bool:
    """Word for word the same, some words cut short by three letters or more: "vet nurse" /
    "veterinary nurse", "physio" / "physiotherapy" (a cut of three letters only beside a word
    written whole: "car" is no "carpenter")."""
    pairs = [sorted((first, second), key=len) for first, second in zip(mine, theirs, strict=True)]
    cut = [(short, long) for short, long in pairs if short != long]
    if not cut or not all(
        len(short) >= 3
        and len(long) >= len(short) + 3
        and long.startswith(short)
        and long.isalpha()
        for short, long in cut
    ):
        return False
    return len(cut) < len(pairs) or all(len(short) > 3 for short, _ in cut)


def initials(short: list[str], words: list[str]) -> bool:
    """``short`` is one word, the initials of ``words`` ("sre", "nyc")."""
    return len(short) == 1 and len(words) > 1 and short[0] == "".join(w[0] for w in words)


_VENUES = frozenset(("shop", "place", "spot", "joint", "store"))
"""Words naming no one venue of its kind: "works at the bubble tea place"."""


def _unplaced(words: list[str]) -> list[str]:
    rest = [word for word in words if word not in _VENUES]
    return rest or words


def _recounted(first: str, second: str) -> bool:
    """Two counts, told in numbers, of the same children, siblings or pets ("has 2 kids" / "3
    kids now", "3 cats" / "down to 2 cats", "2 cats" / "1 cat left"); not "has a son" / "has
    a daughter", other ones, nor "has 2 sons" / "her eldest son", one of them, nor "has a cat"
    / "has 2 cats": "a cat" is no count, and may tell the first one still had."""
    mine, theirs = first.split(" ", 1), second.split(" ", 1)
    if len(mine) != 2 or len(theirs) != 2 or mine[1] != theirs[1]:
        return False
    if not (mine[0].isdigit() and theirs[0].isdigit()):
        return False
    counts = int(mine[0]), int(theirs[0])
    return counts[0] != counts[1]


_ONCE_MARRIED = frozenset({"divorced", "widowed", "separated"})
_COURTING = frozenset({"dating", "engaged"})


def _statuses_agree(first: str, second: str) -> bool:
    status_a, _, partner_a = first.partition(" ")
    status_b, _, partner_b = second.partition(" ")
    if partner_a and partner_b and partner_a != partner_b:
        return False
    if status_a in _ONCE_MARRIED and status_b in _COURTING and not (partner_a and partner_b):
        return True  # "is divorced" / "is dating someone new": both hold (not the other way)
    return status_a == status_b


def _mistyped(first: str, second: str) -> bool:
    """One place's name, mistyped: "izmir" / "izmr" (a typo from 4 letters, two from 8, or
    two when neither is a word in use nor a town we know: "pertth" / "perht")."""
    short = min(len(first), len(second))
    if short < 4:
        return False
    known = is_place(first), is_place(second)
    if all(known):
        return False  # two towns we know
    uses = dictionary().uses([first, second])
    if not any(known) and min(uses) >= MIN_COUNT:
        return False  # two words in use, neither a town we know: "york" / "cork"
    unknown = not any(known) and max(uses) < MIN_COUNT
    return typos_apart(first, second) <= (2 if short >= 8 or unknown else 1)
