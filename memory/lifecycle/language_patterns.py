"""The patterns of a member's level in a language (:mod:`memory.lifecycle.slots`), one level
per language at a time: "b2 german" / "c1 in german now", "is a beginner in japanese" / "is an
intermediate japanese learner", "passed the goethe b2" (the Goethe-Institut's exams are in
German). Built as the patterns of :mod:`memory.lifecycle.slot_patterns` are.

A level is read only beside the language or the exam that tells it: "a b2" or "n3" alone is
no level. A level aimed at is none held ("studying for the n2", "taking the b2 in june"): a
level is told as held, passed or got, or written beside the language ("german b2").
"""

from __future__ import annotations

from memory.lifecycle.lexicon import LANGUAGES
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern, one_of
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

LANGUAGE_LEVELS = {"a1": "a1", "a2": "a2", "b1": "b1", "b2": "b2", "c1": "c1", "c2": "c2",
                   "beginner": "beginner", "total beginner": "beginner",
                   "complete beginner": "beginner", "absolute beginner": "beginner",
                   "elementary": "elementary", "pre-intermediate": "elementary",
                   "intermediate": "intermediate", "upper intermediate": "upper intermediate",
                   "upper-intermediate": "upper intermediate", "advanced": "advanced"}  # fmt: skip
"""One name per level: the Common European Framework's, or a level in words."""
EXAM_LANGUAGES = {"jlpt": "japanese", "goethe": "german", "testdaf": "german", "dele": "spanish",
                  "siele": "spanish", "delf": "french", "dalf": "french", "hsk": "chinese",
                  "topik": "korean", "celi": "italian", "cils": "italian",
                  "cambridge": "english"}  # fmt: skip
"""The language an exam is of: "passed the dalf" is a level in French."""
_LEVEL = rf"(?P<value>{one_of(LANGUAGE_LEVELS)})"
_LANGUAGE = rf"(?P<thing>{one_of(LANGUAGES)})"
_EXAM = rf"(?P<thing>{one_of(EXAM_LANGUAGES)})"
_EXAM_NAMED = _s_if(one_of(EXAM_LANGUAGES))
"""The subject, where an exam is named (the exam patterns are tried only there)."""
_JLPT = r"n[1-5]"
"""The Japanese-Language Proficiency Test's levels."""
_HELD = r"(?:is |'s |am |are |at |got |has got |have got |has |have |holds |passed |now |just )*"
"""How a level is told as held ("is at", "got", "passed"), not aimed at."""
_NOT_AIMED = r"(?!.*\b(?:studying|preparing|prepping|revising|aiming|going) for\b)"

LANGUAGE_PATTERNS: tuple[SlotPattern, ...] = (
    # "got a b2 in french", "is at b1 level in german", "is an intermediate japanese learner"
    _p("language_level", rf"{_S}{_NOT_AIMED}(?:[.:,-] )?(?:\w+ ){{0,4}}?{_HELD}(?:a |an )?"
                         rf"{_LEVEL}(?: level)? (?:in |at )?{_LANGUAGE}\b"),
    # "german b2", "her spanish is at a2 now", "japanese level: intermediate"
    _p("language_level", rf"{_S}{_NOT_AIMED}(?:[.:,-] |'s )?(?:\w+ ){{0,2}}?{_LANGUAGE}(?: level)?"
                         rf"(?: is| =| :)? (?:now |still )?(?:at )?(?:a |an )?{_LEVEL}\b"),
    # "passed the goethe b2 exam", "holds a jlpt n1 certificate", "got c1 on the cambridge"
    _p("language_level", rf"{_EXAM_NAMED}{_NOT_AIMED}(?:\S+ ){{0,3}}?"
                         rf"(?:passed|got|has|holds|have|cleared) (?:the |a |an |his |her )?{_EXAM}"
                         rf"(?: exam| test)? (?P<value>{one_of(LANGUAGE_LEVELS)}|{_JLPT})\b"),
    _p("language_level", rf"{_EXAM_NAMED}{_NOT_AIMED}(?:\S+ ){{0,3}}?"
                         rf"(?:passed|got|cleared) (?:a |an )?{_LEVEL} (?:on|in) (?:the )?"
                         rf"{_EXAM}\b"),
    # the Japanese-Language Proficiency Test's levels, told without its name: "passed n3"
    _p("language_level:japanese", rf"{_S}{_NOT_AIMED}(?:[.:,-] )?(?:\w+ ){{0,2}}?(?:passed|got"
                                  rf"|cleared|holds|has) (?:the )?(?:jlpt )?(?P<value>{_JLPT})\b"),
)  # fmt: skip
"""What fills a member's level in a language (``value`` group; ``thing``: the language or an
exam of it)."""


def _level(level: str) -> str:
    return LANGUAGE_LEVELS.get(level, level)


LANGUAGE_VALUES = {"language_level": _level}
"""One name per level ("total beginner": beginner); a JLPT level is its own ("n3")."""
