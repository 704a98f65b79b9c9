"""The patterns of a baby's or a toddler's age (:mod:`memory.lifecycle.slots`, key
``age:<kin>``), told in months or weeks: "nell - baby 5 months" / "nell - baby 7 months", "'s
lil girl is 18 months" / "'s lil girl turned 2"; and a child's age told before them ("has
3-year-old twins" / "'s twins are 3"). Other ages in years are read by
:mod:`memory.lifecycle.slot_patterns`. Built as its patterns are.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import _AGE_END, SlotPattern
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import slot_pattern as _p

_WHOSE = r"(?:'s |[.:,-] )?(?:(?:my|the|our|her|his|their) )?"
_YOUNG = r"(?:(?:little|lil|baby|youngest|eldest|oldest|newborn) )?"
_KIN = r"(?P<thing>baby|son|daughter|kid|boy|girl|toddler|twins)"

AGE_PATTERNS: tuple[SlotPattern, ...] = (
    _p("age", rf"{_S}{_WHOSE}{_YOUNG}{_KIN}(?: is| are| 's| :| -)? (?:now |like |about |only "
              rf"|just |nearly |almost )?(?P<value>\d{{1,2}} (?:months?|weeks?))(?: old)?"
              rf"{_AGE_END}"),
    # "has 3-year-old twins", "has a 2 year old son": age:twins, age:son
    _p("age", rf"{_S}(?:has|have|got) (?:like )?(?:a |an )?(?P<value>\d{{1,2}})(?:-| )years?-?"
              rf"(?:old|olds)? (?P<thing>twins|son|daughter|kid|boy|girl)\b"),
)  # fmt: skip
"""What fills the age of a baby or a toddler (``thing``: whose; ``value``: "5 months")."""
