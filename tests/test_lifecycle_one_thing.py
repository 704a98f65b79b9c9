"""One thing told in several words (memory.lifecycle.word_phrases), through the public
``relation``: parents and grandparents named one by one, not having moved out, a bass guitar,
a pair of pets, minding children, training at the gym, assembling computers, working at home,
a long-distance relationship, a passport, a zone's hours, "zero" as a denial, a job's
nickname, a diagnosis, being smoke free, an only child, skipping breakfast, an admin's
rank; and what those words do not make the same."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ola lives with her parents.", "Ola still lives at home with her mum and dad."),
        ("tim lives with his grandparents", "tim lives with his nan and grandad"),
        ("Jo lives with her parents.", "Jo hasn't moved out of her parents' house yet."),
        ("Sven plays bass guitar.", "Sven is a bassist."),
        ("Lea has two rabbits.", "Lea has a pair of rabbits."),
        ("Ama looks after her grandkids on Fridays.", "Ama minds her grandchildren every Friday."),
        ("Raj goes to the gym every evening.", "Raj works out at the gym each evening."),
        ("Kim builds her own PCs.", "Kim assembles her computers herself."),
        ("lu works from home on fridays", "lu is at home working on fridays"),
        ("tam - bf in leeds. ldr", "tam. long distance. boyfriend's in leeds"),
        ("Ola holds a Ghanaian passport.", "Ola is a Ghanaian citizen."),
        ("kofi doesnt drink", "kofi teetotal, zero alcohol"),
        ("zara - debt free", "zara has no debt"),
        ("joe's a sparky", "joe is an electrician by trade"),
        ("Ali works as an electrition.", "Ali is a sparky."),
        ("Bea has been diagnosed with asthma.", "Bea has asthma."),
        ("Bea was diagnosed with ADHD.", "Bea has an official ADHD diagnosis."),
        ("kai got no siblings", "kai is an only child"),
        ("max never eats breakfast", "max skips breakfast"),
        ("jo - admin on the server", "jo. has admin rank on the server"),
    ],
)  # fmt: skip
def test_one_thing_in_other_words_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Lea has two rabbits.", "Lea has a pair of guinea pigs."),  # other pets
        ("Ama looks after her grandkids.", "Ama doesn't mind her grandkids' noise."),
        ("Sam works at Home Depot.", "Sam works at home on fridays."),
        ("ines - pst hours", "ines works long hours"),  # no zone
        ("Jo lives with her parents.", "Jo moved out of her parents' house in May."),
    ],
)  # fmt: skip
def test_what_the_words_do_not_make_the_same(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is not Relation.SAME


def test_a_zones_hours_are_its_time() -> None:
    assert read("hyun keeps korean hours").body == read("hyun keeps korean time").body
    assert read("ines - pst hours").body == read("ines - pst time").body
    assert "long hours" in read("ines works long hours").body


def test_smoke_free_is_a_habit_stopped_and_a_past_habit_is_no_habit_now() -> None:
    assert relation("mo smokes", "mo - 2 months smoke free", 0.5) is Relation.CONTRADICTS
    old, new = "mo smoked for ten years", "mo is three years smoke free"
    assert relation(old, new, 0.5) is not Relation.CONTRADICTS
