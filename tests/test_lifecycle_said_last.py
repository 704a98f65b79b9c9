"""A thing ended by a word said last in its clause ("diet over", "masters done", "engagement
off", "the old laptop is retired"), and a habit left told at a burst's clause start ("gav .
off keto"), through the public ``relation``; and what only looks like one: time off, a
haircut done, a job retired from, a cast coming off."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

CONTRADICTS = Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("bo. engaged", "bo - engagement off"),
        ("bo is doing a masters", "bo - masters done, phd now"),
        ("bo is on a paleo diet", "bo: pizza twice this week, diet over"),
        ("bo in lyon for his erasmus exchange", "bo back home, the exchange is over"),
        ("bo. sponsor: logitech", "bo - logitech deal over, steelseries now"),
        ("bo runs in pegasus 40s", "bo runs in novablasts now, pegasus 40s are retired"),
        ("bo games on a 2016 laptop", "bo built a pc, the old laptop is retired"),
        ("bo - keto", "bo. off keto, back on carbs"),
        ("bo - loves oysters", "bo, off oysters after a bad one"),
    ],
)
def test_a_thing_ended_by_a_word_said_last_ends_the_old_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("bo works days", "bo. day off"),  # time off, no job ended
        ("bo has her nails done on fridays", "bo got her nails done"),
        ("bo - broken wrist", "bo - broken wrist, cast off in 2 weeks"),  # the cast, not the wrist
        ("bo - loves oysters", "bo, off to the oyster bar"),
        ("bo plays in a band", "bo . got it done"),
    ],
)
def test_what_only_looks_like_a_thing_ended_ends_nothing(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


def test_a_job_retired_from_is_still_a_job_ended() -> None:
    assert relation("di - works at the library weekends", "di. left the library. fully retired",
                    0.5) is CONTRADICTS  # fmt: skip


def test_a_retired_or_former_worker_has_no_job() -> None:
    assert relation("ana is a teacher", "ana is a retired teacher", 0.5) is CONTRADICTS
    assert relation("ana is retired", "ana is a retired teacher", 0.5) is not CONTRADICTS
    assert relation("ana is unemployed", "ana is a former nurse", 0.5) is not CONTRADICTS
