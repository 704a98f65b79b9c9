"""Plans a later fact tells are off or done, each a contradiction of the earlier fact: a trip
to an event given up, a job hunt ended by an offer taken, a course studied for finished.

    called_off(read("lina is going to animagic"), read("lina is not going to animagic
    anymore"), ...) → True
    hunt_ended(read("omari job hunting rn"), read("omari signed an offer")) → True
    course_finished(read("aziz - doing msc"), read("aziz - msc finished"), ...) → True

Each takes the two readings (the older first) and, where it needs them, their content words
with the subject's names left out (see :func:`memory.lifecycle.relation.relation`).
"""

from __future__ import annotations

import re

from memory.lifecycle.lexicon import GENERIC_WORDS
from memory.lifecycle.reading import Reading, lemma

_GOING = re.compile(
    r"\b(?:is |are )?(?:going|heading|planning to (?:go|attend)|plans to (?:go|attend)"
    r"|will (?:go|attend)|attending|booked for) (?:to )?(?P<rest>.+)$"
)
"""A trip to an event planned: "is going to pyrkon", "planning to attend otakon"."""
_CALLED_OFF = re.compile(
    r"\b(?:not (?:going|heading)|will not (?:make it|be going|go|attend)|can not (?:go|make it)"
    r"|cancell?ed|skipping|pulled out of|dropped out of) (?:to |of )?(?:his |her |their |the )?"
    r"(?P<rest>.+)$"
)
"""The trip given up: "not going to animagic anymore", "will not make it to pyrkon",
"cancelled his otakon trip"."""
_NO_EVENT = GENERIC_WORDS | {"plan", "trip", "go", "attend", "year", "time", "anymore"}


def called_off(first: Reading, second: Reading, core_a: frozenset[str],
               core_b: frozenset[str]) -> bool:  # fmt: skip
    """A trip to an event planned, then given up ("going to comic con bcn this yr" / "not
    going to bcn con anymore , can not afford it"): an event both name after the verbs."""
    if first.negated:  # a plan may read as a wish ("planning to attend"): not ruled out
        return False
    going, off = _GOING.search(first.body), _CALLED_OFF.search(second.body)
    if going is None or off is None:
        return False
    named = set(going["rest"].split()) & set(off["rest"].split())
    return bool(named & (core_a & core_b) - _NO_EVENT)


_HUNTING = re.compile(
    r"\b(?:job hunting|job-hunting|job searching|looking for (?:a )?(?:new )?(?:job|work)"
    r"|wants a new job|laid off \. looking|between jobs|out of work)\b"
)
"""A job looked for: "job hunting rn", "looking for a new job" (read "wants a new job")."""
_HIRED = re.compile(
    r"\b(?:accepted (?:an |the |a )?(?:job )?offer|signed (?:an |the |a )?(?:job )?offer"
    r"|took (?:an |the |a )?(?:job )?offer|got (?:the |a )?job|landed (?:a |the )?(?:new )?job"
    r"|hired|(?:stopped|done|finished) job hunting)\b"
)
"""The hunt over: "accepted an offer", "signed an offer", "hired ! starts at cloudflare"."""


def hunt_ended(first: Reading, second: Reading) -> bool:
    """A job looked for, then found ("looking for a new job" / "accepted an offer and has
    stopped job hunting", "laid off . looking" / "hired ! starts at cloudflare monday")."""
    return (
        not first.negated
        and _HUNTING.search(first.body) is not None
        and _HIRED.search(second.body) is not None
        and _HUNTING.search(second.body.replace("job hunting", "")) is None
    )


_COURSES = frozenset({"msc", "ma", "mba", "mphil", "master", "masters", "phd", "doctorate",
                      "degree", "undergrad", "undergraduate", "postgrad", "bootcamp", "course",
                      "diploma", "apprenticeship", "bsc", "ba"})  # fmt: skip
"""What one studies for and then finishes ("doing an msc" / "msc finished")."""
_DEGREE_STUDIES = frozenset({"degree", "undergrad", "undergraduate", "bsc", "ba"})
"""Courses one graduates from: "is an undergraduate" / "has graduated"."""
_DONE = frozenset({"finish", "complete", "graduate"})
_FINISHED = (
    re.compile(r"\b(?:finished|finish|completed|done with|graduated from) (?:the |her |his "
               r"|their |an? )?(\w+)"),
    re.compile(r"\b(\w+) (?:finished|done|completed)\b"),
)  # fmt: skip
"""A course finished: "finished the msc", "msc finished"."""
_GRADUATED = re.compile(r"\bgraduated\b(?! from high school)")
_STUDYING = re.compile(
    r"\b(?:doing|studying|studies|is an?|is at|pursuing|taking|enrolled|student)\b"
)
"""A course studied for now, not one held ("holds a bachelor's degree")."""


def course_finished(first: Reading, second: Reading, core_a: frozenset[str]) -> bool:
    """A course studied for, then finished ("doing msc in data sci" / "msc finished . working at
    a startup", "is an economics undergraduate" / "has graduated and now works as an
    analyst"): the student is one no more."""
    if first.negated or second.negated or second.wished or core_a & _DONE:
        return False
    courses = core_a & _COURSES
    if not courses or _STUDYING.search(first.body) is None:
        return False
    if courses & _DEGREE_STUDIES and _GRADUATED.search(second.body):
        return True
    finished = {lemma(found[1]) for pattern in _FINISHED for found in pattern.finditer(second.body)}
    return bool(finished & courses)
