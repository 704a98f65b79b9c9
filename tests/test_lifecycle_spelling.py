"""One-typo repair of the words attribute slots look for, and nothing else."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.spelling import repaired


@pytest.mark.parametrize(
    ("typo", "word"),
    [("maried", "married"), ("turnd", "turned"), ("nurce", "nurse"), ("singel", "single"),
     ("divorsed", "divorced"), ("studing", "studying"), ("pharmacst", "pharmacist")],
)  # fmt: skip
def test_a_slot_word_with_one_typo_is_repaired(typo: str, word: str) -> None:
    assert repaired(typo) == word


@pytest.mark.parametrize("word", ["movies", "rating", "sister", "karen", "lives", "nurses", "ok"])
def test_real_words_names_and_short_words_stay(word: str) -> None:
    assert repaired(word) == word


def test_a_typo_d_fact_still_fills_its_slot() -> None:
    assert (
        relation("gus is maried to ines", "gus and ines got divorcd", 0.5) is Relation.CONTRADICTS
    )
    assert relation("gus is 52", "gus turnd 53", 0.5) is Relation.CONTRADICTS


def test_names_among_the_slot_cues_are_never_what_a_typo_becomes() -> None:
    assert repaired("timezoen") == "timezone"
    assert repaired("easter") == "easter"  # not the time zone "eastern"
    assert repaired("golds") == "golds"


@pytest.mark.parametrize(
    "word", ["office", "along", "peace", "cancer", "danger", "former", "river", "printer", "mayor"]
)
def test_a_word_the_embedder_knows_whole_is_no_typo(word: str) -> None:
    assert repaired(word) == word  # not "officer", "alone", "place", "dancer", "farmer"...


def test_typos_of_change_verbs_are_repaired() -> None:
    assert [repaired(word) for word in ("swiched", "upgrded", "stoped")] == [
        "switched", "upgraded", "stopped"
    ]  # fmt: skip
