"""A rented home bought, a pet's or a child's new age, a thing not had yet then got, a
denial someone found out, a pet gone, a child born, a partner found (memory.lifecycle.relation
and its slots), through the public ``relation``."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # renting, then owning: in the same town or elsewhere
        ("Anke's family lives in a rented flat in Hamburg.",
         "Anke's family bought a house in Hamburg."),
        ("Moana explained that she rents her house in Hamilton.",
         "Moana shared that she and her partner have bought the Hamilton house they were renting."),
        ("padraig is uh renting in limerick city",
         "padraig bought a house out in ennis, moved in last month"),
        ("ute - renting in cologne", "ute - bought a house. bonn"),
        ("Fatima rents a unit in Blacktown.",
         "Fatima and her husband bought a house in Marsden Park and moved out."),
        ("shanelle - renting in fremantle", "shanelle - bought in mandurah. moved in friday"),
        # a pet's or a child's age
        ("Rebecca's bearded dragon is four years old.",
         "Rebecca's bearded dragon is actually six years old."),
        ("ruairi - dog's 4", "ruairi. dog turned 5. party at the park yesterday"),
        ("Adaeze shared that her son is three years old.",
         "Adaeze mentioned that her son just celebrated his fourth birthday."),
        # not had yet, then got
        ("ben doesn't have his crane ticket yet", "ben got his crane ticket uh on tuesday"),
        ("bex - no forklift ticket yet", "bex - got the forklift ticket. finally"),
        ("ottilie - no insurance on the horse", "ottilie - insured the horse. nfu. last month"),
        # a denial someone found out
        ("Kirsten is allergic to dogs.", "Kirsten found out she is not allergic to dogs at all."),
        # a pet gone
        ("ife has a hamster named bean", "ife bean passed last night, rip lil guy"),
        ("Lucia mentioned that she has a budgie named Kiwi.",
         "Lucia shared that her budgie Kiwi flew out of an open window and never came back."),
        # a child born, a partner found
        ("Craig explained that he has no kids.", "Craig mentioned that he became a dad in August."),
        ("tayla's single rn", "tayla's lowkey seeing a scaffolder from work"),
        # chat between the subject and what is said ("ngl", "wait no")
        ("theo fave breed = shiba fr", "theo ngl fave breed is husky now, shibas too stubborn"),
        ("sakura yeah so my rabbit is like five",
         "sakura oh wait no my rabbit's actually seven, i checked her adoption papers"),
    ],
)  # fmt: skip
def test_a_home_bought_an_age_a_thing_got_contradict_what_held_before(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a home owned is still owned; a thing bought for the rented home is no home
        ("Anke's family bought a house in Hamburg.", "Anke's family owns a house in Hamburg."),
        ("ute - renting in cologne", "ute - bought a sofa for the flat"),
        ("Ana rents a flat in Leeds.", "Ana bought a flat for her mum in Leeds."),
        ("Ana is renting in Leeds.", "Ana bought a house in Leeds as an investment."),
        # the same age, of the same pet
        ("Dmitri's corn snake is six years old.", "Dmitri's corn snake is 6 years old now."),
        # still not had
        ("bex - no forklift ticket yet", "bex - still no forklift ticket, test is in may"),
        # a thing sought is not had
        ("Ana doesn't have a car yet.", "Ana is looking for a car."),
        ("Ana has no job.", "Ana is searching for a job."),
        # seen, not dated; a pet that passed a test
        ("tayla's single rn", "tayla is seeing a physio for her knee"),
        ("ife has a hamster named bean", "ife - bean passed his vet check"),
        # found out, and it agrees
        ("Kirsten is allergic to dogs.", "Kirsten found out she is allergic to dogs."),
    ],
)  # fmt: skip
def test_what_still_holds_does_not_contradict(old: str, new: str) -> None:
    assert relation(old, new, 0.8) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a home told as "<place> based"
        ("tunde - accra based", "tunde - in leeds now. moved in may"),
        ("Mia is Berlin-based.", "Mia moved to Vienna last year."),
        # an age about to be reached
        ("Ravi is 30 years old.", "Ravi is turning 35 next month."),
        ("Ivo is 30 years olf.", "Ivo is 31 now, his birthday was on Monday."),
        ("nat 22 btw", "nat 23 as of today lol bday"),
        ("tj is 14", "tj turned 15 yday lets gooo"),
        # a favourite told as the current one
        ("Ola's favourite band is Muse.", "Ola's current favourite band is Wet Leg."),
    ],
)  # fmt: skip
def test_a_place_based_an_age_turned_or_a_current_favourite_contradicts(old: str, new: str) -> None:
    assert relation(old, new, 0.4) is CONTRADICTS


def test_a_town_within_the_home_told_as_based_does_not_contradict() -> None:
    assert relation("kim - london based", "kim - lives in hackney", 0.5) is not CONTRADICTS
