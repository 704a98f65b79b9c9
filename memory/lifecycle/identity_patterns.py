"""The patterns of what a member goes by (:mod:`memory.lifecycle.slots`): their pronouns, one
set at a time ("goes by she/her" / "on they/them now"), and the name they go by. Built as
the patterns of :mod:`memory.lifecycle.slot_patterns` are.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_PAIR = r"(?P<value>she(?= her\b)|he(?= him\b)|they(?= them\b)|it(?= its\b)|any(?= pronouns\b))"
"""A set of pronouns as people write it ("she/her" is read "she her"): its first word."""
_ONE = r"(?P<value>she|he|they|it|any)"
_END = r"(?=$| [.,;:!?()]| (?:now|pronouns|lol|fr|ngl|tbh|btw)\b)"

IDENTITY_PATTERNS: tuple[SlotPattern, ...] = (
    _p("pronouns", rf"{_s_if(' (?:she her|he him|they them|it its|any pronouns)')}"
                   rf"(?!'s )(?:\S+ ){{0,5}}?{_PAIR}"),  # "rowan . they/them", "goes by she/her"
    _p("pronouns", rf"{_S}(?:[.:,-] )?(?:\S+ )?(?:goes by|uses|use) {_ONE}(?: pronouns)?{_END}"),
    _p("pronouns", rf"{_S}'s pronouns (?:are|is|:) (?:now )?{_ONE}\b"),
    _p("pronouns", rf"{_S}(?:[.:,-] )?(?P<value>him|them){_END}"),  # "sky - he/him": "sky him"
    _p("name", rf"{_S}(?:[.:,-] )?(?:\S+ )?goes by (?!(?:she|he|they|it|any)\b)"
               rf"(?P<value>[\w-]+){_END}"),  # the name they go by: "goes by pet"
)  # fmt: skip
"""What fills the pronoun and name slots (their ``value`` group)."""

PRONOUNS = {"him": "he", "them": "they"}
"""A set of pronouns by its first word (speech drops "he" after the subject: "sky he/him")."""
