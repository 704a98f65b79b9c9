"""What someone does "for a living" names their job, and working for oneself is being
self-employed (memory.lifecycle.work_phrases), through the public ``relation`` and
``find_slots``; and what names no job stays as it was said."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots


def _job(fact: str) -> str | None:
    return next((s.value for s in find_slots(read(fact).body) if s.key == "job"), None)


@pytest.mark.parametrize(
    ("fact", "job"),
    [
        ("Priya repairs cars for a living.", "mechanic"),
        ("dev - fixes boilers for a livng", "plumber"),
        ("Ines explained that she pulls espressos at a cafe for a living.", "barista"),
        ("marek delivers packages for work", "courier"),
        ("Sol cuts hair for a living.", "hairdresser"),
        ("Obi drives a cab for a living.", "taxi driver"),
    ],
)  # fmt: skip
def test_what_is_done_for_a_living_names_the_job(fact: str, job: str) -> None:
    assert _job(fact) == job


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Priya is a mechanic.", "Priya repairs cars for a living."),
        ("ines - barista", "ines. makes coffees at a cafe for work"),
        ("Tomas works as a chef.", "Tomas cooks for a living."),
        ("Lena is a postie.", "Lena delivers the mail for a living."),
    ],
)  # fmt: skip
def test_a_job_told_by_what_is_done_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is Relation.SAME


def test_a_new_job_told_by_what_is_done_contradicts_the_old_one() -> None:
    assert relation("Ali works as a nurse.", "Ali now cuts hair for a living.", 0.4) is (
        Relation.CONTRADICTS
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # no job is known for it: read as said
        ("Kofi walks dogs for a living.", "Kofi walks to work every day."),
        # someone else's living is not the member's job
        ("Jo works as a nurse.", "Jo's husband cooks for a living."),
        # moving for work names no job
        ("Noor works as a nurse.", "Noor moved to Leeds for work."),
    ],
)  # fmt: skip
def test_what_names_no_job_of_the_member_is_no_job(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not Relation.CONTRADICTS
    assert _job(new) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Mo is self-employed.", "Mo works for himself, no boss."),
        ("jen's self employed", "jen works for herself rather than for an employer"),
        ("Ade is a self-employed plumber.", "Ade works for himself as a plumber."),
        ("Ola is a freelance editor.", "Ola is self-employed as an editor."),
    ],
)  # fmt: skip
def test_working_for_oneself_is_being_self_employed(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is Relation.SAME


def test_leaving_an_employer_to_work_for_oneself_contradicts() -> None:
    old, new = "Mo works at Deloitte.", "Mo left Deloitte and now works for himself."
    assert relation(old, new, 0.5) is Relation.CONTRADICTS
