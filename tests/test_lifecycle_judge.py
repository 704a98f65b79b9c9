"""The judge keeps each subject's facts indexed between calls: whatever changed in between
(facts added, superseded, archived, edited), it picks and judges what a judge meeting the
facts for the first time would."""

from __future__ import annotations

import random

from memory.lifecycle.judge import FactJudge, SubjectFacts, worth_judging

FACTS = [
    "Sarah lives in Boston.", "Sarah moved to Denver.", "Sarah works as a nurse.",
    "Sarah works nights.", "Sarah is a teacher now.", "Sarah likes olives.",
    "Sarah does not like olives.", "Sarah plays the clarinet.", "Sarah plays clarinet.",
    "Sarah is vegetarian.", "Sarah eats meat.", "Sarah has a dog called Rex.",
    "Sarah renamed the dog Max.", "Sarah is 29.", "Sarah turned 30.", "sarah in denver now",
    "Sarah prefers tea over coffee.", "Sarah prefers trains over planes.",
    "Sarah is dating Tom.", "Sarah broke up with Tom.", "Sarah studies law.",
    "Sarah went to Lisbon on 4 June.", "Sarah's sister lives in Boston.",
    "SARAH LIVES IN BOSTON.", "Sarah smokes.", "Sarah quit smoking.",
] + [f"Sarah finished book number {n} of the series." for n in range(20)] + [
    f"Sarah plays guitar in band {n}." for n in range(8)
]  # fmt: skip


def test_a_kept_index_picks_what_a_fresh_one_picks() -> None:
    rng = random.Random(7)
    kept = SubjectFacts()
    olds: list[str] = []
    for _ in range(1500):
        if rng.random() < 0.6 and len(olds) < 45:
            olds.append(rng.choice([f for f in FACTS if f not in olds]))
        elif olds:
            olds.pop(rng.randrange(len(olds)))
        if rng.random() < 0.1:
            rng.shuffle(olds)
        kept.sync(olds)
        new = rng.choice(FACTS)
        assert kept.pick(new) == worth_judging(new, olds), (new, olds)


def test_many_facts_pick_only_those_worth_judging() -> None:
    olds = FACTS[:]
    picked = {olds[i] for i in worth_judging("Sarah moved to Chicago.", olds)}
    assert "Sarah lives in Boston." in picked and "Sarah moved to Denver." in picked
    assert "Sarah finished book number 3 of the series." not in picked


def test_the_judge_gives_the_same_verdicts_with_and_without_its_index() -> None:
    judge = FactJudge()
    olds = FACTS[:14]
    first = judge("Sarah lives in Chicago.", olds, ("g", "sarah"))
    olds = [*olds[3:], "Sarah lives in Chicago."]  # three gone, one added
    again = judge("Sarah likes olives a lot.", olds, ("g", "sarah"))
    assert first == FactJudge()("Sarah lives in Chicago.", FACTS[:14])
    assert again == FactJudge()("Sarah likes olives a lot.", olds)
    assert first[0] == "contradicts"


def test_a_change_is_judged_beside_every_fact_on_its_topic() -> None:
    olds = [*FACTS, "Sarah studies engineering at Leeds."]
    picked = {olds[i] for i in worth_judging("sarah dropped out of uni", olds)}
    assert "Sarah studies engineering at Leeds." in picked  # no word shared, the same topic
    assert "Sarah lives in Boston." not in picked
    verdicts = FactJudge()("sarah dropped out of uni", olds)
    assert verdicts[-1] == "contradicts"


def test_one_object_in_common_is_not_worth_judging() -> None:
    olds = [*FACTS, "Sarah prefers sushi over pizza."]
    picked = {olds[i] for i in worth_judging("Sarah finished the sushi, next up: ramen.", olds)}
    assert "Sarah prefers sushi over pizza." not in picked
    denied = {olds[i] for i in worth_judging("Sarah doesn't like sushi anymore.", olds)}
    assert "Sarah prefers sushi over pizza." in denied  # a denial is judged on one word


def test_a_kind_denied_is_judged_beside_its_members() -> None:
    olds = [*FACTS, "Sarah does not play any sport."]
    picked = {olds[i] for i in worth_judging("Sarah plays volleyball on Sundays.", olds)}
    assert "Sarah does not play any sport." in picked  # no word shared: "volleyball" a sport
    verdicts = FactJudge()("Sarah plays volleyball on Sundays.", olds)
    assert verdicts[-1] == "contradicts"
