"""A renter's and a counter's changes, through the public ``relation``: another floor, the
flatmates gone, back in the office, a date put off (memory.lifecycle.turns.postponed), an
amount told in thousands or by its currency sign, or of a thing of the subject's
(memory.lifecycle.amounts), another rent, an age told in chat; none of a thing, then one put
in, a term renewed, another mortgage rate, drinking again, a local club left by a move
(memory.lifecycle.turns); and what looks like them but is not."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another floor
        ("Ayo lives on the third floor.",
         "Ayo moved down to a ground-floor flat in the same block."),
        ("kim - top floor", "kim - 2nd floor flat now"),
        # the flatmates gone, back in the office
        ("lu got 3 flatmates rn", "lu living solo now, the flatmates all moved out"),
        ("max - wfh", "max back in office rn"),
        # a date put off or brought forward
        ("Ines's start date is 2 March.", "Ines's start date was pushed back to 16 March."),
        ("dev is moving out on the 28th", "dev's move got pushed to the 5th"),
        ("Ama's wedding is on 3 June.", "Ama's wedding got postponed to 12 August."),
        # an amount in thousands, by its sign, of a thing of theirs
        ("rio has 4k followers on insta", "rio hit 10k followers on insta"),
        ("nat charges $80 an hour", "nat charges $95 an hour now"),
        ("Kemi pays 1,200 dollars a month in rent.",
         "Kemi's rent went up to 1,350 dollars in May."),
        ("sam pays like 750 a month for his room", "sam's rent dropped to 700 after a chat"),
        ("Ugo's podcast has about 900 listeners.",
         "Ugo's podcast passed 2,000 listeners this month."),
        # none at home, then one put in; a term renewed or ended early; another mortgage
        ("Bea's flat has no washing machine.",
         "Bea's landlord finally installed a washing machine."),
        ("cal's place got no aircon", "cal got aircon fitted last week"),
        ("Ivo said his lease ends in May.",
         "Ivo mentioned that he renewed his lease for two years."),
        ("dee's contract up in march", "dee extended her contract till next summer"),
        ("Ute's visa runs out in June.", "Ute's employer ended her visa early."),
        ("Pim has a tracker mortgage.", "Pim remortgaged onto a five-year fixed rate."),
        # drinking again; a local club left by a move
        ("Mo doesn't drink at all.", "Mo has a beer with his mates most Fridays now."),
        ("aisha - teetotal", "aisha - couple of glasses of wine a week now"),
        ("Tor plays rugby for a club in Cardiff.", "Tor moved to Bristol and joined a club there."),
        # an age told in chat
        ("tia is 15", "tia just turned 16 like last week"),
        ("rob is 30", "rob 31 as of june"),
    ],
)  # fmt: skip
def test_a_change_at_home_or_in_a_count_contradicts_what_held_before(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one floor, one rent said two ways
        ("Eda's flat is on the fourth floor.", "Eda's apartment is on the 4th floor."),
        ("Oli's rent is 900 pounds a month.", "Oli pays 900 pounds monthly for his flat."),
        ("vee's rent is like 2k a month", "vee pays um two thousand monthly for her place"),
        ("moss - rent 1k/mo", "moss pays a grand a month in rent"),
        # a shift said with the words of work
        ("lee - works nights", "lee - night shift job"),
    ],
)  # fmt: skip
def test_one_floor_or_rent_said_two_ways_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.7) is SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a floor at work is no home's floor
        ("Jo works on the 3rd floor.", "Jo lives on the 5th floor."),
        # a race is no amount; an amount saved is no rent
        ("wen ran a 5k last month", "wen ran a 10k now"),
        ("Ken pays 800 a month in rent.", "Ken saved 800 last month."),
        # someone else's date; a date kept
        ("Ama's wedding is on 3 June.", "Ama's sister's wedding is on 12 August."),
        ("dev is moving out on the 28th",
         "dev is still moving out on the 28th, nothing pushed back"),
        # still none, a term as it was, a drink once, the same town
        ("Bea's flat has no washing machine.", "Bea's flat has no dishwasher either."),
        ("Ivo said his lease ends in May.", "Ivo's lease ends in May, he is looking for a flat."),
        ("Mo doesn't drink at all.", "Mo had a glass of wine at his sister's wedding in June."),
        ("Tor plays rugby for a club in Cardiff.", "Tor moved to a flat in Cardiff Bay."),
        # a year is no amount
        ("Lin has 2 cats.", "Lin has had cats since 2019 now."),
    ],
)  # fmt: skip
def test_what_leaves_the_old_fact_true_does_not_contradict_it(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS
