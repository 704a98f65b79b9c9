"""The patterns of where a member lives, whether they rent or own their home, what rent they
pay, their mortgage's rate, the floor their home is on, and where they come from
(:mod:`memory.lifecycle.slots`, keys ``home``, ``tenure``, ``rent``, ``mortgage``, ``floor``
and ``origin``). Built as
the patterns of :mod:`memory.lifecycle.slot_patterns` are, from its parts.

Where a fact tells a home without a verb for it ("babs . swansea now", "cyrus . back in tehran
for good"), the value must be a place the tables of :mod:`memory.lifecycle.places` know, so
that "kai . in love" or "mo . reading now" tell none.
"""

from __future__ import annotations

import re

from memory.lifecycle.numbers import written_amount
from memory.lifecycle.slot_patterns import _ADVERBS, _DET, _FRAGMENT_END, _VALUE, SlotPattern
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import slot_pattern as _p

_LIVE = (
    r"(?:lives|settled|has settled|is (?:now |currently |still )?(?:living|based|settled)"
    r"|has been living|has lived|resides|is residing|based)"
)
_IN_THE = r"(?:the (?=(?:uk|us|usa|states|united \w+|netherlands|philippines|bay area)\b))?"
"""In "lives in the UK" the article is part of the place; in "lives in the city" it is not."""
_MOVE = rf"(?:has {_ADVERBS})?(?:moved|relocated|emigrated)(?: back)?"
_NOT_PLACE = (
    r"(?:with|w|alone|in|on|at|near|for|by|off|a|an|the|together|abroad|here|there|nearby"
    r"|close|next|far|upstairs|downstairs|for|life|\w+ly)"
)
"""What "lives" without "in" is followed by that is no place ("lives alone", "lives happily")."""
_FLOOR = (
    r"(?P<value>ground|basement|top|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
    r"|tenth|\d{1,2}(?:st|nd|rd|th))[- ]floor\b"
)
FLOORS = {"ground": "0", "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5",
          "sixth": "6", "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10"}  # fmt: skip
"""One way to name a floor ("second" / "2nd": "2"); "top" and "basement" stay words."""


def floor_value(value: str) -> str:
    return FLOORS.get(value, value.rstrip("stndrh"))


_MONEY = (
    r"(?:about |around |like |roughly )?(?P<value>a grand|\d{1,3}(?: , \d{3})+(?![\w])"
    r"|\d+(?:\.\d+)?k?(?: hundred| thousand)?(?![\w]))"
    r"(?: (?:euros?|pounds?|quid|dollars?|bucks|rand|rupees))?"
)
_MONTHLY = r"(?: (?:a|per|each|every) month| monthly| pcm)?"


def rent_value(value: str) -> str:
    """One way to write a rent ("a grand", "1k", "1 thousand", "1 , 000": "1000"; "12 hundred":
    "1200")."""
    number, _, times = value.replace(" , ", "").replace("a grand", "1k").partition(" ")
    return f"{written_amount(number) * _TIMES.get(times, 1):g}"


_TIMES = {"hundred": 100, "thousand": 1000}


HOME_VALUES = {"floor": floor_value, "rent": rent_value}
"""One way to write a floor ("2nd": "2") or a rent ("a grand": "1000")."""


_NOT_HOME = (
    r"(?:uni|university|college|school|class|bed|hospital|rehab|love|ranked|year|grade|a|an"
    r"|the)\b"
)
"""What a verb-less "in" is followed by that is no home ("kenji still in uni")."""
_PLACE = r"(?P<value>[\w'-]+(?: [\w'-]+){0,2}?)"
"""A place's name of up to three words, checked against the tables (``place=True``)."""
_PLACE_END = rf"(?: for good| permanently)?{_FRAGMENT_END}"
_DWELLING = (
    r"(?:place|flat|apartment|house|home|bungalow|semi|studio|condo|cottage|flatshare"
    r"|houseshare|terrace|townhouse|maisonette|bedsit|room|dorm|unit)"
)
_NOT_LIVED_IN = r"(?:holiday|second|investment|rental|buy-to-let|beach|summer|weekend)\b"
"""A home bought that is no home lived in ("bought a holiday home in spain")."""
_NOT_LIVED_BY = (
    r"(?:as an? (?:investment|rental)|to rent out|for (?:his|her|their) (?:mum|mom|dad|mother"
    r"|father|parents|son|daughter|kids))"
)
"""What a home is bought for when it is not the member's own ("bought a flat for her mum",
"as an investment")."""
_HOUSEHOLD = (
    r"(?:'s family |and (?:her|his|their) (?:partner|wife|husband|family|fiance|fiancee|bf|gf) )?"
)
"""Who share the member's home, said as the subject ("anke 's family rents", "fatima and her
husband bought"): their tenure is the member's."""
_DWELL = (
    r"(?:lives|living|live|got|has got|found|rents|is renting|moved into|has moved into"
    r"|downsized to|has downsized to|settled into)"
)
"""Verbs of a home lived in ("got his own place in sheffield"), not of one left ("sold") nor
of one owned ("bought a flat in dublin" tells more than where they live)."""

VISIT = re.compile(
    r"\b(?:visiting|on (?:a )?(?:holiday|vacation|hols|trip|work trip|business trip|tour)"
    r"|for (?:a|the) (?:visit|trip|holiday|holidays|conference))\b"
)
"""A stay told as a visit ("kat . in iloilo this week , visiting fam"): no home, unless a verb
of living tells one (:data:`LIVING`)."""
LIVING = re.compile(r"\b(?:lives|living|live|moved|relocated|emigrated|based|settled|resides)\b")

HOME_PATTERNS: tuple[SlotPattern, ...] = (
    _p("home", rf"{_S}(?:[.:,-] )?{_ADVERBS}{_LIVE} (?:(?:with|w) {_DET} \w+ )?in "
               rf"(?:{_DET} \w+(?: \w+)? in )?{_IN_THE}(?!{_DET} ){_VALUE}"),
    _p("home", rf"{_S}{_ADVERBS}{_MOVE} (?:from [\w ]+? )?to {_IN_THE}(?:(?:another|a different"
               rf"|the other) (?:part|side|end|area) of )?(?!{_DET} ){_VALUE}"),
    _p("home", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:dipped|upped sticks|packed up) "
               rf"(?:and moved )?to {_IN_THE}{_PLACE}{_PLACE_END}", place=True),  # "dipped to"
    _p("home", rf"{_S}'s (?:current |new |present )?(?:home|residence|city of residence) "
               rf"(?:is|:) (?:now )?(?:in )?{_IN_THE}{_VALUE}"),
    _p("home", rf"{_S}'s (?:current |new |present )?(?:place|flat|apartment|house) "
               rf"(?:is|:) (?:now )?in {_IN_THE}{_VALUE}"),
    _p("origin", rf"{_S}'s (?:home town|hometown) (?:is|:) {_IN_THE}{_VALUE}"),
    _p("home", rf"{_S}{_ADVERBS}(?:calls|now calls) (?P<value>[\w'-]+(?: [\w'-]+){{0,2}}?) "
               rf"home\b"),
    _p("home", rf"^\S+ (?:now |still )?in (?!{_NOT_HOME})(?P<value>\w+(?: \w+)??)(?<!\btime)"
               rf"(?<!timezone)(?<!\btz)(?! (?:time ?zone|tz|time)\b){_FRAGMENT_END}"),
    _p("home", rf"{_S}(?:[.:,-] )?{_IN_THE}{_PLACE}{_PLACE_END}", place=True),  # "ana . oslo"
    _p("home", rf"{_S}(?:[.:,-] )?(?:is )?{_IN_THE}{_PLACE}[- ]based{_PLACE_END}",
       place=True),  # "funmi - lagos based"
    _p("home", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is |'s )?{_ADVERBS}(?:back |living )?in "
               rf"{_IN_THE}{_PLACE}{_PLACE_END}", place=True),  # "cyrus . back in tehran"
    _p("home", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?out in {_IN_THE}{_PLACE}{_PLACE_END}",
       place=True),  # "sani is out in vancouver for good"
    _p("home", rf"{_S}{_ADVERBS}(?:stays|is staying) in {_IN_THE}{_PLACE}{_PLACE_END}",
       place=True),  # "rio stays in london rn" (of a town: "stays in a hostel" is no home)
    _p("home", rf"{_S}{_ADVERBS}{_DWELL} (?:[\w'-]+ ){{0,4}}?{_DWELLING} in {_IN_THE}"
               rf"{_VALUE}", place=True),  # "got his own place in sheffield"
    _p("home", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is |has been )?renting in {_IN_THE}(?!{_DET} )"
               rf"{_VALUE}"),  # "padraig is renting in limerick"
    _p("home", rf"{_S}(?:[.:,-] )?{_ADVERBS}lives (?!{_NOT_PLACE}\b)(?P<value>\w+(?: \w+)?)"
               rf"{_FRAGMENT_END}"),
    # whether they rent their home or own it
    _p("tenure", rf"{_S}{_HOUSEHOLD}{_ADVERBS}(?:rents|is renting|has been renting|rented) "
                 rf"(?:{_DET} )?(?:[\w'-]+ )?{_DWELLING}\b", "rent"),
    _p("tenure", rf"{_S}{_HOUSEHOLD}{_ADVERBS}{_DWELL} (?:in )?(?:a |an |the )?rented "
                 rf"{_DWELLING}\b", "rent"),
    _p("tenure", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is |has been )?renting(?= in\b|{_FRAGMENT_END})",
       "rent"),  # "padraig is renting in limerick", "ute - renting in cologne"
    _p("tenure", rf"{_S}{_HOUSEHOLD}{_ADVERBS}(?:owns|has bought|have bought|bought"
                 rf"|has finally bought|finally bought) (?:{_DET} )?(?!{_NOT_LIVED_IN})"
                 rf"(?:[\w'-]+ ){{0,2}}?{_DWELLING}\b(?!(?: \S+){{0,3}} {_NOT_LIVED_BY})", "own"),
    # "bought the flat off him", not "bought a flat for her mum"
    _p("tenure", rf"{_S}(?:[.:,-] )?{_ADVERBS}bought in {_IN_THE}{_PLACE}{_PLACE_END}", "own",
       place=True),  # "shanelle - bought in mandurah"
    # what they pay in rent: one amount at a time ("rent is 700 euros" / "pays 700 monthly for
    # her flat"; "pays 800 for her room" / "her rent dropped to 720")
    _p("rent", rf"{_S}(?:'s (?:monthly )?|[.:,-] )?rent (?:is |: )?(?:now |still )?(?:(?:went|has "
               rf"gone|is going) (?:up|down) to |(?:rose|increased|dropped|fell|jumped|was raised"
               rf"|was cut|went) to )?{_MONEY}"),
    _p("rent", rf"{_S}(?:\S+ ){{0,2}}?pays (?:yeah |like )?{_MONEY}{_MONTHLY} (?:in rent|for rent"
               rf"|rent|for (?:his|her|their|the) (?:room|flat|place|apartment|house|studio"
               rf"|bedsit))\b"),
    _p("rent", rf"{_S}'s (?:room|flat|place|apartment|house|studio) costs (?:him |her |them )?"
               rf"{_MONEY}"),
    # the rate of their mortgage: fixed, tracker or variable ("remortgaged onto a tracker")
    _p("mortgage", rf"{_S}(?!.*\b(?:not|never|wants?|thinking)\b)(?:\S+ ){{0,5}}?"
                   rf"(?P<value>(?:fixed|variable)(?=[- ]rate| mortgage)|tracker)\b"),
    # the floor their home is on: one at a time ("lives on the top floor" / "moved down to the
    # first floor"), a floor at work left out
    _p("floor", rf"{_S}{_ADVERBS}(?:lives|living|is living|moved|has moved)(?: \w+){{0,2}}? "
                rf"(?:on|to|into|in) (?:the |a |an )?{_FLOOR}"),
    _p("floor", rf"{_S}'s {_DWELLING} is (?:now )?on (?:the )?{_FLOOR}"),
    _p("floor", rf"{_S}(?:\w+ ){{0,2}}?(?:has|rents|got) (?:a |an )?{_FLOOR} {_DWELLING}\b"),
    _p("floor", rf"{_S}(?:[.:,-] )?(?:(?:in|on) )?(?:the |a )?{_FLOOR}(?: {_DWELLING})?(?: now)?"
                rf"{_FRAGMENT_END}"),  # "ewa - top floor"
    _p("origin", rf"{_S}(?:[.:,-] )?{_IN_THE}{_PLACE} born(?: (?:and|n|&) (?:raised|bred)\b"
                 rf"|{_FRAGMENT_END})", place=True),  # "omar . leicester born (and raised)"
    _p("origin", rf"{_S}(?:[.:,-] )?(?:is )?(?:an? )?{_IN_THE}{_PLACE} (?:girl|boy|guy|lad|lass|gal"
                 rf"|kid|native) born (?:and|n|&) (?:raised|bred)\b", place=True),  # "a leeds lad"
    _p("origin", rf"{_S}(?:[.:,-] )?(?:originally )?from {_IN_THE}{_PLACE}{_PLACE_END}",
       place=True),  # "omar - from leicester"
    _p("origin", rf"{_S}{_ADVERBS}(?:is (?:originally )?from|comes from|grew up in"
                 rf"|was brought up in|was born(?: and raised)? in"
                 rf"|spent (?:his|her|their) childhood in) {_IN_THE}(?!the ){_VALUE}"),
    # "is from the float pool": a team, no place
)  # fmt: skip
