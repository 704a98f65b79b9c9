"""Learned merges (memory/lifecycle/merging.py): a rewording the word rules miss is merged by
the bundled model, in the judge and so in the store; a wish is never merged with what is,
nor a change with a state; and the bundled weights are what ``bench/train_merge.py`` makes
from the repo's sets."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from bench.train_merge import MAX_ADDED_WRONG, question
from memory.extraction.lore import Origin
from memory.lifecycle import merging
from memory.lifecycle.judge import FactJudge
from memory.lifecycle.merging import (
    HAND_FEATURES,
    WEIGHTS,
    MergeModel,
    features,
    learned_same,
    may_merge,
    meaning,
    residues,
)
from memory.lifecycle.relation import SAME_MIN_SIMILARITY
from memory.lifecycle.similarity import FactSimilarity
from memory.models import CandidateFact
from memory.search.embeddings import LocalEmbedder
from memory.storage.placing import Lifecycle
from memory.storage.store import Store
from tests.helpers import CHANNEL_A, GUILD_A, SARAH

REPO = Path(__file__).resolve().parent.parent
REWORDED = ("Ravi teaches maths at a primary school.", "Ravi is a primary-school maths teacher.")
"""A paraphrase sharing too few words for the rules."""


@pytest.fixture(scope="module")
def similarity() -> FactSimilarity:
    return FactSimilarity()


def test_a_rewording_the_rules_miss_is_merged_by_the_model(similarity: FactSimilarity) -> None:
    old, new = REWORDED
    assert FactJudge(similarity, learned=False).pair(old, new) == "unrelated"
    assert FactJudge(similarity).pair(old, new) == "same"
    assert FactJudge(similarity)(new, [old, "Ravi lives in Pune."]) == ["same", "unrelated"]


def test_different_facts_on_one_topic_are_not_merged(similarity: FactSimilarity) -> None:
    judge = FactJudge(similarity)
    assert judge.pair("Ines likes tennis.", "Ines likes chess.") == "unrelated"
    assert judge.pair("Ines plays tennis every weekend.", "Ines plays tennis at a club.") == (
        "unrelated"
    )


def test_a_wish_is_never_merged_with_what_is(similarity: FactSimilarity) -> None:
    wish, done = "Oskar wants to learn Spanish.", "Oskar is learning Spanish."
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    assert learned_same(done, "Oskar goes to a Spanish class.", similarity, floor=0.0, model=always)
    assert not learned_same(wish, done, similarity, floor=0.0, model=always)
    assert FactJudge(similarity).pair(wish, done) == "unrelated"


def test_a_change_is_never_merged_with_a_state(similarity: FactSimilarity) -> None:
    state, change = "rosa w/ tariq", "rosa n tariq over. single"
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    assert learned_same(state, "rosa is dating tariq", similarity, floor=0.0, model=always)
    assert not learned_same(state, change, similarity, floor=0.0, model=always)
    assert learned_same("rosa quit vaping", "rosa gave up vaping", similarity, floor=0.0,
                        model=always)  # two changes may be one  # fmt: skip


def test_two_denials_of_different_things_are_never_merged(similarity: FactSimilarity) -> None:
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    assert not learned_same("ren doesn't drink alcohol", "ren doesn't like cats", similarity,
                            floor=0.0, model=always)  # fmt: skip
    assert learned_same("ren doesn't drink alcohol", "ren never touches alcoholic drinks",
                        similarity, floor=0.0, model=always)  # a word in common  # fmt: skip


def test_facts_counting_one_thing_differently_are_never_merged_by_the_model() -> None:
    assert not merging.may_merge("shota sleeps like 9 hrs every nite",
                                 "shota running on 4 hrs sleep a night these days")  # fmt: skip
    assert not merging.may_merge("kim has 2 cats", "kim has 3 cats")
    assert merging.may_merge("kim sleeps 9 hours a night", "kim gets 9 hrs of sleep")


def test_facts_telling_another_time_of_day_are_never_merged_by_the_model() -> None:
    assert not merging.may_merge(
        "tom's shop opens at 9am", "tom's shop has started opening at 10am"
    )
    assert not merging.may_merge("ana is never in bed before 2", "ana is now in bed by 11pm")
    assert merging.may_merge(
        "tom opens his bakery at 6 each day", "tom's bakery opens at 6am daily"
    )


def test_a_fact_telling_since_when_is_never_merged_by_the_model() -> None:
    assert not merging.may_merge("ola is vegetarian", "ola has been vegetarian since uni")
    assert not merging.may_merge("ola mains ashe since season 2", "ola plays ashe")
    assert merging.may_merge("ola is vegetarian", "ola does not eat meat")
    assert not merging.may_merge("ola uses linux", "ola has used linux since school")


def test_one_more_told_with_also_is_never_merged_by_the_model() -> None:
    assert not merging.may_merge("pia listens to kpop", "pia also lowkey into jpop now")
    assert merging.may_merge("pia listens to kpop", "pia is lowkey into kpop")
    assert merging.may_merge("leo speaks tagalog", "leo. speaks tagalog. english too")


def test_a_liking_whose_object_is_not_read_is_never_merged_by_the_model(
    similarity: FactSimilarity,
) -> None:
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    # "a morning person" is read "likes morning", and a time of day is no key word
    assert not learned_same("jay doesnt like olives", "jay is not a morning person at all",
                            similarity, floor=0.0, model=always)  # fmt: skip
    assert learned_same("jay doesnt like olives", "jay thinks olives are gross", similarity,
                        floor=0.0, model=always)  # fmt: skip


def test_facts_of_different_dates_are_never_merged_by_the_model(
    similarity: FactSimilarity,
) -> None:
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    got, starts = "Mia got the job by 9 March 2025.", "Mia starts on 10 March 2025."
    assert not learned_same(got, starts, similarity, floor=0.0, model=always)
    assert not learned_same(starts, "Mia starts on 3 April 2025.", similarity, floor=0.0,
                            model=always)  # fmt: skip
    assert FactJudge(similarity).pair(got, starts) == "unrelated"


def test_the_similarity_floor_holds_for_learned_merges(similarity: FactSimilarity) -> None:
    old, new = REWORDED
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    assert learned_same("Ravi lives in Pune.", "Ravi hates olives.", similarity, floor=0.0,
                        model=always)  # fmt: skip
    assert not learned_same(old, new, similarity, floor=1.01, model=always)


def test_weights_that_cannot_be_read_leave_the_rules_judging_alone(
    similarity: FactSimilarity, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    """A broken install (the weights file missing or damaged): one warning, and facts are
    still judged, by the word rules."""
    old, new = REWORDED
    for broken in (tmp_path / "missing.json", tmp_path / "damaged.json"):
        if broken.name == "damaged.json":
            broken.write_text('{"mean": [1, 2', encoding="utf-8")
        monkeypatch.setattr(merging, "WEIGHTS", broken)
        merging.bundled_model.cache_clear()
        caplog.clear()
        try:
            judge = FactJudge(similarity)
            assert judge(new, [old, "Ravi lives in Pune."]) == ["unrelated", "unrelated"]
            assert judge.pair("Ravi lives in Pune.", "Ravi moved to Delhi.") == "contradicts"
            assert judge.pair(old, new) == "unrelated"
        finally:
            merging.bundled_model.cache_clear()
        warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert len(warnings) == 1 and "learned merges off" in warnings[0], warnings


async def test_the_store_merges_a_rewording_through_the_real_judge(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "memory.db") as store:
        store.lifecycle = Lifecycle(judge=FactJudge())
        for source, (text, when) in enumerate(
            zip(REWORDED, ("2023-05-01T10:00:00.000+00:00", "2023-06-01T10:00:00.000+00:00"),
                strict=True), 1,
        ):  # fmt: skip
            fact = CandidateFact(SARAH.id, text, "preference", 0.9, text.lower(), str(source))
            await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A, when), fact)])
        (merged,) = await store.review_facts(GUILD_A, archived=True)
        assert (merged.times_seen, merged.last_seen_at) == (2, "2023-06-01T10:00:00.000+00:00")
        kinds = [event.kind for event in await store.events(GUILD_A)]
        assert "fact.reinforced" in kinds


@pytest.mark.slow
def test_the_bundled_weights_are_what_the_training_script_makes() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "train_merge.py"), "--check", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["bundled_weights_match"] is True
    weights = json.loads(WEIGHTS.read_text())
    picked = weights["cross_validation"]  # what the cross-validation measured of its pick
    assert (picked["strength"], picked["threshold"]) == (report["strength"], report["threshold"])
    assert picked["added_wrong"] <= MAX_ADDED_WRONG == weights["grid"]["max_added_wrong"]
    assert len(weights["coef"]) == len(weights["mean"]) == len(HAND_FEATURES) + 2 * 256
    assert np.all(np.asarray(weights["scale"]) > 0)


def test_two_attributes_are_never_merged_by_the_model(similarity: FactSimilarity) -> None:
    """Where someone lives and where they are from, or a workplace and a job there: the
    rules read two attributes, so the model is not asked (the vectors are close)."""
    judge = FactJudge(similarity)
    assert judge.pair("priya's based in london", "priya is from london") == "unrelated"
    assert judge.pair("rob lives in austin", "rob is from austin") == "unrelated"
    workplace, job = "Sarah works at the hospital.", "Sarah works as a nurse at the hospital."
    assert judge.pair(workplace, job) == "unrelated"
    assert judge.pair("ty works at gamestop rn", "ty's job is at gamestop") == "same"
    # a pet had, and its age: two attributes, not one fact said twice
    had, age = "Seb said he has a golden retriever.", "Seb mentioned his golden retriever turned 5."
    assert judge.pair(had, age) == "unrelated"


def test_the_model_reads_each_fact_as_the_rules_do() -> None:
    """The embedder is given the fact read (typos repaired, chat spellings and reported
    speech undone): a mistyped word is one the embedder does not know."""
    asked: list[str] = []
    embedder = LocalEmbedder()

    def embed(texts: Sequence[str]) -> list[bytes]:
        asked.extend(texts)
        return embedder.embed_sync(texts)

    old, new = "Lucas sings in a choir.", "Lucas is a membr of a chior."
    assert meaning(new) == "lucas is a member of a choir"
    assert meaning("Lucas is a Boca Junoirs fan.") == "lucas likes boca juniors"
    assert meaning("Nadia explained that she is studying audio engineering.") == (
        "nadia is studying audio engineering"
    )
    # Its days read out of it, a fact is not left hanging on "and".
    assert meaning("soraya is on the tennis courts every saturday and sunday") == (
        "soraya is on the tennis courts"
    )
    judge = FactJudge(FactSimilarity(embed))
    judge.pair(old, new)
    assert meaning(old) in asked and meaning(new) in asked
    assert new not in asked  # read, never as written


def test_a_fact_about_someone_of_theirs_is_never_merged_with_one_about_them(
    similarity: FactSimilarity,
) -> None:
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    for theirs, own in (("tess's mom works as a nurse", "tess works as a nurse"),
                        ("Sarah's parents live in Denver.", "Sarah lives in Denver.")):  # fmt: skip
        assert not learned_same(theirs, own, similarity, floor=0.0, model=always)
        assert not learned_same(own, theirs, similarity, floor=0.0, model=always)
    # the same person named both ways may be merged ("mum" is "mom", "kids" are "children")
    assert learned_same("gabi's mom is a nurse", "gabi's mum works as a nurse", similarity,
                        floor=0.0, model=always)  # fmt: skip
    assert learned_same("Zeynep has a younger brother who lives in Izmir.",
                        "Zeynep's little brother is based in Izmir.", similarity, floor=0.0,
                        model=always)  # fmt: skip
    assert learned_same("Ji-ho uses Neovim as his primary code editor.",
                        "Ji-ho's main editor for writing code is Neovim.", similarity, floor=0.0,
                        model=always)  # their own thing, not someone  # fmt: skip


def test_the_model_reads_how_alike_the_words_that_differ_are(similarity: FactSimilarity) -> None:
    """Beside the facts' vectors, the model reads the similarity of the content words only
    one fact says ("tennis" / "chess", "uses" / "types on"): what tells a rewording from
    another thing of one kind when the words in common are the same."""
    column = HAND_FEATURES.index("residue_similarity")
    old, new = "Ines likes tennis.", "Ines likes chess."
    assert residues(old, new) == ("tennis", "chess")
    tennis, chess = similarity.vectors(["tennis", "chess"])
    row = features(old, new, similarity)
    assert row[column] == pytest.approx(float(tennis @ chess), abs=1e-6)
    assert row[HAND_FEATURES.index("both_residues")] == 1.0
    said_again = features("Ines likes tennis.", "Ines likes tennis a lot.", similarity)
    assert residues("Ines likes tennis.", "Ines likes tennis a lot.")[0] == ""
    assert said_again[column] == 0.0 and said_again[HAND_FEATURES.index("both_residues")] == 0.0


def test_two_things_of_one_kind_are_never_merged_by_the_model(similarity: FactSimilarity) -> None:
    """A sister is not a brother, a hamster not a ferret, Spanish not Italian: the vectors of
    two such words are close, so the model is not asked."""
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    for old, new in (("Anh has a younger sister.", "Anh has a younger brother."),
                     ("Ines has a hamster.", "Ines has a ferret."),
                     ("Ines is learning Spanish.", "Ines is learning Italian.")):  # fmt: skip
        assert not learned_same(old, new, similarity, floor=0.0, model=always), (old, new)
    sister, brother = "Anh has a younger sister.", "Anh has a younger brother."
    assert FactJudge(similarity).pair(sister, brother) == "unrelated"
    # the same person named two ways is one
    assert learned_same("Ines lives with her mum.", "Ines lives with her mother and dog.",
                        similarity, floor=0.0, model=always)  # fmt: skip
    # a group or a word without a sex may be the people the other fact names one by one
    assert learned_same("hamza lives with his parents", "hamza lives at home with his mum and dad",
                        similarity, floor=0.0, model=always)  # fmt: skip


def test_days_of_the_week_are_compared_as_days_however_they_are_said(
    similarity: FactSimilarity,
) -> None:
    """A habit "every tuesday" and one "on tuesdays" (which may read as a date) are the same
    days for the model to judge; other days never are."""
    always = MergeModel.from_json({**json.loads(WEIGHTS.read_text()), "threshold": 0.0})
    judge = FactJudge(similarity)  # the rules read these days alike already
    assert judge.pair("yuki goes swimming every tuesday and thursday",
                      "yuki swims on tuesdays and on thursdays") == "same"  # fmt: skip
    assert learned_same("Rafael streams every Saturday evening on Twitch.",
                        "On Saturday evenings, Rafael goes live on Twitch each week.",
                        similarity, floor=0.0, model=always)  # fmt: skip
    assert not learned_same("Mia swims every Tuesday.", "Mia swims on Thursdays.", similarity,
                            floor=0.0, model=always)  # fmt: skip
    assert not learned_same("Mia got the job on Monday.", "Mia starts on Tuesday.", similarity,
                            floor=0.0, model=always)  # fmt: skip


def test_the_model_is_asked_only_about_pairs_the_store_asks_it(
    similarity: FactSimilarity,
) -> None:
    """What training counts as a merge the model adds: a pair the rules call unrelated, that
    ``may_merge`` lets through, whose embeddings pass the similarity floor. A wish beside
    what is, or two facts the rules already merge, are never the model's to merge, so its
    threshold is not held back by them."""
    old, new = REWORDED
    assert merging.asked(old, new, similarity, floor=SAME_MIN_SIMILARITY)
    assert not merging.asked(old, new, similarity, floor=1.01)
    assert not merging.asked("Oskar wants to learn Spanish.", "Oskar is learning Spanish.",
                             similarity, floor=0.0)  # fmt: skip
    assert question(old, new, similarity)
    assert not question("Oskar wants to learn Spanish.", "Oskar is learning Spanish.", similarity)
    assert not question("Melanie plays the clarinet.", "melanie plays clarinet", similarity)


def test_facts_apart_only_in_a_numbered_value_are_never_asked() -> None:
    assert not may_merge("Kaveh's hardest boulder is V4.", "Kaveh's hardest boulder is V6.")
    assert not may_merge("ana plays on a 144hz monitor", "ana plays on a 240hz monitor")
    assert may_merge("ana plays on a 144hz monitor", "ana games on a 144hz screen")
