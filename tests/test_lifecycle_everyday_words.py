"""Personal bests at a track or a course, and everyday wordings told other ways
(memory.lifecycle), through the public ``relation``: a lap time with its tenths ("1:58.3"),
a best named by its track ("her Spa best", "best lap at Brands Indy") and lowered or beaten
there ("lowered her Spa best to 2:14.9", "hockenheim 1:56.9. new pb"), and a word with an
"s" that English does not write so ("minuts"); a number word or another word written as one
or apart ("twentynine", "colour blind"); remote work and saving told other ways ("never goes
into the office", "puts money aside"); roles, drinks, time zones and commutes in other words
("one of the mods in this server", "never touches alcohol", "indochina time", "busses it to
work"); a move to another team keeps the job."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.spelling import repaired

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Ines's Spa best is 2:18.4.", "Ines's Spa best is 2:16.0.", CONTRADICTS),
        ("kai - silverstone pb 2:01.7", "kai - silverstone 1:59.8. new pb", CONTRADICTS),
        ("Rhys's best lap at Knockhill is 53.1 secs", "Rhys lowered his Knockhill best to 52.4 "
         "seconds", CONTRADICTS),
        ("Rhys's best lap at Knockhill is 53.1 secs", "Rhys's Knockhill pb is 53.1 seconds", SAME),
        ("Dana's fastest lap at Monza is a 1:52.", "Dana knocked her Monza best down to a 1:50.2",
         CONTRADICTS),
        ("Ines's Spa best is 2:18.4.", "Ines's Zandvoort best is 1:49.0.", UNRELATED),
        ("Ines's Spa best is 2:18.4.", "Ines's Spa pb is 2:18.4", SAME),
        ("tess's 10k best is 52 minuts", "tess ran 49:30 at the leeds 10k, new pb", CONTRADICTS),
    ],
)  # fmt: skip
def test_a_best_at_a_track_or_a_course(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.6) is expected


@pytest.mark.parametrize(("typo", "word"), [("minuts", "minutes"), ("kilometres", "kilometres")])
def test_a_word_with_an_s_is_read_as_written_right(typo: str, word: str) -> None:
    assert repaired(typo) == word


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Tobi is 29.", "Tobi is twentynine."),  # a number word written as one
        ("Amani is colourblind.", "Amani is colour blind."),  # a word written apart
        ("ravi is a weekend warrior", "ravi is a week-end warrior"),
        ("mira wfh full time", "mira fully remote ngl, never goes in"),
        ("mira wfh full time", "mira never goes into the office, fully remote"),
        ("sol - remote job", "sol - never in office"),
        ("Ada prefers working from home.", "Ada prefers working from her home office."),
        ("lu is saving up for a car", "lu is putting money aside to buy a car"),
        ("Ben is saving to buy a house.", "Ben puts money aside for a house."),
    ],
)
def test_the_same_fact_told_in_other_words(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("mira wfh full time", "mira never goes in the sea, too cold"),  # no office
        ("lu is saving up for a car", "lu is putting money aside to buy a flat"),
        ("lu is learning to drive", "lu is picking up her kids from school atm"),  # no learning
    ],
)
def test_other_things_stay_apart(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is not SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("arjun is a moderator", "arjun um he's moderator on here"),  # "he 's": "is"
        ("arjun is a mod here", "arjun is like one of the mods in this server"),
        ("kiki is a mod", "kiki got mod perms on the server ngl"),
        ("oli - mod here", "oli - server mod"),
        ("Eda is learning Go.", "Eda is in the process of picking up Go."),
        ("eda learning kotlin", "eda picking up kotlin atm"),
        ("Eda is a bootcamp grad.", "Eda graduated from a bootcamp."),
        ("eda has two dogs", "eda has got like a pair of dogs"),
        ("farhan doesnt drink", "farhan like never touches alcohol hes teetotal"),
        ("linh is vegan", "linh doesn't eat like any animal products at all"),
        ("Huy is on UTC+7.", "Huy is on Indochina Time."),
        ("Birgit is in the CET timezone.", "Birgit uses Central European Time."),
        ("emre is on istanbul time", "emre his timezone is turkey time utc plus three"),
        ("vic - trains in to work", "vic. commutes by train"),
        ("tess commutes by bus", "tess busses it to work"),
    ],
)
def test_roles_drinks_zones_and_commutes_told_other_ways(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is SAME


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("nur is a dev", "nur switched teams at work fr backend now", UNRELATED),
        ("nasser - works as dev", "nasser - dev. switched to mobile team", UNRELATED),
        ("nur is a dev", "nur quit and is a nurse now", CONTRADICTS),
        ("fern is in the uk timezone", "fern goes by uk time", SAME),  # "goes by": a name too
        ("agnieszka she's retired used to be a teacher",
         "agnieszka she doesn't work anymore she's a retired teacher", UNRELATED),
        ("kim trains at the gym before work", "kim takes the train to work", UNRELATED),
        ("bo he's got two cats", "bo has 2 cats", SAME),
    ],
)  # fmt: skip
def test_a_new_team_keeps_the_job_and_a_slot_agreed_is_no_replacement(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, 0.6) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("gabi is moving to porto in june", "gabi um in june she relocates to porto", SAME),
        ("fabi - 5k pb 25:10", "fabi.. new 5k pb. 23:40", CONTRADICTS),
        ("zed - ktm fan in motogp", "zed. ktm. motogp. die hard", SAME),
        ("Lena enjoys winter.", "Lena hates winter after a year in Oslo.", CONTRADICTS),
        ("vy fave city is seoul", "vy fave city is taipei ngl seoul got mid", CONTRADICTS),
        ("Bea's favourite city is Rome.", "Bea said that after her recent trip, Kyoto has become "
         "her favourite city.", CONTRADICTS),
        ("Cal doesnt speak any Spanish at all", "Cal is pretty much conversational in Spanish "
         "after a year in Madrid", CONTRADICTS),
        ("ana speaks french", "ana is fluent in french", SAME),
        # how long, in second-language English, is no reason told: still the same fact
        ("Aya has lived in Dubai for ten years.", "Aya is living in Dubai since ten years.", SAME),
        ("Chi is trying to become fluent in Thai.", "Chi speaks Thai.", UNRELATED),
    ],
)  # fmt: skip
def test_reasons_told_with_a_change_and_languages_spoken(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, 0.6) is expected
