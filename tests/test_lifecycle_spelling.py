"""One-typo repair: to the words attribute slots look for, else to a dictionary word."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.spelling import repaired
from memory.lifecycle.word_list import dictionary
from memory.lifecycle.word_match import words_match


@pytest.mark.parametrize(
    ("typo", "word"),
    [("maried", "married"), ("turnd", "turned"), ("nurce", "nurse"), ("singel", "single"),
     ("divorsed", "divorced"), ("studing", "studying"), ("pharmacst", "pharmacist")],
)  # fmt: skip
def test_a_slot_word_with_one_typo_is_repaired(typo: str, word: str) -> None:
    assert repaired(typo) == word


@pytest.mark.parametrize(
    "word", ["movies", "rating", "sister", "karen", "lives", "nurses", "ok", "pupper", "doggo"]
)
def test_real_words_names_short_words_and_our_synonyms_stay(word: str) -> None:
    assert repaired(word) == word


def test_a_typo_d_fact_still_fills_its_slot() -> None:
    assert (
        relation("gus is maried to ines", "gus and ines got divorcd", 0.5) is Relation.CONTRADICTS
    )
    assert relation("gus is 52", "gus turnd 53", 0.5) is Relation.CONTRADICTS


def test_names_among_the_slot_cues_are_never_what_a_typo_becomes() -> None:
    assert repaired("timezoen") == "timezone"
    assert repaired("easter") == "easter"  # not the time zone "eastern"
    assert repaired("golds") == "golds"


@pytest.mark.parametrize(
    "word", ["office", "along", "peace", "cancer", "danger", "former", "river", "printer", "mayor"]
)
def test_a_word_the_embedder_knows_whole_is_no_typo(word: str) -> None:
    assert repaired(word) == word  # not "officer", "alone", "place", "dancer", "farmer"...


def test_typos_of_change_verbs_are_repaired() -> None:
    assert [repaired(word) for word in ("swiched", "upgrded", "stoped")] == [
        "switched", "upgraded", "stopped"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("typo", "word"),
    [("freinds", "friends"), ("guitr", "guitar"), ("pizzza", "pizza"), ("libary", "library"),
     ("untill", "until"), ("vegtables", "vegetables"), ("recieve", "receive"),
     ("mispelled", "misspelled"), ("horor", "horror"), ("flims", "films")],
)  # fmt: skip
def test_any_other_word_with_one_typo_becomes_the_dictionary_word(typo: str, word: str) -> None:
    assert len(dictionary()) > 150_000 and "izmir" in dictionary()  # a rare word too
    assert repaired(typo) == word  # "horror", not the commoner "honor": a letter left out


@pytest.mark.parametrize(
    "word",
    ["esports", "matcha", "vaping", "vapes", "goated", "hangry", "manga", "crypto", "noobs",
     "izmir", "munchen", "tomasz", "valheim", "fiance"],
)  # fmt: skip
def test_names_places_and_newer_words_are_no_typos(word: str) -> None:
    assert repaired(word) == word  # not "escorts", "match", "vamping", "apes", "gloated"...


def test_facts_with_typos_of_one_word_are_the_same_fact() -> None:
    assert relation("Hamid hates brocoli", "hamid cant stand broccolli", 0.6) is Relation.SAME
    assert relation("Rosa plays the guitr", "rosa is playnig guitar", 0.6) is Relation.SAME
    assert relation("Sung-min eats vegtables", "Sung-min eats pizzza", 0.6) is not Relation.SAME


@pytest.mark.parametrize(
    ("typo", "word"),
    [("touchd", "touched"), ("playes", "plays"), ("ownes", "owns"), ("cakez", "cakes"),
     ("gaev", "gave"), ("jsut", "just"), ("livs", "lives"), ("basd", "based"), ("runz", "runs")],
)  # fmt: skip
def test_an_ending_english_does_not_put_on_a_word_and_short_words_are_repaired(
    typo: str, word: str
) -> None:
    assert repaired(typo) == word  # "playes" is no "places", "ownes" no "owens"


@pytest.mark.parametrize("word", ["sena", "imma", "tech", "alot", "rlly", "aime", "bday", "nvim"])
def test_short_names_chat_words_and_other_languages_stay(word: str) -> None:
    assert repaired(word) == word  # not "sean", "teach", "allot", "rally", "aimed"


def test_a_place_mistyped_is_the_same_place() -> None:
    assert relation("Selin lives in Izmir.", "Selin is living in Izmr now.", 0.5) is not (
        Relation.CONTRADICTS
    )
    assert relation("Wiremu lives in Wellingotn.", "Wiremu is based in Welington.", 0.5) is not (
        Relation.CONTRADICTS
    )
    assert relation("Ana lives in Paris.", "Ana lives in Parma now.", 0.5) is Relation.CONTRADICTS


def test_the_same_words_once_read_merge_however_far_apart_the_typos_put_the_vectors() -> None:
    assert relation("Bao plays the gutiar", "Bao is a guitarrist", 0.45) is Relation.SAME
    assert relation("Bao plays the guitar", "Bao plays the drums", 0.45) is not Relation.SAME


def test_british_spellings_are_words_and_their_typos_are_repaired() -> None:
    """The word list is American: "neighbour" is no typo of "neighbors", and "favourit" is
    one of "favourite" (read as "favorite", as "favourite" is)."""
    assert [repaired(word) for word in ("neighbour", "flavour", "harbour")] == [
        "neighbour", "flavour", "harbour"
    ]  # fmt: skip
    assert repaired("favourit") == "favourite"
    assert relation("Ines's favourit band is Blur", "Blur is Ines's favorite band", 0.6) is (
        Relation.SAME
    )


@pytest.mark.parametrize(
    ("typo", "word"), [("habbit", "habit"), ("callled", "called"), ("quitt", "quit")]
)
def test_a_letter_typed_twice_is_taken_out_before_a_slot_word_is_looked_for(
    typo: str, word: str
) -> None:
    assert repaired(typo) == word  # "habbit" is no "rabbit", one letter away


def test_a_habit_mistyped_with_a_letter_twice_ends() -> None:
    assert relation("Bayu workss at a phone repair shop", "Bayu got fired from the phone shop",
                    0.6) is Relation.CONTRADICTS  # fmt: skip


@pytest.mark.parametrize(
    ("typo", "word"), [("evry", "every"), ("erly", "early"), ("nigt", "night"), ("nevr", "never")]
)
def test_a_four_letter_typo_of_a_common_word_with_a_letter_left_out_is_repaired(
    typo: str, word: str
) -> None:
    assert repaired(typo) == word


@pytest.mark.parametrize("word", ["suki", "ozzy", "lotte", "tech", "lern"])
def test_names_and_clipped_words_are_no_common_word_with_a_letter_left_out(word: str) -> None:
    assert repaired(word) == word  # no verb either: "tech" is no "teach"


def test_a_night_owl_mistyped_is_still_one() -> None:
    assert relation("Dagny is an erly bird", "Dagny is an early riser", 0.7) is Relation.SAME
    assert relation("Esme is a nigt owl", "Esme stays up really late every night", 0.6) is (
        Relation.SAME
    )


@pytest.mark.parametrize(
    ("typo", "word"),
    [("exclusivly", "exclusively"), ("absolutly", "absolutely"), ("runing", "running"),
     ("chating", "chatting"), ("stoped", "stopped"), ("hiting", "hitting")],
)  # fmt: skip
def test_an_ending_written_as_english_does_not_is_a_typo(typo: str, word: str) -> None:
    assert repaired(typo) == word  # "chating" is no "cheating", "hiting" no "hiring"


@pytest.mark.parametrize("word", ["hoping", "lovely", "truly", "gently", "planing", "vaping"])
def test_endings_english_writes_stay(word: str) -> None:
    assert repaired(word) == word


def test_a_fact_with_an_ending_mistyped_reads_as_written_right() -> None:
    assert relation("Santiago mains Mercy", "Santiago plays mercy pretty much exclusivly",
                    0.6) is Relation.SAME  # fmt: skip
    assert relation("Olwen is on the committee of the WI", "Olwen steped down from the WI "
                    "committee in march", 0.6) is Relation.CONTRADICTS  # fmt: skip


def test_a_long_word_mistyped_twice_is_the_word() -> None:
    assert relation("Reza loves pinapple on pizza", "Reza hates pinaple on pizza", 0.6) is (
        Relation.CONTRADICTS
    )  # "pinapple" is repaired to "pineapple"; "pinaple", two letters left out, is not


@pytest.mark.parametrize(
    ("first", "second"), [("pineapple", "pinaple"), ("relationship", "relashionship")]
)
def test_two_typos_apart_in_a_long_word_match(first: str, second: str) -> None:
    assert words_match(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [("austria", "australia"), ("pinaple", "dinapple"), ("painting", "planting")],
)
def test_two_words_in_use_or_another_first_letter_are_two_words(first: str, second: str) -> None:
    assert not words_match(first, second)


@pytest.mark.parametrize("word", ["astra", "undertale", "roomie", "carbs", "carb"])
def test_things_our_tables_name_are_no_typos(word: str) -> None:
    assert repaired(word) == word  # not "astray", "undertake", "roomier", "crabs", "crab"


def test_carbs_eaten_again_end_a_diet_without_them() -> None:
    assert relation("bo is on keto", "bo eats carbs again", 0.5) is Relation.CONTRADICTS
