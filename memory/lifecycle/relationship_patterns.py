"""The patterns of how a member's relationship is kept (:mod:`memory.lifecycle.slots`): a
divorce told as finalised (their status, divorced), the distance between the two ("in a
long-distance relationship" / "finally live in the same city"), whether it is open or
monogamous, and whether it is casual or serious ("seeing someone casually" / "exclusive
now"). Built as the patterns of :mod:`memory.lifecycle.slot_patterns` are.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_NOT = r"(?!.*\b(?:not|never|no longer|wants?|hopes?|would|might)\b)"
"""No denial or wish anywhere: "would never do long distance", "wants something serious"."""
_LONG = r"(?:long[- ]distance|ldr)"

RELATIONSHIP_PATTERNS: tuple[SlotPattern, ...] = (
    _p("status", rf"{_S}'s divorce (?:was |is |has been |got )?(?:finally |now )?(?:finalised"
                 r"|finalized|final|through|official|done)\b", "divorced"),
    # the distance between the two: far apart, then in one city
    _p("distance", rf"{_s_if(_LONG)}{_NOT}(?:\S+ ){{0,6}}?(?:in|doing|does|did) (?:a |an )?"
                   rf"{_LONG}\b", "far"),
    _p("distance", rf"{_S}(?:[.:,-] )?{_NOT}{_LONG}\b", "far"),  # "lia - ldr"
    _p("distance", rf"{_s_if('same city|no more ldr|moved to (?:his|her|their) city')}"
                   r"(?:\S+ ){0,8}?(?:(?:live|living|lives) in the same city|same city now"
                   r"|no more (?:ldr|long distance)|moved to (?:his|her|their) city)\b", "near"),
    # open or monogamous
    _p("arrangement", rf"{_S}(?:[.:,-] )?{_NOT}(?:\S+ ){{0,4}}?(?:in )?(?:an )?open "
                      r"(?:relationship|marriage)\b", "open"),
    _p("arrangement", rf"{_S}(?:[.:,-] )?{_NOT}(?:\S+ ){{0,2}}?(?:monogamous|closed it"
                      r"|closed the relationship)\b", "monogamous"),
    # casual or serious
    _p("commitment", rf"{_S}(?:[.:,-] )?{_NOT}(?:\S+ ){{0,4}}?(?:casual(?:ly)?(?: only| stuff"
                     r"| thing)?|no labels|nothing serious)\b(?! (?:job|work|shifts?)\b)",
       "casual"),
    _p("commitment", rf"{_S}(?:[.:,-] )?{_NOT}(?:\S+ ){{0,6}}?(?:exclusive|official with"
                     r"|official w|(?:in )?a serious relationship|serious now|made it official)\b",
       "serious"),
)  # fmt: skip
"""What fills the slots of a member's relationship (``value`` fixed)."""
