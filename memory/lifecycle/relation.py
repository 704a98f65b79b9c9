"""How a new fact relates to an older one about the same subject: same, contradicts, or not.

    relation("Sarah lives in Boston.", "Sarah moved to Denver.", similarity) → CONTRADICTS

Offline and fast (no model call: ``similarity`` is the cosine similarity of the two texts'
embeddings, computed by the caller, e.g. with :class:`~memory.lifecycle.FactSimilarity`).
In order:

1. an empty text relates to nothing; the same words (case, punctuation and chat fillers
   aside) and the same dates are the same fact;
2. a cheap token pre-check: two facts sharing no content word (nor one typo apart) are
   unrelated unless both hold a word that may fill an attribute slot ("lives", "nurse",
   "married", a number) or name one kind ("instrument" / "piano");
3. attribute slots (:mod:`memory.lifecycle.slots`): one slot with two values that cannot
   both hold ("lives in Boston" / "moved to Denver", "is 29" / "is 30") contradicts, unless
   the new fact tells its value as one more ("also teaches", "has a cat too");
4. polarity: the same content, one side negated ("likes olives" / "hates olives", "eats
   meat" / "is vegetarian", "smokes" / "quit smoking", "likes running" / "stopped running",
   "doesn't drink" / "drinks wine", "never eats breakfast" / "eats a big breakfast", "no
   more dota" / "plays dota daily", "loves coffee" / "can't drink coffee anymore"), and a
   kind denied whole against one of its members ("plays no instrument" / "plays the
   piano") contradicts, unless both are events with different dates;
5. a change told as an event (:mod:`memory.lifecycle.change`: "moved last month", "single
   again", "quit vaping") on the old fact's topic, or one clause of the new fact denying
   the old one ("lily back on burgers lol no more vegan"), contradicts; so does a
   comparison turned round ("prefers tea over coffee" / "prefers coffee over tea"), a
   habit stopped then taken up again ("quit smoking" / "smoking again"), and one thing
   done only beside another of its kind ("only speaks english at home" / "speaks italian
   at home");
6. the same fact: "doesn't eat meat" restates "is vegetarian"; else the same polarity,
   the same dates (a dated event and an undated fact are not merged), the same content
   words (lemmas, synonyms, one typo per word), or the same slots with the same values
   and nothing else said besides; and the embeddings not far apart
   (``SAME_MIN_SIMILARITY``) unless the slots alone are the fact ("is 19" / "is nineteen
   years old"). A fact that adds something ("plays clarinet" / "plays
   clarinet in a band") is no merge: a merge keeps one wording and would lose the rest;
7. anything else is unrelated, compatible updates included ("works as a nurse" / "works
   nights"), and two events on different dates ("went to Paris in May 2023" / "in June").

The thresholds are module constants, measured by ``bench/lifecycle.py``.
"""

from __future__ import annotations

import logging
import re
from enum import StrEnum
from functools import lru_cache

from memory.extraction.offline.verbs import verb
from memory.lifecycle.change import clear_cache as clear_cues
from memory.lifecycle.change import ended
from memory.lifecycle.lexicon import (
    ALCOHOL,
    DIETS,
    FILLERS,
    GENERIC_WORDS,
    KIND_OF_FOOD,
    KINDS,
    MEMBER_OF,
    SOFT_DRINKS,
)
from memory.lifecycle.reading import PUNCTUATION, Reading, content, keys, read
from memory.lifecycle.reading import (
    clear_cache as clear_readings,
)
from memory.lifecycle.slots import Verdict, compare_slots, find_slots, residual
from memory.lifecycle.spelling import kin, sets_match, words_match

log = logging.getLogger(__name__)

_LIKE = frozenset({"like"})
_DRINK = frozenset({"drink"})
_EAT_MEAT = frozenset({"eat", "meat"})
_NOT_MEAT = frozenset({"fish", "poultry", "chicken"})
"""What a vegetarian eats no more of than meat, said beside it ("no meat or fish")."""

SAME_MIN_SIMILARITY = 0.5
"""Below this embedding similarity two facts are never merged, whatever their words, unless
the same slots with the same values are all they say."""


class Relation(StrEnum):
    SAME = "same"  # the same fact said again (exact or paraphrase): merge
    CONTRADICTS = "contradicts"  # same attribute, other value; or a negated like/habit
    UNRELATED = "unrelated"  # anything else, including compatible updates


def relation(
    old: str, new: str, similarity: float, *, same_min_similarity: float = SAME_MIN_SIMILARITY
) -> Relation:
    """How ``new`` relates to ``old`` (two facts about one subject); ``similarity`` is the
    cosine similarity of their embeddings (``same_min_similarity``: see the constant)."""
    if old.strip().lower() == new.strip().lower():
        return Relation.SAME if old.strip() else Relation.UNRELATED
    keys_a, keys_b = keys(old), keys(new)
    if (
        not keys_a.words & keys_b.words
        and not (keys_a.cued and keys_b.cued)
        and not keys_a.kinds & keys_b.kinds
        and not _near(keys_a.words, keys_b.words)
    ):
        return Relation.UNRELATED  # the pre-check: nothing in common to compare
    first, second = read(old), read(new)
    if first.empty or second.empty:
        return Relation.UNRELATED
    if _plain(first.body) == _plain(second.body) and first.dates == second.dates:
        return Relation.SAME  # the same words but chat fillers: "hates running ngl" / "... lmao"
    names = {first.subject, second.subject} - {""}
    core_a, core_b = first.core - names, second.core - names
    verdict = compare_slots(find_slots(first.body), find_slots(second.body))
    if verdict is Verdict.CONFLICT and _adds(new):
        verdict = Verdict.PARTIAL  # "is a doctor" / "also teaches at the medical school"
    if verdict is Verdict.CONFLICT:
        return Relation.CONTRADICTS
    if _opposed(first, second, core_a, core_b):
        return Relation.CONTRADICTS
    if verdict is not Verdict.AGREE and ended(first, second):
        return Relation.CONTRADICTS
    if (first.negated or second.negated) and _clause_denies(first, second, names):
        return Relation.CONTRADICTS
    if _swapped(first, second) or _resumed(first, second, core_a, core_b):
        return Relation.CONTRADICTS
    if _only_other(first, second, core_a, core_b) or _only_other(second, first, core_b, core_a):
        return Relation.CONTRADICTS
    if _diet_restated(first, core_b, second) or _diet_restated(second, core_a, first):
        return Relation.SAME
    agreed = verdict is Verdict.AGREE  # the same slots, the same values: no floor needed
    if (similarity >= same_min_similarity or agreed) and _same(first, second, verdict, names):
        return Relation.SAME
    return Relation.UNRELATED


_CLAUSE_ENDS = frozenset({",", ".", ";", "!", "?", "(", ")", "lol", "lmao", "ngl", "tbh", "fr",
                          "and", "but", "so", "because", "cuz", "though", "tho"})  # fmt: skip


@lru_cache(maxsize=4096)
def _clauses(body: str) -> tuple[Reading, ...]:
    """The clauses of a fact's body when it has several, each read as said of its subject
    ("lily back on the burgers lol no more vegan": "lily back on the burgers", "lily not
    vegan"); none for a fact of one clause."""
    words = body.split()
    if len(words) < 3 or not _CLAUSE_ENDS.intersection(words):
        return ()
    parts: list[list[str]] = [[]]
    for word in words[1:]:
        if word in _CLAUSE_ENDS:
            parts.append([])
        else:
            parts[-1].append(word)
    found = [" ".join(part) for part in parts if part]
    if len(found) < 2:
        return ()
    return tuple(read(f"{words[0]} {part}") for part in found)


def _clause_denies(first: Reading, second: Reading, names: set[str]) -> bool:
    """A clause of one fact denies the other fact or one of its clauses ("never drinks tea
    because it's bitter" / "drinks black tea daily and says he loves it")."""
    olds = (first, *_clauses(first.body))
    news = (second, *_clauses(second.body))
    return any(
        _opposed(old, new, old.core - names, new.core - names)
        for old in olds
        for new in news
        if old is not first or new is not second  # the whole facts are compared already
    )


def clear_caches() -> None:
    """Forget every cached reading, slot, clause and cue (to time cold calls)."""
    clear_readings()
    find_slots.cache_clear()
    clear_cues()
    _clauses.cache_clear()
    _plain.cache_clear()


def _dates_compatible(first: Reading, second: Reading) -> bool:
    """The same occasion, as far as dates tell: equal dates, or one side undated."""
    return first.dates == second.dates or not first.dates or not second.dates


def _opposed(
    first: Reading, second: Reading, core_a: frozenset[str], core_b: frozenset[str]
) -> bool:
    """One fact denies what the other says (a like, a habit, a state); a wish beside what
    is denies nothing ("quit smoking" / "wants to smoke again")."""
    if first.possessive != second.possessive or not _dates_compatible(first, second):
        return False
    if first.wished != second.wished:
        return False
    if first.negated != second.negated and core_a and core_b:
        if sets_match(core_a, core_b):
            return True
        if (first.stopped or second.stopped) and _stopped_liking(core_a, core_b):
            return True
        if not first.dates and not second.dates and _habit_denied(first, core_a, core_b):
            return True
        if _liking_denied(first, core_a, core_b) or _kind_denied(first, core_a, core_b):
            return True
        if _liking_ended(first, second, core_a, core_b):
            return True
    return _eats_what_diet_excludes(first, second, core_b) or _eats_what_diet_excludes(
        second, first, core_a
    )


_COMPARISON = re.compile(r"^(?P<left>.+?) (?:over|than|rather than|instead of) (?P<right>.+)$")


def _swapped(first: Reading, second: Reading) -> bool:
    """A comparison turned round: "prefers tea over coffee" / "prefers coffee over tea",
    "likes cats more than dogs" / "likes dogs more than cats" (the same words, so no other
    step tells them apart)."""
    if first.negated != second.negated:
        return False
    sides = []
    for reading in (first, second):
        found = _COMPARISON.match(reading.body)
        if found is None:
            return False
        left = content(found["left"].split(), reading.subject)[0]
        right = content(found["right"].split(), reading.subject)[0]
        sides.append((left, right))
    (left_a, right_a), (left_b, right_b) = sides
    return bool(left_a & right_b) and bool(right_a & left_b)


def _only_other(
    only: Reading, other: Reading, core_only: frozenset[str], core_other: frozenset[str]
) -> bool:
    """One fact does something with one thing only, the other with another of its kind:
    "only speaks english at home" / "speaks italian at home", "speaks only english" /
    "speaks samoan and english"."""
    words = only.body.split()
    if "only" not in words or "not only" in only.body or only.negated or other.negated:
        return False
    if only.possessive != other.possessive or only.dates or other.dates:
        return False
    kinds = {kind for word in core_only for kind in MEMBER_OF.get(word, ())}
    if not kinds or not any(verb(word) for word in (core_only & core_other) - MEMBER_OF.keys()):
        return False  # the same thing done: "speaks", "listens to"
    others = {word for word in core_other - core_only if kinds & MEMBER_OF.get(word, frozenset())}
    return bool(others)


_ADDED = re.compile(r"^\S+(?: \S+){0,2} also\b|\b(?:as well|too)\W*$")
""""Also" before the verb, or "as well" / "too" at the end: not "moved to Denver and also
got a job", whose "also" is of another clause."""


_NOT_SAID = FILLERS | PUNCTUATION


@lru_cache(maxsize=8192)
def _plain(body: str) -> tuple[str, ...]:
    """A fact's words without chat fillers and punctuation (cached, as readings are)."""
    return tuple(word for word in body.split() if word not in _NOT_SAID)


def _adds(text: str) -> bool:
    """The fact tells a value beside another ("also teaches", "has a cat too"): a second
    job, pet or home is no change of the first."""
    return _ADDED.search(text.lower().strip()) is not None


def _resumed(old: Reading, new: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """A habit stopped, then taken up again: "quit smoking" / "smoking again, a pack a day"."""
    return (
        old.stopped
        and not new.negated
        and not new.stopped
        and "again" in new.body.split()
        and not new.wished  # "wants to smoke again" is no smoking
        and bool(core_a & core_b)
    )


def _near(first: frozenset[str], second: frozenset[str]) -> bool:
    """Some word of one is a typo of a word of the other ("barista" / "barrista"), or made
    from it ("baker" / "bake")."""
    return any(
        words_match(mine, theirs) or kin(mine, theirs) for mine in first for theirs in second
    )


def _habit_denied(first: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """A habit denied on one side, done on the other in whatever detail: "doesn't drink" /
    "drinks wine", "never eats breakfast" / "eats a big breakfast before work", a thing
    denied on its own or not touched ("no more dota", "doesn't touch coffee") / a habit with
    it ("plays dota daily", "drinks coffee every morning"). A liking is
    no doing ("didn't go camping" / "loves camping" is left alone), and a habit denied in
    detail is no denial in general ("doesn't drink coffee with sugar" / "drinks coffee"). Not
    drinking is not drinking alcohol ("is sober" / "few beers a night", not "drinks tea")."""
    denied, done = (core_a, core_b) if first.negated else (core_b, core_a)
    if {word for word in denied if not word.isdigit()} == _DRINK:
        drinks = done & (ALCOHOL | _DRINK)
        return bool(drinks) and not done & SOFT_DRINKS and "like" not in done
    if "like" in done:
        return False
    if denied - _UNTOUCHED < done and not any(verb(word) for word in denied - _UNTOUCHED):
        return any(verb(word) is not None for word in done)  # "no more dota" / "plays dota"
    return denied < done and any(verb(word) is not None for word in denied)


_UNTOUCHED = frozenset({"touch"})
"""A verb that denies whatever is done with the thing: "doesn't touch osu anymore"."""


def _liking_denied(first: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """A liking denied in general, affirmed in detail: "no longer enjoys coffee" / "enjoys
    drinking coffee every morning" (denied in detail is no denial in general: "doesn't like
    coffee with sugar" / "likes coffee" is left alone)."""
    denied, affirmed = (core_a, core_b) if first.negated else (core_b, core_a)
    return bool(denied & _LIKE) and bool(denied - _LIKE) and denied < affirmed


_NO_LONGER = re.compile(r"\b(?:anymore|any more|no longer)\b")


def _liking_ended(
    first: Reading, second: Reading, core_a: frozenset[str], core_b: frozenset[str]
) -> bool:
    """A liking, then what was liked no longer done: "loves coffee" / "can't drink coffee
    anymore", "loves road cycling" / "doesn't cycle anymore"."""
    (_, liked), (denier, denied) = sorted(
        ((first, core_a), (second, core_b)), key=lambda side: side[0].negated
    )
    if "like" not in liked or _NO_LONGER.search(denier.body) is None:
        return False
    rest = denied - _CONSUMING - _LIKE
    return bool(rest) and rest <= liked - _LIKE


def _kind_denied(first: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """A kind denied whole, one of its members done: "does not play any instrument" / "plays
    the piano", "no sports" / "plays volleyball", "doesn't eat meat" / "had a chicken burger"
    (:data:`KINDS`). A liking is no doing ("doesn't like sports" / "plays tennis")."""
    denied, done = (core_a, core_b) if first.negated else (core_b, core_a)
    kinds = [word for word in denied if word in KINDS]
    if len(kinds) != 1 or "like" in denied or "like" in done:
        return False
    kind = kinds[0]
    if not done & KINDS[kind]:
        return False
    said = denied - {kind, "any", "video"}
    if kind in KIND_OF_FOOD:
        return said <= _CONSUMING
    return said <= done


_CONSUMING = frozenset({"eat", "drink", "have", "do", "consume", "touch", "tolerate"})


def _stopped_liking(core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """A habit liked on one side, stopped on the other: "likes running" / "stopped running"."""
    rest_a, rest_b = core_a - _LIKE, core_b - _LIKE
    return bool(rest_a) and (core_a != rest_a) != (core_b != rest_b) and sets_match(rest_a, rest_b)


def _diet_restated(dieter: Reading, said: frozenset[str], other: Reading) -> bool:
    """``dieter`` is vegetarian; ``other`` says no more than that it eats no meat."""
    return (
        dieter.not_eaten is DIETS["vegetarian"]
        and other.negated
        and not other.dates
        and "meat" in said
        and said <= _EAT_MEAT | _NOT_MEAT  # "no meat", "does not eat meat or fish"
    )


_ONE_OFF = re.compile(
    r"\b(?:accidentally|by accident|by mistake|without knowing|unknowingly|to be polite"
    r"|out of politeness|(?:1|a|one) bite|a taste)\b"
)
"""A slip, not a change of diet: "accidentally ate a dumpling with pork in it"."""


def _eats_what_diet_excludes(dieter: Reading, eater: Reading, eaten: frozenset[str]) -> bool:
    """``dieter`` keeps a diet; ``eater`` says they eat something it rules out (not once, by
    mistake or to be polite)."""
    return (
        bool(dieter.not_eaten)
        and not eater.negated
        and "eat" in eaten
        and bool(eaten & dieter.not_eaten)
        and _ONE_OFF.search(eater.body) is None
    )


def _same(first: Reading, second: Reading, verdict: Verdict, names: set[str]) -> bool:
    """The two facts say the same thing (see the module's docstring, step 6)."""
    if first.dates != second.dates or verdict is Verdict.PARTIAL:
        return False
    if verdict is Verdict.AGREE:  # the same slots: what else do they say?
        rest_a, negated_a = _rest(first, names)
        rest_b, negated_b = _rest(second, names)
        return negated_a == negated_b and sets_match(rest_a, rest_b)
    if first.possessive != second.possessive or first.negated != second.negated:
        return False
    core_a, core_b = first.core - names, second.core - names
    if core_a and sets_match(core_a, core_b):
        return True
    plain_a, plain_b = core_a - GENERIC_WORDS, core_b - GENERIC_WORDS
    if plain_a == core_a and plain_b == core_b:
        return False
    return bool(plain_a) and sets_match(plain_a, plain_b)


def _rest(reading: Reading, names: set[str]) -> tuple[frozenset[str], bool]:
    """The content of a fact besides its slots, and whether that rest is negated."""
    kept = residual(reading.body, find_slots(reading.body))
    words, negations = content(kept.split(), reading.subject)
    return words - names, bool(negations % 2)
