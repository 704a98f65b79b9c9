"""Whether one fact denies what the other says (:func:`opposed`): a like, a habit or a state
said on one side and denied, stopped or given up on the other, in whatever detail.

    opposed(read("likes olives"), read("hates olives"), ...) → True

Used by :func:`memory.lifecycle.relation.relation` (step 4 of its order) on two whole facts
and on their clauses. Two readings are opposed when one is negated and the other not and:

* their content words match ("likes olives" / "does not like olives", "smokes" / "quit
  smoking");
* a habit is denied in general and done in detail ("doesn't drink" / "drinks wine", "no
  more dota" / "plays dota daily"); a liking is no doing, and a habit denied in detail is
  no denial in general ("doesn't drink coffee with sugar" / "drinks coffee");
* a liking is denied in general and affirmed in detail, or a liking is followed by what was
  liked no longer done ("loves coffee" / "can't drink coffee anymore");
* a thing disliked is taken to now, or with a passion ("hates mushrooms" / "puts mushrooms
  in everything now", "cannot stand coldplay" / "listens to coldplay on repeat"; a habit
  alone is no liking: "hates his commute" / "commutes every day");
* a kind is denied whole and one of its members done ("plays no instrument" / "plays the
  piano");
* or, whatever the negations, one side keeps a diet and the other eats what it rules out
  (not once, by mistake or to be polite).

A wish beside what is denies nothing ("quit smoking" / "wants to smoke again"), nor do two
dated events on different dates.
"""

from __future__ import annotations

import re

from memory.extraction.offline.verbs import verb
from memory.lifecycle.lexicon import (
    ALCOHOL,
    FAVOURITES,
    KIND_OF_FOOD,
    KINDS,
    MEMBER_OF,
    OCCUPATIONS,
    SOFT_DRINKS,
)
from memory.lifecycle.reading import Reading, own_choice
from memory.lifecycle.word_match import sets_match, within, words_match

_LIKE = frozenset({"like"})
_DRINK = frozenset({"drink"})


def _dates_compatible(first: Reading, second: Reading) -> bool:
    """The same occasion, as far as dates tell: equal dates, or one side undated."""
    return first.dates == second.dates or not first.dates or not second.dates


def opposed(
    first: Reading, second: Reading, core_a: frozenset[str], core_b: frozenset[str]
) -> bool:
    """One fact denies what the other says (a like, a habit, a state); a wish beside what
    is denies nothing ("quit smoking" / "wants to smoke again")."""
    if first.possessive != second.possessive:
        if not (_favourite(first) or _favourite(second)):
            return False
        core_a, core_b = _as_liked(first, core_a), _as_liked(second, core_b)
    if not _dates_compatible(first, second) or first.wished != second.wished:
        return False
    if first.negated != second.negated and core_a and core_b:
        if sets_match(core_a, core_b) or _kind_left_out(first, second, core_a, core_b):
            return True
        if (first.stopped or second.stopped) and _stopped_liking(core_a, core_b):
            return True
        if not first.dates and not second.dates and _habit_denied(first, core_a, core_b):
            return True
        if _liking_denied(first, core_a, core_b) or _kind_denied(first, core_a, core_b):
            return True
        if _liking_ended(first, second, core_a, core_b):
            return True
        if _dislike_turned(first, second, core_a, core_b):
            return True
    return _eats_what_diet_excludes(first, second, core_b) or _eats_what_diet_excludes(
        second, first, core_a
    )


def _kind_left_out(
    first: Reading, second: Reading, core_a: frozenset[str], core_b: frozenset[str]
) -> bool:
    """The same thing, its kind said on one side only ("dislikes mecha anime" / "has come
    around to mecha"), a thing named beside it ("horror movies" / "movies" is another); not
    where the side read as no denial says a dislike (two denials: "hates country , it 's a no
    from him")."""
    affirmed = second if first.negated else first
    if not _KIND_NOUNS & (core_a ^ core_b) or _DISLIKE.search(affirmed.body):
        return False
    thing_a, thing_b = core_a - _KIND_NOUNS, core_b - _KIND_NOUNS
    return bool(thing_a - _LIKE) and sets_match(thing_a, thing_b)


def _favourite(reading: Reading) -> bool:
    """A fact of the subject's favourite thing ("aiko 's favourite anime is naruto"): said of
    the subject, as a liking is, though it reads as a possessive."""
    return own_choice(reading, FAVOURITES)


def _as_liked(reading: Reading, core: frozenset[str]) -> frozenset[str]:
    """The content words of a favourite read as a liking ("favourite anime naruto": "like
    anime naruto"), so that it is opposed by a dislike of it ("thinks naruto is overrated")."""
    return core - _FAVOURITE | _LIKE if _favourite(reading) and "favorite" in core else core


_FAVOURITE = frozenset({"favorite"})


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
    if done & _FEELINGS:
        return False  # a liking, or missing it, is no doing: "misses her office job"
    # each thing as the done side spells it: "no more overwatch" / "plays overwach"
    things = {next((w for w in done if words_match(word, w)), word) for word in denied} - _UNTOUCHED
    if things < done and all(verb(word) is None or word in MEMBER_OF for word in things):
        return any(verb(word) is not None or word in OCCUPATIONS for word in done - things)
        # "no more dota" / "plays dota"; "no more php" / "php dev": what they do for work
    return denied < done and any(verb(word) is not None for word in denied)


_FEELINGS = frozenset({"like", "miss", "regret"})
_UNTOUCHED = frozenset({"touch", "open", "launch"})
"""Verbs that deny whatever is done with the thing: "doesn't touch osu anymore", "hasn't
opened overwatch in months", "hasn't launched steam since june"."""


def _liking_denied(first: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """A liking denied in general, affirmed in detail: "no longer enjoys coffee" / "enjoys
    drinking coffee every morning" (denied in detail is no denial in general: "doesn't like
    coffee with sugar" / "likes coffee" is left alone)."""
    denied, affirmed = (core_a, core_b) if first.negated else (core_b, core_a)
    return bool(denied & _LIKE) and bool(denied - _LIKE) and denied < affirmed


_NO_LONGER = re.compile(r"\b(?:anymore|any more|no longer)\b|^\S+ (?:[.:,-] )?not (?!\w+ing\b)")
"""What ends a liking, or a fragment denying its thing: "nico - no more horror" ("not")."""


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


_NOW = re.compile(
    r"\b(?:now|these days|nowadays|converted|obsessed|addicted|hooked|on repeat|nonstop"
    r"|become (?:a |an )?(?:huge |big |massive |real )?fan|become (?:1|one) of (?:his|her"
    r"|their) favou?rite)\b"
)
"""A thing taken to now, or with a passion ("now and then" is read "sometimes" already): a
habit alone is no liking ("hates his commute" / "commutes every day"); one's view come round
("has become a huge fan", "one of his favourite series")."""
_DISLIKE = re.compile(r"\b(?:hates?|dislikes?|can not stand|loathes?|detests?)\b")
_KIND_NOUNS = frozenset({"anime", "manga", "movie", "show", "series", "game", "music", "book",
                         "food", "genre", "song"})  # fmt: skip
"""The kind a thing disliked is said with and liked without ("isekai anime" / "isekai")."""


def _dislike_turned(
    old: Reading, new: Reading, core_a: frozenset[str], core_b: frozenset[str]
) -> bool:
    """A thing disliked, then done or had now: "hates mushrooms" / "puts mushrooms in
    everything now", "hates fortnite" / "grinding fortnite, says it's peak now"; or liked,
    then disliked now in more words ("loves hill reps" / "hill reps = pure hate now"); or not
    done, then liked now ("doesn't drink coffee" / "hooked on coffee now"; not "doesn't
    drink" / "likes tea now": no thing named)."""
    if old.negated == new.negated or _NOW.search(new.body) is None:
        return False
    if "like" not in core_a:
        thing = core_a - _CONSUMING
        return old.negated and "like" in core_b and bool(thing) and _named(thing, core_b)
    if new.negated and "like" not in core_b:
        return False  # a liking, then not done now, is no dislike: "can't go hiking now"
    thing = core_a - _LIKE
    named = thing - _KIND_NOUNS or thing  # "isekai anime": "isekai"
    return bool(thing) and within(named, core_b)


def _named(thing: frozenset[str], core: frozenset[str]) -> bool:
    """The thing is named in ``core``, or one of its kind is ("coffee": "espresso")."""
    if within(thing, core):
        return True
    kind = next(iter(thing)) if len(thing) == 1 else ""
    return bool(KINDS.get(kind, frozenset()) & core)


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


_ONE_OFF = re.compile(
    r"\b(?:accidentally|by accident|by mistake|without knowing|unknowingly|to be polite"
    r"|out of politeness|(?:1|a|one) bite|a taste|(?:1|one)[- ]off|just once|as a (?:teenager|teen"
    r"|kid|child)|growing up|at (?:(?:a|the|his|her|their) )?(?:\w+ 's )?(?:wedding|party|bbq"
    r"|barbecue|funeral|christening|buffet))\b"
)
"""A slip, a one-off or a time before, not a change of diet: "accidentally ate a dumpling with
pork in it", "ate fish at her cousin's wedding", "ate meat as a teenager"."""


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
