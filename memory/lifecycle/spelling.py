"""One-typo repair of the words that fill attribute slots ("maried" → "married", "studing" →
"studying", "turnd" → "turned", "nurce" → "nurse"), so that a typo'd fact still fills its slot.

Only words the slots look for are repaired to (the slot cues, their verb forms and the
occupations), only from a word of 5 letters or more that is no verb form itself, and only
when exactly one such word is one letter longer ("turnd") or, failing that, one letter
different ("nurce"): a word with a letter more is left alone, as "movies" is no "moves"
(found through single-letter deletions, as SymSpell does).

A word the bundled embedder's tokenizer holds whole ("office", "river", "along") is a word,
not a typo, and is never repaired (``known_words``): the slot words are many, and a real word
is often one letter from one of them ("office" / "officer", "cancer" / "dancer").

Any other word that is in no English dictionary is repaired to the dictionary word one typo
away (:func:`dictionary_word`: "playnig" → "playing", "brocoli" → "broccoli", "frineds" →
"friends"), so that two typos of one word, or a typo of a verb form and its lemma, still
match. The dictionary is pyspellchecker's English word list with how often each word is
used (:mod:`memory.lifecycle.word_list`): it holds common names and places ("izmir",
"tomas"), which are left alone, as are the names of places and things our own tables hold
("munchen", "astra", "carbs": no "astray", "crabs") and an ending on a dictionary word
("vaping", "goated", "natively": newer words than the list).

A letter typed twice is taken out first ("habbit" → "habit", not the slot word "rabbit").

Shorter words are repaired only to a verb form, a small word, a number or a common word: two
letters after the first swapped ("gaev" → "gave"), a letter of an ending left out ("livs" →
"lives"), a letter left out of a word in wide use ("evry" → "every").

Two facts' words are compared the same forgiving way in :mod:`memory.lifecycle.word_match`."""

from __future__ import annotations

import importlib.util
import json
import logging
import re
from functools import lru_cache
from pathlib import Path
from string import ascii_lowercase
from typing import TYPE_CHECKING

from memory.extraction.offline.verbs import verb
from memory.lifecycle import places
from memory.lifecycle.lexicon import (
    DIETS,
    IE_NOUNS,
    MEMBER_OF,
    NAME_CUES,
    NEWER_WORDS,
    OCCUPATIONS,
    SLOT_CUES,
    STOPWORDS,
    SYNONYMS,
)
from memory.lifecycle.numbers import NUMBER_WORDS
from memory.lifecycle.word_list import Dictionary, dictionary
from memory.lifecycle.word_match import neighbours_swapped, one_edit
from memory.search.embeddings import WORDLLAMA_CONFIG

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

MIN_LENGTH = 5
TOKENIZER = Path("tokenizers") / f"{WORDLLAMA_CONFIG}_tokenizer_config.json"
"""The bundled wordllama model's tokenizer, in the wordllama package: its vocabulary."""


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """The words the bundled embedder's tokenizer holds whole (12,717 common words of many
    languages, lowercase); empty, with one warning, when it cannot be read."""
    spec = importlib.util.find_spec("wordllama")
    try:
        if spec is None or spec.origin is None:
            raise OSError("the wordllama package is not installed")
        config = json.loads((Path(spec.origin).parent / TOKENIZER).read_text(encoding="utf-8"))
        vocabulary = config["model"]["vocab"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("typo repair knows no words: cannot read the embedder's tokenizer (%s)", exc)
        return frozenset()
    return frozenset(
        token[1:].lower() for token in vocabulary if token.startswith("▁") and token[1:].isalpha()
    )


MIN_MISTYPED = 8
MIN_COUNT = 100
"""How often a dictionary word must be used to be what a typo is repaired to: rarer words
("vamping", "quinol", "bessie") are likelier a newer word's neighbour than its meaning."""


@lru_cache(maxsize=65536)
def dictionary_word(word: str) -> str:
    """``word``, or the dictionary word one typo away: two neighbours swapped ("frineds"),
    else a letter left out ("horor": "horror", not "honor"), else a letter typed twice
    ("cheff"), else, in a word of ``MIN_MISTYPED`` letters or more, one mistyped
    ("doughter"; shorter words are too near others: "esports" is no "escorts") or one too many
    ("enagaged"); the most used when several are as near, a British spelling by its American
    one ("favourit": "favourite"). The first letter stays (but for a swap). A word under
    ``MIN_LENGTH`` letters, with a digit, in the dictionary (or British) or a dictionary word
    with an ending stays as it is."""
    known = dictionary()
    if len(word) < MIN_LENGTH or not word.isalpha() or not len(known) or word in known:
        return word
    if places.is_place_word(word) or _inflected(word, known) or _BRITISH.sub("or", word) in known:
        return word  # a place, an ending on a word, a British spelling ("neighbour")
    if word in NEWER_WORDS:
        return word  # "frontend"
    if doubled := _doubled(word):
        return doubled
    ends = range(1, len(word) + 1)
    for candidates in (
        (word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)),
        _with_a_letter_more(word),
        _with_a_double_once(word),
        (
            word[:i] + letter + word[i + 1 :]
            for i in (ends if len(word) >= MIN_MISTYPED else ())
            for letter in ascii_lowercase
        ),
        (word[:i] + word[i + 1 :] for i in (ends if len(word) >= MIN_MISTYPED else ())),
    ):
        unique = sorted(set(candidates))
        counts = _uses(known, unique)
        if counts.max(initial=0) >= MIN_COUNT:
            return unique[int(counts.argmax())]  # the first of the most used
    return word


_BRITISH = re.compile(r"(?<=\w{3})our(?=\w|$)")  # "favourite": the dictionary spells "or"


def _uses(known: Dictionary, words: list[str]) -> NDArray[np.int32]:
    """How often each word is used, a British spelling as its American one ("favourite")."""
    counts = known.uses(words)
    british = [index for index, word in enumerate(words) if "our" in word]
    if british:
        american = known.uses([_BRITISH.sub("or", words[index]) for index in british])
        counts[british] = counts[british].clip(american)
    return counts


_ENDINGS = ("s", "es", "d", "ed", "ing")
_INFLECTIONS = (*_ENDINGS, "ly", "er", "ers")


def _inflected(word: str, words: Dictionary) -> bool:
    """``word`` is a dictionary word with an ending: "vapes", "vaping" ("vape"), "goated",
    "running" ("run"). An ending English does not put on that word is a typo: "touchd" (a
    "d" after no "e"), "playes" ("es" after no hissing sound nor "o"), "exclusivly" (an "e"
    dropped before "ly"), "runing" (a short vowel's consonant not doubled)."""
    stems = []
    for ending in _INFLECTIONS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            if ending == "d":
                stems += [stem] if stem.endswith("e") else []
            elif ending == "es":
                stems += [stem] if stem.endswith(_BEFORE_ES) else []
            elif ending in ("ly", "s"):
                stems += [stem]  # an "e" stays before "ly" and "s": "exclusivly", "minuts"
            elif _SHORT_CLOSED.fullmatch(stem):
                hoped = words.uses([stem + "e"])[0] > words.uses([stem])[0]  # "hope", not "hop"
                stems += [stem + "e"] if hoped else []  # "runing" is a typo: "run" doubles
            else:
                stems += [stem, stem + "e"] + ([stem[:-1]] if stem[-1] == stem[-2] else [])
    return bool(stems) and bool(words.uses(stems).any())


_BEFORE_ES = ("s", "x", "z", "ch", "sh", "o")
_VOWEL_ENDING = re.compile(r"(.+)(ing|ed|er|ers)")


def _doubled(word: str) -> str | None:
    """The word in use that ``word`` is with its short vowel's consonant doubled before an
    ending ("runing" → "running", "chating" → "chatting", not the likelier "cheating")."""
    found = _VOWEL_ENDING.fullmatch(word)
    if not found or not _SHORT_CLOSED.fullmatch(stem := found.group(1)):
        return None
    doubled = stem + stem[-1] + found.group(2)
    return doubled if dictionary().uses([doubled])[0] >= MIN_COUNT else None


_SHORT_CLOSED = re.compile(r"[^aeiou]*[aeiou][^aeiouwxy]")  # "run", "swim": "running"


def _forms(word: str) -> set[str]:
    """``word`` and the spellings of it as a verb that the verb lexicon knows."""
    stems = {word, word[:-1]} if word.endswith(("e", "y")) else {word, word + word[-1]}
    found = {word}
    for stem in stems:
        for ending in (*_ENDINGS, "ied", "ies"):
            spelling = stem + ending
            read = verb(spelling)
            if read is not None and read[0] == word:
                found.add(spelling)
    return found


def _deletions(word: str) -> set[str]:
    return {word[:index] + word[index + 1 :] for index in range(len(word))}


@lru_cache(maxsize=1)
def _index() -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    vocabulary = {
        form
        for word in (SLOT_CUES - NAME_CUES) | OCCUPATIONS
        for form in _forms(word)
        if len(form) >= MIN_LENGTH - 1 and " " not in form
    }
    near: dict[str, set[str]] = {}
    for word in vocabulary:
        for key in {word, *_deletions(word)}:
            near.setdefault(key, set()).add(word)
    return frozenset(vocabulary), {key: frozenset(words) for key, words in near.items()}


@lru_cache(maxsize=65536)
def repaired(word: str) -> str:
    """``word``, or the one slot word it is a typo of, else the dictionary word
    (:func:`dictionary_word`); a word of four letters by :func:`_short_repaired`; an ending
    English does not write ("playes", "ownes", "cakez") as the one it does."""
    if word in _table_words():
        return word  # a thing our tables name: "astra", "carb" (not "astray", "crab")
    if len(word) == MIN_LENGTH - 1 and word.isalpha() and word not in STOPWORDS:
        return _short_repaired(word)
    if len(word) < MIN_LENGTH or not word.isalpha() or word in STOPWORDS:
        return word
    vocabulary, near = _index()
    if word in vocabulary or verb(word) is not None or word in known_words() or word in SYNONYMS:
        return word  # a word we read, as it is: "pupper" (a dog) is no "pupped"
    if places.is_place_word(word) or dictionary().uses([word])[0] >= MIN_COUNT:
        return word  # a town or a word in use, not a typo: "stafford", "steak" ("speak")
    if word.endswith(("es", "z")) and word not in dictionary():
        plain = word[:-2] + "s" if word.endswith("es") else word[:-1] + "s"
        if verb(plain) is not None or plain in dictionary():
            return plain  # "playes", "ownes", "cakez": no "places", "owens"
    return _undoubled(word) or _doubled(word) or _slot_word(word, near) or dictionary_word(word)


@lru_cache(maxsize=1)
def _table_words() -> frozenset[str]:
    """The single words our own tables read as things: the members of kinds (cars, games:
    "astra", "undertale"), what a diet leaves out ("carbs"), the nouns in -ie ("roomie").
    Newer than the dictionary, or missing from it, they are words, not typos ("astra" is no
    "astray", "carbs" no "crabs")."""
    listed = MEMBER_OF.keys() | IE_NOUNS | frozenset().union(*DIETS.values())
    return frozenset(word for word in listed if " " not in word)


def _undoubled(word: str) -> str | None:
    """The word in use that ``word`` is with a letter typed twice once ("habbit" → "habit",
    not the slot word "rabbit"; "callled" → "called"), if there is exactly one."""
    found = sorted(_with_a_double_once(word))
    used = [w for w, n in zip(found, dictionary().uses(found), strict=True) if n >= MIN_COUNT]
    return used[0] if len(used) == 1 else None


def _with_a_double_once(word: str) -> set[str]:
    """``word`` with one of its letters typed twice typed once ("callled": "called")."""
    return {word[:i] + word[i + 1 :] for i in range(1, len(word)) if word[i - 1] == word[i]}


def _with_a_letter_more(word: str) -> list[str]:
    """``word`` with a letter put in anywhere but before its first, sorted ("evry": "every")."""
    return sorted({word[:i] + letter + word[i:] for i in range(1, len(word) + 1)
                   for letter in ascii_lowercase})  # fmt: skip


def _short_repaired(word: str) -> str:
    """A word of four letters, or the verb form or small word it is with two letters after
    the first swapped back ("gaev" → "gave", "jsut" → "just"; not "sena" → "sean", a name),
    else the one verb form it is with a letter put back ("livs" → "lives", "basd" →
    "based"), or with an "s" for its last "z" ("runz" → "runs"); "thre", "fuor": numbers."""
    if word not in dictionary() and (number := _NUMBER_TYPOS.get(word)):
        return number
    if verb(word) is not None or word in known_words() or word in dictionary():
        return word
    for i in (1, 2):
        swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        if swapped in STOPWORDS or verb(swapped) is not None:
            return swapped
    if word.endswith("z") and verb(word[:-1] + "s") is not None:
        return word[:-1] + "s"
    if not any(vowel in word for vowel in "aeiou"):
        return word  # "rlly", "wrks": chat's own spellings, not a letter left out
    forms = {
        longer
        for i in range(1, len(word))
        for letter in ascii_lowercase
        if (read := verb(longer := word[:i] + letter + word[i:])) is not None and read[0] != longer
    }  # a letter of an ending, inside: "tech" is no "teach", "alot" no "allot", "aime" no "aimed"
    if len(forms) == 1:
        return forms.pop()
    put_back = _with_a_letter_more(word)
    uses = dictionary().uses(put_back)
    common = [w for w, n in zip(put_back, uses, strict=True) if n >= MIN_SHORT_COUNT]
    if len(common) == 1 and verb(common[0]) is None:
        return common[0]  # no verb, as above: "tech" is no "teach"
    return word


MIN_SHORT_COUNT = 100_000
"""How often the word a four-letter typo is repaired to with a letter put back must be
used ("evry" → "every", "nigt" → "night"): names ("suki", "ozzy") are near rarer words."""

_NUMBER_TYPOS = {typo: number for number in NUMBER_WORDS for i in range(1, len(number) - 1)
                 for typo in (number[:i] + number[i + 1 :], number[:i] + number[i + 1] + number[i]
                              + number[i + 2 :]) if len(typo) == 4}  # fmt: skip


def _slot_word(word: str, near: dict[str, frozenset[str]]) -> str | None:
    candidates: set[str] = set()
    for key in {word, *_deletions(word)}:
        candidates |= near.get(key, frozenset())
    swapped = [
        c for c in candidates if neighbours_swapped(word, c)
    ]  # "singel": "single", not "singer"
    if len(swapped) == 1:
        return swapped[0]
    for length in (len(word) + 1, len(word)):  # a letter left out, else one mistyped
        found = [
            c for c in candidates
            if len(c) == length and one_edit(word, c) and not neighbours_swapped(word, c)
        ]  # fmt: skip
        if found:
            return found[0] if len(found) == 1 else None
    return None
