"""The patterns of a member's place in their sport (:mod:`memory.lifecycle.slots`): the
position they play, and where they stand in a league table. Built as the patterns of
:mod:`memory.lifecycle.slot_patterns` are.

A player has one position at a time in a team: "plays centre back for his sunday side" /
"the manager moved him up front as a striker" is a change, "plays cb" / "is a centre half"
the same. A position is read after "plays", "playing", "is a ... for", "moved (him) to", or
alone in a fragment ("dan . cb for his sunday team"); the words that name other things too
("keeper", "hooker", "wing", "lock", "prop", "centre", "forward") only after "plays" or a
move. One table has one place: "top of the work fantasy league" / "14th in the work fantasy
league now" is a change.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern, one_of
from memory.lifecycle.slot_patterns import slot_pattern as _p

_DEFENCE, _MIDFIELD, _ATTACK = "defender", "midfielder", "forward"
POSITIONS = {
    # football and hockey
    "goalkeeper": "goalkeeper", "goalie": "goalkeeper", "gk": "goalkeeper",
    "keeper": "goalkeeper", "in goal": "goalkeeper",
    "centre back": f"centre back {_DEFENCE}", "center back": f"centre back {_DEFENCE}",
    "centre-back": f"centre back {_DEFENCE}", "center-back": f"centre back {_DEFENCE}",
    "centre half": f"centre back {_DEFENCE}", "center half": f"centre back {_DEFENCE}",
    "cb": f"centre back {_DEFENCE}", "right back": f"right back {_DEFENCE}",
    "rb": f"right back {_DEFENCE}", "left back": f"left back {_DEFENCE}",
    "lb": f"left back {_DEFENCE}", "full back": f"full back {_DEFENCE}",
    "fullback": f"full back {_DEFENCE}", "wing back": f"wing back {_DEFENCE}",
    "defender": _DEFENCE, "defence": _DEFENCE, "in defence": _DEFENCE,
    "midfielder": _MIDFIELD, "midfield": _MIDFIELD, "in midfield": _MIDFIELD,
    "centre midfield": f"central {_MIDFIELD}", "center midfield": f"central {_MIDFIELD}",
    "central midfield": f"central {_MIDFIELD}", "centre mid": f"central {_MIDFIELD}",
    "cm": f"central {_MIDFIELD}", "defensive midfield": f"defensive {_MIDFIELD}",
    "defensive midfielder": f"defensive {_MIDFIELD}", "cdm": f"defensive {_MIDFIELD}",
    "attacking midfield": f"attacking {_MIDFIELD}", "cam": f"attacking {_MIDFIELD}",
    "attacking midfielder": f"attacking {_MIDFIELD}", "winger": "winger", "wing": "winger",
    "striker": f"striker {_ATTACK}", "centre forward": f"striker {_ATTACK}",
    "center forward": f"striker {_ATTACK}", "up front": _ATTACK, "forward": _ATTACK,
    # rugby
    "hooker": "hooker", "prop": "prop", "lock": "lock", "flanker": "flanker",
    "number 8": "number 8", "scrum half": "scrum half", "scrum-half": "scrum half",
    "fly half": "fly half", "fly-half": "fly half",
    # basketball, baseball, netball, volleyball
    "point guard": "point guard", "shooting guard": "shooting guard",
    "small forward": "small forward", "power forward": "power forward",
    "shortstop": "shortstop", "ss": "shortstop", "pitcher": "pitcher", "catcher": "catcher",
    "goal attack": "goal attack", "goal shooter": "goal shooter", "goal defence": "goal defence",
    "goal keeper": "goal keeper", "wing attack": "wing attack", "wing defence": "wing defence",
    "setter": "setter", "libero": "libero", "outside hitter": "outside hitter",
}  # fmt: skip
"""One name per position, with the line it plays in ("cb": "centre back defender", so that a
centre back is a defender and not a right back)."""
_AMBIGUOUS = frozenset({"keeper", "hooker", "wing", "lock", "prop", "forward", "pitcher",
                        "catcher", "setter", "cam", "cm", "ss", "cb", "rb", "lb", "gk",
                        "defence", "in defence", "in goal", "up front"})  # fmt: skip
"""Positions whose word names other things too: read only after "plays" or a move."""


_ANY = rf"(?P<value>{one_of(POSITIONS)})"  # the longest first: "centre back"
_PLAIN = rf"(?P<value>{one_of(set(POSITIONS) - _AMBIGUOUS)})"
_END = r"(?=$| [.,;:!?()]| (?:for|at|in|on|now|this|these|since|permanently|rn|atm|lol)\b)"
_PLAYS = r"(?:plays|playing|is playing|has been playing|now plays|started playing)"
_MOVED = (
    r"(?:(?:has been |was |got |is being |been )?moved|switched|(?:has )?moved (?:him|her|them)"
    r"|(?:has )?switched (?:him|her|them)|(?:has )?put (?:him|her|them))"
)
_TABLE = (
    r"(?:(?:the|his|her|their|our|a) )?(?:[\w'-]+ ){0,4}?"
    r"(?:league|leauge|leage|table|standings|leaderboard|ladder|division|ranking|rankings)\b"
)
_PLACE = (
    r"(?P<value>top|first|1st|bottom|last|dead last|\d{1,2}(?:st|nd|rd|th)|second|third|fourth"
    r"|fifth|sixth|seventh|eighth|ninth|tenth)"
)
SPORT_PATTERNS: tuple[SlotPattern, ...] = (
    # the position they play: after "plays", a move, "is a ... for", or alone in a fragment
    _p("position", rf"{_S}(?:\w+ ){{0,2}}?{_PLAYS} (?:as |at )?(?:a |an |the )?{_ANY}{_END}"),
    _p("position", rf"{_S}(?:'s (?:manager|coach|gaffer|captain) )?(?:\w+ ){{0,2}}?{_MOVED} "
                   rf"(?:back |up |down )?(?:to |over to |into |at )?(?:play )?(?:a |an |the )?"
                   rf"{_ANY}{_END}"),
    _p("position", rf"{_S}(?:is|'s) (?:now |still |currently )?(?:a |an |the )?{_PLAIN} "
                   r"(?:for|at|in|on)\b"),
    _p("position", rf"{_S}'s (?:[\w-]+ )?position (?:is|:) (?:now |still )?{_ANY}{_END}"),
    _p("position", rf"{_S}(?:[.:,-] )?(?:playing )?{_ANY}(?: now)?"
                   r"(?=$| [.,;:!?()]| (?:for|in|on) (?!the (?:way|phone|bus)\b))"),
    # their place in a league table
    _p("standing", rf"{_S}(?:[\w']+ ){{0,3}}?(?:is )?(?:in |at |to |sitting |sits )?{_PLACE}"
                   rf"(?: place| out of \d+)? (?:of |in |on )?{_TABLE}"),
    _p("standing", rf"{_S}(?:[\w']+ ){{0,2}}?(?P<value>leads|is leading|leading) {_TABLE}"),
)  # fmt: skip
"""What fills the slots of a member's sport (``value`` group)."""
_PLACES = {"top": "1", "first": "1", "1st": "1", "leads": "1", "is leading": "1",
           "leading": "1", "last": "last", "bottom": "last", "dead last": "last", "second": "2",
           "third": "3", "fourth": "4", "fifth": "5", "sixth": "6", "seventh": "7", "eighth": "8",
           "ninth": "9", "tenth": "10"}  # fmt: skip


def _position(value: str) -> str:
    return POSITIONS.get(value, value)


def _place(value: str) -> str:
    return _PLACES.get(value, value.rstrip("stndrh"))  # "top": "1", "14th": "14"


SPORT_VALUES = {"position": _position, "standing": _place}
"""One way to write a position ("cb": "centre back defender") or a place ("top": "1")."""
