"""Firsts, endings and ages told in chat (memory.lifecycle), through the public ``relation``:
never done, then done a first time; a thing its owner "ended"; an age said with "only"."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Sven has never played Warhammer.", "Sven played his first Warhammer game on Sunday.",
         CONTRADICTS),
        ("pia has never been to a rave", "pia went to her first rave last night", CONTRADICTS),
        ("Noor has never been to Japan.", "Noor visited Japan for the first time in May.",
         CONTRADICTS),
        # a verb the dictionary does not know, then its noun done a first time
        ("jun said he's never cosplayed", "jun did his first cosplay at a con last month",
         CONTRADICTS),
        ("Ama has never sold any of her pottery.", "Ama sold her first potted plant holder.",
         UNRELATED),
        # only the verb in common: another thing done a first time
        ("Lu has never played chess.", "Lu played her first game of go.", UNRELATED),
        # a first that is not one of the old fact's
        ("Eli has never owned a car.", "Eli got his first bike this spring.", UNRELATED),
    ],
)  # fmt: skip
def test_never_then_a_first_time(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.7) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Kat runs a Call of Cthulhu campaign.", "Kat ended her Call of Cthulhu campaign.",
         CONTRADICTS),
        ("rio hosts a weekly podcast", "rio ended the podcast after two years", CONTRADICTS),
        # "ended up" tells where one came to be, not an ending
        ("ali lives in york", "ali ended up in york after uni", UNRELATED),
        # "end" as a noun, or of a thing that ends on its own
        ("Bo keeps hens in the garden.", "Bo keeps hens at the end of the garden.", UNRELATED),
        ("Dhruv hates cliffhangers.", "Dhruv hates books that end on a cliffhanger.", UNRELATED),
    ],
)  # fmt: skip
def test_a_thing_its_owner_ended(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.7) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("tomi is only 16 tbh", "tomi turned 17 yesterday", CONTRADICTS),
        ("Ayo is only 9.", "Ayo is 9 years old.", SAME),
    ],
)  # fmt: skip
def test_an_age_said_with_only(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.7) is expected
