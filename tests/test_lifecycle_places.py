"""Where a member lives (memory.lifecycle): the towns the bundled GeoNames table knows, homes
told without a verb for them, and homes told by the dwelling lived in."""

from __future__ import annotations

import pytest

from memory.lifecycle.places import CITIES, TOWNS_TABLE, is_place
from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots

CLOSE = 0.9


def homes(text: str) -> list[str]:
    return [slot.value for slot in find_slots(read(text).body) if slot.key == "home"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("olu . bristol", "olu - nottingham now"),  # a town named alone
        ("ren lives in the uk", "ren emigrated to brisbane"),  # a town in another country
        ("mika in osaka", "mika . back in sapporo for good"),
        ("dee lives in a flatshare in glasgow", "dee got her own place in dundee"),
        ("pat rents a room in leeds", "pat has moved into a maisonette in lancaster"),
        ("sam lives in sheffield", "sam lives in scotland"),  # sheffield is in england
        ("lena said she lives in porto", "lena is in lisbon these days"),
    ],
)
def test_a_home_in_another_town_supersedes(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("sam lives in harrogate", "sam lives in england"),  # a town within its nation
        ("jo lives in dublin", "jo just bought a flat in dublin"),  # a flat owned tells more
        ("nkechi lives in stafford", "nkechi is in stafford now"),  # "stafford" is no typo
    ],
)
def test_a_home_within_or_beside_the_same_place_does_not_supersede(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is not Relation.CONTRADICTS


@pytest.mark.parametrize(
    "text", ["mo . reading now", "kai is in love now", "ash . nice now", "bo . in bed rn"]
)
def test_words_that_are_also_towns_tell_no_home(text: str) -> None:
    assert homes(text) == []


def test_a_town_named_alone_or_with_in_is_a_home() -> None:
    assert homes("babs - swansea now") == ["swansea"]
    assert homes("cyrus . back in tehran for good") == ["tehran"]
    assert homes("tomasz got his own place in sheffield last month") == ["sheffield"]
    assert homes("reg sold his house in leeds") == []  # a home left is not where they live
    assert "stafford" in read("Nkechi is in Stafford now").body  # a town is not a typo


def test_the_town_table_holds_towns_not_words() -> None:
    lines = TOWNS_TABLE.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 10_000
    assert all(line.count("\t") == 1 and line == line.lower() for line in lines)
    for word in ("reading", "bath", "nice", "barking", "rugby", "david"):
        assert word not in CITIES and not is_place(word)
    assert CITIES["harrogate"] == {"england", "united kingdom"}
    assert CITIES["london"] == {"england", "united kingdom"}  # the hand-written entry wins
    assert is_place("nyc") and is_place("brooklyn") and is_place("texas")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("bashir lives in doha", "bashir - muscat now", Relation.CONTRADICTS),  # a big city
        ("tom lives in norfolk", "tom lives in england", Relation.UNRELATED),  # a county
        ("tom lives in norfolk", "tom lives in scotland", Relation.CONTRADICTS),
        ("kay lives in surrey", "kay lives in the uk", Relation.UNRELATED),  # not surrey, bc
    ],
)
def test_big_cities_named_like_words_and_english_counties(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, CLOSE) is expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a district or suburb of the city (bench/districts_table.py), or told as still there
        ("Lena lives in Berlin.", "Lena moved to a flat in Neukölln."),
        ("Stig lives in Gothenburg.", "Stig has just moved into a bigger flat in Majorna."),
        ("Ola said she lives with her partner in Warsaw.", "Ola and her partner moved to Mokotów."),
        ("ines lives in oslo", "ines moved to some flat on the east side, still oslo tho"),
        # a name many cities have a part of is no other town
        ("Ilona lives in Glasgow.", "Ilona just got a flat in the West End."),
    ],
)  # fmt: skip
def test_a_move_within_the_city_does_not_supersede_its_home(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a town of its own near the city; another district of the city
        ("Lena lives in Berlin.", "Lena moved to Potsdam last year."),
        ("Lena lives in Kreuzberg.", "Lena moved to a flat in Neukölln."),
    ],
)  # fmt: skip
def test_a_move_out_of_the_city_or_its_district_supersedes_the_home(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is Relation.CONTRADICTS
