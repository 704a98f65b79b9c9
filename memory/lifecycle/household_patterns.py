"""The patterns of whom a member lives with (:mod:`memory.lifecycle.slots`, key ``household``):
alone, with their parents, relatives, roommates or a partner. Built as the patterns of
:mod:`memory.lifecycle.slot_patterns` are, from its parts.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import _ADVERBS, SlotPattern
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_LIVES = r"(?:lives|living|is living|(?:has )?moved in|shares \w+ (?:flat|apartment|place|house))"
_ALONE = r"(?:alone|by (?:him|her|them)sel(?:f|ves)|on (?:his|her|their) own)"
_NO_WISH = r"(?!.*\b(?:wants?|hopes?|saving|dreams?|looking for|plans?|planning)\b)"
"""A place of one's own wished for is none had ("saving for her own place")."""

HOUSEHOLD_PATTERNS: tuple[SlotPattern, ...] = (
    _p("household", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:(?:{_LIVES}|stays) )?(?:{_ALONE}|solo)\b",
       "alone"),  # "stays solo", as many say "lives"
    _p("household", rf"{_S}{_ADVERBS}is (?:{_ALONE}|solo)(?: again| now)?(?=$| [.,;:!?])",
       "alone"),  # "is on her own again": alone, the fact or its clause ends there
    _p("household", rf"{_s_if(' living | lives | stays ')}(?:\S+ ){{1,10}}?(?:lives|living|stays) "
                    rf"{_ALONE}\b",
       "alone"),
    _p("household", rf"{_s_if(' own | solo ')}{_NO_WISH}(?:[.:,-] )?(?:\S+ ){{0,10}}?"
                    rf"(?:(?:(?:his|her|their) )?own (?:place|apt|flat|apartment|house|gaff|crib)"
                    rf"|solo (?:flat|apartment|place))\b",
       "alone"),
    _p("household", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?(?:back )?(?:lives|living|stays|staying) "
                    rf"(?:back )?at (?:his|her|their) (?:parents|folks|mum|mom|dad|family)"
                    rf"(?: '?s| ')? (?:house|place|home|flat)\b", "parents"),  # "back living at"
    _p("household", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:i am |still )?(?:lives|living|is living|stays)"
                    rf" (?:at home |in [\w-]+ )?(?:with|w) (?:(?:his|her|their|my) )?(?:parents|mum"
                    rf"|mom|dad|folks|family)\b", "parents"),
    _p("household", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:i am )?{_LIVES} (?:in [\w-]+ )?(?:with|w) "
                    rf"(?:a |an |his |her |their |my )?host family\b", "host family"),
    _p("household", rf"{_S}(?:[.:,-] )?{_ADVERBS}{_LIVES} (?:with|w) (?:(?:his|her|their) )?"
                    rf"(?:sister|brother|siblings|sis|bro|cousins?|grandma|gran|grandparents"
                    rf"|aunt|uncle)\b", "relatives"),
    _p("household", rf"{_s_if(' alone| solo')}(?:\S+ ){{0,8}}?(?:[.,] (?:lives |living )?alone"
                    rf"|solo living|living solo|[.,] solo(?= now|$))\b",
       "alone"),  # "sister moved out . alone now", "flatmates gone . solo now"
    _p("household", rf"{_S}(?:[.:,-] )?{_ADVERBS}{_LIVES} (?:with|w) "
                    rf"(?:\w+ ){{0,2}}?(?:roommates|flatmates|housemates|roomies|coworkers"
                    rf"|colleagues|friends|mates|strangers)\b", "roommates"),  # "with 2 new mates"
    _p("household", rf"{_S}(?:[.:,-] )?(?:{_ADVERBS}(?:has|got|has got) )?(?:a |an |\d+ )?"
                    rf"(?:roommate|flatmate|housemate|roomie)s?\b(?! (?:gone|left|moved out)\b)",
       "roommates"),  # "mei - flatmates x3", "got 2 flatmates" (not "flatmates gone")
    _p("household", rf"{_S}(?:[.:,-] )?{_ADVERBS}{_LIVES} (?:with|w) "
                    rf"(?:(?:his|her|their) )?(?:partner|boyfriend|girlfriend|bf|gf|wife|husband"
                    rf"|fiance|fiancee)\b", "partner"),
    _p("household", rf"{_S}{_ADVERBS}(?:shares|is sharing|moved in|has moved in|moved into)"
                    rf"(?: [\w-]+){{0,5}}? with (?:his|her|their) (?:partner|boyfriend|girlfriend"
                    rf"|bf|gf|wife|husband|fiance|fiancee)\b", "partner"),  # "shares a flat with"
    _p("household", rf"{_S}{_ADVERBS}has (?:his|her|their) (?:partner|boyfriend|girlfriend|bf|gf"
                    rf"|fiance|fiancee) living with\b", "partner"),  # "has her bf living with her"
    _p("household", rf"{_S}{_ADVERBS}has (?:his|her|their) (?!(?:partner|boyfriend|girlfriend|bf"
                    rf"|gf|fiance|fiancee)\b)(?:\w+ ){{1,4}}?(?:living|staying) with "
                    rf"(?:him|her|them)\b", "relatives"),  # "has his daughter living with him"
    _p("household", rf"{_S}'s (?:partner|boyfriend|girlfriend|bf|gf|fiance|fiancee) "
                    rf"(?:\w+ ){{0,2}}?moved in\b", "partner"),
)  # fmt: skip
