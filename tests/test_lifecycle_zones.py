"""Time zones told by a place or by their full name (memory.lifecycle.zones): "amsterdam time",
"the same clock as new york", "greenwich mean time"; and a zone against a home in a place of
another zone ("is on gmt" / "moved to lagos")."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots
from memory.lifecycle.zones import place_offset

CLOSE = 0.9


def slots(text: str) -> dict[str, str]:
    return {slot.key: slot.value for slot in find_slots(read(text).body)}


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("milou is on amsterdam time", "utc+1"),  # a town in a country of one zone
        ("dmitri lives on london time", "utc+0"),
        ("nadira. new york time", "utc-5"),  # a city of a country of several zones
        ("Pierre is now in Montreal time.", "utc-5"),
        ("gabriela is on lisbon time since she moved to portugal", "utc+0"),
        ("Ulrike explained that she lives on the same clock as New York.", "utc-5"),
        ("Pierre lives in the time of Paris.", "utc+1"),
        ("Cormac operates on Greenwich Mean Time.", "utc+0"),
        ("Olumide is on West Africa Time now.", "utc+1"),
        ("gremlin on aussie east coast time", "utc+10"),
        ("rook is on indian standard time", "utc+5:30"),
        ("erik is utc-5 now because he moved to toronto", "utc-5"),  # "is" before the zone
        ("raj is EST gang", "utc-5"),
        ("Emeka is on UK tiem", "utc+0"),  # "tiem": chat's "time"
    ],
)
def test_a_zone_told_by_place_or_name_is_read(text: str, zone: str) -> None:
    assert slots(text).get("timezone") == zone


@pytest.mark.parametrize(
    "text",
    [
        "kai had a nice time in split",  # Nice, Split: towns, and words
        "ivy's kids love bath time",
        "sol plays guitar in his free time",
        "ana has lived in the same house as her sister for years",
        "cam spent the time in paris sightseeing",
    ],
)
def test_a_place_that_is_also_a_word_names_no_zone(text: str) -> None:
    assert "timezone" not in slots(text)


def test_a_zone_is_no_home() -> None:
    assert "home" not in slots("lux in EU timezone")
    assert "home" not in slots("Pierre lives in the time of Paris.")


@pytest.mark.parametrize(
    ("name", "hours"),
    [
        ("amsterdam", 1),  # a town, by the country it lies in
        ("nyc", -5),  # by another name
        ("toronto", -5),
        ("mumbai", 5.5),
        ("canada", None),  # a country of several zones
        ("athens", None),  # a town of Greece and of the United States
        ("tbilisi", None),  # in Georgia, the country (no US state)
        ("atlantis", None),
    ],
)
def test_a_place_has_the_offset_of_its_one_zone(name: str, hours: float | None) -> None:
    assert place_offset(name) == hours


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Olumide is on GMT.", "Olumide lives in Lagos now."),
        ("milou is on amsterdam time", "milou moved to toronto"),
        ("Ravi lives in the Central European timezone.", "Ravi relocated to Singapore."),
        ("bea lives in chicago", "bea is on utc+1 now"),  # the home first, then the zone
        ("Aleksi is on US Eastern time.", "Aleksi moved to Finland."),
    ],
)
def test_a_home_in_another_zone_supersedes_the_zone(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Olumide is on GMT.", "Olumide lives in London."),  # the same zone
        ("jo is on est", "jo moved to boston"),
        ("kim is on cet", "kim moved to canada"),  # a country of several zones: not known
        ("kim is on cet", "kim moved to athens"),  # a town of two zones
    ],
)
def test_a_home_in_the_same_or_an_unknown_zone_does_not_supersede(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is not Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("milou is on amsterdam time", "milou is on cet"),
        ("nadira - on est", "nadira. new york time"),
        ("Ulrike's time zone is Eastern Time.", "Ulrike lives on the same clock as New York."),
        ("Cormac's timezone is GMT.", "Cormac operates on Greenwich Mean Time."),
    ],
)
def test_one_zone_told_two_ways_is_one_fact(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("tobi - lagos time", "utc+1"),  # a place right after the subject
        ("ingrid is on like central european time", "utc+1"),  # a hedge before the zone
        ("lakshmi is on india time like ist", "utc+5:30"),  # and after it
        ("ingrid is in toronto for good so eastern time for her", "utc-5"),
    ],
)
def test_a_zone_told_with_chat_s_hedges_is_read(text: str, zone: str) -> None:
    assert slots(text).get("timezone") == zone


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Lucía is in the Europe/Madrid timezone.", "Lucía is on Pacific time now.", "contradicts"),
        ("lucia's timezone is America/New_York", "lucia is on est", "same"),
        ("lucia - Asia/Tokyo", "lucia - jst", "same"),
        ("lucia uses Europe/Atlantis", "lucia is on cet", "unrelated"),  # no city the tables know
    ],
)
def test_a_zone_named_as_the_tz_database_names_it_is_its_offset(
    old: str, new: str, expected: str
) -> None:
    assert relation(old, new, 0.6).value == expected
