"""What a change leaves as it was (memory.lifecycle.change): a switch of something else while
the old fact's thing is "still" or "the same" ("switched teams, still ubisoft"); a move
within the town ("amsterdam-noord"); words that only look like a slot ("from the float
pool", "supports new nurses as a preceptor", "vancouver, bc")."""

from __future__ import annotations

import pytest

from memory.lifecycle import Relation, relation
from memory.lifecycle.reading import read
from memory.lifecycle.slots import find_slots

NEAR = 0.7


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("jorge - works at ubisoft", "jorge.. switched teams. audio team. still ubisoft"),
        ("dami a nurse at the nhs trust in leeds", "dami switched to the stroke team, same trust"),
        ("Anneke lives in Amsterdam.", "Anneke moved to a bigger apartment in Amsterdam-Noord."),
        ("rosario is from iloilo", "rosario is from the float pool, covers any ward"),
        ("Rashida supports Manchester United.", "Rashida supports new nurses as a preceptor."),
    ],
)
def test_a_change_of_something_else_leaves_the_old_fact(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is not Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ana plays valorant", "ana quit valorant, still plays league"),  # a doing kept
        ("ana works at ubisoft", "ana quit ubisoft, still in montreal"),  # another thing kept
        ("Anneke lives in Amsterdam.", "Anneke moved to a flat in Rotterdam."),
    ],
)
def test_what_is_kept_must_be_the_old_fact_s_thing(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


def test_bc_after_a_town_is_no_place_of_because() -> None:
    homes = [s.value for s in find_slots(read("Cyrus is based in Vancouver, BC.").body)]
    assert homes == ["vancouver"]
