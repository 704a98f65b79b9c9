"""What a new fact tells of the past, of a plan, of a visit or of a one-off ends nothing
(memory.lifecycle), and a value written shorter is the same value: each case beside the
change that still ends the old fact."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slot_values import values_agree

CONTRADICTS, UNRELATED = Relation.CONTRADICTS, Relation.UNRELATED
SIMILAR = 0.6


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a death told of someone else, in a relative clause: not the old fact's "keen"
        ("mo is a keen runner", "mo was married to a keen cyclist who died", UNRELATED),
        ("ola has an old hamster", "ola buried the hamster that died last night", CONTRADICTS),
        # a change after a hope or a plan has not happened yet
        ("lia is studying nursing", "lia hopes to work in a hospital once she graduates",
         UNRELATED),
        ("lia is studying nursing", "lia graduated and works in a hospital", CONTRADICTS),
        # going back somewhere every weekend is a routine, not a switch
        ("sam's son lives with him in the week",
         "sam's son goes back to his mum's at weekends", UNRELATED),
        ("kim uses windows", "kim went back to linux", CONTRADICTS),
        # a job held before, told in the past
        ("lu works at the library", "lu worked at a call centre before that", UNRELATED),
        ("lu works at the library", "lu works at a call centre now", CONTRADICTS),
        # a stay told as a visit is no home
        ("jo lives in leeds", "jo . in rome this week , visiting her sister", UNRELATED),
        ("jo lives in leeds", "jo . in rome now", CONTRADICTS),
        # an injury dated in the past stays true when healed
        ("max broke his ankle in 2021", "max's ankle is fine now", UNRELATED),
        ("max has a broken ankle", "max's ankle is fine now", CONTRADICTS),
        # divorced, then dating: both hold; dating, then divorced: over
        ("bea is divorced", "bea is dating someone new", UNRELATED),
        ("bea is dating someone", "bea got divorced", CONTRADICTS),
    ],
)  # fmt: skip
def test_the_past_plans_and_visits_end_nothing(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, SIMILAR) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("ada is vegetarian", "ada ate chicken at a friend's bbq", UNRELATED),
        ("ada is vegetarian", "ada ate meat growing up", UNRELATED),
        ("ada is vegetarian", "ada ate a ham sandwich as a one-off", UNRELATED),
        ("ada is vegetarian", "ada eats chicken now", CONTRADICTS),
    ],
)
def test_a_meal_once_or_before_is_no_change_of_diet(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, SIMILAR) is expected


@pytest.mark.parametrize(
    ("key", "first", "second", "expected"),
    [
        ("job", "vet nurse", "veterinary nurse", True),
        ("studies", "physio", "physiotherapy", True),
        ("employer", "biotech startup", "small biotech start-up", True),
        ("job", "car", "carpenter", False),  # three letters cut alone: no
        ("job", "nurse", "nursery", False),  # a word made longer, not cut
        ("job", "vet nurse", "dental nurse", False),
    ],
)
def test_a_value_cut_short_or_hyphenated_is_the_same(
    key: str, first: str, second: str, expected: bool
) -> None:
    assert values_agree(key, first, second) is expected


def test_a_value_cut_short_is_no_supersession() -> None:
    assert relation("kit works as a vet nurse", "kit is a veterinary nurse", 0.8) is Relation.SAME
    assert relation("kit works at a start-up", "kit works at a startup", 0.8) is not CONTRADICTS
