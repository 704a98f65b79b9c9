"""An amount told again with another value (memory.lifecycle.amounts), through the public
``relation``: a rent raised, a count grown, a score climbed contradict the amount before;
two amounts that may both hold, or the same amount, do not."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Tariq's rent is 1,200 dollars a month.",
         "Tariq's landlord raised his rent to 1,350 dollars."),
        ("ines has 4 chickens", "ines has 6 chickens now"),
        ("Bart has three nephews.", "Bart now has four nephews."),
        ("Priti's credit score is 680.", "Priti's credit score went up to 760."),
        ("wen lifts 60 kg on bench", "wen bench climbed to 75 kg"),
        ("Dana works 40 hours a week.", "Dana cut her hours and now works 30 hours a week."),
    ],
)  # fmt: skip
def test_an_amount_changed_contradicts_the_one_before(old: str, new: str) -> None:
    assert relation(old, new, 0.7) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # no word of a change: two amounts that may both hold
        ("Lena saved 2,000 euros for a car.", "Lena puts 300 euros a month towards the car.",
         UNRELATED),
        # the same amount said again
        ("ines has 4 chickens", "ines has 4 chickens now", SAME),
        # a year is a date, not an amount
        ("Kofi has played chess since 2009.", "Kofi now plays chess online since 2015.",
         UNRELATED),
        # amounts of different things
        ("Yui has 2 cats.", "Yui now has 3 goldfish.", UNRELATED),
    ],
)  # fmt: skip
def test_amounts_that_may_both_hold_or_agree_do_not_contradict(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, 0.7) is expected
