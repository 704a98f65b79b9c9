"""The patterns of what a member uses (:mod:`memory.lifecycle.slots`): their phone, by its
maker; their graphics card, by its model number; their monitor's refresh rate; and what they
play with (a controller, or mouse and keyboard). Built as the patterns of
:mod:`memory.lifecycle.slot_patterns` are.

A member uses one of each at a time: "has an RTX 3070" / "upgraded to an RX 7900 XTX" is a
change. A card is read after a word that says it is theirs ("has", "copped", "upgraded to",
"gpu's"), or named alone in a fragment ("mox - 3060"): the one passed on in the same breath
("copped a 4070 super, the 2060 got sold") is not. Its value is its number and what follows
it ("4070 super", "7900 xtx"); "rtx 3070" is "3070" (:mod:`memory.lifecycle.phrases` reads
"runs an rtx 3070" as "has 3070"), and "4070" agrees with "4070 super" (one told short).
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_PHONES = (
    "iphone|pixel|galaxy|samsung|oneplus|xiaomi|redmi|poco|motorola|huawei|nokia|oppo"
    "|vivo|realme|android"
)
_NOT_MAKER = r"(?<!for )(?<!at )(?<!of )(?<!by )(?<!joined )(?<!from )(?<!named )(?<!called )"
"""What makes a phone's maker an employer ("works for samsung"), or a name ("a cat named
pixel")."""
_GIVEN = "".join(rf"(?<!{verb} {whose})" for verb in ("gave", "sold", "ditched", "bye")
                 for whose in ("", "the ", "his ", "her ", "their ", "my "))  # fmt: skip
"""What makes a phone one passed on ("sold his iphone and uses a redmi now", "bye android")."""
_LOST = r" (?:(?:got|was|has been|is) (?:nicked|stolen|lost|smashed|broken)|(?:is )?gone|died)\b"
"""What makes a phone one lost: "android . iphone got nicked", "pixel 8 . iphone gone"."""
_CARD = (
    r"(?:(?:nvidia|amd|geforce|radeon) )?(?:(?:rtx|gtx|rx) )?"
    r"(?P<value>(?:(?<=rx )[1-9]\d{2,3}|9[5-8]0|10[5-8]0|16[56]0|20[5-8]0|30[5-9]0|40[6-9]0"
    r"|50[6-9]0)(?: (?:ti|super|xtx|xt))?)(?![\w.])(?! (?:hz|fps|p|mm|km|k|miles|times)\b)"
)
"""A graphics card by its number: NVIDIA's series 900 to 5000 named alone ("a 3060"), any
number after "rx" (AMD's); never a rate, a resolution or a distance ("1080p", "1660 km")."""
_OWNS = (
    r"(?:has|has got|got|copped|bought|picked up|upgraded to|(?:is )?(?:now )?on|plays on"
    r"|rocking|rocks|running|runs|using|uses"
    r"|games on|swapped to|switched to|went to|moved to|gpu 's|gpu is|gpu :|card is|card 's"
    r"|graphics card is)"
)
"""What says a card is theirs now (the verbs of using one read "has" already, with "is")."""
_INPUT = (
    r"(?P<value>controller|gamepad|pad|mnk|kbm|m k|mouse and keyboard|keyboard and mouse)"
    r"(?: player| gang| only| main)?(?=$| [.,;:!?()]| (?:now|rn|lol|these days|for)\b)"
)
"""What they play with, named after what says so ("plays on controller", "went mnk")."""
_NOT = r"(?!.*\b(?:not|never|no|wants?|wish|wishes|saving|thinking)\b)"
"""No denial nor wish anywhere: "can't play on controller", "wants a 240hz monitor"."""
INPUTS = {"gamepad": "controller", "pad": "controller", "kbm": "mnk", "m k": "mnk",
          "mouse and keyboard": "mnk", "keyboard and mouse": "mnk"}  # fmt: skip
"""One name for each way to play."""
GEAR_PATTERNS: tuple[SlotPattern, ...] = (
    # the phone they use, the last one named that is not passed on
    _p("phone", rf"{_s_if(_PHONES + '|apple')}(?!.*\b(?:wants?|wish|wishes|planning|thinking"
                rf"|saving|considering|hates|not|never|no)\b)(?!'s (?!phone\b))(?:\S+ ){{0,8}}?"
                rf"{_NOT_MAKER}{_GIVEN}"
                rf"(?P<value>{_PHONES}|apple(?= (?:loyalist|user|fan|gang|phone|person)\b))\b"
                rf"(?!{_LOST})(?!.*\b{_GIVEN}(?:{_PHONES})\b(?!{_LOST}))"),
    # their graphics card: after a word that makes it theirs, or named alone
    _p("gpu", rf"{_S}(?:[.:,-] )?(?!'s (?!gpu|card|graphics)\w)(?:(?!not|never|no)[\w']+ )"
              rf"{{0,2}}?{_OWNS} (?:(?:a|an|the|his|her|their|my|new|brand new|shiny) )*{_CARD}"),
    _p("gpu", rf"{_S}(?:[.:,-] )?(?:gpu :? )?{_CARD}(?: (?:now|rn|lol|these days|gang))*"
              rf"(?=$| [.,;:!?()])"),
    # their monitor's refresh rate, the first named
    _p("refresh", rf"{_S}{_NOT}(?:[.:,-] )?(?:[\w']+ ){{0,3}}?(?:a |an |the |his |her |their )?"
                  rf"(?P<value>\d{{2,3}}) ?(?:hz|hertz) (?:gaming |curved |ips |oled )?"
                  rf"(?:monitor|screen|panel|display)\b"),
    # what they play with, the first named after a word that says so
    _p("input", rf"{_S}{_NOT}(?:[.:,-] )?(?:[\w']+ ){{0,2}}?(?:plays on|plays with|is on|on|uses"
                rf"|switched to|swapped to|went|went to|moved to|is a|is an|games on) {_INPUT}"),
)  # fmt: skip
"""What fills the slots of what a member uses (``value`` group)."""
