"""Verb forms from a shipped lexicon: the verbs of lemminflect's inflection table.

The rewriter needs two answers about a word after "I": is it a verb, and in which form —
past ("went" → keep), or present ("love" → "loves" for a third person). Hand-written
suffix rules get English wrong ("goes", "has", "flies", "panicked"); a lexicon does not.

lemminflect ships its table (``resources/infl_lu.csv.gz``: every lemma with its forms) inside
its wheel, so it works offline. Its own lookups load the tables of every part of speech
(60 MB in memory); only the verbs are read here (about 8,000 lemmas, 5 MB), once, with
lemminflect's own line codec and its corrections file. Words the table does not know are
not taken for verbs: a fact is then missed rather than garbled.
"""

from __future__ import annotations

import csv
import gzip
from functools import cache
from importlib import resources
from typing import Literal

Form = Literal["past", "present", "participle", "gerund"]

_FORMS: dict[str, Form] = {"VB": "present", "VBP": "present", "VBZ": "present",
                           "VBD": "past", "VBN": "participle", "VBG": "gerund"}  # fmt: skip
_PREFERENCE = {"past": 0, "participle": 1, "present": 2, "gerund": 3}
"""Which reading wins for a spelling that is two forms: "saw" is rather the past of "see"
than the verb "to saw", "found" the past of "find"."""
_IRREGULAR_PRESENT = {"am": "is", "'m": "is", "are": "are", "have": "has", "'ve": "has",
                      "do": "does", "don't": "doesn't", "haven't": "hasn't"}  # fmt: skip
_BE_PAST = {"was": "was", "were": "was"}
_MODALS = frozenset({"can", "could", "will", "would", "shall", "should", "may", "might",
                     "must", "can't", "won't", "cannot", "couldn't", "wouldn't",
                     "shouldn't"})  # fmt: skip


@cache
def _lexicon() -> tuple[dict[str, tuple[str, Form]], dict[str, str], frozenset[str]]:
    """spelling → (lemma, form), lemma → its third-person present, and the adjectives that
    look like a gerund ("exciting", "amazing")."""
    from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec

    package = resources.files("lemminflect") / "resources"
    forms: dict[str, tuple[str, Form]] = {}
    third: dict[str, str] = {}

    def add(lemma: str, tag: str, spelling: str) -> None:
        form = _FORMS[tag]
        known = forms.get(spelling)
        if known is None or _PREFERENCE[form] < _PREFERENCE[known[1]]:
            forms[spelling] = (lemma, form)

    adjectives: set[str] = set()
    with gzip.open(str(package / "infl_lu.csv.gz"), "rt", encoding="utf-8") as table:
        for line in table:
            if ",adj," in line and line.startswith(tuple("abcdefghijklmnopqrstuvwxyz")):
                lemma = line.split(",", 1)[0]
                if lemma.endswith("ing"):
                    adjectives.add(lemma)
            if ",verb," not in line:
                continue
            lemma, _category, tags = InflectionLUCodec.fromString(line)
            tags.setdefault("VBN", tags.get("VBD", ()))  # an empty participle: as the past
            for tag, spellings in tags.items():
                for spelling in spellings:
                    add(lemma, tag, spelling.lower())
            third[lemma] = tags.get("VBZ", (lemma,))[0]
    with (package / "infl_overrides.csv").open(encoding="utf-8") as overrides:
        for lemma, tag, spelling in csv.reader(overrides):
            if tag in _FORMS and lemma in third:
                add(lemma, tag, spelling.lower())
                if tag == "VBZ":
                    third[lemma] = spelling
    return forms, third, frozenset(adjectives)


def verb(word: str) -> tuple[str, Form] | None:
    """The lemma and form of ``word`` read as a verb, or None when it cannot be one."""
    return _lexicon()[0].get(word.lower())


def third_person(word: str) -> str | None:
    """``word`` (a verb said by "I") as said of someone else: "love" → "loves",
    "went" → "went", "am" → "is"; None when it is no finite verb."""
    lower = word.lower()
    if lower in _MODALS:  # "can" is no "cans"
        return lower
    if lower in _IRREGULAR_PRESENT:
        return _IRREGULAR_PRESENT[lower]
    if lower in _BE_PAST:
        return _BE_PAST[lower]
    found = verb(lower)
    if found is None:
        return None
    lemma, form = found
    if form == "past":
        return lower
    if form != "present" or lower != lemma:
        return None
    return _lexicon()[1].get(lemma)


def is_past(word: str) -> bool:
    found = verb(word)
    return found is not None and found[1] in ("past", "participle")


def is_adjective(word: str) -> bool:
    """An "-ing" word the lexicon also has as an adjective: "Exciting but nerve-wracking"
    describes; "Researching adoption agencies" does."""
    return word.lower() in _lexicon()[2]


FINITE = frozenset({"is", "are", "was", "were", "has", "have", "can", "will", "does", "do"})
"""Finite forms the lexicon's verb table does not hold (be, have, do and modals)."""


def is_finite(word: str) -> bool:
    """``word`` can be a clause's own verb: a finite form, or a present or past."""
    found = verb(word)
    return word.lower() in FINITE or (found is not None and found[1] in ("present", "past"))
