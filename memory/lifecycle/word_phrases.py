"""One thing told in several words, rewritten to one ("her mum and dad" → "her parents",
"grandma and grandpa" → "grandparents", "has not moved out of home yet" → "still lives with
parents", "plays bass guitar" → "plays bass", "a pair of cats" → "2 cats", "current favourite"
→ "favourite", "ldr" → "long distance", "holds a brazilian passport" → "is a brazilian
citizen", "keeps korean hours" → "keeps korean time", "minds her grandkids" → "looks after her
grandkids", "trains at the gym" → "goes to the gym", "assembles his computers himself" →
"builds own pcs", "shifted to pune" → "moved to pune", "no meat no dairy" → "is vegan"): a
part of :data:`memory.lifecycle.phrases.PHRASES`, run in its place there. Texts arrive tokenised
("one" → "1").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.lifecycle.zones import ZONE_NAMES, place_offset

_MOTHER = r"(?:mum|mom|mother|ma|mam|mummy|mommy)"
_FATHER = r"(?:dad|father|pa|daddy|papa)"
_GRANDMOTHER = r"(?:grandma|grandmother|gran|granny|nan|nana|nanna|grandmom|grandmum)"
_GRANDFATHER = r"(?:grandpa|grandfather|grandad|granddad|gramps|grandda)"
_WHOSE = r"(?:(?:his|her|their|my|the) )"

_AND = r"(?:(?: ,| or| and| nor| no)+ )"
"""Between the things one does not eat ("meat , dairy", "meat or dairy", "no meat no dairy")."""
_BASE = {"smok": "smoke", "drank": "drink", "vap": "vape"}
_ZONE_WORDS = frozenset(ZONE_NAMES) | frozenset(ZONE_NAMES.values())


def _zone_hours(match: re.Match[str]) -> str:
    """ "keeps korean hours", "pst hours" → "... time" (read as a zone next), when the words
    name a zone or a place of one; "works long hours" as it is."""
    words = match.group(1)
    last = words.split()[-1]
    if words in _ZONE_WORDS or last in _ZONE_WORDS or place_offset(last) is not None:
        return f"{words} time"
    return match.group(0)


WORD_PHRASES: list[tuple[tuple[str, ...], str, str | Callable[[re.Match[str]], str]]] = [
    # (words one of which must be in the text, pattern, replacement)
    ((" and ", " & ", " n "),
     rf"\b({_WHOSE})?(?:{_GRANDMOTHER} (?:and|&|n) {_WHOSE}?{_GRANDFATHER}"
     rf"|{_GRANDFATHER} (?:and|&|n) {_WHOSE}?{_GRANDMOTHER})\b",
     r"\1grandparents"),
    ((" and ", " & ", " n "),
     rf"\b({_WHOSE})?(?:{_MOTHER} (?:and|&|n) {_WHOSE}?{_FATHER}|{_FATHER} (?:and|&|n) "
     rf"{_WHOSE}?{_MOTHER})\b(?! 's (?:mother|mum|mom|father|dad)\b)",
     r"\1parents"),
    (("moved out",), rf"\b(?:has|have) not (?:yet )?moved out (?:of |from )?({_WHOSE})?"
     r"(?:parents(?: 's| ')?(?: house| place| home)?|home)(?: yet)?\b",
     r"still lives with \1parents"),  # "has not moved out from mum n dad's yet"
    (("current fav", "new fav", "latest fav", "absolute fav"),
     r"\b(?:current|new|latest|absolute) (?=(?:favourite|favorite|fave|fav)\b)", ""),
    (("mind",), r"\bmind(s|ing)? (?=(?:his|her|their|my|the) (?:\w+ )?(?:kids|children|grandkids"
     r"|grandchildren|baby|babies|son|daughter|nephew|niece|toddler)\b)", r"look\1 after "),
    (("gym",), r"\b(?:trains|works out|exercises) (?:at|in) the gym\b", "goes to the gym"),
    (("assembl",), r"\bassembl(es|ed|ing|e) (?:(?:his|her|their|my) )?(?:own )?((?:gaming )?)"
     r"(?:pcs|computers|rigs|machines)(?: (?:himself|herself|themselves|myself))?\b",
     r"build\1 own \2pcs"),  # "assembles his gaming rigs himself": builds own pcs
    (("ldr", "long distance thing"), r"\b(?:ldr|long distance thing)\b", "long distance"),
    (("passport",), r"\b(?:holds|has|has got|got|carries) (?:a |an )?([a-z]+) passport\b",
     r"is a \1 citizen"),  # "holds a brazilian passport": a citizen
    (("passport",), r"^(\S+) (?:[.:,-] )?([a-z]+) passport(?=$| [.,;:!?])", r"\1 is a \2 citizen"),
    (("hours",), r"\b((?:[\w-]+ )?[\w-]+) hours\b", _zone_hours),
    (("smoke free", "smoke-free"), r"\b(?:(?:\d+|a few|a couple of) (?:days?|weeks?|months?"
     r"|years?) )?smoke[- ]free\b", "quit smoking"),  # "6 months smoke free today"
    (("smoked for", "drank for", "vaped for"), r"\b(smok|drank|vap)(?:ed)? for\b",
     lambda m: f"used to {_BASE[m.group(1)]} for"),  # a habit of the past: "smoked for 10 years"
    (("only child",), r"\b(?:is |'s )?(?:an )?only child\b", "has no siblings"),
    (("rank",), r"\b(?:holds|has|got) (?:the )?(admin|administrator|mod|moderator|owner) rank\b",
     r"is \1"),  # "holds admin rank on the server"
    (("skip",), r"\bskips (breakfast|lunch|dinner)\b", r"never eats \1"),
    (("dairy",), rf"\b(?:(?:does not|do not|never) eats? (?:any )?|no )meat{_AND}dairy"
     rf"(?:{_AND}eggs)?(?:{_AND}(?:any )?other animal products)?\b",
     "is vegan"),  # "no meat no dairy no eggs", "does not eat meat , dairy , eggs"
    (("shifted",), r"\bshifted (to|into|back to) ", r"moved \1 "),  # "shifted to hyderabad"
    (("bass guitar",), r"\bbass guitar\b", "bass"),  # "plays bass guitar" / "is a bassist"
    (("pair of",), r"\ba pair of\b(?= (?:\w+ )?(?:cats|dogs|rabbits|bunnies|guinea pigs|hamsters"
     r"|budgies|ferrets|rats|mice|parrots|tortoises|kittens|puppies|goats|chickens)\b)", "2"),
    # "a pair of cats", not "of jeans"
]  # fmt: skip
