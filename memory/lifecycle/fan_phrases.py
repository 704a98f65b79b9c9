"""A fan's habits told in other words, rewritten to one form: going to every game ("never
misses a toulouse home game", "has not missed a derby since 2010", "has attended every home
match", "travels to every away game": "goes to every ..."), a season ticket ("holds a season
pass", "is a season ticket holder": "has a season ticket"), a team captained and games
refereed ("is the captain of his sunday side": "captains ..."; "refs": "referees"), a club
without its "fc": a part
of :data:`memory.lifecycle.phrases.PHRASES`, run in its place there (before a keen habit's
"never misses a day" is read as no denial).
"""

from __future__ import annotations

_EVENT = r"(?=[\w' -]*?\b(?:game|match|fixture|gig|race|derby|show|concert|meet)(?:s|es)?\b)"
"""The rewriting of going to every one needs an event named: "never misses a ... game"."""

FAN_PHRASES: list[tuple[tuple[str, ...], str, str]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("miss",), rf"\b(?:never (?:misses|missed|miss)|(?:has not|has never) missed) (?:a |an |any "
     rf"|1 )?(?!(?:day|week|session|workout|game|match)s?\b){_EVENT}", "goes to every "),
    (("every",), r"\b(?:attends|attended|has attended|travels to|has travelled to|has been to"
     r"|been to|goes to) every (?:single )?", "goes to every "),
    (("season pass", "season ticket"), r"\b(?:holds|has got|got|owns) (?:a )?season (?:pass|ticket)"
     r"|\bis (?:a )?season ticket holder\b|\bhas (?:a )?season pass\b", "has a season ticket"),
    (("captain",), r"\bis (?:the )?captain of\b", "captains"),
    (("ref",), r"\b(?:refs|refereeing)\b", "referees"),
    (("football club", "fc"), r"\b(?:football club|f\.? ?c)\b", " "),  # "chelsea fc": "chelsea"
]  # fmt: skip
