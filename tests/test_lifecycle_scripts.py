"""Facts in every script (memory/lifecycle/reading.py, merging.py): a fact said again in
Russian, Japanese, Greek, Arabic or Korean is read into words (CJK runs as the bigrams search
makes) and merged, in the judge and in the store; the learned merges, trained on English,
are never asked about another language, where they cannot see a negation."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.extraction.lore import Origin
from memory.lifecycle.judge import FactJudge
from memory.lifecycle.merging import may_merge
from memory.lifecycle.reading import keys, read
from memory.lifecycle.similarity import FactSimilarity
from memory.models import CandidateFact
from memory.storage.placing import Lifecycle
from memory.storage.store import Store
from tests.helpers import CHANNEL_A, GUILD_A, SARAH

SAID_AGAIN = [
    ("Анна живёт в Москве", "анна живет в Москве."),
    ("田中さんは東京に住んでいる", "田中さんは東京に住んでいる。"),
    ("Ο Νίκος ζει στην Αθήνα", "ο Νίκος ζει στην Αθήνα!"),
    ("أحمد يعيش في القاهرة", "أَحمد يعيش في القاهرة."),
    ("김민수는 서울에 산다", "김민수는 서울에 산다!!"),
    ("王伟喜欢喝茶", "王伟喜欢喝茶。"),
]
"""The same fact, again: another case, accents or vowel marks, other punctuation."""

DIFFERENT = [
    ("Анна живёт в Москве", "Анна живёт в Казани"),
    ("Анна любит кошек", "Анна не любит кошек"),
    ("Анна любит кошек", "Анна любит собак"),
    ("田中さんは東京に住んでいる", "田中さんは大阪に住んでいる"),
    ("田中さんは猫が好き", "田中さんは猫が好きではない"),
    ("김민수는 서울에 산다", "김민수는 부산에 산다"),
    ("أحمد يعيش في القاهرة", "أحمد يعيش في دبي"),
    ("Marie aime le café", "Marie n'aime pas le café"),
    ("Marie habite à Paris", "Marie habite à Lyon"),
]
"""Facts sharing most of their words that are not the same: another place, a negation."""


@pytest.fixture(scope="module")
def judge() -> FactJudge:
    return FactJudge(FactSimilarity())


def test_text_of_every_script_is_read_into_words() -> None:
    assert read("Анна живёт в Москве").body == "анна живет в москве"
    assert read("Анна живёт в Москве").subject == "анна"
    assert {"東京", "看護", "護師"} <= keys("田中さんは東京で看護師をしている").words
    assert "αθηνα" in read("Ο Νίκος ζει στην Αθήνα").body


@pytest.mark.parametrize(("old", "new"), SAID_AGAIN)
def test_a_fact_said_again_in_any_script_is_merged(judge: FactJudge, old: str, new: str
                                                   ) -> None:  # fmt: skip
    assert judge.pair(old, new) == "same"


@pytest.mark.parametrize(("old", "new"), DIFFERENT)
def test_different_facts_in_other_languages_are_not_merged(judge: FactJudge, old: str, new: str
                                                           ) -> None:  # fmt: skip
    assert judge.pair(old, new) != "same"
    assert not may_merge(old, new)


def test_the_learned_merges_never_take_a_fact_with_more_said_after_it() -> None:
    assert not may_merge("Melanie plays clarinet.", "Melanie plays clarinet in a band.")
    assert not may_merge("mo lives in leeds lol", "mo lives in leeds with his gf")
    assert may_merge("Melanie plays clarinet.", "Melanie is really into the clarinet.")


def test_the_learned_merges_are_asked_about_english_only() -> None:
    assert may_merge("Ravi sings in a choir.", "Ravi is a member of a choir.")
    assert may_merge("Hassan chef", "Hassan cooks at a restaurant")  # one of the two reads English
    assert not may_merge("Jürgen trinkt gern Kaffee", "Jürgen trinkt keinen Kaffee")
    assert not may_merge("Анна живёт в Москве", "Анна сейчас живёт в Москве")


async def test_the_store_merges_a_russian_fact_said_twice(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "memory.db") as store:
        store.lifecycle = Lifecycle(judge=FactJudge())
        said = [("Анна живёт в Москве.", "2024-03-01T10:00:00.000+00:00"),
                ("анна живёт в москве", "2024-04-01T10:00:00.000+00:00")]  # fmt: skip
        for source, (text, when) in enumerate(said, 1):
            fact = CandidateFact(SARAH.id, text, "profile", 0.9, text.lower(), str(source))
            await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A, when), fact)])
        (merged,) = await store.review_facts(GUILD_A, archived=True)
        assert (merged.times_seen, merged.last_seen_at) == (2, said[1][1])
