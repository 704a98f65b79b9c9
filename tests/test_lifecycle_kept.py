"""What a change leaves as it was (memory.lifecycle.change): a switch of something else while
the old fact's thing is "still" or "the same" ("switched teams, still ubisoft"), or named as
where the switch was ("switched teams at spotify"); a move within the town
("amsterdam-noord"); words that only look like a slot ("from the float pool", "supports new
nurses as a preceptor", "vancouver, bc", "studies old dub records")."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
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
        ("Tiago works at Spotify.", "Tiago switched teams at Spotify."),
        ("lou works as a vet nurse", "lou switched to the night team at the vet hospital"),
        ("Ike studies law.", "Ike studies old dub records for basslines."),
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
        (
            "Tiago is the treasurer of the chess club.",
            "Tiago resigned from his treasurer role at the chess club.",
        ),
        ("Ike studies law.", "Ike studies music now."),
    ],
)
def test_what_is_kept_must_be_the_old_fact_s_thing(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


def test_bc_after_a_town_is_no_place_of_because() -> None:
    homes = [s.value for s in find_slots(read("Cyrus is based in Vancouver, BC.").body)]
    assert homes == ["vancouver"]
