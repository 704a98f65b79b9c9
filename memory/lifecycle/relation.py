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
4. polarity (:mod:`memory.lifecycle.polarity`): the same content, one side negated
   ("likes olives" / "hates olives", "eats meat" / "is vegetarian", "smokes" / "quit
   smoking", "likes running" / "stopped running", "doesn't drink" / "drinks wine", "never
   eats breakfast" / "eats a big breakfast", "no more dota" / "plays dota daily", "loves
   coffee" / "can't drink coffee anymore"), and a kind denied whole against one of its
   members ("plays no instrument" / "plays the piano") contradicts, unless both are events
   with different dates;
5. a change told as an event (:mod:`memory.lifecycle.change`: "moved last month", "single
   again", "quit vaping") on the old fact's topic, or one clause of the new fact denying
   the old one ("lily back on burgers lol no more vegan"), contradicts; so does a
   comparison turned round ("prefers tea over coffee" / "prefers coffee over tea"), a
   habit stopped then taken up again ("quit smoking" / "smoking again"), none of a kind
   then a first one got ("no pets" / "got a kitten"), an ailment then well again ("knee
   pain" / "knee all good now"), a thing of the subject's that falls on one day moved to
   another ("bin day is Thursday" / "is Monday"), and one thing
   done only beside another of its kind ("only speaks english at home" / "speaks italian
   at home") (those turns: :mod:`memory.lifecycle.turns`);
6. the same fact: "doesn't eat meat" restates "is vegetarian"; else the same polarity,
   the same dates (a dated event and an undated fact are not merged), the same content
   words (lemmas, synonyms, one typo per word), or the same slots with the same values
   and nothing else said besides; and the embeddings not far apart
   (``SAME_MIN_SIMILARITY``) unless the slots alone are the fact ("is 19" / "is nineteen
   years old") or the content words, once read, are the same (the vectors are of the texts
   as typed: "plays the gutiar" / "is a guitarrist"). A fact that adds something ("plays
   clarinet" / "plays clarinet in a band") is no merge: a merge keeps one wording and would
   lose the rest;
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
from memory.lifecycle.aligned import aligned
from memory.lifecycle.amounts import amount_changed
from memory.lifecycle.change import clear_cache as clear_cues
from memory.lifecycle.change import ended, instead_of_it, replaced
from memory.lifecycle.clauses import clauses, of_one_relative
from memory.lifecycle.kept import moved_within
from memory.lifecycle.lexicon import DIETS, FILLERS, GENERIC_WORDS, MEMBER_OF, SYNONYMS
from memory.lifecycle.plans import called_off, course_finished, hunt_ended
from memory.lifecycle.polarity import opposed
from memory.lifecycle.reading import PUNCTUATION, Reading, content, keys, read
from memory.lifecycle.reading import (
    clear_cache as clear_readings,
)
from memory.lifecycle.slots import Verdict, compare_slots, find_slots, residual
from memory.lifecycle.turns import (
    achieved,
    born,
    day_changed,
    drinks_again,
    first_one,
    first_time,
    installed,
    left_town,
    off_the_list,
    postponed,
    recovered,
    relapsed,
    renewed,
    rescheduled,
    resumed,
)
from memory.lifecycle.when import apart
from memory.lifecycle.word_match import kin, sets_match, words_match

log = logging.getLogger(__name__)

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
    cosine similarity of their embeddings (``same_min_similarity``: see the constant). Two
    facts about one relative of the subject's that read as unrelated are read again as facts
    of the subject (``clauses.of_one_relative``)."""
    found = _related(old, new, similarity, same_min_similarity)
    of_them = of_one_relative(old, new) if found is Relation.UNRELATED else None
    return found if of_them is None else _related(*of_them, similarity, same_min_similarity)


def _related(old: str, new: str, similarity: float, same_min_similarity: float) -> Relation:
    if old.strip().lower() == new.strip().lower():
        return Relation.SAME if old.strip() else Relation.UNRELATED
    old, new = aligned(old, new)  # "is a PM" / "is a product manager"
    keys_a, keys_b = keys(old), keys(new)
    if (
        not keys_a.words & keys_b.words
        and not (keys_a.cued and keys_b.cued)
        and not keys_a.kinds & keys_b.kinds
        and not akin(keys_a.words, keys_b.words)
    ):
        return Relation.UNRELATED  # the pre-check: nothing in common to compare
    first, second = read(old), read(new)
    if first.empty or second.empty:
        return Relation.UNRELATED
    if _plain(first.body) == _plain(second.body) and _same_occasions(first, second):
        return Relation.SAME  # the same words but chat fillers: "hates running ngl" / "... lmao"
    names = {first.subject, second.subject} - {""}
    core_a, core_b = first.core - names, second.core - names
    verdict = compare_slots(find_slots(first.body), find_slots(second.body))
    if verdict is Verdict.CONFLICT and (_adds(new) or apart(first.days, second.days)):
        verdict = Verdict.PARTIAL  # "is a doctor" / "also teaches at the medical school"
    if verdict is Verdict.CONFLICT and moved_within(first, second):
        verdict = Verdict.PARTIAL  # "lives in oslo" / "moved to grunerlokka , still oslo"
    if verdict is Verdict.CONFLICT:
        return Relation.CONTRADICTS
    if opposed(first, second, core_a, core_b):
        return Relation.CONTRADICTS
    if verdict is not Verdict.AGREE and ended(first, second):
        return Relation.CONTRADICTS
    if (first.negated or second.negated) and _clause_denies(first, second, names):
        return Relation.CONTRADICTS
    if _swapped(first, second) or resumed(first, second, core_a, core_b):
        return Relation.CONTRADICTS
    if _passed_over(first, second):
        return Relation.CONTRADICTS  # "favourite ide is intellij" / "prefers vs code over it"
    if rescheduled(first, second, core_a, core_b) or day_changed(first, second):
        return Relation.CONTRADICTS
    if postponed(first, second, core_a, core_b) or renewed(first, second, core_a, core_b):
        return Relation.CONTRADICTS  # "moving on the 30th" / "the move got pushed to the 7th"
    if installed(first, second, core_a, core_b) or drinks_again(first, second):
        return Relation.CONTRADICTS  # "has no dishwasher" / "got a dishwasher installed"
    if off_the_list(first, second, core_a, core_b) or relapsed(first, second):
        return Relation.CONTRADICTS  # "on the waitlist for cbt" / "cbt started tues"
    if left_town(first, second) or hunt_ended(first, second):
        return Relation.CONTRADICTS  # "plays for a club in bradford" / "moved to leicester"
    if called_off(first, second, core_a, core_b) or course_finished(first, second, core_a):
        return Relation.CONTRADICTS  # "going to pyrkon" / "will not make it to pyrkon"
    if first_one(first, second, core_a) or first_time(first, second, core_a, core_b):
        return Relation.CONTRADICTS
    if recovered(first, second, core_a, core_b) or born(first, second) or achieved(first, second):
        return Relation.CONTRADICTS
    if _only_other(first, second, core_a, core_b) or _only_other(second, first, core_b, core_a):
        return Relation.CONTRADICTS
    if amount_changed(first, second, core_a, core_b):
        return Relation.CONTRADICTS  # "rent is 950 pounds" / "raised her rent to 1,100"
    if _diet_restated(first, core_b, second) or _diet_restated(second, core_a, first):
        return Relation.SAME
    if verdict is Verdict.AGREE and instead_of_it(first, second, core_a):
        return Relation.CONTRADICTS  # "teaches maths" / "teaches physics instead of maths"
    agreed = verdict is Verdict.AGREE  # the same slots, the same values: no floor needed
    agreed = agreed or (bool(core_a) and core_a == core_b)  # the same words, once read
    if (similarity >= same_min_similarity or agreed) and _same(first, second, verdict, names):
        return Relation.SAME
    if verdict is not Verdict.AGREE and replaced(first, second, core_a, core_b):
        return Relation.CONTRADICTS  # "mains reyna" / "swapped reyna for jett"
    return Relation.UNRELATED


def _clause_denies(first: Reading, second: Reading, names: set[str]) -> bool:
    """A clause of one fact denies the other fact or one of its clauses ("never drinks tea
    because it's bitter" / "drinks black tea daily and says he loves it")."""
    olds = (first, *clauses(first.body))
    news = (second, *clauses(second.body))
    return any(
        opposed(old, new, old.core - names, new.core - names)
        for old in olds
        for new in news
        if old is not first or new is not second  # the whole facts are compared already
    )


def clear_caches() -> None:
    """Forget every cached reading, slot, clause, cue and pair read side by side (to time cold
    calls)."""
    aligned.cache_clear()
    clear_readings()
    find_slots.cache_clear()
    clear_cues()
    clauses.cache_clear()
    _plain.cache_clear()


_COMPARISON = re.compile(r"^(?P<left>.+?) (?:over|than|rather than|instead of) (?P<right>.+)$")
_PREFERENCE = re.compile(r"^(?P<left>.*\bprefer(?:s|red)? .+?) to (?P<right>.+)$")  # "x to y"


def _swapped(first: Reading, second: Reading) -> bool:
    """A comparison turned round: "prefers tea over coffee" / "prefers coffee to tea",
    "likes cats more than dogs" / "likes dogs more than cats" (the same words, so no other
    step tells them apart)."""
    if first.negated != second.negated:
        return False
    sides = []
    for reading in (first, second):
        found = _COMPARISON.match(reading.body) or _PREFERENCE.match(reading.body)
        if found is None:
            return False
        left = content(found["left"].split(), reading.subject)[0]
        right = content(found["right"].split(), reading.subject)[0]
        sides.append((left, right))
    (left_a, right_a), (left_b, right_b) = sides
    return bool(left_a & right_b) and bool(right_a & left_b)


def _passed_over(first: Reading, second: Reading) -> bool:
    """A favourite passed over for another: "favourite ide is intellij" / "now prefers vs
    code over intellij", "fave game is apex" / "prefers valorant over apex now"."""
    if second.negated:
        return False
    found = _COMPARISON.match(second.body) or _PREFERENCE.match(second.body)
    if found is None or "prefer" not in found["left"]:
        return False
    left = content(found["left"].split(), second.subject)[0]
    right = content(found["right"].split(), second.subject)[0]
    favourites = [slot.value for slot in find_slots(first.body) if slot.key.startswith("favorite")]
    return any(
        (words := content(value.split(), first.subject)[0]) & right and not words & left
        for value in favourites
    )


def _only_other(
    only: Reading, other: Reading, core_only: frozenset[str], core_other: frozenset[str]
) -> bool:
    """One fact does something with one thing only, the other with another of its kind:
    "only speaks english at home" / "speaks italian at home", "speaks only english" /
    "speaks samoan and english"; or, told with "now", the same thing named another way
    ("drinks full fat milk" / "only drinks oat milk now")."""
    words = only.body.split()
    if "only" not in words or "not only" in only.body or only.negated or other.negated:
        return False
    if only.possessive != other.possessive or only.dates or other.dates:
        return False
    shared = core_only & core_other
    if "now" in words and _other_kind_now(shared, core_only - shared, core_other - shared):
        return True  # "drinks full fat milk" / "only drinks oat milk now"
    kinds = {kind for word in core_only for kind in MEMBER_OF.get(word, ())}
    if not kinds or not any(verb(word) for word in shared - MEMBER_OF.keys()):
        return False  # the same thing done: "speaks", "listens to"
    return any(kinds & MEMBER_OF.get(word, frozenset()) for word in core_other - core_only)


def _other_kind_now(shared: frozenset[str], only: frozenset[str], other: frozenset[str]) -> bool:
    """The same thing done with the same kind of thing, each fact naming it another way: a
    verb and a thing in common, and a word of each side's own ("full fat" / "oat")."""
    things = shared - GENERIC_WORDS
    done = any(verb(word) is not None for word in things)
    return done and len(things) >= 2 and bool(only) and bool(other)


ALSO = r"^\S+(?: \S+){0,2} also\b"
"""One more told with "also" before the verb ("pia also into jpop now")."""
_ADDED = re.compile(rf"{ALSO}|\b(?:as well|too)\W*$")
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


def akin(first: frozenset[str], second: frozenset[str]) -> bool:
    """Some word of one is a typo of a word of the other ("barista" / "barrista"), or made
    from it ("baker" / "bake")."""
    return any(
        words_match(mine, theirs) or kin(mine, theirs) for mine in first for theirs in second
    )


def _diet_restated(dieter: Reading, said: frozenset[str], other: Reading) -> bool:
    """``dieter`` is vegetarian; ``other`` says no more than that it eats no meat."""
    return (
        dieter.not_eaten is DIETS["vegetarian"]
        and other.negated
        and not other.dates
        and "meat" in said
        and said <= _EAT_MEAT | _NOT_MEAT  # "no meat", "does not eat meat or fish"
    )


def _same_occasions(first: Reading, second: Reading) -> bool:
    """The same dates and days of the week, or none on either side: a fact told with a day
    is no repeat of one told without ("cashier" / "cashier, weekends only"), nor of one told
    with another ("streams on weekends" / "on wednesdays too"), nor at another part of the day
    ("runs in the mornings" / "in the evenings too")."""
    same = first.dates == second.dates and first.days == second.days
    return same and not apart(first.parts, second.parts)


def _same(first: Reading, second: Reading, verdict: Verdict, names: set[str]) -> bool:
    """The two facts say the same thing (see the module's docstring, step 6)."""
    if not _same_occasions(first, second) or verdict is Verdict.PARTIAL:
        return False
    core_a, core_b = first.core - names, second.core - names
    if verdict is Verdict.AGREE:  # the same slots: what else do they say?
        rest_a, negated_a = _rest(first, names)
        rest_b, negated_b = _rest(second, names)
        if negated_a != negated_b:
            return False
        # the rest said again, or said inside the other's slot ("a dog , a labrador" / "a
        # labrador dog": "labrador" is in the slot's span of the second)
        return sets_match(rest_a, rest_b) or (rest_a <= core_b and rest_b <= core_a)
    if first.possessive != second.possessive or first.negated != second.negated:
        return False
    if core_a and sets_match(core_a, core_b):
        return True
    plain_a, plain_b = core_a - GENERIC_WORDS, core_b - GENERIC_WORDS
    if plain_a == core_a and plain_b == core_b:
        return False
    return bool(plain_a) and sets_match(plain_a, plain_b)


def _rest(reading: Reading, names: set[str]) -> tuple[frozenset[str], bool]:
    """The content of a fact besides its slots (a value said again aside: "vegan , is
    vegan"), and whether that rest is negated."""
    slots = find_slots(reading.body)
    kept = residual(reading.body, slots)
    words, negations = content(kept.split(), reading.subject)
    said = {slot.value for slot in slots} | {
        word for word in words for slot in slots if _names_slot(word, slot.key, slot.value)
    }
    return words - names - said, bool(negations % 2)


def _names_slot(word: str, key: str, value: str) -> bool:
    """``word`` names only what the slot is of, said beside it ("a tabby cat", "a corgi
    pupper", "in a relationship with his gf"): no more than the slot says."""
    if key == "pets":  # the kind itself or a word for it, not a breed ("dog is a husky")
        return value.split()[-1] in (word, SYNONYMS.get(word))
    return word in _KIND_WORDS.get(key, ())


_LOCALS = ("guy", "girl", "boy", "lad", "lass", "gal", "local", "native")
"""Who a place's own are: "a melbourne guy", "an adelaide girl born and raised"."""
_ORIGIN_WORDS = frozenset(("hometown", "home", "town", "city", "bear", "raise", "breed",
                           "family", "like", "that", *_LOCALS))  # fmt: skip
"""Words of an origin beside its place: "born and raised", "that's where her family is from"."""
_RENT_WORDS = frozenset({"rent", "rend", "pay", "cost", "monthly", "mo", "month", "grand",
                        "thousand", "euro", "pound", "dollar", "buck", "quid", "rupee", "room",
                        "flat", "place"})  # fmt: skip
"""Words of a rent beside its amount: "pays 700 euros monthly for her flat"."""
_KIND_WORDS = {
    "status": frozenset({"girlfriend", "boyfriend", "partner", "wife", "relationship"}),
    "origin": _ORIGIN_WORDS,
    "home": frozenset(
        {"home", "town", "city", "resident", "live", "base", "where", "like", "that", *_LOCALS}
    ),
    "sleep": frozenset({"sleep", "get", "hour", "night", "run", "survive", "live"}),
    "diet": frozenset({"diet", "eat", "meat", "food", "keep", "follow", "thing"}),
    "job": frozenset({"retire", "work"}),
    "timezone": frozenset({"go", "use", "follow", "time", "zone", "timezone"}),
    "workplace": frozenset({"full", "time", "job", "home", "work", "flat", "house"}),
    "rent": _RENT_WORDS,
    "floor": frozenset({"floor", "live", "flat", "apartment", "place", "home"}),
    "position": frozenset({"play", "position", "team", "side", "league", "club"}),
    "shift": frozenset({"work", "job", "shift"}),
}
