"""A level at work (memory.lifecycle.career_patterns) and a language by its other name, through
the public ``relation``; and what looks like a new level but is not."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots

CONTRADICTS = Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ana is a junior data analyst.", "Ana was promoted to senior analyst in March."),
        ("tom - jr dev at a startup", "tom got bumped to mid level in his review"),
        ("Lee is a senior designer.", "Lee was made lead designer after the reorg."),
        ("kai sr swe", "kai staff eng now"),
    ],
)  # fmt: skip
def test_a_new_level_at_work_contradicts_the_old_one(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same level said again; a level beside none
        ("tom - jr dev at a startup", "tom is a junior developer, still at the startup"),
        ("Ana is a junior data analyst.", "Ana is a data analyst at a bank."),
        # a student's year is no level at work
        ("Kim is a senior at Ohio State.", "Kim was promoted to lead barista."),
    ],
)  # fmt: skip
def test_the_same_level_or_none_does_not_contradict(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


def test_a_level_is_read_before_a_kind_of_work_or_after_a_promotion() -> None:
    def level(text: str) -> list[str]:
        return [slot.value for slot in find_slots(read(text).body) if slot.key == "level"]

    assert level("Ana is a junior data analyst.") == ["junior"]
    assert level("tom got bumped to mid lvl") == ["mid"]
    assert level("Kim is a senior at Ohio State.") == []
    assert level("Lee leads the design team.") == []


def test_farsi_is_persian() -> None:
    assert relation("Arash speaks Farsi.", "Arash speaks Persian.", 0.5) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "fe" and "frontend", never "fronted"; "backend", never "backed"
        ("rob - frontend dev", "rob - fe developer"),
        ("Dae works as a backend developer.", "Dae is a backend dev."),
    ],
)  # fmt: skip
def test_a_job_in_chat_words_is_the_same_job(old: str, new: str) -> None:
    assert relation(old, new, 0.8) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a field of work and who works in it; a doctoral student is doing a PhD
        ("Ines is a graphic designer.", "Ines's job is graphic design."),
        ("Ayo is doing a PhD in geology.", "Ayo is a doctoral student in geology."),
    ],
)  # fmt: skip
def test_a_job_or_a_degree_said_another_way_is_no_change(old: str, new: str) -> None:
    assert relation(old, new, 0.8) is not CONTRADICTS


def test_a_mature_student_is_no_subject_studied() -> None:
    def studies(text: str) -> list[str]:
        return [slot.value for slot in find_slots(read(text).body) if slot.key == "studies"]

    assert studies("Bea is a mature student.") == []
    assert studies("Bea is a doctoral student in chemistry.") == []
    assert studies("Bea is a chemistry student.") == ["chemistry"]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a year of study before what one studies: "a first-year undergraduate"
        ("Tess is a first-year undergraduate.", "Tess is in her second year of undergrad now.",
         CONTRADICTS),
        ("ola - 3rd yr medic", "ola is in year 4 of medicine now", CONTRADICTS),
        ("Tess is a first-year undergraduate.", "Tess is in her first year at uni.",
         Relation.UNRELATED),
    ],
)  # fmt: skip
def test_a_year_of_study_said_before_the_course(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.5) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # whom with, and where: two slots
        ("Ren is doing a placement year at Arup.", "Ren's placement year is at Atkins, not Arup.",
         CONTRADICTS),
        ("Ren is doing her placement in Leeds.", "Ren's placement was moved to Bristol.",
         CONTRADICTS),
        ("ren - placement at a school in hull", "ren - placement moved to a college", CONTRADICTS),
        # the same placement in more words; a placement told as over is no place
        ("Ren is doing her placement in Leeds.", "Ren's placement in Leeds is at a law firm.",
         Relation.UNRELATED),
        ("ren is doing a placement yr at arup", "ren's placement at arup ended, back at uni now",
         CONTRADICTS),
        ("Ren is doing a placement with the council.", "Ren is on placement at the town hall.",
         Relation.UNRELATED),
    ],
)  # fmt: skip
def test_where_a_placement_is(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.5) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # one team at work; teams one plays in are many
        ("ike is on the payments team", "ike got moved, he's on the search team now", CONTRADICTS),
        ("Ike is on the football team.", "Ike is on the chess team.", Relation.UNRELATED),
        ("ike is on the data team", "ike is a data analyst on the data team", Relation.UNRELATED),
        # one programming language worked in mainly
        ("Ike's main language is Java.", "Ike mostly writes Kotlin now.", CONTRADICTS),
        ("ike mainly codes in golang", "ike mostly writes go", Relation.UNRELATED),  # one
        ("Ike writes Python.", "Ike mostly writes Python at work.", Relation.UNRELATED),
    ],
)  # fmt: skip
def test_a_team_and_a_language_at_work(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.5) is expected
