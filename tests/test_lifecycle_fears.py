"""Fears told in other words (memory.lifecycle.health_phrases), through the public
``relation``: what scares someone, a phobia by its name, what is feared by another name."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ravi is afraid of flying.", "Ravi said that air travel makes him really nervous."),
        ("noor is scared of heights", "noor has acrophobia"),
        ("Tess is terrified of spiders.", "Tess has a proper spider phobia."),
        ("Kai is afraid of needles.", "Kai mentioned that injections terrify him."),
        ("bo is scared of tight spaces", "bo is claustrophobic"),
        ("Mila is afraid of flying.", "Mila gets very anxious on planes."),
    ],
)  # fmt: skip
def test_a_fear_in_other_words_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the dog's fear, not the member's
        ("Ana is afraid of storms.", "Ana said that storms terrify her dog."),
        # another fear
        ("Ravi is afraid of flying.", "Ravi said that spiders make him really nervous."),
    ],
)  # fmt: skip
def test_a_fear_of_someone_else_or_of_another_thing_is_not_the_same(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is not Relation.SAME
