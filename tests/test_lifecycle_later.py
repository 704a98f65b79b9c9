"""An import's facts are judged whole once the queue is idle, not one by one as they are
stored (issue 20): a step of an import places them as if no judge were set and notes their
subjects; the worker settles those subjects when it has nothing else to do, in the order the
facts were said, and whatever an import killed half-way left is settled on the next start.
Real SQLite; a stand-in judge for the store's part, the bundled one end to end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands_ingest import run_import
from memory.extraction.lore import Origin
from memory.models import CandidateFact
from memory.runtime import open_memory
from memory.settings import load_settings
from memory.storage.placing import Lifecycle
from memory.storage.store import Store
from tests.helpers import CHANNEL_A, GUILD_A, SARAH, export_message, sql, write_export
from tests.test_fact_lifecycle import EARLY, LATE, MIDDLE, fact_id, facts, judge


async def later(store: Store, text: str, when: str, source: str) -> None:
    """``text`` stored by an import's step: placed unjudged, its subject noted."""
    fact = CandidateFact(SARAH.id, text, "profile", 0.9, text.lower(), source)
    await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A, when), fact)], judge_later=True)


def waiting(path: Path) -> list[tuple[str, str]]:
    return [tuple(row) for row in sql(path, "SELECT guild_id, subject FROM subjects_to_settle")]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "memory.db") as opened:
        opened.lifecycle = Lifecycle(judge=judge)
        yield opened


async def test_a_step_of_an_import_is_judged_when_settled(store: Store) -> None:
    await later(store, "Sarah lives in Denver.", LATE, "3")  # said last, stored first
    await later(store, "Sarah lives in Boston.", EARLY, "1")
    await later(store, "Sarah plays the clarinet.", EARLY, "2")
    await later(store, "Sarah plays clarinet.", MIDDLE, "4")
    assert len(await store.active_facts(GUILD_A)) == 4  # nothing judged yet
    assert waiting(store.path) == [(GUILD_A, SARAH.id)]
    assert await store.settle_waiting(8) == [(GUILD_A, SARAH.id)]
    denver = await fact_id(store, "Sarah lives in Denver.")
    assert await facts(store) == {
        "Sarah lives in Boston.": (False, 1, denver, LATE),  # by when it was said
        "Sarah lives in Denver.": (True, 1, None, None),
        "Sarah plays the clarinet.": (True, 2, None, None),
    }
    assert waiting(store.path) == []
    assert await store.settle_waiting(8) == []
    kinds = [event.kind for event in await store.events(GUILD_A)]
    assert "fact.superseded" in kinds and "fact.reinforced" in kinds


async def test_what_a_killed_import_left_is_settled_after_a_restart(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "memory.db") as first:
        first.lifecycle = Lifecycle(judge=judge)
        await later(first, "Sarah lives in Boston.", EARLY, "1")
        await later(first, "Sarah lives in Denver.", LATE, "2")
    # the process ends here, before its queue was idle; the next one runs the bot
    settings = load_settings(data_dir=tmp_path, fact_lifecycle=True)
    async with open_memory(settings) as memory:
        await memory.join()
        active = [f.fact for f in await memory.active_facts(GUILD_A)]
    assert active == ["Sarah lives in Denver."]
    assert waiting(tmp_path / "memory.db") == []


async def test_without_a_judge_the_subjects_wait_for_one(store: Store) -> None:
    await later(store, "Sarah lives in Boston.", EARLY, "1")
    store.lifecycle = Lifecycle()  # the lifecycle turned off before the queue was idle
    await later(store, "Sarah lives in Denver.", LATE, "2")
    assert await store.settle_waiting(8) == []
    assert waiting(store.path) == [(GUILD_A, SARAH.id)]
    store.lifecycle = Lifecycle(judge=judge)
    assert await store.settle_waiting(8) == [(GUILD_A, SARAH.id)]
    assert len(await store.active_facts(GUILD_A)) == 1


async def test_forgetting_a_member_forgets_that_they_wait(store: Store) -> None:
    await later(store, "Sarah lives in Boston.", EARLY, "1")
    await store.forget_member(GUILD_A, SARAH.id)
    assert waiting(store.path) == []


async def test_an_import_supersedes_and_merges_with_the_bundled_judge(tmp_path: Path) -> None:
    """End to end: ``memorybot import`` with the lifecycle on, the offline extractor and the
    bundled judge; the export's messages come in the order they were written."""
    export = write_export(tmp_path / "export.json", [
        export_message(1, "i live in boston", timestamp=EARLY),
        export_message(2, "i play the clarinet in a band", timestamp=EARLY),
        export_message(3, "i live in denver now", timestamp=MIDDLE),
        export_message(4, "i play clarinet in a band", timestamp=LATE),
    ])  # fmt: skip
    settings = load_settings(data_dir=tmp_path / "data", fact_lifecycle=True)
    summary, errors = await run_import(settings, [export], quiet=True)
    assert errors == [] and summary.new == 4
    async with open_memory(settings) as memory:
        exported = await memory.export_member(GUILD_A, SARAH.id)
    found = {f["fact"]: f for f in exported["facts"]}
    boston = next(f for text, f in found.items() if "boston" in text.lower())
    denver = next(f for text, f in found.items() if "denver" in text.lower())
    assert (boston["active"], boston["supersededBy"], boston["validUntil"]) == (
        False, denver["id"], MIDDLE,
    )  # fmt: skip
    assert denver["active"] is True
    clarinet = [f for text, f in found.items() if "clarinet" in text.lower()]
    assert len(clarinet) == 1 and clarinet[0]["timesSeen"] == 2
    assert waiting(tmp_path / "data" / "memory.db") == []
    merged = sql(tmp_path / "data" / "memory.db",
                 "SELECT detail FROM memory_events WHERE kind = 'fact.reinforced'")  # fmt: skip
    assert [row[0].endswith("merged into it (settled later)") for row in merged] == [True]
