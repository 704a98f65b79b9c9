"""What a change keeps of the old fact: a thing still had or the same ("switched teams , still
ubisoft", "same trust"), a move within the old place ("a bigger flat in the same building"), a
job kept through a move to another team, a home kept through a move on the pitch or online
("moved to lock", "moved to youtube"); and a switch away from a thing the old fact names
("moved from support to sales"). Read by :func:`memory.lifecycle.change.replaced` and its
neighbours.
"""

from __future__ import annotations

import re

from memory.extraction.offline.verbs import verb
from memory.lifecycle.lexicon import STOPWORDS
from memory.lifecycle.places import within_city
from memory.lifecycle.reading import Reading
from memory.lifecycle.slots import NO_HOMES, find_slots

_FROM_TO = re.compile(
    r"\b(?:switched|swapped|moved|transferred|changed|went|shifted|converted|upgraded"
    r"|downgraded) (?:\S+ ){0,3}?from ((?:\S+ ){1,3}?)to\b"
)
"""A switch told by what was left and what was taken ("moved from support to sales")."""
_STILL = re.compile(
    r"\b(?:(?:still|same) (?:at |with |in |on |the )?"
    r"|(?:teams?|roles?|departments?|wards?|desks?|projects?) (?:at|within) (?=work\b)"
    r"|(?:switched|moved|changed) (?:to )?(?:the |a )?(?:\w+ )?(?:teams?|departments?|wards?)"
    r" (?:at|within) (?:the )?)([\w-]+)"
)


_SAME_PLACE = re.compile(
    r"\b(?:same|that) (?:building|block|street|road|estate|complex|area|neighbourhood"
    r"|neighborhood|town|city|village|postcode)\b"
)
"""A move within the place the old fact names ("a bigger flat in the same building")."""
_NEW_TEAM = re.compile(r"\b(?:switched|moved|changed|swapped) (?:to )?(?:the |a |another |a new )?"
                       r"(?:[\w-]+ )?(?:teams?|departments?|squads?)\b")  # fmt: skip
"""A move to another team: the job the old fact names is kept ("nur is a dev" / "switched
teams at work , backend now")."""


def thing_kept(old: Reading, new: Reading) -> bool:
    """``new`` says a thing of ``old`` is kept, "still" or "the same" ("works at ubisoft" /
    "switched teams , still ubisoft", "same trust", "switched teams at ubisoft"; not "still plays
    league": a doing, no thing), or that a move kept to the same place ("moved to a bigger
    flat in the same building"): what changed is something else."""
    if _SAME_PLACE.search(new.body) or _moved_to_play(new.body) or moved_within(old, new):
        return True
    if _NEW_TEAM.search(new.body) and any(slot.key == "job" for slot in find_slots(old.body)):
        return True
    return any(
        word in old.core and ((read := verb(word)) is None or read[0] == word)
        for word in _STILL.findall(new.body)
    )


_PLACE_NAMED = re.compile(r"\b(?:in|to|into) (?:the |a |an )?(?:[\w-]+ ){0,3}?(?:in|to) (?:the )?"
                          r"([a-z-]+(?: [a-z-]+)?)(?=$| [.,;:!?]| now\b| last\b| this\b)"
                          r"|\b(?:moved|moving) (?:\w+ )?to (?:the )?([a-z-]+(?: [a-z-]+)?)"
                          r"(?=$| [.,;:!?]| now\b| last\b| this\b)")  # fmt: skip


def moved_within(old: Reading, new: Reading) -> bool:
    """A move to a district of the city the old fact names as home ("lives in berlin" /
    "moved to a flat in neukolln"), or one told as still there ("moved to newtown , still
    sydney")."""
    homes = [slot.value for slot in find_slots(old.body) if slot.key == "home"]
    if not homes:
        return False
    named = _PLACE_NAMED.search(new.body)
    place = next((group for group in named.groups() if group), "") if named else ""
    return (bool(place) and within_city(place, homes[0])) or f"still {homes[0]}" in new.body


_MOVED_TO = re.compile(r"\bmoved\b(?: \S+){0,3}? to (?:play )?(?:a |an |the )?(\S+(?: \S+)?)")


def _moved_to_play(body: str) -> bool:
    """A move to a position or a platform, no home ("moved to lock this season", "moved to
    youtube")."""
    moved = _MOVED_TO.search(body)
    if moved is None:
        return False
    target = moved.group(1)
    return target in NO_HOMES or target.split()[0] in NO_HOMES


def left_for_another(old: Reading, new: Reading) -> bool:
    """``new`` tells a switch from a word of ``old`` to something else ("is on the support
    team" / "moved from support to sales"; not "is from manila" / "moved from manila to
    toronto as a kid": where one is from stays so)."""
    left = _FROM_TO.search(new.body)
    if left is None or any(slot.key == "origin" for slot in find_slots(old.body)):
        return False
    return bool((set(left.group(1).split()) - STOPWORDS) & set(old.body.split()))
