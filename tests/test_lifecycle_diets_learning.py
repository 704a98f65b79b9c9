"""Diets, retirement, learning and a few chat wordings told other ways (memory.lifecycle),
through the public ``relation``: a diet's other names ("veggie", "ketogenic") and religious
diets (halal, kosher), a diet said beside what it leaves out ("no carbs . keto"), being
retired as a pensioner or as no longer working, learning as teaching oneself or taking
lessons, a pet owner times two, a home said with "based" and "that's where", "like" after
"is" ("her fave is like helvellyn"), and a commute told after what changed it ("passed his
test and drives himself to work"); decades as years; remote work told other ways; health in
everyday words ("cats trigger his allergies", "can't have dairy", "can't sleep at night")."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("tomas is veggie", "tomas is vegetarian"),
        ("bea follows a ketogenic diet", "bea is on keto"),
        ("ivo on keto rn", "ivo doing the low carb keto thing"),
        ("ana - no meat. veggie", "ana. vegetarian"),
        ("omar eats halal only", "omar keeps to a halal diet"),
        ("lena is retired", "lena is a pensioner"),
        ("lena is retired", "lena doesn't work anymore"),
        ("kofi has 2 dogs", "kofi = dog dad x2"),
        ("noor is learning korean", "noor is teaching herself korean"),
        ("sam is learning piano", "sam is taking piano lessons"),
        ("hugo learning spanish", "hugo grinding spanish on duolingo"),
        ("jun lives in osaka", "jun's based in osaka like that's where he lives"),
        ("ines is like obsessed with shoegaze", "ines is obsessed with shoegaze"),
    ],
)
def test_a_diet_retirement_or_learning_told_another_way_merges(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("omar eats halal only", "omar eats bacon now"),
        ("dov eats kosher only", "dov eats prawns all the time now"),
        ("lena works as a nurse", "lena doesn't work anymore"),
        ("tomas is veggie", "tomas eats steak again"),
        ("kofi has 2 dogs", "kofi = dog dad x3"),
    ],
)
def test_what_a_diet_leaves_out_or_a_job_ended_contradicts(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("noor is learning korean", "noor is teaching korean"),
        ("jun lives in osaka", "jun lives in osaka with his girlfriend"),
        ("omar eats halal only", "omar eats halal chicken from the spot near work"),
        ("lena is retired", "lena doesn't work weekends anymore"),
        ("ines is like a sister to him", "ines is his sister"),
    ],
)
def test_what_says_more_or_else_is_not_merged(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "rui takes the bus to his warehouse job",
            "rui passed his test and drives himself to work",
        ),
        ("mo gets the train to work", "mo bought a car last month so he drives to work now"),
        ("ada is full on vegan", "ada went back on meat, had a burger"),
        ("kit her favourite walk is scafell", "kit says her fave is like helvellyn via the edge"),
    ],
)
def test_a_commute_diet_or_favourite_told_in_chat_changes(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("rui takes the bus to his warehouse job", "rui drives to the gym after work"),
    ],
)
def test_a_drive_elsewhere_changes_no_commute(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("ruth has been a midwife for 30 years", "ruth has been a midwife for three decades", SAME),
        ("ruth has been a midwife for 10 years", "ruth has been a midwife for a decade", SAME),
        ("ruth has been a midwife for 30 years", "ruth has been a midwife for two decades", None),
    ],
)
def test_an_amount_in_other_words_is_its_number(
    old: str, new: str, expected: Relation | None
) -> None:
    if expected is None:  # another amount: never the same fact
        assert relation(old, new, 0.5) is not SAME
    else:
        assert relation(old, new, 0.5) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("pat works from home", "pat is fully remote, never goes into the office", SAME),
        ("pat works from home", "pat his job is fully remote he never goes in", SAME),
        ("pat works from home", "pat does her job remotely from her flat", SAME),
        ("pat works from home", "pat goes into the office every day now", CONTRADICTS),
    ],
)
def test_remote_work_told_other_ways(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.5) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("eli is allergic to dogs", "eli mentioned that dogs trigger his allergies", SAME),
        ("eli is lactose intolerant", "eli can't have dairy, it doesn't agree with him", SAME),
        ("eli - insomnia", "eli. can't sleep at night", SAME),
        ("eli is allergic to dogs", "eli is allergic to cats", UNRELATED),
        ("eli - insomnia", "eli. can't sleep before an exam", None),
    ],
)
def test_health_told_in_everyday_words(old: str, new: str, expected: Relation | None) -> None:
    if expected is None:  # one night's trouble: no insomnia said again
        assert relation(old, new, 0.5) is not SAME
    else:
        assert relation(old, new, 0.5) is expected
