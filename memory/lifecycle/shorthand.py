"""Shorthand read against the other fact of a pair: initials ("Henrik is a PM" / "works as
a product manager", "gc in rl" / "grand champ in rocket league", "bg3" / "baldurs gate 3")
clipped words ("lives in melb" / "based in melbourne", "plat" / "platinum") and words
written apart that the other fact writes as one ("colour blind" / "colourblind").

Chat shortens what it says often, and no word list can hold every community's shorthand; the
other fact of a pair often spells it out. :func:`unfold` rewrites each fact's shorthand as
the words the other fact spells it with, so the rules and the learned merges compare the
same words.

Initials: a word of two to five letters (a number may follow, "f1", "cs2") spelling the first
letters of as many words in a row of the other fact, none of them a stopword or the
subject's name ("vs code" / "visual studio code"); a word of three letters or more that
English uses often ("gym", "art") is taken as itself, as is one after a number ("9 pm").
Clipped words: a word of four letters or more that English seldom uses, the start of a word
of the other fact two letters longer or more, which is no inflected verb form ("admin" is
not "administers") nor the word with an ending ("hawaii" / "hawaiian"), and no chat word
read already ("prem" is "premier league"). A word both facts hold is never rewritten.
"""

from __future__ import annotations

import re
from itertools import pairwise

from memory.extraction.offline.verbs import verb
from memory.lifecycle.chat import CHAT_WORDS
from memory.lifecycle.lexicon import FILLERS, STOPWORDS
from memory.lifecycle.word_list import dictionary
from memory.search.scripts import unaccented

COMMON_USES = 1000
"""A word used this often or more in the word list is a word, not shorthand."""

_ENDINGS = frozenset(("s", "es", "ed", "ing", "er", "ers", "n", "an", "ian", "ese", "ish", "ism",
                      "ist", "ists", "ic", "y", "ly", "ness"))  # fmt: skip
"""What a word adds to a whole word it is made from ("hawaiian" is of "hawaii", no long form)."""

_TOKEN = re.compile(r"[a-z0-9]+")
_INITIALS = re.compile(r"(?P<letters>[a-z]{1,5})(?P<number>[0-9]{0,2})")


def _tokens(text: str) -> list[str]:
    lowered = text.lower()
    return _TOKEN.findall(lowered if lowered.isascii() else unaccented(lowered))


def _common(word: str) -> bool:
    return bool(dictionary().uses([word])[0] >= COMMON_USES)


def _spelled(word: str, theirs: list[str], firsts: str, subject: str) -> list[str] | None:
    """The words in a row of ``theirs`` whose first letters (``firsts``, one a word) and
    number ``word`` is."""
    found = _INITIALS.fullmatch(word)
    if found is None or len(found["letters"]) + bool(found["number"]) < 2:
        return None
    letters, number = found["letters"], found["number"]
    size = len(letters)
    start = firsts.find(letters)
    while start >= 0:
        run = theirs[start : start + size]
        if all(part.isalpha() and part not in STOPWORDS and part != subject for part in run):
            if not number:
                return run
            if theirs[start + size : start + size + 1] == [number]:
                return [*run, number]
        start = firsts.find(letters, start + 1)
    return None


def _clipped(word: str, theirs: list[str]) -> str | None:
    """The word of ``theirs`` that ``word`` is the start of ("melb": "melbourne")."""
    if len(word) < 4 or not word.isalpha() or word in CHAT_WORDS:
        return None  # chat's own shorthand is read already ("prem": "premier league")
    for other in theirs:
        if (
            len(other) >= len(word) + 2 and other.startswith(word) and other.isalpha()
            and other[len(word):] not in _ENDINGS
        ):  # fmt: skip
            told = verb(other)
            if told is None or told[0] == other:  # "support" may be "supp"; "administers" no
                return None if _common(word) else other  # "photo" is no "photoshop"
    return None


def _joined(text: str, theirs: list[str]) -> str:
    """``text`` with two words in a row written as one where ``theirs`` writes them so
    ("colour blind" / "colourblind")."""
    held = set(theirs)
    for first, second in pairwise(_tokens(text)[1:]):
        if first + second in held and first.isalpha() and second.isalpha():
            text = re.sub(rf"(?i)(?<![\w'-]){first}[- ]{second}(?![\w'-])", first + second, text)
    return text


def _unfolded(text: str, other: str) -> str:
    theirs = _tokens(other)
    text = _joined(text, theirs)
    mine = _tokens(text)
    if len(mine) < 2:
        return text
    subject, held = mine[0], set(theirs)
    firsts = "".join(part[0] for part in theirs)
    found: dict[str, str] = {}
    for before, word in pairwise(mine):
        if word in held or word in found or word in STOPWORDS or word in FILLERS:
            continue
        if before.isdigit():
            continue  # "at 9 pm", "5k"
        run = _spelled(word, theirs, firsts, subject)
        if run and len(word) > 2 and _common(word):
            run = None  # a word English uses often: "gym", "art"
        spelled = " ".join(run) if run else _clipped(word, theirs)
        if spelled:
            found[word] = spelled
    for word, spelled in found.items():
        text = re.sub(rf"(?i)(?<![\w'-]){re.escape(word)}(?![\w'-])", spelled, text)
    return text


def unfold(old: str, new: str) -> tuple[str, str]:
    """``old`` and ``new``, each with its shorthand spelt as the other fact spells it
    (see the module); unchanged when neither holds any."""
    return _unfolded(old, new), _unfolded(new, old)


def shorthand(text: str) -> frozenset[str]:
    """The words of ``text`` that may be initials (its subject aside): what :func:`unfold`
    may spell out in it ("kofi is in hr": "hr"; not "works", a word English uses often)."""
    words = _tokens(text)
    found = [
        word
        for before, word in pairwise(words)
        if _INITIALS.fullmatch(word) and not before.isdigit() and word not in STOPWORDS
    ]
    uses = dictionary().uses(found) if found else ()
    return frozenset(
        word for word, used in zip(found, uses, strict=True) if len(word) < 3 or used < COMMON_USES
    )


def initials(text: str) -> frozenset[str]:
    """The initials of each two to five content words in a row of ``text``, and of those
    before a number with it ("works as a product manager": "pm"; "baldurs gate 3": "bg",
    "bg3"): the words its shorthand may be in another fact."""
    words = _tokens(text)[1:]
    found: set[str] = set()
    start = 0
    while start < len(words):
        end = start
        while end < len(words) and words[end].isalpha() and words[end] not in STOPWORDS:
            end += 1
        run = words[start:end]
        number = words[end] if end < len(words) and words[end].isdigit() else ""
        for first in range(len(run)):
            for size in range(1, min(5, len(run) - first) + 1):
                letters = "".join(part[0] for part in run[first : first + size])
                if size > 1:
                    found.add(letters)
                if number and first + size == len(run):
                    found.add(letters + number)
        start = end + 1
    return frozenset(found)
