"""A member's driving licence and settled status (memory.lifecycle), through the public
``relation``: a provisional licence is no more once the test is passed or a full one is held,
and permanent residence settles a visa."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("orla only has her provisional licence", "orla passed her test yesterday first time",
         CONTRADICTS),
        ("benji on a provisional, cant drive solo yet", "benji passed his driving test today",
         CONTRADICTS),
        ("Ade has a provisional licence.", "Ade holds a full UK driving licence.", CONTRADICTS),
        ("tom has a full licence", "tom holds a full driving licence", SAME),
        ("ana passed her maths test", "ana has a provisional licence", UNRELATED),
        ("Cem is in Germany on a work visa.", "Cem received German permanent residence.",
         CONTRADICTS),
    ],
)  # fmt: skip
def test_a_licence_and_a_visa_one_at_a_time(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.6) is expected
