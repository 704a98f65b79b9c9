"""Plans a later fact tells are off, each a contradiction of the earlier fact: a trip to an
event given up, a job hunt ended by an offer taken.

    called_off(read("lina is going to animagic"), read("lina is not going to animagic
    anymore"), ...) → True
    hunt_ended(read("omari job hunting rn"), read("omari signed an offer"), ...) → True

Each takes the two readings (the older first) and their content words with the subject's
names left out (see :func:`memory.lifecycle.relation.relation`).
"""

from __future__ import annotations

import re

from memory.lifecycle.lexicon import GENERIC_WORDS
from memory.lifecycle.reading import Reading

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
    if first.negated:  # a plan is a wish too: "planning to attend otakon"
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
