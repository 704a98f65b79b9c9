"""One fact text read for comparison: normalised words, content, polarity and event dates.

:func:`read` turns "Jay doesn't eat meat anymore lol." into a :class:`Reading`:

* ``body``: the text normalised (lowercase; contractions, number words and the phrases of
  :mod:`memory.lifecycle.phrases` rewritten: "can't stand" → "hates", "is a fan of" →
  "likes", "gave up" → "stopped", "used to" → "not"; punctuation kept as separate tokens)
  with its dates taken out;
* ``core``: the content words as canonical lemmas ("went" → "go" → dropped as a light
  verb, "olives" → "olive", "loves" → "like"), without the subject (the first word),
  stopwords, chat fillers, negations and dates: ``{"eat", "meat"}``;
* ``negated``: whether the fact negates (an odd number of "not", "never", "hates",
  "quit", "used to"...): ``True``; ``stopped``: whether it ends a habit ("quit", "stopped");
* ``not_eaten``: what the subject's diet rules out ("is vegetarian": meat, fish...);
* ``dates``: the dates of an event ("on 7 May 2023", "last week"), which tell two
  occurrences of the same kind of event apart; stamps of a state ("as of 3 May 2023",
  "by 3 May 2023") and frequencies ("every morning") are dropped, not kept
  (:mod:`memory.lifecycle.when`); ``days``: the days of the week it names.

Text of every script is read: accents and marks folded ("Kraków", "живёт" → "krakow",
"живет"), each run of Chinese, Japanese or Korean as its character bigrams, the words search
makes of it; the lexicons, slots and negations read English. Readings are cached per text (a
member's old facts are read once, not once per new fact).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memory.extraction.offline.verbs import verb
from memory.lifecycle.chat import (
    SUBJECT_PRONOUNS,
    handle_joined,
    respelled,
    unconcorded,
    unpadded,
    unrepeated,
    unspoken,
)
from memory.lifecycle.lexicon import (
    CHANGE_CUES,
    CONTRACTIONS,
    DATE_WORDS,
    DIETS,
    FILLERS,
    HAS_AFTER_S,
    IE_NOUNS,
    IS_AFTER_S,
    KINDS,
    LIGHT_VERBS,
    MEMBER_OF,
    NAMING_WORDS,
    NEGATIVE_VERBS,
    NEGATORS,
    OCCUPATIONS,
    SAME_IN_PLURAL,
    SLOT_CUES,
    STOPPING_VERBS,
    STOPWORDS,
    SYNONYMS,
    WISHES,
)
from memory.lifecycle.numbers import NUMBER_WORDS, numbers_written
from memory.lifecycle.phrases import rewritten
from memory.lifecycle.places import is_place
from memory.lifecycle.routine_patterns import diet_kept
from memory.lifecycle.spelling import repaired
from memory.lifecycle.when import (
    days_named,
    parts_of_day,
    spelled_days,
    split_dates,
    tells_how_often,
)
from memory.lifecycle.zones import tz_database_zones
from memory.search.scripts import spaced, unaccented

READ_CACHE_SIZE = 8192
MAX_CHARS = 600
"""Longer texts are read up to here (facts are at most 190 characters)."""

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_CONTRACTION = re.compile(
    r"(?<![\w'])(?:"
    + "|".join(re.escape(key) for key in sorted(CONTRACTIONS, key=len, reverse=True))
    + r")(?![\w'])"
)
_NT = re.compile(r"(\w)n't\b")
_SUFFIXES = {"m": "am", "re": "are", "ve": "have", "ll": "will", "d": "would"}
_SUFFIX = re.compile(r"'(m|re|ve|ll|d)\b")
_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*|[.,;:!?()]")
PUNCTUATION = frozenset(".,;:!?()")
"""The punctuation a body keeps as tokens of their own."""
_NO_CONTENT = STOPWORDS | FILLERS | NAMING_WORDS | PUNCTUATION
"""Words :func:`content` passes over."""
_NO_KEY = STOPWORDS | FILLERS | DATE_WORDS | NEGATORS
"""Words :func:`keys` passes over."""

_SPACES = re.compile(r"\s+")
_GLUED_UNIT = re.compile(r"\b(\d+(?:\.\d+)?)(hrs?|hours?|mins?|kgs?|kms?|lbs?|yrs?|wks?|cm)\b")
"""A number and its unit written as one ("8hrs", "200kg"): two words, as "8 hours" is."""
_DOTTED_TIME = re.compile(r"\b([ap])\.\s?m\b\.?")
"""A time of day written "3 a.m.": "3 am", as chat writes it."""
_NOW_AND_THEN = re.compile(r"\b(?:every )?now (?:and|n|&) then\b")
"""Once in a while, one word: "now" is no change, nor "and" a clause's end."""
_WHOLE_TIME = re.compile(r"\b(remote|remotely|from home|wfh|in (?:the )?office|on site|onsite) "
                         r"100 ?(?:%|percent)(?: of the time)?")  # fmt: skip
"""Working somewhere 100 % of the time is working there full time."""
CLAUSE_ENDS = frozenset({",", ";", ".", "!", "?", "and", "but", "tbh", "ngl", "lol", "lmao"})
"""What ends a clause of a fact (its negations are counted per clause): a chat tail too ("is
so over drill tbh can't listen to it anymore" denies twice, not zero times)."""
_NO_PLAN = frozenset({("not", "plan"), ("not", "plans"), ("not", "planning"), ("in", "planning")})
_WORD = re.compile(r"[^\W_]+")
_DIET = re.compile(rf"^\S+ {diet_kept('diet')}")  # the verb may be left out: "mo vegan now"
_CUE_WORDS = frozenset({"from", "morning", "mornings", "night", "nights", "noon", "day", "days",
                        "afternoons", "evenings", "taken", "by", "them", "him", "pronouns",
                        "euw", "eune", "na", "oce", "servers", *NUMBER_WORDS})  # fmt: skip
"""Words that cue a slot though :func:`keys` passes over them (as does a place named alone,
"farah . toronto"): a home ("from"), numbers, words of a bedtime, a waking time or a shift
("likes morning", "days only now"), a status its lemma hides ("taken"), pronouns, and the
regions of game servers ("euw")."""


@dataclass(frozen=True)
class Reading:
    """A fact text read for comparison (see the module's docstring)."""

    body: str
    subject: str
    possessive: bool
    """About something of the subject's ("Sarah's sister lives in Boston"), not the subject."""
    core: frozenset[str]
    negated: bool
    stopped: bool
    """A habit ended ("quit smoking", "stopped running")."""
    dates: frozenset[str]
    not_eaten: frozenset[str]
    """What the subject's diet rules out ("is vegetarian": meat, fish...); else empty."""
    days: frozenset[str] = frozenset()
    """The days of the week it names, dates and frequencies included ("on fridays": fri)."""
    parts: frozenset[str] = frozenset()
    """The parts of the day it names ("in the mornings", "6am": morning)."""

    @property
    def wish_at(self) -> int:
        """Where in the words a wish or a plan is told ("wants to quit": no state, no event, nor
        what follows), else -1; not a plan denied ("not planning to"), nor "works in planning"."""
        words = self.body.split()
        return next((index for index, word in enumerate(words) if word in WISHES
                     and (index == 0 or (words[index - 1], word) not in _NO_PLAN)), -1)  # fmt: skip

    @property
    def wished(self) -> bool:
        return self.wish_at >= 0

    @property
    def empty(self) -> bool:
        return not self.body


@lru_cache(maxsize=READ_CACHE_SIZE)
def read(text: str) -> Reading:
    """``text`` read for comparison (cached)."""
    normalised = normalise(text[:MAX_CHARS])
    body, dates = split_dates(normalised)
    words = body.split()
    subject = words[0] if words and words[0] not in STOPWORDS else ""
    core, negations = content(words[1:] if subject else words, subject)
    possessive = len(words) > 1 and words[1] == "'s"
    diet = _DIET.search(body)
    not_eaten = DIETS[diet.group("diet")] if diet else frozenset()
    stopped = any(lemma(word) in STOPPING_VERBS for word in words)
    days = days_named(normalised)
    return Reading(
        body, subject, possessive, core, bool(negations % 2), stopped, dates, not_eaten, days,
        parts_of_day(normalised),
    )  # fmt: skip


def own_choice(reading: Reading, choices: frozenset[str]) -> bool:
    """A possessive fact about the subject's own choice, the word after "'s" one of
    ``choices`` ("haruto 's main game is valorant"), not about someone of theirs ("haruto 's
    sister plays valorant")."""
    words = reading.body.split()
    return reading.possessive and len(words) > 2 and words[2] in choices


@dataclass(frozen=True)
class Keys:
    """What the pre-check needs of a text: its content lemmas (the first word, the subject,
    left out) and whether it holds a word that may fill an attribute slot."""

    words: frozenset[str]
    cued: bool
    kinds: frozenset[str] = frozenset()
    """The kinds it names, or names a member of ("piano": instrument; :data:`KINDS`)."""
    members: frozenset[str] = frozenset()
    """The kinds it names a member of, only."""


@lru_cache(maxsize=READ_CACHE_SIZE)
def keys(text: str) -> Keys:
    """The pre-check's view of ``text`` (cached): plain words after the wordings of
    :mod:`memory.lifecycle.phrases` (so "straight edge" meets "does not drink"), no dates."""
    words: set[str] = set()
    tokens = _WORD.findall(normalise(text[:MAX_CHARS]))
    cued = len(tokens) > 2 and tokens[1] == "in"  # a verb-less home: "jay in boston"
    for index, token in enumerate(tokens[1:], 1):
        if token in _CUE_WORDS or token in SLOT_CUES or token[0].isdigit() or is_place(token):
            cued = True  # "born" too, whose lemma ("bear") is no cue; "napoli", a place
        if token in _NO_KEY or len(token) < 2 or tells_how_often(tokens, index):
            continue
        plain = lemma(token)  # repaired already, by normalise
        base = SYNONYMS.get(plain, NEGATIVE_VERBS.get(plain, plain))
        if base in SLOT_CUES or plain in SLOT_CUES or base in OCCUPATIONS or base in CHANGE_CUES:
            cued = True
        if base not in LIGHT_VERBS and base not in DATE_WORDS:
            words.add(base)
    words = _unstudied(words)
    members = frozenset(kind for word in words for kind in MEMBER_OF.get(word, ()))
    return Keys(frozenset(words), cued, members | words.intersection(KINDS), members)


def clear_cache() -> None:
    """Forget the cached readings (benchmarks time cold reads with it)."""
    read.cache_clear()
    keys.cache_clear()
    normalise.cache_clear()
    lemma.cache_clear()


_UNDECOMPOSED = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe",
                               "ı": "i", "þ": "th", "ð": "d"})  # fmt: skip
"""Latin letters with no accent to strip (Unicode holds them whole): "Łódź" is "lodz"."""


def _unaccented(text: str) -> str:
    """``text`` without accents, Latin letters held whole spelt plain ("łódź" → "lodz"), and
    each run of Chinese, Japanese or Korean as its character bigrams between spaces, the
    words search makes of it (:func:`memory.search.scripts.spaced`)."""
    return text if text.isascii() else spaced(unaccented(text).translate(_UNDECOMPOSED))


@lru_cache(maxsize=READ_CACHE_SIZE)
def normalise(text: str) -> str:
    """Lowercase tokens joined by single spaces, accents dropped ("Kraków" / "Krakow"),
    contractions and number words rewritten."""
    text = _unaccented(handle_joined(text.translate(_APOSTROPHES)).lower())
    text = unrepeated(unconcorded(tz_database_zones(text)))
    text = _DOTTED_TIME.sub(r"\1m", _GLUED_UNIT.sub(r"\1 \2", text))
    text = _NOW_AND_THEN.sub("sometimes", text) if "then" in text else text
    text = _WHOLE_TIME.sub(r"\1 full time", text) if "100" in text else text
    text = respelled(_CONTRACTION.sub(lambda match: CONTRACTIONS[match.group(0)], text))
    text = _NT.sub(r"\1 not", text)
    text = _SUFFIX.sub(lambda match: " " + _SUFFIXES[match.group(1)], text)
    text = numbers_written(text)
    tokens: list[str] = []
    for token in _TOKEN.findall(text):
        if token.endswith("'s") and len(token) > 2:
            tokens.extend((token[:-2], "'s"))
        elif token not in PUNCTUATION or (tokens and tokens[-1] not in PUNCTUATION):
            word = token.strip("'")
            fixed = repaired(word) if tokens else word  # a name is no typo: "valentina"
            if fixed != word and fixed in NUMBER_WORDS:
                fixed = str(NUMBER_WORDS[fixed])  # "elevn": 11
            tokens.append(fixed)
    tokens = unpadded(unspoken(tokens))
    if len(tokens) > 2 and tokens[1] == "'s":  # "Ana's a vet" / "Jay's moved": not possessive
        after = tokens[2]
        if after in IS_AFTER_S or after.endswith("ing") or after.isdigit():
            tokens[1] = "is"
        elif after in HAS_AFTER_S:
            tokens[1] = "has"
    while tokens and tokens[-1] in PUNCTUATION:
        tokens.pop()
    joined = " ".join(token for token in tokens if token)
    return _SPACES.sub(" ", rewritten(spelled_days(joined))).strip()


def content(words: list[str], subject: str = "") -> tuple[frozenset[str], int]:
    """The canonical content lemmas of ``words``, and 1 when they deny something, else 0:
    negations are counted per clause ("is sober , no alcohol" denies twice, not zero
    times; "does not not drink" denies nothing), a habit stopped once per clause ("quit
    smoking ever since he stopped cigarettes" stopped one habit)."""
    core: set[str] = set()
    negations = 0  # in the clause read so far
    stopping = False  # a habit stopped in the clause read so far
    denied = False  # some clause before it denies
    for word in words:
        if word in CLAUSE_ENDS or (word in SUBJECT_PRONOUNS and negations):
            denied = denied or bool(negations % 2)  # "does not drink he does not drink"
            negations, stopping = 0, False
            continue
        if word in NEGATORS:
            negations += 1
            continue
        if word in _NO_CONTENT or word == subject:
            continue
        base = lemma(word)
        if base in NEGATIVE_VERBS:
            negations += 1
            base = NEGATIVE_VERBS[base]
        elif base in STOPPING_VERBS:
            negations += not stopping
            stopping = True
            continue
        base = SYNONYMS.get(base, base)
        if base not in LIGHT_VERBS and base not in DATE_WORDS:
            core.add(base)
    return frozenset(_unstudied(core)), int(denied or bool(negations % 2))


_STUDIED_AT = frozenset({"university", "college", "school", "phd", "degree", "master", "msc",
                         "mba", "bachelor", "course", "major", "doctorate",
                         "programme"})  # fmt: skip
"""Where or what one studies: "a student at the university" says no more than "goes to uni"."""


def _unstudied(words: set[str]) -> set[str]:
    """``words`` without "study" where they name where or what is studied."""
    return words - {"study"} if "study" in words and words & _STUDIED_AT else words


def canonical(word: str) -> str:
    """One word as the content words read it: its :func:`lemma`, then the one word
    ``SYNONYMS`` names for that ("kids" → "kid", "mum" → "mother")."""
    plain = lemma(word)
    return SYNONYMS.get(plain, plain)


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """The lemma of a verb form ("went" → "go"), else the singular of a plural ("olives")."""
    if word in DATE_WORDS or word in SAME_IN_PLURAL:  # "morning" is no gerund of "morn"
        return word
    found = verb(word)  # a dropped g ("smokin") is restored before: memory.lifecycle.chat
    if found is not None:
        return found[0]
    if word in SYNONYMS or word in SLOT_CUES or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-1] if word[:-1] in IE_NOUNS else word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith("ing") and len(word) > 5:  # a gerund the lexicon lacks ("vaping")
        return _stem_of_gerund(word[:-3])
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        singular = word[:-1]  # "paintings" reads as "painting" does: "paint"
        return lemma(singular) if singular in DATE_WORDS or verb(singular) else singular
    return word


_SHORT_STEM = re.compile(r"^[^aeiou]*[aeiou][^aeiouwxy]$")


def _stem_of_gerund(stem: str) -> str:
    """The verb of a gerund's stem: "vap" → "vape" (one short syllable lost its e, as in
    Porter's stemmer), "runn" → "run", "fish" → "fish"."""
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        return stem[:-1]
    return stem + "e" if _SHORT_STEM.match(stem) else stem
