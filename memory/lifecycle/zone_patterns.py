"""The patterns of a member's time zone (:mod:`memory.lifecycle.slots`), and the offset each
zone is compared by. Built as the patterns of :mod:`memory.lifecycle.slot_patterns` are.

A zone is read by its abbreviation ("pacific time" is read "pst", "gmt+3" "gmt 3", "gmt-5"
"utc minus 5", "3 hours ahead of utc" "utc 3": :mod:`memory.lifecycle.phrases`) and compared
by its offset from UTC in standard time (:func:`zone_offset`): "gmt+1" is "cet", "utc+0" is
"gmt", "edt" is "est". Two zones of one offset are one ("kst" / "jst"): what a member's
zone tells is when they are awake.
"""

from __future__ import annotations

import re

from memory.lifecycle.lexicon import ZONE_ABBREVIATIONS
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern, one_of
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_ADVERBS = r"(?:(?:now|still|currently|usually|mostly|basically) )*"
_ZONE = (
    r"(?P<value>(?:utc|gmt)(?: minus)?(?: \d{1,2}(?: : [0-5]\d)?)?|"
    + one_of(ZONE_ABBREVIATIONS - {"utc", "gmt"})
    + ")"
)
"""A time zone by its abbreviation (see the module's docstring)."""
A_ZONE = re.compile(_ZONE)
"""A zone, as a whole value: "lives in cet" is no home (``fullmatch``)."""
_ZONE_END = (
    r"(?: (?:time ?zone|tz|time))?(?: \(? ?(?:utc|gmt)(?: minus)? \d{1,2}(?: : [0-5]\d)?(?: \))?)?"
    r"(?: gang)?(?=$| [.,;:!?()]| (?:now|since|because|cuz|lol|tbh"
    r"|fr|ngl|rn|as|after|following|while|like|for)\b)"
)
_ZONE_WORD = r"(?:local )?(?:time ?zone|tz|time)"
"""What names a zone: "timezone", "tz", "local time". After a zone's name, its offset may follow
(``_ZONE_END``: "trt utc 3", "ict ( utc 7 )")."""
_OWNER = r"(?:his|her|their|my)"

ZONE_PATTERNS: tuple[SlotPattern, ...] = (
    _p("timezone", rf"{_S}{_ADVERBS}(?:is |lives |plays |(?:is {_ADVERBS})?based )?(?:now )?"
                   rf"(?:in|on) "
                   rf"(?:like )?(?:the )?{_ZONE}"
                   rf"{_ZONE_END}"),
    _p("timezone", rf"{_S}'s {_ZONE_WORD} (?:is|:) (?:now )?{_ZONE}{_ZONE_END}"),
    _p("timezone", rf"{_S}{_ADVERBS}(?:uses|follows|works (?:on|in)) (?:the )?{_ZONE}"
                   rf"{_ZONE_END}"),  # "uses cet", "works in the utc minus 3 time zone"
    _p("timezone", rf"{_S}(?:[.:,-] |is )?(?:now )?{_ZONE}{_ZONE_END}"),  # "erik is utc-5 now"
    _p("timezone", rf"{_s_if(' on ')}(?:\S+ ){{1,10}}?on (?:the )?{_ZONE}{_ZONE_END}"),
    _p("timezone", rf"{_s_if(' now$')}(?:\S+ ){{1,6}}?{_ZONE}(?: gang)?(?= now$)"),
    # "relocated , gmt now", "est gang now"
    _p("timezone", rf"{_s_if(' (?:time ?zone|tz|time) ')}(?:\S+ ){{0,6}}?{_OWNER} {_ZONE_WORD}"
                   rf" (?:is|:) (?:now )?{_ZONE}{_ZONE_END}"),
    # "is in the timezone cet", "uses cet as her timezone", "in vancouver now so pacific time"
    _p("timezone", rf"{_s_if('zone|tz')}(?:\S+ ){{0,4}}?(?:time ?zone|tz) (?:is |: |= )?"
                   rf"(?:now )?{_ZONE}{_ZONE_END}"),
    _p("timezone", rf"{_s_if(' as ')}(?:\S+ ){{0,3}}?uses (?:the )?{_ZONE}(?: \S+)? as "
                   rf"{_OWNER} {_ZONE_WORD}\b"),
    _p("timezone", rf"{_s_if(' so ')}(?:\S+ ){{1,8}}?so (?:on |in )?(?:the )?{_ZONE}{_ZONE_END}"),
    _p("timezone", rf"{_s_if(' , ')}(?!'s )(?:\S+ ){{1,6}}?, (?:now )?{_ZONE}{_ZONE_END}"),
    # "in london now , utc 0"
)  # fmt: skip
"""What fills the time-zone slot (its ``value`` group)."""

_SUMMER = {"pdt": "pst", "edt": "est", "cdt": "cst", "mdt": "mst", "bst": "utc", "cest": "cet",
           "eest": "eet", "aedt": "aest", "nzdt": "nzst"}  # fmt: skip
"""Summer time as its zone ("pdt" is Pacific time)."""
_OFFSETS = {
    "utc": 0, "wet": 0, "cet": 1, "wat": 1, "eet": 2, "sast": 2, "msk": 3, "gst": 4,
    "trt": 3, "ict": 7, "wib": 7, "sgt": 8, "hkt": 8, "pht": 8, "awst": 8, "jst": 9, "kst": 9,
    "aest": 10, "nzst": 12, "brt": -3, "ast": -4, "est": -5, "cst": -6, "mst": -7,
    "pst": -8, "akst": -9, "hst": -10,
}  # fmt: skip
"""Hours from UTC in standard time."""
_HALF_HOURS = {"ist": "utc+5:30"}
"""Zones half an hour off."""


def zone_offset(value: str) -> str:
    """The one name of a zone as read ("gmt 1", "cet", "cest", "utc minus 5", "est"): its
    offset from UTC, "utc+1", "utc-5"."""
    value = _SUMMER.get(value, value).replace("gmt", "utc").replace(" : ", ":")
    if value in _HALF_HOURS:
        return _HALF_HOURS[value]
    if value in _OFFSETS:
        hours = _OFFSETS[value]
        return f"utc{'-' if hours < 0 else '+'}{abs(hours)}"
    if value == "utc":
        return "utc+0"
    value = value.replace(" minus ", "-").replace("utc ", "utc+")
    return value.replace("+-", "-").replace("-0", "+0")
