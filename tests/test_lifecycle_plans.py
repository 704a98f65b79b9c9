"""Plans called off and dates moved, through the public ``relation``: a trip to an event given
up, a job hunt ended by an offer (memory.lifecycle.plans), a date moved or extended
(memory.lifecycle.turns.postponed); and what looks like them but is not."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

CONTRADICTS = Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a trip to an event given up
        ("Ola is going to Gamescom in August.", "Ola is not going to Gamescom anymore."),
        ("rhys goin to download fest this yr", "rhys cant make it to download fest, work thing"),
        ("Mina is planning to attend Japan Expo.", "Mina cancelled her Japan Expo trip."),
        ("pat - heading to worldcon", "pat - skipping worldcon. too pricey"),
        # a job hunt ended
        ("Ravi is looking for a new job.", "Ravi accepted an offer from a fintech in Leeds."),
        ("kat job hunting atm", "kat signed the offer!! starts in jan"),
        # a date moved or extended
        ("Noor's viva is on 3 June.", "Noor's viva was moved to 17 June."),
        ("Seb's thesis is due on 1 March.", "Seb got an extension, his thesis is due on 15 March."),
    ],
)  # fmt: skip
def test_a_plan_called_off_or_a_date_moved_contradicts_it(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # still going, another event given up, going with someone
        ("Ola is going to Gamescom in August.", "Ola is not going to EGX this year."),
        ("Ola is going to Gamescom in August.", "Ola is going to Gamescom with her brother."),
        # still looking; an offer had, the hunt not over
        ("Ravi is looking for a new job.", "Ravi is still looking for a new job, no luck yet."),
        # someone else moved, not the date; the same date again
        ("Noor's viva is on 3 June.", "Noor's supervisor moved to York in May."),
        ("Noor's viva is on 3 June.", "Noor's viva is still on 3 June."),
    ],
)  # fmt: skip
def test_what_leaves_the_plan_or_the_date_does_not_contradict_it(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a course studied for, then finished
        ("Ife is doing an MSc in statistics.", "Ife finished the MSc and works at a bank now.",
         CONTRADICTS),
        ("ife - doing msc in stats", "ife - msc done. job hunting", CONTRADICTS),
        ("Ife is a history undergraduate.", "Ife has graduated and teaches now.", CONTRADICTS),
        ("ife is at a coding bootcamp rn", "ife finished her bootcamp in may", CONTRADICTS),
        # a degree held, not studied for; a part of the course finished
        ("Ife holds a master's degree in law.", "Ife graduated from Leiden with a master's.",
         Relation.UNRELATED),
        ("Ife is doing an MSc in statistics.", "Ife finished the first module of her MSc.",
         Relation.UNRELATED),
    ],
)  # fmt: skip
def test_a_course_finished_ends_the_studying(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.5) is expected
