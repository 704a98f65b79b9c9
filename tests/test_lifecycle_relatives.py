"""Facts about a member's relative (memory.lifecycle.clauses), a liking lost, a favourite told
without its thing, and a letter that is no chat word, through the public ``relation``."""

from __future__ import annotations

import pytest

from memory.lifecycle.chat import respelled
from memory.lifecycle.relation import Relation, relation

CONTRADICTS = Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # what is said of the same relative is read as a fact of the subject is
        ("Ravi's daughter loves her gymnastics club.",
         "Ravi's daughter hates gymnastics now and wants to stop."),
        ("bo's son is really into minecraft",
         "bo's son is totally over minecraft, won't even open it"),
        ("Ama's son plays the violin.", "Ama's son gave up the violin and plays guitar instead."),
        ("pia's kids go to swim club on saturdays",
         "pia's kids don't go to swim club on saturdays anymore, too busy"),
        # every rule reads a relative's facts as it reads the member's: a diet, a liking lost
        ("Tam's daughter is a vegetarian.", "Tam's daughter has started eating fish again."),
        ("Jo's son loves cricket.", "Jo's son has lost all interest in cricket."),
        # "'s" that is "is": the member's own dislike, turned
        ("dom hates cycling", "dom's lowkey a cycling addict now, did a sportive"),
    ],
)  # fmt: skip
def test_a_relative_s_liking_or_habit_turned_contradicts(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


def test_one_relative_s_liking_is_not_another_s() -> None:
    old = "Ravi's daughter loves her gymnastics club."
    assert relation(old, "Ravi's son hates gymnastics now and wants to stop.", 0.5) \
        is not CONTRADICTS  # fmt: skip
    assert relation("Tam's daughter is a vegetarian.", "Tam's son eats fish.", 0.5) \
        is not CONTRADICTS  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("jen fave bike is the r1 tbh", "jen fave now is the panigale ngl"),
        ("lu - fave dish here: ramen", "lu - fave here is gyoza now. sorry ramen"),
    ],
)  # fmt: skip
def test_a_favourite_told_without_its_thing_is_the_same_favourite(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


def test_a_lone_r_ending_a_clause_is_a_letter() -> None:
    assert respelled("obi drives a golf r fr") == "obi drives a golf r fr"
    assert respelled("pablo - daily is a type r (civic)") == "pablo - daily is a type r (civic)"
    assert respelled("u r the best") == "you are the best"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ash goes to brookfield primary", "ash goes to millbrook primary now"),
        ("Suki's son goes to Elm Tree Nursery.", "Suki's son goes to Bright Stars Nursery now."),
    ],
)  # fmt: skip
def test_a_named_primary_or_nursery_is_one_school_at_a_time(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ivo said his favourite editor is Vim.", "Ivo mentioned he now prefers Emacs over Vim."),
        ("kai's fave map is dust2", "kai prefers mirage to dust2 now"),
    ],
)  # fmt: skip
def test_a_favourite_passed_over_for_another_contradicts(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


def test_a_favourite_still_preferred_over_another_does_not() -> None:
    old, new = "Ivo said his favourite editor is Vim.", "Ivo still prefers Vim over Emacs."
    assert relation(old, new, 0.5) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a trade is a job; "retrained and now works as" names the new one
        ("Sam is a plasterer.", "Sam is now a roofer."),
        ("Ola works as a chef.", "Ola retrained and now works as a paramedic."),
        # a love lost
        ("Bea's favourite band is Blur.", "Bea has fallen out of love with Blur lately."),
    ],
)  # fmt: skip
def test_a_trade_changed_or_a_love_lost_contradicts(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS
