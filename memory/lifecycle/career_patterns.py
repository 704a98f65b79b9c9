"""The patterns of a member's place at work (:mod:`memory.lifecycle.slots`): their level
(junior, mid, senior, staff, lead, principal), a student's placement, their team and the
programming language they mainly work in. Built as the patterns of
:mod:`memory.lifecycle.slot_patterns` are.

One holds one level at a time: "is a junior developer" / "was promoted to mid-level
developer", "jr dev" / "got bumped to mid lvl" is a change; "is a senior engineer" / "is a
senior software engineer at a bank" the same. A level is read before a kind of work ("a
senior designer", "sr swe"), or after a promotion ("promoted to senior"), never alone ("a
senior at college" is a student's year). And where a student's placement (or internship) is:
"placement at siemens" / "placement year is at bosch, not at siemens" is a change, and so is
"placement in lisbon" / "placement was moved to porto" (whom with and where are two slots).
One team at work ("on the sre team" / "on the data platform team now"), and one programming
language worked in mainly ("main language is python" / "mostly writes go now"). A title one
is promoted, appointed or made ("promoted to head of customer success", "became principal of
the school") is a job; and one yearly salary at a time ("earns 42,000 euros a year" / "'s new
job pays 47k", "dayo 45k"; a sum an hour is not read).
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import (
    _ADVERBS,
    _FRAGMENT_END,
    _JOBS,
    _STOP,
    _TIER,
    SlotPattern,
    one_of,
)
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

LEVELS = {"junior": "junior", "jr": "junior", "graduate": "junior", "entry-level": "junior",
          "entry level": "junior", "mid-level": "mid", "mid level": "mid", "mid lvl": "mid",
          "mid": "mid", "intermediate": "mid", "senior": "senior", "sr": "senior",
          "snr": "senior", "staff": "staff", "lead": "lead", "principal": "principal"}  # fmt: skip
"""One name per level ("jr": junior, "mid lvl": mid)."""
_LEVEL = f"(?P<value>{one_of(LEVELS)})"
_WORK = (
    r"(?:(?:software|frontend|front-end|backend|back-end|fullstack|full-stack|full stack|data"
    r"|web|ux|ui|qa|devops|ml|mobile|product|game|cloud|security|site reliability) )?"
    r"(?:dev|developer|engineer|eng|swe|sde|programmer|designer|analyst|scientist|consultant"
    r"|accountant|architect|researcher|associate|level|role|position)\b"
)
"""A kind of work a level is said before ("senior designer", "jr dev", "mid level role")."""
_PROMOTED = (
    r"(?:promoted|bumped|bumped up|moved up|made|stepped up|went up|got promoted|was promoted"
    r"|has been promoted|been promoted)"
)
_PLACED = (
    rf"{_s_if('placement|internship|work experience')}(?:[\w']+ ){{0,4}}?"
    r"(?:placement|internship|work experience)(?: year)?"
)
"""The subject, then where a placement is told (tried only where one is named)."""
_OVER = r"(?!.*\b(?:ended|finished|is over|wrapped up|fell through|fell thru|cancell?ed)\b)"
_WHERE = rf"(?:a |an |the )?(?P<value>(?!not\b)[\w&'-]+){_OVER}"
"""Whom with, one word ("siemens", "a hospital"), a placement not told as over ("placement at
jlr ended": an end, not where it is); the town is a slot of its own."""
_TOWN = rf"(?P<value>[\w'-]+){_OVER}"
_MOVED_TO = r"(?:was |got |has been )?(?:moved|switched|changed) (?:over )?to "
_WORK_TEAMS = (
    r"(?:sre|platform|data|payments|backend|back-end|frontend|front-end|infra|infrastructure"
    r"|security|product|growth|mobile|ios|android|qa|devops|ops|design|marketing|sales|support"
    r"|billing|search|ml|ai|analytics|web|api|cloud|identity|checkout|core|tooling|release)"
)
_TEAM = rf"(?P<value>(?:[\w-]+ )?{_WORK_TEAMS}(?: [\w-]+)?) team\b"
"""A team at work, by what it works on ("the sre team", "the data platform team"); a team
one plays in is no team at work (one may be in several)."""
CODE = {"python": "python", "py": "python", "go": "go", "golang": "go", "rust": "rust",
        "java": "java", "kotlin": "kotlin", "swift": "swift", "ruby": "ruby", "php": "php",
        "csharp": "csharp", "cpp": "cpp", "javascript": "javascript",
        "js": "javascript", "typescript": "typescript", "ts": "typescript", "scala": "scala",
        "elixir": "elixir", "haskell": "haskell", "dart": "dart", "clojure": "clojure"}  # fmt: skip
"""Programming languages, one name each ("golang": go); "c#" and "c++" are read without their
signs ("c"), so only as "csharp" and "cpp"."""
_CODE = rf"(?P<value>{one_of(CODE)})\b"
_MAINLY = r"(?:mostly |mainly |primarily |entirely |only |exclusively )"
_TITLE = (
    rf"(?P<value>(?!(?:the|a|an|mod|moderator|admin|captain|{one_of(LEVELS)}|{_TIER})\b)"
    r"[\w-]+(?: [\w-]+){0,3}?)"
)
"""A job title one is promoted to ("head of customer success", "team leader"); not a level
alone ("senior", read by its own slot), a server's role ("mod") or a game's rank ("diamond")."""
_MONEY = r"(?:(?:£|\$|€|₹) ?)?(?P<value>\d+(?: , \d{3})+|\d+(?:\.\d+)?k)\b"
"""A yearly sum, in thousands ("55 , 000 euros", "£31 , 000", "68k"; not "20 an hour")."""
_ABOUT = r"(?:(?:about|around|roughly|like|nearly|almost|~) )?"
CAREER_PATTERNS: tuple[SlotPattern, ...] = (
    _p("job", rf"{_S}{_ADVERBS}(?:got |was |has been |just got )?promoted to (?:a |an )?"
              rf"{_TITLE}{_STOP}"),  # after "promoted to head chef" (a job's name, read first)
    _p("job", rf"{_S}{_ADVERBS}(?:became|has become|was appointed|has been appointed|was made)"
              rf"(?: as)? (?:the )?(?P<value>(?:[\w-]+ ){{0,2}}(?:{_JOBS}))(?:{_STOP}|(?= of\b))"),
    _p("job", rf"{_S}{_ADVERBS}(?:is|'s) the (?!only\b)(?P<value>(?:[\w-]+ ){{0,2}}(?:{_JOBS}))"
              rf" (?=of|at)"),  # "is the vice principal of a school"
    # what one earns a year: "earns 42 , 000 euros a year", "'s salary is now 55k", "dayo 45k"
    _p("salary", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:earns|makes|making|is on|on|gets paid|is paid"
                 rf"|takes home|got bumped to|was bumped to|got a raise to) {_ABOUT}{_MONEY}"),
    _p("salary", rf"{_S}'s (?:new )?(?:salary|pay|base|base salary|new job)(?: before bonus)?"
                 rf" (?:is|:|pays) (?:now )?{_ABOUT}{_MONEY}"),
    _p("salary", rf"{_S}(?:[.:,-] )?{_MONEY}(?: base| a year| salary)?{_FRAGMENT_END}"),
    _p("level", rf"{_S}(?:[\w']+ ){{0,3}}?{_PROMOTED} (?:to |into |up to )?(?:a |an )?"
                rf"{_LEVEL}\b"),
    _p("level", rf"{_S}(?:[.:,-] )?(?:is |'s |works as |working as |now )*(?:a |an )?"
                rf"{_LEVEL} {_WORK}"),
    # where a student's placement is: "doing a placement year at siemens", "placement in
    # lisbon", "her placement was moved to a clinic in pietermaritzburg"
    _p("placement", rf"{_PLACED} (?:is |was )?(?:now |still )?at {_WHERE}"),
    _p("placement", rf"{_PLACED} {_MOVED_TO}(?:a |an |the ){_WHERE}"),
    _p("placement:town", rf"{_PLACED} (?:is |was )?(?:now |still )?in {_TOWN}", place=True),
    _p("placement:town", rf"{_PLACED} {_MOVED_TO}{_TOWN}", place=True),
    # the team one works in: "is on the sre team", "'s on the data platform team now"
    _p("team", rf"{_s_if(' team')}(?:\S+ ){{0,8}}?(?:is |'s )?(?:now |still )?(?:on|in|joined"
               rf"|moved to|switched to|moved over to) the {_TEAM}"),
    # the programming language one mainly works in
    _p("code", rf"{_S}(?:[\w']+ ){{0,2}}?(?:main|primary|go-to) (?:programming )?language "
               rf"(?:is|=|:) (?:now )?{_CODE}"),
    _p("code", rf"{_S}(?:[\w']+ ){{0,4}}?{_MAINLY}(?:codes|writes|works|programs|coding"
               rf"|writing|working) (?:in )?{_CODE}"),
    _p("code", rf"{_S}(?:[\w']+ ){{0,3}}?(?:codes|writes|works|programs) {_MAINLY}(?:in )?"
               rf"{_CODE}"),
)  # fmt: skip
"""What fills a member's level, placement, team and language at work (``value`` group)."""


def yearly(amount: str) -> str:
    """A yearly sum in units: "55 , 000" and "55k" are "55000"."""
    if amount.endswith("k"):
        return str(round(float(amount[:-1]) * 1000))
    return amount.replace(" , ", "")


CAREER_VALUES = {"level": LEVELS.__getitem__, "code": CODE.__getitem__, "salary": yearly}
"""One way to write a level ("jr": junior), a programming language ("golang": go) or a sum."""
