"""One thing told in several words (memory.lifecycle.word_phrases), through the public
``relation``: parents and grandparents named one by one, not having moved out, a bass guitar,
a pair of pets, minding children, training at the gym, assembling computers, working at home;
and what those words do not make the same."""

from __future__ import annotations

import pytest

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
        ("Jo lives with her parents.", "Jo moved out of her parents' house in May."),
    ],
)  # fmt: skip
def test_what_the_words_do_not_make_the_same(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is not Relation.SAME
