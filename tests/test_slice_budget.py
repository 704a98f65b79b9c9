"""The prompt memory slice fills a budget of characters shown (memory.search.budget): facts,
messages and their neighbouring turns compete for it, and text shown twice is paid once.
Through the runtime on a real store (an imported export), the CLI and the HTTP API."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.commands_ingest import run_import
from memory.models import Fact, StoredMessage
from memory.runtime import Memory, open_memory
from memory.search.budget import pack
from memory.search.results import FactHit, MessageHit
from memory.search.scoring import FactScores
from memory.settings import load_settings
from tests.api_helpers import served
from tests.helpers import (
    CHANNEL_A,
    GUILD_A,
    MIKE,
    SARAH,
    export_message,
    run_cli,
    write_export,
)

pytestmark = pytest.mark.usefixtures("each_backend")  # on SQLite and PostgreSQL

FILLER = "just chatting about the weather and what everyone had for lunch today, nothing much"
TOPICS = ["kayak", "violin", "lasagna", "telescope", "marathon", "bonsai", "origami", "chess"]


def conversation() -> list[dict[str, object]]:
    """Eight topics, each said once among filler turns (so every hit has neighbours)."""
    messages = []
    n = 0
    for index, topic in enumerate(TOPICS):
        for line in (FILLER, f"I finally tried the {topic} club this week, loved the {topic}"):
            n += 1
            author = SARAH if index % 2 else MIKE
            minute = f"{n:02d}" if n < 60 else "59"
            messages.append(
                export_message(n, line, author=author, timestamp=f"2026-10-12T18:{minute}:00+00:00")
            )
    return messages


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[Memory]:
    settings = load_settings(data_dir=tmp_path / "data", extractor="none")
    export = write_export(tmp_path / "export.json", conversation())
    _summary, errors = await run_import(settings, [export], quiet=True)
    assert errors == []
    async with open_memory(settings, start_queue=False) as rt:
        yield rt


QUERY = "who tried the " + " ".join(TOPICS) + " club"


@pytest.mark.parametrize("budget", [200, 500, 1200, 4000])
async def test_the_slice_shows_no_more_than_its_budget(memory: Memory, budget: int) -> None:
    found = await memory.slice(GUILD_A, QUERY, budget=budget)
    assert 0 < found.shown_chars() <= budget
    if budget >= 1200:  # room for more than one hit's window
        assert len(found.relevant_messages) > 1


async def test_a_bigger_budget_shows_more(memory: Memory) -> None:
    small = await memory.slice(GUILD_A, QUERY, budget=400)
    large = await memory.slice(GUILD_A, QUERY, budget=4000)
    assert large.shown_chars() > small.shown_chars()
    assert small.message_ids() < large.message_ids()


async def test_overlapping_neighbour_windows_are_paid_once(memory: Memory) -> None:
    found = await memory.slice(GUILD_A, QUERY, budget=4000)
    turns = [m for hit in found.relevant_messages for m in hit.context]
    assert len(turns) > len({m.message_id for m in turns})  # windows do overlap here
    distinct = {m.message_id: len(m.content) for m in turns}
    assert found.shown_chars() == sum(distinct.values())


def turn(n: int, text: str) -> StoredMessage:
    return StoredMessage(n, GUILD_A, CHANNEL_A, str(n), SARAH.id, "Sarah", text, "text", "")


def fact_hit(n: int, text: str, source: int) -> FactHit:
    when = "2026-10-12T18:00:00.000+00:00"
    fact = Fact(n, GUILD_A, CHANNEL_A, SARAH.id, text, "other", "", str(source), 0.9, True,
                said_at=when, created_at=when, updated_at=when)  # fmt: skip
    return FactHit(fact, "Sarah", FactScores(None, 1.0, 0.9, 1.0, 1.0, 0.9, True))


def test_a_fact_whose_message_is_shown_is_not_paid_twice() -> None:
    turns = [turn(n, f"message {n:02d} " + "x" * 89) for n in range(1, 21)]  # 100 characters each
    hits = [MessageHit(turns[9], 1.0, tuple(turns[7:12]))]  # message 10, turns 8..12
    facts = [fact_hit(n, f"fact {n:02d} " + "y" * 52, source=n) for n in range(1, 31)]  # 60 each
    found = pack([], facts, hits, budget=1500)
    placed = [h.fact.source_message_id for h in found.relevant_facts]
    assert placed[:5] == ["1", "2", "3", "4", "5"]  # a fifth of the budget: before messages
    window = [m.message_id for m in found.relevant_messages[0].context]
    assert window == ["8", "9", "10", "11", "12"]
    assert not {"8", "9", "10", "11", "12"} & set(placed)  # shown: their facts are left out
    assert placed[5:] == [str(n) for n in (6, 7, *range(13, 22))]  # the rest, while they fit
    assert found.shown_chars() == 500 + 60 * 16 <= 1500


def test_a_hit_too_wide_for_what_is_left_comes_with_fewer_neighbours() -> None:
    turns = [turn(n, "z" * 100) for n in range(1, 11)]
    hits = [MessageHit(turns[4], 1.0, tuple(turns[2:7]))]  # 500 characters with neighbours
    narrow = pack([], [], hits, budget=320)
    assert [m.message_id for m in narrow.relevant_messages[0].context] == ["4", "5", "6"]
    alone = pack([], [], hits, budget=150)
    assert [m.message_id for m in alone.relevant_messages[0].context] == ["5"]
    assert pack([], [], hits, budget=90).relevant_messages == []


def test_the_slice_command_takes_a_budget(tmp_path: Path) -> None:
    export = write_export(tmp_path / "export.json", conversation())
    data = tmp_path / "data"
    assert run_cli(data, "import", str(export)).returncode == 0
    small = json.loads(run_cli(data, "slice", QUERY, "--budget", "300", "--json").stdout)
    assert small["budget"] == 300 and 0 < small["shownChars"] <= 300
    default = json.loads(run_cli(data, "slice", QUERY, "--json").stdout)
    assert default["budget"] == 4000 and small["shownChars"] < default["shownChars"] <= 4000
    bad = run_cli(data, "slice", QUERY, "--budget", "50")
    assert bad.returncode == 2 and "--budget" in bad.stderr
    shown = run_cli(data, "slice", QUERY, "--budget", "300")
    assert shown.returncode == 0 and "of 300 characters shown" in shown.stdout


async def test_the_api_slice_takes_a_budget(tmp_path: Path) -> None:
    export = write_export(tmp_path / "export.json", conversation())
    settings = load_settings(data_dir=tmp_path / "data", extractor="none")
    await run_import(settings, [export], quiet=True)
    async with served(tmp_path / "data", extractor="none") as api, aiohttp.ClientSession() as http:
        url = api.url + "api/memory/slice"
        query = {"q": QUERY, "guildId": GUILD_A}
        async with http.get(url, params={**query, "budget": "500"}, headers=api.headers()) as r:
            body = await r.json()
            assert r.status == 200
            assert body["budget"] == 500 and 0 < body["shownChars"] <= 500
        async with http.get(url, params=query, headers=api.headers()) as r:
            assert (await r.json())["budget"] == 4000
        for bad in ("lots", "10", "100001"):
            async with http.get(url, params={**query, "budget": bad}, headers=api.headers()) as r:
                error = (await r.json())["error"]
                assert r.status == 400 and error["code"] == "invalid_parameter"
                assert "budget" in error["message"]


def test_a_window_is_sized_by_characters_not_turns() -> None:
    burst = [turn(n, "short line " + "b" * 19) for n in range(1, 12)]  # 30 characters each
    hits = [MessageHit(burst[5], 1.0, tuple(burst[1:10]))]  # message 6, four turns either side
    shown = pack([], [], hits, budget=4000).relevant_messages[0].context
    assert [m.message_id for m in shown] == [str(n) for n in range(2, 11)]  # all nine: 270
    long = [turn(n, "a long message " + "l" * 285) for n in range(1, 12)]  # 300 each
    hits = [MessageHit(long[5], 1.0, tuple(long[1:10]))]
    shown = pack([], [], hits, budget=4000).relevant_messages[0].context
    assert [m.message_id for m in shown] == ["6", "7"]  # the hit and the reply after it


def test_a_window_does_not_reach_back_into_an_earlier_conversation() -> None:
    times = ["09:00", "09:01", "13:00", "13:01", "17:30"]  # a pause before the hit and after
    turns = [
        turn(n, f"line {n} " + "w" * 40)._replace(created_at=f"2026-10-12T{at}:00.000+00:00")
        for n, at in enumerate(times, start=1)
    ]
    hits = [MessageHit(turns[2], 1.0, tuple(turns))]  # message 3, the first after the pause
    shown = pack([], [], hits, budget=4000).relevant_messages[0].context
    assert [m.message_id for m in shown] == ["3", "4", "5"]  # the answer hours later counts
    hits = [MessageHit(turns[3], 1.0, tuple(turns))]
    shown = pack([], [], hits, budget=4000).relevant_messages[0].context
    assert [m.message_id for m in shown] == ["3", "4", "5"]
