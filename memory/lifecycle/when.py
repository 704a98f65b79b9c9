"""When a fact says something holds: the dates of an event, frequencies and days of the week.

:func:`split_dates` takes a normalised fact's dates and frequencies out of it: an event's
dates ("on 7 May 2023", "last week", "on tuesday") are returned, as they tell two occurrences
of one kind of event apart; stamps of a state ("as of 3 May 2023") and frequencies ("every
morning", "3x a week", "four days a week", "tuesday and thursday", "weekends") are dropped.
:func:`days_named` reads the days of the week a fact names, dates and frequencies included;
:func:`tells_how_often` finds the words of how often among a fact's words ("3x", "weekly");
:func:`parts_of_day` the parts of the day it names ("in the mornings", "6am", "after work"; "3
in the morning" is the night); :func:`apart` whether two facts hold on other days, or at
other parts of the day.
:func:`spelled_days` writes chat's short days out where they are days ("every sat", "sat and
sun", "mon-fri"), not where they are words ("sat on the sofa", "the sun").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.lifecycle.lexicon import DATE_WORDS, MONTHS, WEEKDAYS

_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d\d"
_MONTH = rf"(?:{MONTHS})"
_CALENDAR = (
    rf"(?:{_DAY} (?:of )?{_MONTH}(?: {_YEAR})?|{_MONTH} {_DAY}(?: {_YEAR})?"
    rf"|{_MONTH} {_YEAR}|(?<!\ba )(?<!\ban ){_YEAR})"  # "a 2060" is a thing, no year
)
_COUNT = r"(?:\d+|a|a few|few|a couple of|couple of|several)"
_UNIT = r"(?:days?|nights?|weeks?|weekends?|months?|years?)"
_RELATIVE = (
    rf"(?:yesterday|today|tonight|tomorrow|tmrw|last night"
    rf"|(?:this|last|next) (?:morning|afternoon|evening|night|week|weekend|month|year"
    rf"|{WEEKDAYS})|{_COUNT} {_UNIT} ago)"
)
_NOT_NAMING = (
    r"(?:mornings?|afternoons?|evenings?|nights?|at|and|or|to|for|with|in|on|the|after|before|when"
    r"|while|so|but|because|lol|now|too|again|last|this|next|he|she|they|i)\b"
)
"""After a day of the week, words that leave it a date; any other names something by the day
("the server's wednesday drawing circle"), no date."""
_DAY_LIST = rf"(?:{WEEKDAYS})s?(?:(?: ,)?(?: and| or| to| through)? (?:{WEEKDAYS})s?)"
"""Two days of the week or more ("tuesday and thursday", "saturday sunday"): a routine."""
_TIMES = r"(?:once|twice|\d+ ?x|\d+ (?:times|days|nights|mornings|evenings))"
"""How often, before its period ("3x", "four days" once number words are digits)."""
_STAMP = re.compile(
    rf"\b(?:as of|by) (?:{_CALENDAR}|{_RELATIVE}|now)\b"
    rf"|\bas of (?:mon|tue|wed|thu|fri|sat|sun|{WEEKDAYS})\b"
)
_EVENT_DATE = re.compile(
    rf"\b(?:(?:on|in|during|since|from|until|the (?:week|weekend|month) of) )?"
    rf"(?P<date>(?:{_COUNT} {_UNIT} (?:before|after) )?"
    rf"(?:{_CALENDAR}|{_RELATIVE}|(?:{WEEKDAYS})(?!s? (?!{_NOT_NAMING})\w)|(?<=in ){_MONTH}))\b"
)
_FREQUENCY = re.compile(
    rf"\b(?:(?:every|evry|evrey|each) (?:other |single )?(?:{_DAY_LIST}+"
    rf"|day|morning|night|evening|afternoon|week|weekend|month|year|summer|winter|spring"
    rf"|autumn|fall|{WEEKDAYS})s?"
    rf"|most (?:days|nights|mornings|evenings|weekends)"
    rf"|{_TIMES} (?:a |per |each |every )?(?:day|week|month|year)"
    rf"|{_TIMES} (?:daily|weekly|monthly)|(?:on|at) weekends|weekends|weekdays"
    rf"|in the (?:mornings?|evenings?|afternoons?)|at night|(?:a|per) (?:day|night|week|month"
    rf"|shift)"
    rf"|daily|nightly|weekly|(?:on )?{_DAY_LIST}+|(?:on )?(?:{WEEKDAYS})s|on a (?:{WEEKDAYS})"
    # and how long a habit has been left:
    rf"|(?:a lot|loads|nonstop|non-stop|24 7|all the time|constantly|religiously)"
    rf"(?= [,.;:!?]|$)"  # how much, at a clause's end: "plays fifa loads"
    rf"|in (?:(?:\d+|several|a few|many) )?(?:months|weeks|years|ages|a while|forever|days)"
    rf"|since (?:(?:the|his|her|their|my) )?(?:[a-z]+ ){{0,3}}?[a-z]+(?= [,.;:!?]|$))\b"
)
_SPACES = re.compile(r"\s+")
_FULL_DAYS = WEEKDAYS.split("|")
_DAYS = {**{form: (day[:3],) for day in _FULL_DAYS for form in (day, day + "s")},
         "weekend": ("sat", "sun"), "weekends": ("sat", "sun"),
         "weekdays": ("mon", "tue", "wed", "thu", "fri")}  # fmt: skip
_INSTEAD = re.compile(r"\binstead of (?:\w+ )?\w+")  # "on wednesdays now instead of sundays"
_DATE_HINTS = DATE_WORDS | {"last", "this", "next", "every", "each", "most", "once", "twice",
                            "evry", "evrey", "daily", "nightly", "weekly", "night",
                            "weekends", "weekdays", "days", "weeks", "months", "years", "nights",
                            "since", "ages", "while", "forever", "lot", "loads", "nonstop",
                            "non-stop", "time", "constantly", "religiously"}  # fmt: skip
"""A text holding none of these (and no number) has no date or frequency to take out."""

_FREQUENCY_WORDS = frozenset(("per", "times", "once", "twice", "daily", "nightly", "weekly",
                              "monthly", "weekends", "weekdays"))  # fmt: skip
"""Words of how often, which name no content of a fact ("every" may: "owns every game")."""
_EVERY = frozenset(("every", "evry", "evrey", "each"))
_TIMES_TOLD = re.compile(r"\d+x")
"""How often, as chat writes it: "3x" (a week)."""

_SHORT = {day[:3]: day for day in _FULL_DAYS}
_SHORT_DAY = re.compile(r"(?<![\w'-])(mon|tue|wed|thu|fri|sat|sun)(s?)(?![\w'])")
_BEFORE_A_DAY = frozenset(("every", "each", "evry", "evrey", "on", "till", "until"))
_JOINS = frozenset(("and", "or", "to", "through", ","))
_RANGE = re.compile(
    r"(?<![\w'-])(mon|tue|wed|thu|fri|sat|sun)[a-z]*-(mon|tue|wed|thu|fri|sat|sun)[a-z]*(?![\w'])"
)


def _is_day(word: str) -> bool:
    return word.rstrip("s") in _SHORT or word.rstrip("s") in _FULL_DAYS


def _spelled_day(match: re.Match[str]) -> str:
    text = match.string
    before = text[: match.start()].split()[-2:]
    after = text[match.end() :].split()[:2]
    beside = [before[-1:], after[:1]]  # a day named beside it, or past a join
    if before and before[-1] in _JOINS:
        beside.append(before[-2:-1])
    if after and after[0] in _JOINS:
        beside.append(after[1:2])
    if (before and before[-1] in _BEFORE_A_DAY) or any(
        word and _is_day(word[0]) for word in beside
    ):
        return _SHORT[match.group(1)] + match.group(2)
    return match.group(0)


def _range(match: re.Match[str]) -> str:
    first, last = (_FULL_DAYS.index(_SHORT[match.group(index)]) for index in (1, 2))
    days = _FULL_DAYS[first : last + 1] if first < last else [_FULL_DAYS[first], _FULL_DAYS[last]]
    return " ".join(days)


def spelled_days(normalised: str) -> str:
    """``normalised`` with short days written out where they are days: after "every" or
    "on", beside another day ("sat sun", "tue and thu"), and a range's every day ("mon-fri":
    monday to friday)."""
    if "-" in normalised:
        normalised = _RANGE.sub(_range, normalised)
    return _SHORT_DAY.sub(_spelled_day, normalised)


def tells_how_often(tokens: Sequence[str], index: int) -> bool:
    """Whether ``tokens[index]`` says how often, no content of the fact: "weekly", "3x",
    "every" before a day or another date word ("every thursday"; not "every game")."""
    token = tokens[index]
    if token in _FREQUENCY_WORDS or _TIMES_TOLD.fullmatch(token):
        return True
    return token in _EVERY and index + 1 < len(tokens) and tokens[index + 1] in DATE_WORDS


def split_dates(normalised: str) -> tuple[str, frozenset[str]]:
    """The text without its dates and frequencies, and the dates of events it names."""
    words = normalised.split()
    if not any(word in _DATE_HINTS or word[0].isdigit() for word in words):
        return normalised, frozenset()  # no date, no frequency: skip the patterns
    text = _STAMP.sub(" ", normalised)
    text = _FREQUENCY.sub(" ", text)
    dates = frozenset(match.group("date") for match in _EVENT_DATE.finditer(text))
    if dates:
        text = _EVENT_DATE.sub(" ", text)
    return _SPACES.sub(" ", text).strip(" ,"), dates


def apart(first: frozenset[str], second: frozenset[str]) -> bool:
    """Whether two facts' days (:func:`days_named`) or parts of the day (:func:`parts_of_day`)
    are named on both sides, none in common: "wfh mon/fri" / "in the office tue-thu", "streams
    every friday" / "moved to sundays", "runs in the mornings" / "at night now"."""
    return bool(first) and bool(second) and not first & second


def days_named(normalised: str) -> frozenset[str]:
    """The days of the week a normalised fact names ("on fridays": fri; "weekends": sat and
    sun), but not the ones it has left ("instead of sundays")."""
    rest = _INSTEAD.sub("", normalised) if "instead" in normalised else normalised
    days = {day for word in rest.split() for day in _DAYS.get(word, ())}
    for first, last in _DAY_RANGE.findall(rest):  # "monday to friday": the days between too
        start, end = _WEEK.index(first[:3]), _WEEK.index(last[:3])
        days.update(_WEEK[start : end + 1] if start <= end else ())
    return frozenset(days)


_WEEK = tuple(day[:3] for day in _FULL_DAYS)
_DAY_RANGE = re.compile(rf"\b({WEEKDAYS})s? (?:to|through|thru|till|til|until|-) ({WEEKDAYS})s?\b")


_PART_WORDS = {"morning": "morning", "mornings": "morning", "afternoon": "afternoon",
               "afternoons": "afternoon", "lunchtime": "afternoon", "lunchtimes": "afternoon",
               "lunch": "afternoon",
               "evening": "evening", "evenings": "evening", "night": "night", "nights": "night",
               "nightly": "night"}  # fmt: skip
_PART_LEFT = re.compile(
    r"\b(?:not|instead of|no more|no longer|rather than|than|can not \w+) (?:in |at )?(?:the )?"
    r"(?:(?:morning|afternoon|lunchtime|evening|night)s?|\d{1,2} ?[ap]m)\b"
)
"""A part of the day or an hour left ("not mornings", "no more 6am sessh", "can not run at
lunchtime"): no part the fact names now."""


def leaves_a_part(normalised: str) -> bool:
    """Whether a fact tells a part of the day or an hour left (:data:`_PART_LEFT`): its
    negation is of the time left, not of what is done ("gym after work now , not mornings")."""
    return _PART_LEFT.search(normalised) is not None


_PART_HOUR = re.compile(
    r"\b(\d{1,2})(?: : \d\d)? ?(am|pm|a \. m|p \. m|in the morning|in the afternoon"
    r"|in the evening|at night)\b"
)
"""An hour, and which half of the day it is in ("3 in the morning" is am: the small hours)."""
_HALVES = {"a . m": "am", "in the morning": "am", "p . m": "pm", "in the afternoon": "pm",
           "in the evening": "pm", "at night": "pm"}  # fmt: skip
_WORK_SIDE = {"before work": "morning", "after work": "evening"}


def _part_of_hour(hour: int, half: str) -> str:
    half = _HALVES.get(half, half)
    if half == "am":
        return "night" if hour < 5 or hour == 12 else "morning"
    hour %= 12
    return "afternoon" if hour < 5 else "evening" if hour < 9 else "night"


def parts_of_day(normalised: str) -> frozenset[str]:
    """The parts of the day a normalised fact names ("in the mornings", "6am", "after work":
    morning, morning, evening), but not the ones it has left ("not mornings", "instead of
    evenings")."""
    if not any(word in _PART_WORDS or word[0].isdigit() for word in normalised.split()) and (
        " work" not in normalised
    ):
        return frozenset()
    rest = _PART_LEFT.sub(" ", normalised)
    hours = {_part_of_hour(int(hour), half) for hour, half in _PART_HOUR.findall(rest)}
    rest = _PART_HOUR.sub(" ", rest)  # "3 in the morning" names an hour, not the morning
    parts = hours | {_PART_WORDS[word] for word in rest.split() if word in _PART_WORDS}
    parts |= {part for said, part in _WORK_SIDE.items() if said in rest}
    return frozenset(parts)
