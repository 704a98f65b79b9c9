"""An amount of one thing told again with another value, and a word that says it changed:

    "Nadia's rent is 950 pounds a month" / "her landlord raised her rent to 1,100 pounds"
    "Esther has two grandchildren" / "Esther now has three grandchildren"
    "her credit score is around 620" / "her credit score has climbed to 740"
    "sanne has like 3k subs" / "sanne hit 9k subs"

Both facts hold one number each (numbers in words are digits once read; "3k" is 3,000 and
"r1500" 1,500; a year is a date, not an amount), they share a word of what is counted, and
the new one tells a change ("now", "raised", "climbed", "went up", "passed", "hit"). Without
that word two amounts may both hold ("saved 2,000" / "saves 500 a month"). A dated old fact
is an event's amount ("ran 5k in 30 minutes on sunday"); a dated new one counts only as a
thing of the subject's changed ("jens's rent went up to 1,100 in march"). One fact may name
the thing the other owns ("pays 950 euros in rent" / "jens's rent went up").
"""

from __future__ import annotations

import re

from memory.lifecycle.lexicon import GENERIC_WORDS
from memory.lifecycle.numbers import written_amount
from memory.lifecycle.reading import Reading, lemma

_NUMBER = re.compile(
    r"(?<![\w.])[r$€£]?(?:\d{1,3}(?: , \d{3})+|\d+(?:\.\d+)?"
    r"|(?<!\ba )(?<!\bthe )(?<!\bhis )(?<!\bher )(?<!\btheir )(?<!\bmy )\d+k)(?![\w])"
)
"""A number as a fact's body holds it: "950", "1 , 100" (a thousands comma spaced out),
"3k" (thousands, but not a race: "ran a 5k", "her 10k"), "r1500" (money by its sign)."""
_YEAR = re.compile(r"19\d\d|20\d\d")
CHANGED = frozenset({"now", "raise", "climb", "increase", "rise", "hike", "drop", "fall",
                     "bump", "lower", "reach", "grow", "jump", "double", "halve", "up",
                     "down", "pass", "hit", "cross", "top"})  # fmt: skip
"""The words, as lemmas, that tell an amount changed."""


def amounts(body: str) -> list[float]:
    """The numbers of a fact's body, years left out (a date, not an amount)."""
    return [written_amount(text) for text in _NUMBER.findall(body) if not _YEAR.fullmatch(text)]


def amount_changed(
    first: Reading, second: Reading, core_a: frozenset[str], core_b: frozenset[str]
) -> bool:
    """``second`` tells the one amount of ``first`` changed (see the module's docstring)."""
    if first.negated or second.negated or first.dates:
        return False  # a date of the old one: an event's amount, no state's ("ran 5k")
    if first.possessive != second.possessive and not _owned_alike(first, second):
        return False
    old, new = amounts(first.body), amounts(second.body)
    if len(old) != 1 or len(new) != 1 or old == new:
        return False
    if not any(lemma(word) in CHANGED for word in second.body.split()):
        return False
    if second.dates and not second.body.startswith(f"{second.subject} 's"):
        return False  # dated: one more time of an event, unless a thing of theirs changed
    counted = (core_a & core_b) - GENERIC_WORDS
    return any(not word.replace(".", "").isdigit() for word in counted)  # "5k" is a race


def _owned_alike(first: Reading, second: Reading) -> bool:
    """One fact tells the amount of a thing of the subject's ("jens 's rent"), the other
    names that thing ("pays 950 euros in rent")."""
    owner, other = (first, second) if first.possessive else (second, first)
    thing = owner.body.split()[2:3]
    return bool(thing) and thing[0] in other.body.split()
