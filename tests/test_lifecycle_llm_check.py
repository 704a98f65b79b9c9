"""The LLM's check of the fact lifecycle's pairs (``memory.lifecycle.llm_check``): memory with
the LLM extractor and the lifecycle on, the real openai client talking HTTP to the fake
server, whose model extracts each message's text as a fact and answers the check as each
test says. Its answer overrides the offline judge for the pairs it names; a failed check
leaves the offline verdicts and loses nothing."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from memory.extraction.lore import Origin
from memory.lifecycle.judge import FactJudge
from memory.lifecycle.llm_check import LLMFactCheck
from memory.models import LORE_SUBJECT, CandidateFact, Fact
from memory.runtime import open_memory
from memory.settings import Settings, load_settings
from memory.storage.placing import Lifecycle
from memory.storage.store import Store
from tests.fake_openai import Behaviour, FakeOpenAI, delay, last_user_json, raw, reply, status
from tests.helpers import CHANNEL_B, GUILD_A, GUILD_B, SARAH, add_fact, item, side_store

EARLY, LATE = "2023-05-01T10:00:00.000+00:00", "2023-07-01T10:00:00.000+00:00"
BOSTON, DENVER = "Sarah lives in Boston.", "Sarah lives in Denver."  # offline: contradicts
# The offline judge calls these unrelated (checked in the tests that use them).
CILANTRO, RUINED = "Sarah loves cilantro.", "Sarah says cilantro ruins every dish for her."
REMOTE, FROM_HOME = "Sarah works remotely.", "Sarah works out of her kitchen."
PERU = "Sarah collects stamps from Peru."

Verdict = Callable[[str, str], str]
"""``(held, new) -> "same" | "contradicts" | "neither"``: how the fake model answers."""


class Model:
    """The fake server's model: extraction turns each message into the fact it says;
    a check request (``{"pairs": [...]}``) is recorded and answered by ``verdict``."""

    def __init__(self, verdict: Verdict = lambda held, new: "neither") -> None:
        self.verdict = verdict
        self.checks: list[list[dict[str, Any]]] = []

    def __call__(self, body: dict[str, Any]) -> str:
        request = last_user_json(body)
        if "pairs" in request:
            self.checks.append(request["pairs"])
            answers = [{"id": p["id"], "relation": self.verdict(p["held"], p["new"])}
                       for p in request["pairs"]]  # fmt: skip
            return json.dumps({"pairs": answers})
        return extraction(*[(m["message_id"], m["text"]) for m in request["messages"]])


def extraction(*facts: tuple[str, str]) -> str:
    """An extraction answer: each ``(message id, text)`` is a fact about its author."""
    return json.dumps({"facts": [
        {"message_id": message_id, "subject": "author", "fact": text, "type": "profile",
         "confidence": 0.9, "evidence": text}
        for message_id, text in facts
    ]})  # fmt: skip


@pytest.fixture
def model() -> Model:
    return Model()


@pytest.fixture
async def fake(model: Model) -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI(chat_handler=model) as server:
        yield server


def settings_of(tmp_path: Path, fake: FakeOpenAI, **overrides: Any) -> Settings:
    options: dict[str, Any] = {
        "data_dir": tmp_path / "data", "llm_model": "fake-model", "llm_base_url": fake.base_url,
        "llm_api_key": "test", "llm_max_retries": 0, "llm_timeout": 5.0,
        "extraction_batch_gap": 0, "fact_lifecycle": True, **overrides,
    }  # fmt: skip
    return load_settings(**options)


async def say_in_turn(settings: Settings, *texts: str, guild: str = GUILD_A) -> list[bool]:
    """Memory ingests ``texts`` by Sarah one step at a time (said a month apart)."""
    done = []
    async with open_memory(settings) as memory:
        for n, text in enumerate(texts, 1):
            when = f"2023-0{n + 4}-01T10:00:00.000+00:00"
            channel = CHANNEL_B if guild == GUILD_B else "111111111111111112"
            message = item(f"{guild[-2:]}{n}", text, guild_id=guild, channel_id=channel,
                           created_at=when)  # fmt: skip
            done.append(await (await memory.ingest(message)))
    return done


async def stored(settings: Settings, guild: str = GUILD_A) -> dict[str, Fact]:
    async with side_store(settings) as store:
        return {f.fact: f for f in await store.review_facts(guild, archived=True)}


def offline(new: str, old: str) -> str:
    return FactJudge()(new, [old])[0]


# --- the answer overrides the judge ------------------------------------------------------


async def test_a_contradiction_the_judge_misses_supersedes_the_older_fact(
    tmp_path: Path, fake: FakeOpenAI, model: Model
) -> None:
    assert offline(RUINED, CILANTRO) == "unrelated"
    model.verdict = lambda held, new: "contradicts"
    settings = settings_of(tmp_path, fake)
    assert await say_in_turn(settings, CILANTRO, RUINED) == [True, True]
    assert model.checks == [[{"id": 1, "held": CILANTRO, "new": RUINED}]]
    facts = await stored(settings)
    old, new = facts[CILANTRO], facts[RUINED]
    assert (old.is_active, old.superseded_by, old.valid_until) == (False, new.id, new.said_at)
    assert new.is_active


async def test_neither_keeps_both_facts_the_judge_would_supersede(
    tmp_path: Path, fake: FakeOpenAI, model: Model
) -> None:
    assert offline(DENVER, BOSTON) == "contradicts"
    settings = settings_of(tmp_path, fake)  # the model says "neither"
    await say_in_turn(settings, BOSTON, DENVER)
    assert len(model.checks) == 1
    facts = await stored(settings)
    assert {text: (f.is_active, f.superseded_by) for text, f in facts.items()} == {
        BOSTON: (True, None), DENVER: (True, None),
    }  # fmt: skip


async def test_same_merges_a_rewording_the_judge_keeps_apart(
    tmp_path: Path, fake: FakeOpenAI, model: Model
) -> None:
    assert offline(FROM_HOME, REMOTE) == "unrelated"
    model.verdict = lambda held, new: "same"
    settings = settings_of(tmp_path, fake)
    await say_in_turn(settings, REMOTE, FROM_HOME)
    facts = await stored(settings)
    assert list(facts) == [REMOTE]
    assert (facts[REMOTE].times_seen, facts[REMOTE].is_active) == (2, True)


# --- faults: the offline verdicts stand -----------------------------------------------------


@pytest.mark.parametrize(
    "failure",
    [
        status(500),
        reply("the facts look fine to me"),
        raw(b'{"id": "chatcmpl-1", "choices": [{'),
        reply('{"pairs": [{"id": 7, "relation": "neither"}]}'),  # no such pair
        reply('{"verdicts": []}'),
    ],
    ids=["http-500", "not-json", "malformed-body", "unknown-pair", "no-pairs-list"],
)
async def test_a_failed_check_keeps_the_offline_verdicts(
    tmp_path: Path, fake: FakeOpenAI, model: Model, failure: Behaviour,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    settings = settings_of(tmp_path, fake)
    async with open_memory(settings) as memory:
        assert await (await memory.ingest(item(1, BOSTON, created_at=EARLY))) is True
        fake.script(reply(extraction(("2", DENVER))), failure)
        with caplog.at_level(logging.WARNING, logger="memory.lifecycle.llm_check"):
            assert await (await memory.ingest(item(2, DENVER, created_at=LATE))) is True
        assert await memory.pending_jobs(GUILD_A) == 0
        assert (await memory.stats(GUILD_A)).failed_jobs == 0
    assert fake.pending() == 0 and len(fake.chat_requests) == 3  # the check was asked
    warnings = [r for r in caplog.records if r.name == "memory.lifecycle.llm_check"]
    assert len(warnings) == 1 and "\n" not in warnings[0].getMessage()
    facts = await stored(settings)
    assert (facts[BOSTON].is_active, facts[BOSTON].superseded_by) == (False, facts[DENVER].id)
    assert facts[DENVER].is_active


async def test_a_check_that_times_out_keeps_the_offline_verdicts(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    settings = settings_of(tmp_path, fake, llm_timeout=0.3)
    async with open_memory(settings) as memory:
        await (await memory.ingest(item(1, BOSTON, created_at=EARLY)))
        fake.script(reply(extraction(("2", DENVER))), delay(3))
        assert await (await memory.ingest(item(2, DENVER, created_at=LATE))) is True
    facts = await stored(settings)
    assert (facts[BOSTON].is_active, facts[DENVER].is_active) == (False, True)


# --- what is sent, and when --------------------------------------------------------------


async def test_the_request_holds_only_the_subjects_own_guild_facts(
    tmp_path: Path, fake: FakeOpenAI, model: Model
) -> None:
    settings = settings_of(tmp_path, fake)
    await say_in_turn(settings, "Sarah lives in Lisbon.", guild=GUILD_B)
    await say_in_turn(settings, BOSTON, DENVER)
    assert model.checks == [[{"id": 1, "held": BOSTON, "new": DENVER}]]
    sent = [r.json for r in fake.chat_requests if "pairs" in last_user_json(r.json)]
    assert len(sent) == 1 and "Lisbon" not in json.dumps(sent)


@pytest.mark.parametrize(
    "overrides",
    [{"llm_fact_check": False}, {"fact_lifecycle": False}],
    ids=["check-off", "lifecycle-off"],
)
async def test_no_check_is_sent_when_it_is_off(
    tmp_path: Path, fake: FakeOpenAI, model: Model, overrides: dict[str, Any]
) -> None:
    model.verdict = lambda held, new: "same"  # would merge, were it asked
    settings = settings_of(tmp_path, fake, **overrides)
    await say_in_turn(settings, REMOTE, FROM_HOME)
    assert model.checks == [] and len(fake.chat_requests) == 2  # the two extractions
    assert set(await stored(settings)) == {REMOTE, FROM_HOME}


def test_the_setting_is_on_by_default(tmp_path: Path) -> None:
    assert load_settings(data_dir=tmp_path).llm_fact_check is True
    assert load_settings(data_dir=tmp_path, llm_fact_check="false").llm_fact_check is False


# --- the candidate pairs -----------------------------------------------------------------


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "memory.db") as opened:
        opened.lifecycle = Lifecycle(judge=FactJudge())
        yield opened


def check_of(fake: FakeOpenAI, store: Store, **options: Any) -> LLMFactCheck:
    judge = FactJudge()
    return LLMFactCheck(model="fake-model", judge=judge, similarity=judge.similarity,
                        read_facts=store.facts_of, base_url=fake.base_url, api_key="test",
                        max_retries=0, **options)  # fmt: skip


def fact(text: str, subject: str = SARAH.id, source: str = "9") -> tuple[Origin, CandidateFact]:
    return Origin(GUILD_A, "1", LATE), CandidateFact(subject, text, "profile", 0.9, text, source)


async def test_a_steps_own_facts_are_paired_and_lore_is_never_judged(
    fake: FakeOpenAI, model: Model, store: Store
) -> None:
    await add_fact(store, SARAH.id, BOSTON, said_at=EARLY)
    await add_fact(store, SARAH.id, "Sarah has a cat called Miso.", said_at=EARLY)
    model.verdict = lambda held, new: (
        "contradicts" if (held, new) == (REMOTE, FROM_HOME) else "neither"
    )
    check = check_of(fake, store)
    try:
        step = [fact(REMOTE), fact(DENVER), fact(BOSTON), fact(FROM_HOME),
                fact("Memory line: the raid is on friday.", LORE_SUBJECT)]  # fmt: skip
        advice = await check.advise(step)
    finally:
        await check.aclose()
    (pairs,) = model.checks
    asked = {(p["held"], p["new"]) for p in pairs}
    assert (BOSTON, DENVER) in asked  # the judge says contradicts: worth a veto
    assert (REMOTE, FROM_HOME) in asked  # two new facts of Sarah in one step
    assert not any("raid" in held + new for held, new in asked)  # lore
    assert not any(new == BOSTON for _, new in asked)  # held already: not judged again
    key = (GUILD_A, SARAH.id, FROM_HOME, REMOTE)
    assert advice[key] == "contradicts" and advice[GUILD_A, SARAH.id, DENVER, BOSTON] == "unrelated"
    await store.finish_jobs([], [], step[:2] + step[3:4], advice=advice)
    facts = {f.fact: f for f in await store.review_facts(GUILD_A, archived=True)}
    assert facts[BOSTON].is_active and facts[DENVER].is_active  # advised: neither
    assert not facts[REMOTE].is_active and facts[REMOTE].superseded_by == facts[FROM_HOME].id


async def test_pairs_per_request_are_capped_most_useful_first(
    fake: FakeOpenAI, model: Model, store: Store
) -> None:
    countries = ["Chile", "Japan", "Kenya", "Norway", "Brazil", "Ghana", "Nepal", "Fiji",
                 "Oman", "Laos", "Mali", "Cuba", "Iran", "Iraq", "Chad", "Togo"]  # fmt: skip
    for n, country in enumerate(countries):  # more than the judge compares all with
        await add_fact(store, SARAH.id, f"Sarah collects stamps from {country}.", source=str(n))
    await add_fact(store, SARAH.id, BOSTON, said_at=EARLY)
    check = check_of(fake, store, max_pairs=3)
    try:
        await check.advise([fact(DENVER), fact(PERU)])
    finally:
        await check.aclose()
    (pairs,) = model.checks
    # the judge's contradiction, then the step's own pair; of the nearest stamps one fits
    assert [(p["held"], p["new"]) for p in pairs[:2]] == [(BOSTON, DENVER), (DENVER, PERU)]
    assert len(pairs) == 3 and pairs[2]["held"].startswith("Sarah collects stamps from")


async def test_advice_is_ignored_with_the_lifecycle_off(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "off.db") as store:
        store.lifecycle = Lifecycle(judge=None)
        await store.finish_jobs([], [], [fact(REMOTE, source="1")])
        advice = {(GUILD_A, SARAH.id, FROM_HOME, REMOTE): "same"}
        await store.finish_jobs([], [], [fact(FROM_HOME, source="2")], advice=advice)
        assert {f.fact for f in await store.active_facts(GUILD_A)} == {REMOTE, FROM_HOME}


async def test_a_step_of_two_guilds_asks_once_per_guild_with_its_own_facts(
    fake: FakeOpenAI, model: Model, store: Store
) -> None:
    await add_fact(store, SARAH.id, BOSTON, said_at=EARLY)
    await add_fact(store, SARAH.id, "Sarah lives in Porto.", guild=GUILD_B, said_at=EARLY)
    lisbon = Origin(GUILD_B, CHANNEL_B, LATE), fact("Sarah lives in Lisbon.")[1]
    check = check_of(fake, store)
    try:
        advice = await check.advise([fact(DENVER), lisbon])
    finally:
        await check.aclose()
    asked = sorted([(p["held"], p["new"]) for p in pairs] for pairs in model.checks)
    assert asked == [[(BOSTON, DENVER)], [("Sarah lives in Porto.", "Sarah lives in Lisbon.")]]
    assert set(advice) == {
        (GUILD_A, SARAH.id, DENVER, BOSTON),
        (GUILD_B, SARAH.id, "Sarah lives in Lisbon.", "Sarah lives in Porto."),
    }
