"""The patterns of whom a member plays as in a game (:mod:`memory.lifecycle.slots`): their
main, a character ("mains reyna") or a role ("mains support"), one of each per game at a
time. Built as the patterns of :mod:`memory.lifecycle.slot_patterns` are; a main told
without its game is the other fact's (``slots._thing_told``).

The wordings of a main ("is a rein main", "neon main now", "went tank main", "main : ana")
are read "mains X" by :mod:`memory.lifecycle.phrases` first. A role and a character are two
slots: "mains support" / "mains mercy" may both hold.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern
from memory.lifecycle.slot_patterns import slot_pattern as _p

ROLES = (
    r"(?:tank|dps|damage|support|supp|healer|heals|jungle|jg|mid|top|adc|bot|duelist|controller"
    r"|sentinel|initiator|flex|carry|offlane|hard support)"
)
"""The roles of team games, each of which many characters play."""
_GAME = r"(?: (?:in|on) (?P<thing>\w+(?: \d)?))?"
"""The game a main is of ("in overwatch 2"), when it is named."""
_AFTER = r"(?:now|rn|lol|fr|tbh|ofc|these days|but|since|btw|not|no)\b"
_END = rf"(?=$| [.;:!?()]|(?: ,)? {_AFTER})"
"""What may follow a main: not another one ("mains mercy and ana", "mercy , ana": two)."""
GAME_PATTERNS: tuple[SlotPattern, ...] = (
    _p("main_role", rf"{_S}(?:\w+ )?mains (?P<value>{ROLES}){_GAME}{_END}"),
    _p("main", rf"{_S}(?:\w+ )?mains (?!{ROLES}\b)(?P<value>[\w-]+){_GAME}{_END}"),
)  # fmt: skip
"""What fills the main slots (``value`` group; ``thing``: the game)."""
