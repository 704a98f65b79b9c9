"""Pay, posts and a few more changes, through the public ``relation``: a yearly salary (one at
a time), a title one is promoted or appointed to, a deputy's post and the post itself, losing
a job said in other words, living alone said with "stays", "shifted to" a town, two
citizenships, a field of work and who works in it, a school's job titles, a thing of the
subject's moved to another date, a hybrid job, and a vegan diet told by what is not eaten."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ines earns 38,000 pounds a year.", "Ines's salary is now 44,000 pounds."),
        ("tomas on like 61k rn", "tomas's new job pays 70k"),
        ("bex making 29k", "bex got bumped to 33k after review"),
        ("ravi - 90k base", "ravi 104k now.. promo came through"),
        ("Mona's job title is Account Executive.", "Mona was promoted to Head of Partnerships."),
        ("Leo works as a support agent.", "Leo got promoted to shift lead at the helpdesk."),
        ("Ana is the deputy principal of a college.", "Ana became principal of the college."),
        ("Dev is an assistant manager at a gym.", "Dev was appointed manager of the gym."),
        ("Noor lives in Pune.", "Noor shifted to Chennai for work."),
        ("Kit's school breaks up on 18 July.", "Kit's school breaks up on 22 July this year."),
        ("Bo's role is hybrid with 3 office days.", "Bo's role has become fully remote."),
        ("lin - hybrid, 2 days office", "lin full remote now"),
    ],
)  # fmt: skip
def test_a_new_value_contradicts_the_old_one(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("jay - 52k base", "jay's salary before bonus: 52k"),
        ("Omar was laid off in March.", "Omar lost his job in March."),
        ("pia - laid off. monday", "pia got let go on monday"),
        ("Yaw lives alone.", "Yaw has no flatmates and stays by himself."),
        ("Lou is a substitute teacher.", "Lou works as a sub."),
        ("Cam is a teaching assistant.", "Cam works as a TA."),
        ("Rey is a seaman.", "Rey works as a seafarer."),
        ("Ivy is vegan.", "Ivy does not eat meat, dairy or eggs."),
        ("oz - vegan", "oz. no meat no dairy no eggs"),
    ],
)  # fmt: skip
def test_the_same_thing_in_other_words_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Omar was laid off from his sales job.", "Omar lost his sales position in the layoffs."),
        ("Hiro is a pharmacist.", "Hiro's profession is pharmacy."),  # a field and its worker
        ("Tia is growing her online shop.", "Since Tia lost her job at the depot, it's hard."),
        ("Kofi is a Ghanaian citizen.", "Kofi is a British citizen now."),
        ("Ama has German citizenship.", "Ama is a citizen of France."),
        ("Eli is a nurse.", "Eli got promoted to mod on the server."),
        ("Eli earns 20 an hour.", "Eli earns 25 an hour."),  # no yearly sum told
        ("Kit ran a 10k on 3 May.", "Kit ran a 10k on 9 June."),  # no thing of hers: two runs
        ("Ed drives a hybrid.", "Ed works fully remote."),  # a car, no job
    ],
)  # fmt: skip
def test_what_does_not_contradict(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is not Relation.CONTRADICTS


def test_two_citizenships_are_not_one_fact() -> None:
    assert relation("Kofi is a Ghanaian citizen.", "Kofi is a British citizen.", 0.6) is not (
        Relation.SAME
    )
