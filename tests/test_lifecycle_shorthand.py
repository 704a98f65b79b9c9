"""Shorthand read against the other fact (memory.lifecycle.shorthand): initials and clipped
words are the words the other fact spells out, for the rules, the learned merges and the
judge's choice of pairs."""

from __future__ import annotations

import pytest

from memory.lifecycle.judge import ALL_PAIRS_UP_TO, worth_judging
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.shorthand import unfold

NEAR = 0.7


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("kofi works as a product manager", "kofi is a pm now"),
        ("bo plays bg3 every night", "bo plays baldurs gate 3 every night"),
        ("ola is obsessed with f1", "ola is obsessed with formula 1"),
        ("kai has adhd", "kai has attention deficit hyperactivity disorder"),
        ("nat uses vs code", "nat uses visual studio code"),
        ("rui lives in sp", "rui lives in são paulo"),
        ("mika lives in melb", "mika lives in melbourne"),
        ("dev is hardstuck plat", "dev is hardstuck platinum"),
    ],
)
def test_shorthand_and_its_long_form_are_one_fact(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.SAME
    assert relation(new, old, NEAR) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ren plays honkai star rail daily", "ren uninstalled hsr"),
        ("jo studies comp sci", "jo dropped cs for law"),
    ],
)
def test_a_change_told_in_shorthand_supersedes(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("sam goes to the gym", "sam goes yoga monday"),  # a word English uses is a word
        ("lu works till 9 pm", "lu is a product manager"),  # a time, not initials
        ("tom is from hawaii", "tom is hawaiian"),  # a word with an ending is no long form
        ("ari is a server admin", "ari administers the server"),  # nor a verb's other form
        ("jun is a prem nerd", "jun loves the premier league"),  # a chat word read already
        ("lee plays cs2 daily", "lee streams cs2 and counter strike 1.6"),  # both hold it
    ],
)
def test_what_is_not_shorthand_stays_as_written(old: str, new: str) -> None:
    assert unfold(old, new)[0] == old


def test_initials_spell_the_words_of_the_other_fact() -> None:
    assert unfold("Henrik is a PM.", "Henrik works as a product manager.") == (
        "Henrik is a product manager.",
        "Henrik works as a product manager.",
    )
    assert unfold("tane works for air new zealand", "tane's employer is air nz")[1] == (
        "tane's employer is air new zealand"
    )


def test_the_judge_picks_shorthand_beside_its_long_form_among_many_facts() -> None:
    olds = [f"kofi has a hobby number {n}" for n in range(ALL_PAIRS_UP_TO + 8)]
    olds.append("kofi works as a product manager")
    assert len(olds) - 1 in worth_judging("kofi is a pm now", olds)
    assert len(olds) - 1 in worth_judging(
        "kofi is in hr", [*olds[:-1], "kofi is in human resources"]
    )
