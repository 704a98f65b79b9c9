"""Where a member is from and lives, told other ways (memory.lifecycle), through the public
``relation``: a place's own ("an adelaide girl born and raised", "a melbourne guy"), a city
named with "city" after it ("Iloilo City"), a city's other name ("Napoli") said with "born
and raised", and a few big cities the table of towns leaves out as words ("manila")."""

from __future__ import annotations

import pytest

from memory.lifecycle.places import without_city
from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("jo from perth", "jo is a perth girl born n raised"),
        ("kit from manila", "kit a manila boy born and raised fr"),
        ("tam is from brazil", "tam is brazilian born and raised"),
        ("Ren is from Iloilo.", "Ren grew up in Iloilo City."),
        ("Ugo is originally from Naples.", "Ugo was born and raised in Napoli."),
        ("dev lives in leeds", "dev is based in leeds like he's a leeds lad"),
        ("ana lives in hcmc", "ana lives in ho chi minh city"),
    ],
)
def test_an_origin_or_a_home_told_other_ways(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is SAME


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("jo from perth", "jo is a leeds girl born n raised", CONTRADICTS),
        ("kit lives in manila", "kit moved to cebu last month", CONTRADICTS),
        ("Ren is from Iloilo.", "Ren lives in Iloilo City.", UNRELATED),  # a home, no origin
    ],
)
def test_other_places_stay_other(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.6) is expected


@pytest.mark.parametrize(
    ("name", "read"),
    [("iloilo city", "iloilo"), ("cebu city", "cebu"), ("kansas city", "kansas city"),
     ("mexico city", "mexico city"), ("panama city", "panama city"), ("city", "city")],
)  # fmt: skip
def test_a_city_named_with_city_after_it(name: str, read: str) -> None:
    assert without_city(name) == read
