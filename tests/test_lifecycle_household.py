"""Whom a member lives with (the ``household`` slot of memory.lifecycle): told in more words,
it still ends what was said before; "on his own" outside a home is no household."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots


def _household(text: str) -> list[str]:
    return [slot.value for slot in find_slots(read(text).body) if slot.key == "household"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Tomasz shares a flat with two Italian flatmates.", "roommates"),
        ("Ignatius has his daughter and grandkids living with him now", "relatives"),
        ("oona is on her own again, the granddaughter got a flat in cardiff", "alone"),
        ("Sakura said she and her partner have separated and she now lives on her own.", "alone"),
        ("Ximena is back living at her parents house", "parents"),
        ("abe has his bf living with him", "partner"),
        ("noor i am living in leeds with my parents", "parents"),
        ("Ines lives with a host family in Kyoto.", "host family"),
        ("Ines moved out of the host family's house into her own flat in Kyoto.", "alone"),
    ],
)
def test_whom_a_member_lives_with_is_read_in_more_words(text: str, value: str) -> None:
    assert _household(text) == [value]


@pytest.mark.parametrize(
    "text",
    ["abe is on his own in this", "abe is on his own team", "abe is saving up for his own place"],
)
def test_on_his_own_outside_a_home_is_no_household(text: str) -> None:
    assert _household(text) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ignatius lives alone", "Ignatius has his daugther and grandkids livign with him now"),
        ("oona has her granddaughter living with her", "oona is on her own again, the "
         "granddaughter got a flat in cardiff"),
        ("Tomasz shares a flat with two Italian flatmates.", "Tomasz now lives alone in a studio."),
        ("Ines lives with a host family in Kyoto.",
         "Ines moved out of the host family's house into her own flat in Kyoto."),
    ],
)  # fmt: skip
def test_a_household_told_in_more_words_ends_the_one_before(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is Relation.CONTRADICTS
