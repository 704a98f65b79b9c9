"""How a fact lives in the store (issue 20): said again it is reinforced, a paraphrase is
merged into the fact it repeats, a contradiction supersedes the fact said earlier — by when
they were said, not by arrival — and the cap archives the least valued. Real SQLite; the
judge here is a stand-in with plain rules, so these tests are about the store's part (the
real judge has tests of its own)."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from memory.extraction.lore import Origin
from memory.models import LORE_SUBJECT, CandidateFact
from memory.storage.placing import Lifecycle
from memory.storage.store import Store
from tests.helpers import CHANNEL_A, GUILD_A, SARAH, item

EARLY, MIDDLE, LATE = ("2023-05-01T10:00:00.000+00:00", "2023-06-01T10:00:00.000+00:00",
                       "2023-07-01T10:00:00.000+00:00")  # fmt: skip


def judge(new: str, olds: Sequence[str], whose: object = None) -> list[str]:
    """ "lives in X" contradicts "lives in Y"; "plays the X" is "plays X" said again."""

    def key(text: str) -> str:
        return text.replace(" the ", " ").rstrip(".")

    out = []
    for old in olds:
        if key(old) == key(new):
            out.append("same")
        elif "lives in" in old and "lives in" in new:
            out.append("contradicts")
        else:
            out.append("unrelated")
    return out


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "memory.db") as opened:
        opened.lifecycle = Lifecycle(judge=judge)
        yield opened


async def say(store: Store, text: str, when: str, source: str, confidence: float = 0.9) -> None:
    fact = CandidateFact(SARAH.id, text, "profile", confidence, text.lower(), source)
    await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A, when), fact)])


async def facts(store: Store) -> dict[str, tuple[bool, int, int | None, str | None]]:
    """fact -> (active, times seen, superseded by, valid until)."""
    found = await store.review_facts(GUILD_A, archived=True)
    return {f.fact: (f.is_active, f.times_seen, f.superseded_by, f.valid_until) for f in found}


async def fact_id(store: Store, text: str) -> int:
    return next(f.id for f in await store.review_facts(GUILD_A, archived=True) if f.fact == text)


async def test_a_paraphrase_is_merged_into_the_fact_it_repeats(store: Store) -> None:
    await say(store, "Sarah plays the clarinet.", EARLY, "1", confidence=0.7)
    await say(store, "Sarah plays clarinet.", LATE, "2", confidence=0.9)
    (merged,) = await store.review_facts(GUILD_A, archived=True)
    assert (merged.fact, merged.times_seen, merged.last_seen_at) == (
        "Sarah plays the clarinet.", 2, LATE,
    )  # fmt: skip
    assert merged.confidence == pytest.approx(0.9 + (0.97 - 0.9) * 0.25)
    assert (merged.evidence, merged.source_message_id) == ("sarah plays clarinet.", "2")
    (event, _stored) = await store.events(GUILD_A)
    assert (event.kind, event.object_id) == ("fact.reinforced", str(merged.id))
    assert event.detail == "said again in message 2, in other words"


async def test_a_contradiction_supersedes_the_fact_said_earlier(store: Store) -> None:
    await say(store, "Sarah lives in Boston.", EARLY, "1")
    await say(store, "Sarah plays bass.", EARLY, "2")
    await say(store, "Sarah lives in Denver.", MIDDLE, "3")
    denver = await fact_id(store, "Sarah lives in Denver.")
    assert await facts(store) == {
        "Sarah lives in Boston.": (False, 1, denver, MIDDLE),
        "Sarah plays bass.": (True, 1, None, None),
        "Sarah lives in Denver.": (True, 1, None, None),
    }
    boston = await fact_id(store, "Sarah lives in Boston.")
    superseded = await store.events(GUILD_A, kinds=["fact.superseded"])
    assert [(e.object_id, e.detail) for e in superseded] == [
        (str(boston), f"by fact {denver}, said 2023-06-01")
    ]


async def test_facts_said_out_of_order_are_ordered_by_when_they_were_said(store: Store) -> None:
    await say(store, "Sarah lives in Denver.", LATE, "3")  # imported first, said last
    await say(store, "Sarah lives in Boston.", EARLY, "1")
    denver = await fact_id(store, "Sarah lives in Denver.")
    assert await facts(store) == {
        "Sarah lives in Denver.": (True, 1, None, None),
        "Sarah lives in Boston.": (False, 1, denver, LATE),
    }
    # Boston said again, later than Denver: it is where she lives now
    await say(store, "Sarah lives in Boston.", "2023-08-01T10:00:00.000+00:00", "4")
    boston = await fact_id(store, "Sarah lives in Boston.")
    assert await facts(store) == {
        "Sarah lives in Denver.": (False, 1, boston, "2023-08-01T10:00:00.000+00:00"),
        "Sarah lives in Boston.": (True, 2, None, None),
    }


async def test_lore_is_never_merged_or_superseded(store: Store) -> None:
    for n, text in enumerate(["lives in Boston", "lives in Denver"]):
        fact = CandidateFact(LORE_SUBJECT, f"Memory line: the bot {text}.", "other", 0.72, "", "")
        await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A, EARLY), fact)])
        assert len(await store.active_facts(GUILD_A)) == n + 1


async def test_a_fact_of_a_message_deleted_meanwhile_is_not_stored(store: Store) -> None:
    await store.insert_messages([item(1, "i live in boston")], live=True)
    (job,) = await store.claim_pending(10)
    await store.delete_message(GUILD_A, "1")
    fact = CandidateFact(SARAH.id, "Sarah lives in Boston.", "profile", 0.9, "", "1")
    await store.finish_jobs([job.job_id], [], [(job.message, fact)])
    assert await store.review_facts(GUILD_A, archived=True) == []


async def test_the_cap_archives_the_least_valued_facts(store: Store) -> None:
    for n in range(80):
        await say(store, f"Sarah owns board game number {n}.", LATE, str(n), confidence=0.9)
    await say(store, "Sarah owns board game number 7.", LATE, "700")  # said twice: worth more
    await say(store, "Sarah maybe likes chess.", LATE, "800", confidence=0.6)  # the 81st
    active = {f.fact for f in await store.active_facts(GUILD_A)}
    assert len(active) == 80 and "Sarah maybe likes chess." not in active
    await say(store, "Sarah owns an old chess set.", EARLY, "900", confidence=0.95)
    active = {f.fact for f in await store.active_facts(GUILD_A)}
    assert "Sarah owns an old chess set." not in active  # said long before the others
    assert "Sarah owns board game number 7." in active


async def test_settling_facts_stored_before_the_rules(tmp_path: Path) -> None:
    """``backfill --lifecycle``: facts stored with no judge are settled afterwards."""
    async with await Store.open(tmp_path / "memory.db") as store:  # no judge: all kept
        await say(store, "Sarah lives in Boston.", EARLY, "1")
        await say(store, "Sarah plays the clarinet.", EARLY, "2")
        await say(store, "Sarah lives in Denver.", MIDDLE, "3")
        await say(store, "Sarah plays clarinet.", LATE, "4")
        assert len(await store.active_facts(GUILD_A)) == 4
        store.lifecycle = Lifecycle(judge=judge)
        done: list[int] = []
        counts = await store.settle_facts(GUILD_A, done.append)
        assert counts == {"merged": 1, "superseded": 1, "archived": 0} and done == [1]
        denver = await fact_id(store, "Sarah lives in Denver.")
        assert await facts(store) == {
            "Sarah lives in Boston.": (False, 1, denver, MIDDLE),
            "Sarah plays the clarinet.": (True, 2, None, None),
            "Sarah lives in Denver.": (True, 1, None, None),
        }
        assert await store.settle_facts(GUILD_A) == {"merged": 0, "superseded": 0, "archived": 0}


async def test_the_real_judge_through_memory_and_the_backfill(tmp_path: Path) -> None:
    """End to end with the offline extractor and the bundled judge: a move supersedes the
    old home (visible in the export with its successor), a repeat reinforces, and facts
    stored with the lifecycle off are settled by ``backfill --lifecycle``."""
    from bot.commands_ingest import backfill_lifecycle
    from memory.runtime import open_memory
    from memory.settings import load_settings

    on = load_settings(data_dir=tmp_path / "on", fact_lifecycle=True)
    async with open_memory(on) as memory:
        await memory.ingest(item(1, "i live in boston", created_at=EARLY))
        await memory.ingest(item(2, "i live in denver now", created_at=MIDDLE))
        await memory.join()
        exported = await memory.export_member(GUILD_A, SARAH.id)
    facts_json = {f["fact"]: f for f in exported["facts"]}
    boston = next(f for text, f in facts_json.items() if "boston" in text)
    denver = next(f for text, f in facts_json.items() if "denver" in text)
    assert (boston["active"], boston["supersededBy"], boston["validUntil"]) == (
        False, denver["id"], MIDDLE,
    )  # fmt: skip
    assert denver["active"] is True

    off = load_settings(data_dir=tmp_path / "off", fact_lifecycle=False)
    async with open_memory(off) as memory:
        await memory.ingest(item(1, "i live in boston", created_at=EARLY))
        await memory.ingest(item(2, "i live in denver now", created_at=MIDDLE))
        await memory.join()
        assert len(await memory.active_facts(GUILD_A)) == 2
    counts = await backfill_lifecycle(off, quiet=True)
    assert counts == {"guilds": 1, "merged": 0, "superseded": 1, "archived": 0}


async def test_deleting_the_fact_that_superseded_another_brings_it_back(store: Store) -> None:
    await say(store, "Sarah lives in Boston.", EARLY, "1")
    await say(store, "Sarah lives in Denver.", MIDDLE, "2")
    denver = await fact_id(store, "Sarah lives in Denver.")
    assert await store.delete_fact(GUILD_A, denver)  # a moderator: that was a wrong fact
    assert await facts(store) == {"Sarah lives in Boston.": (True, 1, None, None)}


async def test_settling_repoints_what_a_merged_fact_had_superseded(store: Store) -> None:
    """A fact merged away by ``backfill --lifecycle`` hands what it superseded to the fact it
    joins: no archived fact points at a row that is gone."""
    await say(store, "Sarah lives in Boston.", EARLY, "1")
    await say(store, "Sarah lives in Denver.", LATE, "2")  # supersedes Boston
    store.lifecycle = Lifecycle()  # stored while the rules were off: not merged
    await say(store, "Sarah lives in the Denver.", MIDDLE, "3")
    store.lifecycle = Lifecycle(judge=judge)
    assert (await store.settle_facts(GUILD_A))["merged"] == 1  # Denver (later) joins it
    kept = await fact_id(store, "Sarah lives in the Denver.")
    assert await facts(store) == {
        "Sarah lives in Boston.": (False, 1, kept, LATE),
        "Sarah lives in the Denver.": (True, 2, None, None),
    }


async def _fill_to_the_cap(store: Store) -> int:
    """Sarah at the cap of 80 active facts; returns the id of the one worth most."""
    for n in range(80):
        await say(store, f"Sarah owns board game number {n}.", LATE, str(n))
    await say(store, "Sarah owns board game number 7.", LATE, "700")  # said twice
    return await fact_id(store, "Sarah owns board game number 7.")


async def test_the_cap_counts_facts_deleted_between_steps(store: Store) -> None:
    """The store keeps each member's active facts between steps; a fact deleted meanwhile
    (here by a moderator, on the same connection) leaves room: nothing is archived."""
    await store.delete_fact(GUILD_A, await _fill_to_the_cap(store))
    await say(store, "Sarah likes chess.", LATE, "800")
    assert len(await store.active_facts(GUILD_A)) == 80
    assert await store.events(GUILD_A, kinds=["fact.archived"]) == []


async def test_the_cap_counts_facts_another_process_archived(store: Store, tmp_path: Path) -> None:
    """The same when the write comes from another connection (``memorybot forget`` or the
    API's own process while the bot runs)."""
    most_valued = await _fill_to_the_cap(store)
    async with await Store.open(tmp_path / "memory.db") as other:
        assert await other.delete_fact(GUILD_A, most_valued)
    await say(store, "Sarah likes chess.", LATE, "800")
    assert len(await store.active_facts(GUILD_A)) == 80
    assert await store.events(GUILD_A, kinds=["fact.archived"]) == []


def test_the_caps_key_orders_facts_as_their_value_does() -> None:
    """The cap sorts on parts each kept fact carries (``undecayed_rank`` and the day it was
    last said); that order is the order of ``fact_value`` on any day."""
    from datetime import UTC, datetime

    from memory.lifecycle.value import decay_per_day, fact_value, undecayed_rank
    from memory.storage.active_facts import day_number

    rng = random.Random(5)
    now = datetime(2026, 11, 26, tzinfo=UTC)
    for half_life in (0.0, 30.0, 180.0):
        facts = [(round(rng.uniform(0.5, 0.97), 2), rng.randint(1, 9),
                  f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T10:00:00.000+00:00")
                 for _ in range(200)]  # fmt: skip
        by_key = sorted(facts, key=lambda f: undecayed_rank(f[0], f[1])
                        + decay_per_day(half_life) * day_number(f[2]))  # fmt: skip
        values = [fact_value(c, t, s, now, half_life) for c, t, s in by_key]
        assert all(later >= earlier * (1 - 1e-9) for earlier, later in itertools.pairwise(values))
