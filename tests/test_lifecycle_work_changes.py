"""Changes at work read as the slots of memory.lifecycle.slots, through the public
``relation``: back from leave or from staying at home, qualified after an apprenticeship,
nights after days, the office after working from home, another employer for the same job
(a full name as the subject too)."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # back from leave
        ("Chiamaka is on maternity leave.", "Chiamaka returned to her job at the bank last week."),
        ("dani on mat leave til jan", "dani back at work since mon, mat leave over fr"),
        ("flo - mat leave till sept", "flo - back at work. cut mat leave short"),
        ("Ola is on sick leave.", "Ola went back to work on Monday."),
        # back from staying at home with the children
        ("Deepak is a stay-at-home dad.", "Deepak went back to full-time work as an accountant."),
        ("Paulo stated that he is a full-time stay-at-home father.",
         "Paulo mentioned that he has started a full-time job at a logistics company."),
        ("leanne - stay at home mum", "leanne - back to work. part time receptionist"),
        # qualified after an apprenticeship
        ("Thabo is a second-year apprentice plumber.",
         "Thabo finished his apprenticeship and is now a qualified plumber."),
        ("sean's a 2nd yr apprentice chippy",
         "sean just got his papers, fully qualified chippy now no cap"),
        ("lauren is like a third year sparky apprentice",
         "lauren um actually finished her time, she's a qualified sparky now"),
        ("joe - 2nd year apprentice. chippy",
         "joe - qualified!! passed the final assessment today"),
        # nights after days, the office after working from home
        ("shauna works days um like seven till half three",
         "shauna's on nights now, uh switched over last week"),
        ("jules wfh so the pup's never alone", "jules back in office 5 days a week now smh"),
        ("hoang - wfh. dog never alone", "hoang - office 4 days a week now.. need a dog walker"),
        ("tia fully remote rn", "tia's in the office 3 days now, new policy"),
        # another employer, the same job; and a full name as the subject
        ("Lucas works as a software engineer at Nubank.",
         "Lucas now works at Itau as a software engineer."),
        ("Lucas Oliveira works at Nubank.", "Lucas Oliveira now works at Itau."),
    ],
)  # fmt: skip
def test_a_change_at_work_contradicts_what_held_before(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # still on leave, still an apprentice
        ("Chiamaka is on maternity leave.", "Chiamaka is on maternity leave until June."),
        ("marnie's a 1st yr plumbing apprentice",
         "marnie's in her first year of a plumbing apprenticeship"),
        ("yaw - 1st year plumbing apprentice", "yaw - plumbing apprenticeship. year one"),
        # what qualifies is something else than a trade
        ("Sizwe is an apprentice electrician.", "Sizwe qualified for the regional darts final."),
        ("Sizwe is an apprentice electrician.", "Sizwe's brother is a qualified electrician."),
        # the same employer told with the job
        ("Lucas works at Nubank.", "Lucas works as a software engineer at Nubank."),
        # the first word of a sentence is no part of a name
        ("Rafael streams every Saturday evening on Twitch.",
         "On Saturday evenings, Rafael goes live on Twitch each week."),
    ],
)  # fmt: skip
def test_what_still_holds_at_work_does_not_contradict(old: str, new: str) -> None:
    assert relation(old, new, 0.8) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an employer that poached them; "@" read as "at"
        ("lin works @ amazon", "lin got poached by spotify last month"),
        # the office an employer asks for
        ("Ben works from home.", "Ben said his company now requires him to be in the office."),
        ("Ada works from home.", "Ada's employer has made her go back to the office."),
    ],
)  # fmt: skip
def test_a_new_employer_or_the_office_told_by_what_the_employer_did_contradicts(
    old: str, new: str
) -> None:
    assert relation(old, new, 0.4) is CONTRADICTS


def test_an_employer_named_by_another_company_is_not_another_employer() -> None:
    old, new = "lin works @ meta", "lin works at facebook's parent company"
    assert relation(old, new, 0.4) is not CONTRADICTS
