"""A level in a language (memory.lifecycle.language_patterns), a visa changed, children
counted in a burst and a baby's age in months, through the public ``relation``; and what looks
like a change of them but is not."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots

CONTRADICTS = Relation.CONTRADICTS


def _slots(text: str) -> dict[str, str]:
    return {slot.key: slot.value for slot in find_slots(read(text).body)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Greta got an A2 in Italian.", "Greta passed B1 in Italian this spring."),
        ("omar's korean is at a1", "omar is b1 in korean now"),
        ("Ines is a beginner in Dutch.", "Ines is an advanced Dutch learner these days."),
        # an exam tells its language: the DELE is Spanish, the Goethe-Institut's German
        ("Leo is at B2 level in Spanish.", "Leo passed the DELE C1 last month."),
        ("kat has like a b1 in german", "kat got c1 on the goethe exam"),
        ("ren passed the jlpt n4", "ren passed n2 this july"),
    ],
)  # fmt: skip
def test_a_new_level_in_a_language_contradicts_the_old_one(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one level in each of two languages
        ("Greta got an A2 in Italian.", "Greta got a C1 in French."),
        # a level aimed at is none held
        ("ren passed the jlpt n4", "ren is studying for the n3 in december"),
        # a level said again
        ("omar's korean is at a1", "omar is still a1 in korean"),
    ],
)  # fmt: skip
def test_another_language_an_aim_or_the_level_again_do_not_contradict(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


def test_a_level_is_kept_per_language_and_exams_name_theirs() -> None:
    assert _slots("Leo passed the DELE C1 last month.") == {"language_level:spanish": "c1"}
    assert _slots("Ines is a total beginner in Dutch.") == {"language_level:dutch": "beginner"}
    assert "language_level:japanese" not in _slots("ren is studying for the jlpt n3")


def test_a_language_learner_is_no_learner_driver() -> None:
    """A learner of a language holds no provisional driving licence, so passing a driving test
    does not end it."""
    assert "licence" not in _slots("Ines is an advanced Dutch learner.")
    assert relation("Ines is an advanced Dutch learner.", "Ines passed her driving test.", 0.5) \
        is not CONTRADICTS  # fmt: skip
    assert _slots("jo is a learner driver")["licence"] == "provisional"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Bo is in Japan on a working holiday visa.", "Bo now holds a Japanese education visa."),
        ("liv - student visa", "liv - student visa expired, on a work visa now"),
    ],
)  # fmt: skip
def test_a_visa_for_another_one_contradicts(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("cass - 1 kid", "cass - 2 kids now, little one came on friday"),
        ("pip - baby 3 months", "pip - baby 6 months. rolling over"),
        ("ola - son 10 months", "ola - son 13 months. walking"),
    ],
)  # fmt: skip
def test_children_counted_and_a_baby_s_age_in_months_change(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


def test_an_age_in_months_is_no_age_in_years() -> None:
    """An age of 18 months is read whole, not as an age of 18."""
    assert _slots("Ola's son is 18 months.")["age:son"] == "18 months"
    assert relation("pip - baby 3 months", "pip - baby 3 months old, so smiley", 0.5) \
        is not CONTRADICTS  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("kat - sahm", "kat - stay at home mum"),
        ("lou's twins are um four", "lou has like uh four-year-old twins"),
    ],
)  # fmt: skip
def test_a_parent_s_shorthand_and_twins_ages_read_as_one_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is Relation.SAME
