"""The patterns of whom a member plays as in a game (:mod:`memory.lifecycle.slots`): their
main, a character ("mains reyna") or a role ("mains support"), one of each per game at a
time; the region whose servers they play on ("plays on euw", "na servers now"); and the
belt they hold in a martial art, a rank as a game's is ("a purple belt in bjj" / "got his
brown belt"). Built as
the patterns of :mod:`memory.lifecycle.slot_patterns` are; a main told without its game is the
other fact's (``slots._thing_told``).

The wordings of a main ("is a rein main", "neon main now", "went tank main", "main : ana")
are read "mains X" by :mod:`memory.lifecycle.phrases` first. A role and a character are two
slots: "mains support" / "mains mercy" may both hold.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

ROLES = (
    r"(?:tank|dps|damage|support|supp|healer|heals|jungle|jg|mid|top|adc|bot|duelist|controller"
    r"|sentinel|initiator|flex|carry|offlane|hard support)"
)
"""The roles of team games, each of which many characters play."""
_GAME = r"(?: (?:in|on) (?P<thing>\w+)(?: \d)?)?"
"""The game a main is of ("in overwatch 2": overwatch, whatever its number), when named."""
_AFTER = r"(?:now|rn|lol|fr|tbh|ngl|ofc|these days|but|since|btw|not|no)\b"
_END = rf"(?=$| [.;:!?()]|(?: ,)? {_AFTER})"
"""What may follow a main: not another one ("mains mercy and ana", "mercy , ana": two)."""
_REGIONS = r" (?:eu|euw|eune|na|oce|sea|asia|kr|br|lan|las|japanese)\b"
"""A region named (a cheap test before the patterns of one)."""
_REGION = r"(?P<value>eu|euw|eune|eu west|na|na east|na west|oce|sea|asia|kr|br|lan|las|japanese)"
SERVERS = {"euw": "eu", "eune": "eu", "eu west": "eu", "na east": "na", "na west": "na",
           "japanese": "jp"}  # fmt: skip
"""One name for each region of servers."""
_BELT = (
    r"(?P<value>white|yellow|orange|green|blue|purple|brown|black|red)(?: and \w+)? belt"
    r"(?: (?:in|at) (?P<thing>\w+))?\b"
)
"""A martial art's belt, and the art when named ("a blue belt in judo")."""
GAME_PATTERNS: tuple[SlotPattern, ...] = (
    _p("main_role", rf"{_S}(?:\w+ )?mains (?P<value>{ROLES}){_GAME}{_END}"),
    _p("main", rf"{_S}(?:\w+ )?(?:mains|rerolled(?: to)?) (?:a |an )?(?!{ROLES}\b)"
               rf"(?P<value>[\w-]+(?: (?!in\b|on\b)[\w-]+)??){_GAME}{_END}"),  # "a fury warrior"
    _p("server", rf"{_s_if(_REGIONS)}(?!.*\b(?:not|never|no|wants?)\b)(?:\S+ ){{0,4}}?"
                 rf"(?:plays on|on|to) (?:the )?{_REGION}(?: servers?| realms?)?{_END}"),
    _p("server", rf"{_s_if(_REGIONS)}(?!.*\b(?:not|never|no|wants?)\b)(?:\S+ ){{0,4}}?{_REGION}"
                 rf" (?:servers?|realms?)\b"),
    _p("rank", rf"{_s_if(' belt')}(?!.*\b(?:not|never|wants?|going for|working towards)\b)"
               rf"(?:\S+ ){{0,4}}?(?:is (?:now )?(?:a |an )?|got (?:his |her |their |my )?"
               rf"|earned (?:his |her |their |my )?|(?:a |an ))?{_BELT}"),
)  # fmt: skip
"""What fills the main, server and belt slots (``value`` group; ``thing``: the game or art)."""
