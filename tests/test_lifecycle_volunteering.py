"""Volunteering and interest told other ways, and a thing given up "instead of" another where
both facts agree on the slot (memory.lifecycle), through the public ``relation``."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Rosa volunteers with a food bank charity.",
         "Rosa gives her free time to a food bank charity.", SAME),
        ("Imran volunteers at the animal shelter.",
         "Imran does volunteer work at the animal shelter.", SAME),
        ("Ken gives his time to the hospice.", "Ken gave up volunteering at the hospice.",
         CONTRADICTS),
        # giving a thing is not giving time
        ("Ola volunteers with the scouts.", "Ola gave her old tent to the scouts.", UNRELATED),
    ],
)  # fmt: skip
def test_volunteering_told_other_ways(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.7) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("jo has zero interest in cricket", "jo is not into cricket at all", SAME),
        ("Mira has no interest in politics.", "Mira is not into politics.", SAME),
        ("ty has zero interest in anime", "ty is super into anime now", CONTRADICTS),
    ],
)  # fmt: skip
def test_no_interest_is_not_liking(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.7) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Ines teaches chemistry at a high school.",
         "Ines now teaches biology instead of chemistry at the same school.", CONTRADICTS),
        ("raj drives a bus for the council", "raj drives a tram now instead of the bus",
         CONTRADICTS),
        # what was given up is not the old fact's
        ("Ines teaches chemistry at a high school.",
         "Ines teaches chemistry online instead of in person.", UNRELATED),
    ],
)  # fmt: skip
def test_a_thing_given_up_instead_of_another_where_the_slots_agree(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, 0.7) is expected
