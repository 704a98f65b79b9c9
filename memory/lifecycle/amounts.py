"""An amount of one thing told again with another value, and a word that says it changed:

    "Nadia's rent is 950 pounds a month" / "her landlord raised her rent to 1,100 pounds"
    "Esther has two grandchildren" / "Esther now has three grandchildren"
    "her credit score is around 620" / "her credit score has climbed to 740"

Both facts hold one number each (numbers in words are digits once read; a year is a date,
not an amount), they share a word of what is counted, and the new one tells a change ("now",
"raised", "climbed", "went up"). Without that word two amounts may both hold ("saved 2,000"
/ "saves 500 a month").
"""

from __future__ import annotations

import re

from memory.lifecycle.lexicon import GENERIC_WORDS
from memory.lifecycle.reading import Reading, lemma

_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?: , \d{3})+(?![\w])|(?<![\w.])\d+(?:\.\d+)?(?![\w])")
"""A number as a fact's body holds it: "950", "1 , 100" (a thousands comma spaced out)."""
CHANGED = frozenset({"now", "raise", "climb", "increase", "rise", "hike", "drop", "fall",
                     "bump", "lower", "reach", "grow", "jump", "double", "halve", "up",
                     "down"})  # fmt: skip
"""The words, as lemmas, that tell an amount changed."""


def amounts(body: str) -> list[float]:
    """The numbers of a fact's body, years left out (a date, not an amount)."""
    found = [float(text.replace(" , ", "")) for text in _NUMBER.findall(body)]
    return [number for number in found if not (1900 <= number <= 2099 and number.is_integer())]


def amount_changed(
    first: Reading, second: Reading, core_a: frozenset[str], core_b: frozenset[str]
) -> bool:
    """``second`` tells the one amount of ``first`` changed (see the module's docstring)."""
    if first.negated or second.negated or first.possessive != second.possessive:
        return False
    if first.dates or second.dates:
        return False
    old, new = amounts(first.body), amounts(second.body)
    if len(old) != 1 or len(new) != 1 or old == new:
        return False
    if not any(lemma(word) in CHANGED for word in second.body.split()):
        return False
    counted = (core_a & core_b) - GENERIC_WORDS
    return any(not _NUMBER.fullmatch(word) for word in counted)
