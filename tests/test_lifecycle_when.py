"""When a fact holds (memory.lifecycle.when): how often, told as chat tells it, is no content
("3x a week", "4x/wk", "tue + thu", "weekends"); short days are days only where they are days;
and facts of days apart do not conflict. Also the wordings read alike in the same round: a
commute told without "to work", an allergy told by what cannot be had, a game one cannot stop
playing, a two-word thing one is a fan of."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import keys, read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots
from memory.lifecycle.when import spelled_days

NEAR = 0.7


@pytest.mark.parametrize(
    "text",
    [
        "nia climbs 3x a week",
        "nia climbs 3x weekly",
        "nia climbs 3x/wk",
        "nia climbs three days a week",
        "nia climbs 3 times per week",
        "nia climbs twice weekly",
        "nia climbs tue + thu",
        "nia climbs tuesdays n thursdays",
        "nia climbs every sat and sun",
        "nia climbs weekends",
        "nia climbs mon-fri",
    ],
)
def test_how_often_is_no_content(text: str) -> None:
    assert read(text).body == "nia climbs"
    assert read(text).dates == frozenset()
    assert keys(text).words == {"climb"}


def test_the_days_a_routine_names_are_read() -> None:
    assert read("nia climbs tue + thu").days == {"tue", "thu"}
    assert read("nia climbs weekends").days == {"sat", "sun"}
    assert read("nia climbs mon-fri").days == {"mon", "tue", "wed", "thu", "fri"}
    assert read("nia climbs on wednesdays now instead of sundays").days == {"wed"}


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("climbs every sat", "climbs every saturday"),
        ("climbs sat and sun", "climbs saturday and sunday"),
        ("streams on fri", "streams on friday"),
        ("office mon-wed", "office monday tuesday wednesday"),
        ("he sat on the sofa", "he sat on the sofa"),  # a verb
        ("loves the sun and sand", "loves the sun and sand"),  # a word
        ("they wed in june", "they wed in june"),
    ],
)
def test_short_days_are_days_only_where_they_are_days(text: str, spelled: str) -> None:
    assert spelled_days(text) == spelled


def test_an_event_day_stays_a_date() -> None:
    assert read("kofi moved on monday").dates == {"monday"}
    assert read("kofi owns every pokemon game").body == "kofi owns every pokemon game"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("juno goes to the gym 4x a week", "juno hits the gym four days a week"),
        ("wren streams tues + thurs", "wren goes live tuesdays n thursdays"),
        ("oli plays chess weds + fri", "oli plays chess on wednesdays and fridays"),
        ("bea. pilates every sat", "bea does pilates saturdays"),
        ("pax - swims weekends", "pax swims every sat and sun"),
        ("Ines commutes by train.", "Ines takes the train to work."),
        ("tam - commute: bikes", "tam cycles to work"),
        ("rafa. train to work every day", "rafa commutes by rail"),
        ("lena is allergic to shellfish", "lena cant have shellfish cos of an allergy"),
        ("omid is allergic to aspirin", "omid cant take aspirin, he is allergic"),
        ("suki is hooked on hollow knight", "suki cant stop playing hollow knight lol"),
        ("Bram is a huge Daft Punk fan.", "Bram absolutely loves Daft Punk."),
    ],
)
def test_the_same_told_another_way_merges(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("lexi wfh mon/fri", "lexi goes into the office tues-thurs"),  # days apart
        ("ines works at a bubble tea shop", "ines works weekends at the boba shop fr"),
        ("aki speaks jp natively", "aki is a native japanese speaker"),
    ],
)
def test_days_apart_and_chat_names_are_no_change(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is not Relation.CONTRADICTS


def test_a_routine_moved_to_other_days_is_a_change() -> None:
    assert relation("tae streams mon-fri", "tae only streams weekends now", NEAR) is (
        Relation.CONTRADICTS
    )


def test_a_commute_is_read_without_to_work() -> None:
    assert {slot.value for slot in find_slots(read("ari commutes by tram").body)} == {"train"}
    assert {slot.value for slot in find_slots(read("ari . commute: walks").body)} == {"foot"}


def test_a_fan_of_a_club_named_real_keeps_its_name() -> None:
    assert read("kai is a real madrid fan").body == "kai likes real madrid"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("pim. office mon+wed", "pim - fully remote now"),  # where they work, told as a fragment
        ("ada is in a situationship", "ada ended the situationship"),
        ("ada in a situationship w/ theo", "ada and theo are done, she's single now"),
    ],
)
def test_a_workplace_fragment_and_a_situationship_ended_are_changes(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("cleo plays minecraft loads", "cleo plays minecraft"),  # how much, no content
        ("cleo plays minecraft 24/7", "cleo plays minecraft all the time"),
        ("jun is a wine girlie", "jun loves wine"),  # who likes a thing, as chat names them
        ("jun is a huge coffee addict", "jun loves coffee"),
        ("jun is a tiling wm enjoyer", "jun likes tiling wm"),
        ("jun is a prem nerd", "jun loves the premier league"),
        ("jun loves her vino", "jun loves wine"),
        ("ezra basically lives in the gym", "ezra is always at the gym"),
        ("mo only plays kiriko", "mo mains kiriko"),  # a main told another way
        ("mo onetricks kiriko", "mo plays kiriko pretty much exclusively"),
    ],
)
def test_chat_wordings_of_keenness_and_mains_merge(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.SAME


def test_only_playing_somewhere_is_no_main() -> None:
    assert read("mo only plays on weekends").body == "mo only plays"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("noor: lives lisbon", "noor. based in lisbon"),  # a home told without "in"
        ("rei. overwatch main", "rei - mostly plays overwatch"),
    ],
)
def test_fragments_of_a_home_or_a_main_merge(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.SAME


def test_a_venue_named_two_ways_is_one_employer() -> None:
    old, new = "suri works at a ramen shop", "suri has a job at a ramen place"
    assert relation(old, new, NEAR) is not Relation.CONTRADICTS


def test_a_job_gone_away_from_is_left() -> None:
    old, new = "Lotte works at the bank ABN as analyst.", "Lotte go away from ABN, now at ING."
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("kit. loves horror movies", "kit - no more horror movies. too scary now"),  # a fragment
        ("wes on discord til 4am every night", "wes sleeping at like 10 now, new job"),
        ("mila lives in leeds", "mila is out in glasgow for good"),
    ],
)
def test_a_liking_denied_in_a_fragment_a_bedtime_and_a_home_told_in_chat(
    old: str, new: str
) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ines - has a budgie", "ines. budgie given to her nan"),
        ("ines has a hamster", "ines's hamster was given away"),
    ],
)
def test_a_pet_given_to_someone_is_gone(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


def test_being_given_a_thing_ends_nothing() -> None:
    assert relation("mo has a laptop", "mo was given a new laptop by work", NEAR) is not (
        Relation.CONTRADICTS
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("rosa. two dogs", "rosa - one dog now, the old one passed"),
        ("rosa - 3 cats", "rosa - just 1 cat left"),
    ],
)
def test_a_count_falling_to_one_is_a_change(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


def test_a_pet_told_is_no_count() -> None:
    assert relation("rosa has a dog", "rosa has 2 dogs", NEAR) is not Relation.CONTRADICTS


def test_on_a_day_of_the_week_is_a_habit_a_change_can_end() -> None:
    habit = read("di volunteers at the charity shop on a thursday")
    assert not habit.dates and habit.days == frozenset({"thu"})
    assert read("di went to the cinema on thursday").dates  # one evening: a dated event
    assert (
        relation(
            "di volunteers at the charity shop on a thursday", "di quit the charity shop", NEAR
        )
        is Relation.CONTRADICTS
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("rue sleeps at like 10pm", "rue up till 4am every night now"),  # a burst: no "is"
        ("rue's sleep is a mess, up till 6am", "rue fixed her sleep, in bed by 11 now"),
        ("rue sleeps at 3am most nights", "rue sorted her sleep out, lights out by 10:30"),
    ],
)
def test_a_bedtime_told_as_chat_tells_it_changes(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


def test_up_at_an_hour_is_waking_not_a_bedtime() -> None:
    assert relation("rue goes to bed at 10", "rue woke up at 7", NEAR) is not Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("rue sleeps like 9 hrs", "rue running on 4 hrs sleep these days", Relation.CONTRADICTS),
        ("rue runs on 3hrs of sleep", "rue fixed her sleep sched, 8hrs now", Relation.CONTRADICTS),
        ("rue - sleeps 6hrs", "rue. gets like six hours of sleep", Relation.SAME),
        ("rue works 12 hours a day", "rue sleeps 7 hours", Relation.UNRELATED),
        # a habit moved to another part of the day
        ("rue runs in the mornings", "rue only runs at night now", Relation.CONTRADICTS),
        ("rue - gym before work, 6am", "rue - evening gym now, 7pm", Relation.CONTRADICTS),
        ("rue trains in the evening", "rue now trains in the morning", Relation.CONTRADICTS),
        ("rue runs in the mornings", "rue runs in the evenings now too", Relation.UNRELATED),
        # the old part named too: left ("not", "no more", "can not") or told why
        ("rue - 6am gym", "rue. gym after work now, not mornings", Relation.CONTRADICTS),
        ("rue hits the gym at 6am", "rue trains after work now, no more 6am sesh",
         Relation.CONTRADICTS),
        ("rue runs in her lunch break", "rue can not run at lunchtime, runs evenings now",
         Relation.CONTRADICTS),
        ("rue runs every morning", "rue runs in the evening now, mornings are too cold",
         Relation.CONTRADICTS),  # "too" before a word is no "too" added
        ("rue goes to bed around 3 a.m.", "rue falls asleep at about three in the morning",
         Relation.SAME),  # an hour of the small hours, not the morning
    ],
)  # fmt: skip
def test_hours_of_sleep_and_the_part_of_the_day_are_one_at_a_time(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, NEAR) is expected


def test_the_parts_of_the_day_a_fact_names() -> None:
    assert read("rue - gym before work, 6am").parts == frozenset({"morning"})
    assert read("rue gym after work now, not mornings").parts == frozenset({"evening"})
    assert read("rue is up at 3 in the morning").parts == frozenset({"night"})
    assert read("rue trains after work now, no more 6am sesh").parts == frozenset({"evening"})
    assert read("rue runs in her lunch break").parts == frozenset({"afternoon"})


def test_a_bedtime_told_by_the_hour_alone_changes() -> None:
    assert relation("zed: night owl, games till 4am", "zed - sleeps 11pm now", NEAR) is (
        Relation.CONTRADICTS
    )
    assert relation("zed sleeps 8 hours", "zed sleeps 11pm", NEAR) is not Relation.CONTRADICTS
