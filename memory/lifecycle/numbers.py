"""Numbers written in words, read as digits before two facts are compared.

    numbers_written("has two cats") → "has 2 cats"
    numbers_written("her thirty-fifth birthday") → "her 35th birthday"

Number words and their tens and units ("twenty-one", "forty two") become digits; an ordinal
becomes one only before "birthday" or with tens ("had his sixty fifth"), not "her first job"
or "second cat" (read elsewhere: :mod:`memory.lifecycle.slots`). Used by
:func:`memory.lifecycle.reading.normalise` and by the typo repair of
:mod:`memory.lifecycle.spelling` ("elevn": 11).
"""

from __future__ import annotations

import re

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90, "fourty": 40,
}  # fmt: skip

ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
    "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90,
}  # fmt: skip
"""Ordinal number words, read as numbers before "birthday" ("her thirty-fifth birthday")."""

_UNITS = "|".join(word for word, value in NUMBER_WORDS.items() if value < 10)
_TENS = "|".join(word for word, value in NUMBER_WORDS.items() if value >= 20)
_NUMBER = re.compile(
    rf"\b(?:(?P<tens>{_TENS})(?:[- ]?(?P<unit>{_UNITS}))?|(?P<word>"
    + "|".join(NUMBER_WORDS)
    + r"))\b"
)
_ORDINAL = re.compile(
    rf"\b(?:(?P<tens>{_TENS})[- ])?(?P<ordinal>"
    + "|".join(ORDINALS)
    + r")(?P<birthday> birthday)?\b"
)
"""An ordinal in words before "birthday", or of tens and units: "thirty-fifth birthday"
reads "35th birthday", "had his sixty fifth" "had his 65th" (not "his first job")."""
_NUMBER_HINTS = re.compile(
    r"one|two|thre|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|ty\b"
)


def numbers_written(text: str) -> str:
    """Lowercase ``text`` with its number words and birthday ordinals as digits."""
    hinted = _NUMBER_HINTS.search(text)  # most facts hold no number word: skip the big patterns
    if hinted or "birthday" in text:
        text = _ORDINAL.sub(_ordinal_value, text)
    if hinted:
        text = _NUMBER.sub(_number_value, text)
    return text


def _ordinal_value(match: re.Match[str]) -> str:
    if not (match.group("tens") or match.group("birthday")):
        return match.group(0)  # "her first job", "second cat": read elsewhere
    value = ORDINALS[match.group("ordinal")]
    if match.group("tens"):
        value += NUMBER_WORDS[match.group("tens")]
    suffix = "th" if value % 100 in (11, 12, 13) else _SUFFIX_OF.get(value % 10, "th")
    return f"{value}{suffix}{match.group('birthday') or ''}"


_SUFFIX_OF = {1: "st", 2: "nd", 3: "rd"}


def _number_value(match: re.Match[str]) -> str:
    if match.group("word"):
        return str(NUMBER_WORDS[match.group("word")])
    value = NUMBER_WORDS[match.group("tens")]
    if match.group("unit"):
        value += NUMBER_WORDS[match.group("unit")]
    return str(value)


def written_amount(text: str) -> float:
    """The amount a number in a fact's body writes: "1 , 100" (a thousands comma spaced out)
    1100, "3k" 3000, "r1500" (money by its sign) 1500."""
    digits = text.lstrip("r$€£").replace(" , ", "")
    return float(digits[:-1]) * 1000 if digits.endswith("k") else float(digits)
