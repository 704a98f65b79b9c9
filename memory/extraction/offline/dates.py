"""Relative dates resolved against the time a message was written.

"I went to a support group yesterday", written on 8 May 2023, says when: on 7 May 2023. A
fact must say it too, or "yesterday" means whatever day the fact is read. Each phrase is
replaced by an absolute date or range, with the preposition it needs unless the sentence
already has one ("since last year" → "since 2022"):

yesterday, today, tonight, this morning, last night, tomorrow, the day before yesterday,
the other day, N days / weeks / months / years ago, a few days ago, last / this / next week,
weekend, month, year, summer, winter, spring, autumn / fall, last / this / next Monday …
Sunday, on Monday (the one before, in a past-tense sentence), in N days / weeks.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "couple": 2,
           "a couple of": 2, "few": 3, "a few": 3, "several": 3}  # fmt: skip
_COUNT = (
    r"(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few|"
    r"couple of|few|several)"
)
_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_WEEKDAY = (
    r"mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|"
    r"sat(?:urday)?|sun(?:day)?"
)
_PREPOSITION = re.compile(
    r"\b(?:since|until|till|before|after|by|from|of|on|in|at|during|over|for)\s*$", re.I
)
_PHRASE = re.compile(
    r"\b(?:"
    r"(?P<before_yesterday>the day before yesterday)"
    r"|(?P<yesterday>yesterday|last night|yday|yest)"
    r"|(?P<today>today|tonight|this morning|this afternoon|this evening|earlier today)"
    r"|(?P<tomorrow>tomorrow|tmrw|tmr)"
    r"|(?P<other_day>the other day)"
    rf"|(?P<ago_n>{_COUNT})\s+(?P<ago_unit>day|weekend|week|month|year)s?\s+ago"
    rf"|in\s+(?P<in_n>{_COUNT})\s+(?P<in_unit>day|week|month)s?"
    rf"|(?P<rel>last|this|next|past)\s+(?P<unit>weekend|week|month|year|"
    rf"spring|summer|autumn|fall|winter|{_WEEKDAY})"
    rf"|(?P<on>on)\s+(?P<on_day>{_WEEKDAY})"
    rf"|(?P<month_rel>last|next|this|in)\s+(?P<month>{_MONTH})(?!\s+\d)"
    r")\b(?!\s+(?:ago|before|after)\b)",
    re.I,
)

TIME_LEAD = re.compile(
    r"(?:yesterday|yday|today|tonight|tomorrow|the other day|earlier|later|once|back|"
    r"recently|lately|after|before|since|during|until|on|in|at|by|over"
    rf"|(?:last|this|next|past|coming)\s+(?:(?:few|couple(?:\s+of)?)\s+)?"
    rf"(?:(?:week|weekend|month|year|day|night)s?|morning|afternoon|evening|time|spring|"
    rf"summer|autumn|fall|winter|{_WEEKDAY})"
    rf"|(?:{_COUNT}|eleven|twelve|many)\s+(?:day|week|weekend|month|year|hour|night|time)s?"
    r")\b",
    re.I,
)
"""A phrase that says when, at the start of a lead-in ("Last Friday, I …", "Seven years
now, I've …"): a time word, a preposition, or a count or "last/this/next" before a unit
(not "This book I read …" or "One special memory …")."""


def day(moment: date) -> str:
    """7 May 2023."""
    return f"{moment.day} {MONTHS[moment.month - 1]} {moment.year}"


def month(year: int, number: int) -> str:
    while number < 1:
        year, number = year - 1, number + 12
    while number > 12:
        year, number = year + 1, number - 12
    return f"{MONTHS[number - 1]} {year}"


def resolve(text: str, said: date, *, past: bool) -> tuple[str, bool]:
    """``text`` with its relative dates made absolute, and whether it had any. ``past``:
    the sentence tells what happened (a bare "on Friday" is then the last one)."""
    found = False

    def replace(match: re.Match[str]) -> str:
        nonlocal found
        resolved = _resolve(match, said, past=past)
        if resolved is None:
            return match.group()
        found = True
        preposition, phrase = resolved
        before = text[: match.start()]
        if not preposition or _PREPOSITION.search(before):
            return phrase
        return f"{preposition} {phrase}"

    if "'s" in text:
        text = _DAYS_THING.sub(_after_thing, text)
    return _PHRASE.sub(replace, text), found


_DAYS_THING = re.compile(
    r"\b(?P<when>yesterday|today|tonight|tomorrow|last night)'s\s+"
    r"(?P<thing>(?:(?!(?:at|in|on|with|for|and|but|was|is|will)\b)[\w-]+\s*){1,3})",
    re.I,
)


def _after_thing(match: re.Match[str]) -> str:
    """ "tomorrow's grand opening" → "the grand opening tomorrow" (then resolved)."""
    return f"the {match.group('thing').strip()} {match.group('when')} "


def _resolve(match: re.Match[str], said: date, *, past: bool) -> tuple[str, str] | None:
    g = match.groupdict()
    if g["before_yesterday"]:
        return "on", day(said - timedelta(days=2))
    if g["yesterday"]:
        return "on", day(said - timedelta(days=1))
    if g["today"]:
        return "on", day(said)
    if g["tomorrow"]:
        return "on", day(said + timedelta(days=1))
    if g["other_day"]:
        return "", f"a few days before {day(said)}"
    if g["ago_n"]:
        return _ago(_count(g["ago_n"]), g["ago_unit"], said)
    if g["in_n"]:
        return _ahead(_count(g["in_n"]), g["in_unit"], said)
    if g["rel"]:
        return _relative(g["rel"].lower(), g["unit"].lower(), said, past=past)
    if g["on_day"]:
        weekday = _weekday(g["on_day"])
        if weekday == said.weekday():  # "on tuesday", said on a Tuesday: that day
            return "on", day(said)
        return "on", day(_last(weekday, said) if past else _next(weekday, said))
    if g["month"]:
        return "in", _month_of(g["month_rel"].lower(), g["month"], said, past=past)
    return None


_DAY_PREFIXES = tuple(name[:3] for name in WEEKDAYS)


def _weekday(name: str) -> int:
    return _DAY_PREFIXES.index(name[:3].lower())


def _count(word: str) -> int | str:
    """A number, or the vague count as said ("a few", "several")."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    exact = NUMBERS[word]
    vague = ("a couple of", "couple of", "couple", "few", "a few", "several")
    return word if word in vague else exact


def _ago(count: int | str, unit: str, said: date) -> tuple[str, str]:
    unit = unit.lower()
    if isinstance(count, str):  # "a few weeks ago": no exact date to give
        return "", f"{count} {unit}s before {day(said)}"
    if unit == "day":
        return ("on", day(said - timedelta(days=count))) if count <= 3 else (
            "", f"{count} days before {day(said)}")  # fmt: skip
    if unit in ("week", "weekend"):
        plural = f"the {unit}" if count == 1 else f"{count} {unit}s"
        return "", f"{plural} before {day(said)}"
    if unit == "month":
        return "in", month(said.year, said.month - count)
    return "in", str(said.year - count)


def _ahead(count: int | str, unit: str, said: date) -> tuple[str, str]:
    unit = unit.lower()
    if isinstance(count, str):
        return "", f"{count} {unit}s after {day(said)}"
    if unit == "day":
        return "on", day(said + timedelta(days=count))
    if unit == "week":
        return "", ("the week after " if count == 1 else f"{count} weeks after ") + day(said)
    return "in", month(said.year, said.month + count)


def _relative(rel: str, unit: str, said: date, *, past: bool) -> tuple[str, str]:
    step = {"last": -1, "past": -1, "this": 0, "next": 1}[rel]
    if unit not in ("week", "weekend", "month", "year") and unit not in SEASONS:
        weekday = _weekday(unit)
        if step < 0:
            return "on", day(_last(weekday, said))
        if step > 0:
            return "on", day(
                _next(weekday, said)
                + (
                    timedelta(days=7)
                    if rel == "next" and weekday <= said.weekday()
                    else timedelta()
                )
            )
        return "on", day(_last(weekday, said) if past else _next(weekday, said))
    if unit == "weekend":
        return "", f"the weekend of {day(_saturday(step, said, past=past))}"
    if unit == "week":
        relation = {-1: "before", 0: "of", 1: "after"}[step]
        return "", f"the week {relation} {day(said)}"
    if unit == "month":
        return "in", month(said.year, said.month + step)
    if unit == "year":
        return "in", str(said.year + step)
    return "in", f"the {unit} of {_season_year(SEASONS[unit], said, step)}"


def _season_year(start_month: int, said: date, step: int) -> int:
    """The year (of its first month) of the last / this / next season beginning in
    ``start_month`` (winter: December to February), as said on ``said``."""
    year, now = said.year, said.month
    if start_month == 12:
        if now in (12, 1, 2):  # a winter is on: it is "this" one
            return (year if now == 12 else year - 1) + step
        this = year if now >= 9 else year - 1  # coming in autumn, just gone in spring
        return {-1: year - 1, 0: this, 1: year}[step]
    ended = now > start_month + 2
    if step < 0:
        return year if ended else year - 1
    if step > 0:
        return year if now < start_month else year + 1
    return year


def _month_of(rel: str, name: str, said: date, *, past: bool) -> str:
    """ "last december", "next september", "in june" (the one before, in a past sentence)."""
    number = [m[:3].lower() for m in MONTHS].index(name[:3].lower()) + 1
    if rel == "last" or (rel == "in" and past):
        year = said.year if number < said.month or (rel == "in" and number == said.month) else (
            said.year - 1)  # fmt: skip
    elif rel == "next" or (rel == "in" and not past):
        year = said.year if number > said.month else said.year + 1
    else:  # "this june"
        year = said.year
    return month(year, number)


def _saturday(step: int, said: date, *, past: bool) -> date:
    """The Saturday of last / this / next weekend."""
    on_weekend = said.weekday() >= 5
    current = said - timedelta(days=said.weekday() - 5) if on_weekend else _last(5, said)
    if step < 0:
        return current - timedelta(days=7) if on_weekend else current
    if step > 0 or not past:
        return current + timedelta(days=7) if step > 0 or not on_weekend else current
    return current


def _last(weekday: int, said: date) -> date:
    """The last such weekday strictly before ``said``."""
    back = (said.weekday() - weekday) % 7 or 7
    return said - timedelta(days=back)


def _next(weekday: int, said: date) -> date:
    """The next such weekday strictly after ``said``."""
    ahead = (weekday - said.weekday()) % 7 or 7
    return said + timedelta(days=ahead)
