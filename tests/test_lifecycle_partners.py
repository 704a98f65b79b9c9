"""A partner told of the other partner (memory.lifecycle.partners): "X is Y's wife" is read
as said of the pair's subject, whichever partner that is."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

NEAR = 0.7


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Mariam is married to Idris.", "Mariam is Idris's wife."),  # about the one named first
        ("Omar is married to Rana.", "Rana is Omar's wife."),  # about the one named after
        ("Rohan is engaged to Meera.", "Meera is Rohan's fiancée."),
        ("lev is dating ana", "ana is lev's gf"),
        ("sol: married to jin", "sol - jin's spouse"),  # as chat tells it
        ("Giulia is married with Paolo.", "Giulia is Paolo's wife."),
    ],
)
def test_a_partner_told_of_either_partner_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.SAME
    assert relation(new, old, NEAR) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Omar is married to Rana.", "Sara is Omar's wife."),
        ("Giulia is married with Paolo.", "Giulia is married to Marco."),
    ],
)
def test_another_partner_is_a_change(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Kim is married with two kids.", "Kim is married to Jun."),  # children, no partner
        ("Kim is married with kids.", "Kim is married to Jun."),
    ],
)
def test_what_names_no_other_partner_changes_nothing(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is not Relation.CONTRADICTS
