"""The pattern of a thing a member has one of at a time, told as what it is (for
:mod:`memory.lifecycle.slots`): "Kaveh's hardest boulder is V4" / "... is V6", "Mia's car is
a Ford Focus" / "... is a Honda Civic", "Jo's handicap is 18". Its key names the thing
("of:hardest boulder"); two values of one thing contradict as other slots' values do.

Only things a member has one of: a record ("hardest", "fastest", "longest": a superlative
before the thing) or a thing by its name (``ONE_AT_A_TIME``: a car, a handicap, a shoe
size). A person's or a pet's traits are no such thing ("Tobi's mum is a nurse" / "... is
visiting from Lagos"), nor is what it does ("Mia's team is doing great"). A thing another
slot reads ("her favourite colour is", "her parkrun pb is") is left to that slot
(:func:`memory.lifecycle.slots.find_slots` keeps the first slot of a span).
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern, one_of
from memory.lifecycle.slot_patterns import slot_pattern as _p

ONE_AT_A_TIME = (
    "pb", "pr", "record", "grade", "handicap", "rating", "elo", "mmr", "level", "shoe size",
    "dress size", "size", "weight", "height", "nickname", "username", "handle", "gamertag",
    "ign", "car", "motorbike", "van", "laptop", "console", "monitor", "keyboard", "headset",
    "mouse", "setup", "daily driver", "distro", "editor", "ide", "browser", "star sign",
    "blood type", "bedtime", "alarm", "bin day", "rest day", "day off", "gym", "church",
    "school", "college", "major", "squad number", "shirt number", "position", "gp",
    "doctor", "dentist", "therapist", "psychiatrist", "psychologist", "counsellor",
    "endocrinologist", "dermatologist", "cardiologist", "neurologist", "oncologist",
    "consultant", "physio", "midwife",
)  # fmt: skip
"""Things a member has one of at a time, by their name (the thing's last words)."""
_RECORDS = (
    "hardest", "fastest", "longest", "highest", "furthest", "farthest", "quickest",
    "heaviest", "biggest",
)  # fmt: skip
"""A superlative before a thing makes it a record: one at a time ("hardest boulder")."""

_THING = (
    rf"(?P<thing>(?:(?:{'|'.join(_RECORDS)}) (?:[\w-]+ ){{0,2}}?[\w-]+"
    rf"|(?:[\w-]+ ){{0,2}}?(?:{one_of(ONE_AT_A_TIME)})))"
)
_TRAITS = (
    "old", "new", "broken", "busted", "dead", "fast", "slow", "big", "small", "tiny", "huge",
    "great", "good", "bad", "fine", "ok", "okay", "cheap", "expensive", "loud", "quiet",
    "busy", "full", "empty", "clean", "dirty", "nice", "awful", "red", "blue", "green",
    "black", "white", "grey", "gray", "silver", "yellow", "orange", "pink", "purple", "brown",
)  # fmt: skip
"""A trait said of a thing ("her car is red", "... is old"), not what the thing is."""
_VALUE = (
    rf"(?!(?:{'|'.join(_TRAITS)})(?:$| [.,;:!?()]| now\b))"
    r"(?!(?:not|no|never|in|at|on|from|with|so|very|really|too|getting|being|still) )"
    r"(?:(?:now|currently|actually|officially) )?(?:called |named )?"
    r"(?P<value>(?![\w-]{3,}(?:ing|ed)\b)[\w:'-]+(?: [\w:'-]+){0,3}?)"
)
"""What a thing is: a name, a number or a grade in up to four words; not a place it is in, a
trait said of it ("so slow") or what it is doing ("getting fixed")."""
_END = r"(?: (?:now|these days|atm|rn|lol|tbh|ngl|fr|btw))*(?=$| [.,;:!?()])"

_NAMED = (
    r"(?P<thing>(?:[\w-]+ ){0,2}?(?:team|channel|server|band|podcast|guild|clan|shop|business"
    r"|blog|boat|bike|van|company|brand|character|farm|island|bot|project|page|account))"
)
"""Things a member has named, one name at a time ("her fantasy team", "his channel")."""

POSSESSIVE_PATTERNS: tuple[SlotPattern, ...] = (
    _p("of", rf"{_S}'s (?:current |usual |new |main )?{_THING} (?:is|are|=|:) {_VALUE}{_END}"),
    # the name of a thing of theirs, told or changed: "name:fantasy team"
    _p(
        "name",
        rf"{_S}(?:'s |[.:,-] )?{_NAMED} (?:is called|is named|name is|name :) "
        rf"{_VALUE}{_END}",
    ),  # "camille 's fantasy team is called x"
    _p("name", rf"{_S}(?:\S+ )?renamed (?:his|her|their) {_NAMED} (?:to )?{_VALUE}{_END}"),
)
"""What fills a ``of:<thing>`` slot, and a ``name:<thing>`` slot."""
