"""Chat spellings (memory.lifecycle.chat): a fact typed the chat way and the same fact in full
are one fact; what only looks like a chat spelling stays as it is."""

from __future__ import annotations

import pytest

from memory.lifecycle.chat import spelled
from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation

CLOSE = 0.9


@pytest.mark.parametrize(
    ("token", "words"),
    [("b4", "before"), ("tryna", "trying to"), ("wfh", "work from home"), ("valo", "valorant"),
     ("yr", "year"), ("hrs", "hours"), ("doin", "doing"), ("playin", "playing"),
     ("livin", "living"), ("swe", "software engineer"), ("ldn", "london"),
     ("fulltime", "full time"), ("mins", "minutes")],
)  # fmt: skip
def test_a_chat_spelling_reads_as_what_it_stands_for(token: str, words: str) -> None:
    assert spelled(token) == words


@pytest.mark.parametrize(
    "token", ["begin", "cousin", "cabin", "raisin", "dustin", "lol", "cs", "nurse", "veggies"]
)
def test_words_that_only_look_like_chat_spellings_stay(token: str) -> None:
    assert spelled(token) == token


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Tomás works from home.", "tomás wfh"),
        ("Ines and her sister are best friends.", "ines n her sister r besties"),
        ("Oskar plays Valorant.", "oskar plays valo"),
        ("Rin plays Call of Duty.", "rin plays cod"),
        ("Lev plays League of Legends.", "lev plays league"),
        ("Dara is studying computer science.", "dara is studyin compsci"),
        ("Femi goes to the gym before work.", "femi hits the gym b4 work"),
        ("Ayo is a huge Arsenal fan.", "ayo is a massive arsenal stan"),
        ("Kaan speaks Turkish fluently.", "kaan fluent in turkish"),
        ("Mira is into climbing.", "mira is into climbing big time"),
        ("Noor doesn't smoke.", "noor is a non smoker"),
        ("Ruth is vegetarian.", "ruth. veggie"),
        ("Kofi is learning German.", "kofi is studying deutsch"),  # a language's own name
        ("Ana speaks French at home.", "ana speaks francais at home"),
        ("Soph is pregnant.", "soph is preggo"),
        ("Noor works as a healthcare assistant.", "noor works as a hca"),
        ("Sam watches a lot of TV.", "sam watches a lot of telly"),
        ("Kai sleeps 8 hours a night.", "kai gets 8hrs of sleep a night"),  # number and unit
        ("Vix deadlifts 200 kilos.", "vix deadlifts 200kg"),
    ],
)
def test_a_fact_typed_the_chat_way_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


def test_a_time_written_with_dots_reads_as_chat_writes_it() -> None:
    assert read("Kirra's bedtime is about 1 a.m.").body == "kirra 's bedtime is about 1 am"
    assert read("kim gets up at 9 p.m. daily").body.startswith("kim gets up at 9 pm")


def test_a_number_and_its_unit_written_as_one_are_still_compared_by_number() -> None:
    assert relation("vix deadlifts 200kg", "vix deadlifts 180kg", CLOSE) is not Relation.SAME
    assert relation("kai sleeps 8hrs", "kai sleeps 5 hours", CLOSE) is not Relation.SAME


def test_a_chat_spelling_with_a_possessive_and_a_job_no_typo() -> None:
    assert read("zee quit mcd's").body == "zee quit mcdonalds 's"
    assert read("darragh is a barback").body == "darragh is a barback"  # no "bareback"
    assert relation("zee works at mcdonalds lol", "zee quit mcd's, doing doordash now", CLOSE) is (
        Relation.CONTRADICTS
    )


def test_rocket_league_is_not_league_of_legends() -> None:
    assert relation("Lev plays League of Legends.", "lev plays rocket league", CLOSE) is not (
        Relation.SAME
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("olga play tennis on weekends", "olga dont play tennis no more, her elbow is bad"),
        ("Gwen luvs jazz.", "Gwen sais she cant stand jazz anymore."),
        ("mimi_k plays wordle daily, never misses", "mimi_k ditched wordle, bored of it tbh"),
        ("kaz runs 5k every morn no cap", "kaz packed in running, knees are cooked"),
        ("ria plays chess", "ria like literally never plays chess"),  # "like": no liking
    ],
)
def test_chat_negations_said_twice_and_slang_that_denies_nothing(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is Relation.CONTRADICTS  # "no cap" is "no lie"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("gareth works at the council", "gareth he works at the council"),
        ("priya lives on elm street", "priya um she lives on elm street"),
        ("ulises lives in monterrey", "ulises his home is in monterrey"),
        ("desmond is 64", "desmond he's sixty four"),
    ],
)
def test_what_speech_puts_after_the_subject_is_left_out(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


def test_a_handle_with_an_underscore_is_one_subject() -> None:
    assert relation("big_dave grafts at the car plant", "big_dave got laid off from the car plant",
                    0.5) is Relation.CONTRADICTS  # fmt: skip
    assert relation("mika_v rocks a 60% keeb", "mika_v rocks a 60% keeb lol", CLOSE) is (
        Relation.SAME
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "ewa works at the hospital as a midwife",
            "ewa she works at the hospital as a as a midwife",
        ),
        ("chioma her husband is called emeka", "chioma she's married to er emeka"),
        ("basil is a site reliability engineer", "basil works as an sre"),  # initials
        ("larissa lives in bh", "larissa lives in belo horizonte"),
        ("Tobias is a fullstack developer", "Tobias works as a full stack developer"),
        ("quinn works from home", "quinn is fully remote"),
        ("Ren has a fiancée.", "Ren is engaged."),
        ("Uchenna - no dairy", "Uchenna. dairy free"),
        ("hamid hates mornings", "hamid is not a morning person at all"),  # no morning shift
    ],
)
def test_words_said_twice_initials_and_wordings_of_one_value_merge(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


def test_an_engineer_of_another_kind_is_no_developer() -> None:
    assert relation("jo is a civil engineer", "jo is a developer now", 0.5) is (
        Relation.CONTRADICTS
    )


def test_a_plan_denied_or_a_department_is_no_wish() -> None:
    assert read("Evangeline plans to get a cat").wished
    assert not read("Evangeline has never owned a pet and doesn't plan to").wished
    assert not read("gareth works at the council in planning").wished


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("desmond is 63", "desmond is sixty two no sorry sixty three"),
        ("ana works at asda now", "ana works at tesco i mean asda now"),
        ("ana lives in new jersey", "ana lives in new york no sorry new jersey"),
        ("Kian is eighteen", "Kian is eightteen"),  # a number word mistyped is the number
    ],
)
def test_a_slip_of_the_tongue_is_left_out(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


def test_sorry_that_repairs_nothing_stays() -> None:
    assert relation("jo said sorry to ana", "jo said sorry to ana lol", CLOSE) is Relation.SAME
    assert read("jo said sorry to ana").body == "jo said sorry to ana"


def test_a_day_that_names_something_is_no_date_and_other_days_are_no_same_fact() -> None:
    assert read("kofi is in the wednesday drawing circle").dates == frozenset()
    assert read("jo got engaged monday").dates == frozenset({"monday"})
    assert relation("mina streams on fridays", "mina streams on fridays and sundays too",
                    CLOSE) is not Relation.SAME  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("anneliese is a widow", "anneliese lost her husband"),
        ("Seo-yeon teaches piano.", "Seo-yeon gives piano lessons."),
        ("jo is a linux user", "jo uses linux"),
        ("Vusi volunteers at the hospice.", "Vusi does unpaid work at the hospice."),
    ],
)
def test_more_wordings_of_one_fact(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


def test_a_partner_who_died_ends_a_marriage_and_a_power_user_uses_no_power() -> None:
    assert relation("nguyen is married", "nguyen wife passed away last year", 0.6) is (
        Relation.CONTRADICTS
    )
    assert relation("jo is a power user of excel", "jo uses power", CLOSE) is not Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("nico mains mercy", "nico plays mercy most of the time"),
        ("maya. Brazilian", "maya - from Brazil"),
        ("theo plays on a ps5", "theo plays on a playstation 5"),
        ("dex has a 60% keyboard", "dex has a 60 percent keyboard"),
    ],
)
def test_mains_consoles_shares_and_peoples_told_other_ways(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("Rio just turned 18 ayy!", "rio just turned 18"),
        ("dex hit gold nova ngl lmao", "dex hit gold nova"),
        ("sam plays lol", "sam plays league"),  # the game, not a laugh
        ("lol", "lol"),
    ],
)
def test_a_laugh_at_the_end_of_a_fact_is_no_part_of_it(text: str, body: str) -> None:
    assert read(text).body == body


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("tess is deffo single", "tess got a bf now lol"),  # a chat adverb after "is"
        ("tess is literally single", "tess is engaged to sam now"),
        ("tess. single", "tess - new gf, met her at the climbing wall"),  # a fragment
    ],
)
def test_a_relationship_told_with_chat_words_changes(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is Relation.CONTRADICTS


def test_someone_elses_new_partner_is_not_the_members() -> None:
    assert relation("tess is single", "tess's brother has a new gf", 0.5) is not (
        Relation.CONTRADICTS
    )


def test_instead_mistyped_still_leaves_the_day_before() -> None:
    assert relation("tess streams every sunday", "tess streams on wednesdays now insted of sundays",
                    0.5) is Relation.CONTRADICTS  # fmt: skip


def test_a_name_s_before_an_adverb_is_an_is() -> None:
    assert read("kobe's fully plant based fr").body.startswith("kobe is fully vegan")
    assert relation("kobe is vegan", "kobe's fully plant based fr", CLOSE) is Relation.SAME
    assert read("kobe's family lives in leeds").body.startswith("kobe 's family")  # possessive


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Mei has two cats", "Mei have 2 cats"),
        ("kenji goes to the gym every day", "kenji go to the gym every day"),
        ("olga plays tennis", "olga um she play tennis"),
    ],
)
def test_a_verb_said_as_of_oneself_is_said_of_the_member(old: str, new: str) -> None:
    assert relation(old, new, CLOSE) is Relation.SAME


def test_a_bare_verb_after_the_subject_is_read_as_said_of_them() -> None:
    assert read("marisol have a parrot").body == "marisol has a parrot"
    assert relation("olga plays tennis", "olga play tennis no more", 0.5) is Relation.CONTRADICTS
    assert relation("mei has two cats", "mei have 3 cats now", 0.5) is Relation.CONTRADICTS
    assert read("sione own place now").body.startswith("sione own place")  # no verb there


def test_a_verb_said_again_to_stress_it_is_said_once() -> None:
    assert read("lucia hates jazz like proper hates it").body == "lucia hates jazz"
    assert relation("mateo hates coriander like really hates it", "mateo loves coriander", 0.9) is (
        Relation.CONTRADICTS
    )
    assert read("ana hates jazz but really loves it").body.endswith("really loves it")
