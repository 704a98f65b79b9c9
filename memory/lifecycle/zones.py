"""Time zones named in words, rewritten to the abbreviation or offset the time-zone slot reads
(:mod:`memory.lifecycle.zone_patterns`): by their own names ("pacific time", "central european
time": :data:`ZONE_NAMES`) and by a place ("amsterdam time", "on london time", "the same clock
as new york", "the time of paris": :func:`place_offset`).

A place's zone is its offset from UTC in standard time: a country or state of one zone has
it (:data:`PLACE_OFFSETS`), and so has a town in one (the towns table of
:mod:`memory.lifecycle.places`: "amsterdam" lies in the Netherlands); a country of several
zones has none, only its states and largest cities ("toronto" has, "canada" has not). A town
whose name lies in places of different zones ("athens": Greece and Georgia) has none;
"washington" and "georgia" name a state and a city or country, so they have none either.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.lifecycle.lexicon import _names
from memory.lifecycle.places import CITIES, PLACE_ALIASES

ZONE_NAMES = {
    "pacific": "pst", "us pacific": "pst", "eastern": "est", "us eastern": "est",
    "east coast": "est", "west coast": "pst",
    "central": "cst", "us central": "cst", "mountain": "mst", "atlantic": "ast",
    "alaska": "akst", "hawaii": "hst", "uk": "utc", "british": "utc", "european": "cet",
    "central european": "cet", "eastern european": "eet", "western european": "wet",
    "india": "ist", "indian": "ist", "japan": "jst", "japanese": "jst", "korea": "kst",
    "korean": "kst", "moscow": "msk", "brazil": "brt", "finnish": "eet", "greek": "eet",
    "german": "cet", "french": "cet", "spanish": "cet", "italian": "cet", "australian eastern":
    "aest", "philippine": "pht", "singapore": "sgt", "hong kong": "hkt", "gulf": "gst",
    "new zealand": "nzst", "turkish": "trt", "turkey": "trt", "greenwich mean": "utc",
    "west africa": "wat", "west african": "wat", "south africa": "sast", "south african": "sast",
    "aussie east coast": "aest", "australian east coast": "aest", "eu": "cet", "dutch": "cet",
    "polish": "cet", "swedish": "cet", "norwegian": "cet", "danish": "cet", "irish": "utc",
    "portuguese": "utc", "chinese": "utc 8", "thai": "ict", "vietnamese": "ict",
    "indochina": "ict", "brasilia": "brt", "central europe": "cet",
}  # fmt: skip
"""Time zones named before "time" ("pacific time", "central european time"), and their
abbreviation (or offset: "chinese" is "utc 8"): the one name a zone is read as."""


def _offsets(hours: float, text: str) -> dict[str, float]:
    return dict.fromkeys(_names(text), hours)


PLACE_OFFSETS = {
    **_offsets(0, "united kingdom, england, scotland, wales, northern ireland, ireland, "
                  "portugal, iceland, ghana, senegal"),
    **_offsets(1, "france, germany, spain, italy, netherlands, belgium, luxembourg, "
                  "switzerland, austria, poland, czechia, slovakia, hungary, croatia, slovenia, "
                  "serbia, bosnia, albania, denmark, norway, sweden, malta, nigeria, cameroon, "
                  "algeria, tunisia, morocco"),
    **_offsets(2, "finland, estonia, latvia, lithuania, greece, romania, bulgaria, ukraine, "
                  "moldova, cyprus, israel, lebanon, egypt, south africa, zimbabwe, zambia"),
    **_offsets(3, "turkey, russia, belarus, saudi arabia, iraq, jordan, syria, qatar, kuwait, "
                  "kenya, ethiopia, tanzania, uganda, somalia, moscow, st petersburg"),
    **_offsets(3.5, "iran"),
    **_offsets(4, "united arab emirates, oman, armenia, azerbaijan"),
    **_offsets(5, "pakistan, uzbekistan, kazakhstan"),
    **_offsets(5.5, "india, sri lanka"),
    **_offsets(6, "bangladesh"),
    **_offsets(7, "thailand, vietnam, cambodia, laos, jakarta"),
    **_offsets(8, "china, hong kong, taiwan, singapore, malaysia, philippines, western australia, "
                  "perth"),
    **_offsets(9, "japan, south korea, korea"),
    **_offsets(9.5, "south australia, northern territory, adelaide, darwin"),
    **_offsets(10, "new south wales, victoria, queensland, tasmania, sydney, melbourne, "
                   "brisbane, canberra, hobart, gold coast"),
    **_offsets(12, "new zealand, fiji"),
    **_offsets(-3, "brazil, argentina, uruguay"),
    **_offsets(-4, "chile, venezuela, bolivia, puerto rico, nova scotia, halifax"),
    **_offsets(-5, "colombia, peru, ecuador, cuba, jamaica, panama, new york, florida, "
                   "massachusetts, pennsylvania, ohio, michigan, virginia, "
                   "north carolina, south carolina, new jersey, maryland, connecticut, maine, "
                   "vermont, new hampshire, rhode island, delaware, west virginia, ontario, "
                   "quebec, toronto, montreal, ottawa, boston, atlanta, miami, detroit"),
    **_offsets(-6, "mexico, guatemala, costa rica, texas, illinois, minnesota, wisconsin, iowa, "
                   "missouri, louisiana, alabama, mississippi, arkansas, oklahoma, manitoba, "
                   "chicago, houston, dallas, austin, new orleans, winnipeg, nashville"),
    **_offsets(-7, "colorado, arizona, utah, new mexico, montana, wyoming, alberta, denver, "
                   "phoenix, calgary, edmonton"),
    **_offsets(-8, "california, oregon, nevada, british columbia, seattle, portland, "
                   "los angeles, san francisco, vancouver, las vegas"),
    **_offsets(-9, "alaska"),
    **_offsets(-10, "hawaii"),
}  # fmt: skip
"""Offsets from UTC in standard time of the countries and states of one zone, and of the
largest cities of countries of several (the United States, Canada, Australia, Russia)."""


@lru_cache(maxsize=4096)
def place_offset(name: str) -> float | None:
    """The offset from UTC of the place ``name`` ("amsterdam": 1, "nyc": -5), or None when
    the tables do not know it or it lies in places of different zones."""
    name = PLACE_ALIASES.get(name, name)
    if name in PLACE_OFFSETS:
        return PLACE_OFFSETS[name]
    offsets = {PLACE_OFFSETS.get(place) for place in CITIES.get(name, ())} - {None}
    return offsets.pop() if len(offsets) == 1 else None


def written(hours: float) -> str:
    """An offset as the time-zone slot reads it: "utc", "utc 1", "utc minus 5", "utc 5 : 30"."""
    whole, half = int(abs(hours)), abs(hours) % 1
    told = f"{whole} : {int(half * 60):02d}" if half else str(whole)
    return "utc" if hours == 0 else f"utc {'minus ' if hours < 0 else ''}{told}"


_BEFORE_PLACE = frozenset({"on", "in", "to", "follows", "uses", ".", ":", ",", "-"})
"""What may come before a place naming a zone ("on london time", "nadira . new york time"):
a place's name is often a word too ("nice time", "bath time")."""

ZONE_NAME = r"\b((?:[\w.:,-]+ ){0,3}[\w-]+) (?:standard )?(?:time(?: ?zone)?|tz)\b"
"""A zone named before "time", "timezone" or "tz", with up to three words before it."""


def zone(match: re.Match[str]) -> str:
    """The zone ``ZONE_NAME`` matched, as an abbreviation or offset, after the words before
    it; the match as it was when its last words name no zone."""
    words = match.group(1).split()
    if words[-1] == "standard" and len(words) > 1:
        words.pop()  # "indian standard time"
    for start in range(max(len(words) - 3, 0), len(words)):
        name, before = " ".join(words[start:]), words[:start]
        if name in ZONE_NAMES:
            return " ".join([*before, ZONE_NAMES[name]])
        after_subject = len(before) == 1 and match.start() == 0  # "tobi - lagos time"
        hours = (
            place_offset(name)
            if before and (before[-1] in _BEFORE_PLACE or after_subject)
            else None
        )
        if hours is not None:
            return " ".join([*before, written(hours)])
    return match.group(0)


CLOCK_OF_PLACE = r"\bthe (?:same )?(?:time|clock) (?:of|as|in) ((?:[\w-]+ ){0,2}[\w-]+)"
"""A zone told by a place: "the same clock as new york", "the time of paris"."""


def clock_of_place(match: re.Match[str]) -> str:
    """The place's zone ``CLOCK_OF_PLACE`` matched, and the words after it; the match as it
    was when no first words name a place of one zone."""
    words = match.group(1).split()
    for end in range(len(words), 0, -1):
        hours = place_offset(" ".join(words[:end]))
        if hours is not None:
            return " ".join([written(hours), *words[end:]])
    return match.group(0)


_TZ_DATABASE = re.compile(
    r"\b(?:europe|america|asia|africa|australia|pacific|atlantic|indian)(?:/[a-z]+)?/([a-z_]+)\b"
)
"""A zone by its name in the tz database, as computers write it: "Europe/Madrid",
"America/New_York", "America/Argentina/Buenos_Aires"."""


def tz_database_zones(text: str) -> str:
    """Lowercase ``text`` with each zone named as the tz database names it read as its offset
    from UTC ("europe/madrid" → "utc 1"), where the tables know its city."""
    if "/" not in text:
        return text

    def offset(match: re.Match[str]) -> str:
        hours = place_offset(match.group(1).replace("_", " "))
        return match.group(0) if hours is None else written(hours)

    return _TZ_DATABASE.sub(offset, text)
