"""Real ``memorybot`` processes sharing one PostgreSQL store and one data directory: two
importers of different guilds and a third importing the first one's guild at the same time,
the first killed with SIGKILL half-way, and ``memorybot serve`` answering searches
throughout. Every message is stored once, extracted by one living process (those the
killed process was extracting, again once it died) and journaled once, no job is left, and
the facts are those one process importing alone finds. Extraction is the LLM extractor's,
over HTTP to a fake OpenAI-compatible server that records who sent it each message, when."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from bench.gen_export import write_export
from tests.api_helpers import TOKEN
from tests.fake_openai import FakeOpenAI
from tests.helpers import cli_env
from tests.postgres_server import Server
from tests.test_extraction_queue import facts_answer

pytestmark = pytest.mark.slow

FIRST, SECOND = "700000000000000011", "700000000000000022"
COUNT = 2500  # messages in each guild's export
REPO = Path(__file__).resolve().parent.parent
FACTS = """
SELECT guild_id, subject, fact, is_active, times_seen FROM memory_facts ORDER BY 1, 2, 3, 4
"""


KILLED = "the-killed-one"  # the API key (so the fake model knows who asks) of the killed import


def _env(url: str, data: Path, llm: FakeOpenAI, key: str = "a-survivor") -> dict[str, str]:
    return cli_env(
        MEMORYBOT_DATABASE_URL=url, MEMORYBOT_DATA_DIR=str(data), MEMORYBOT_NOTICE="false",
        MEMORYBOT_API_TOKEN=TOKEN, PYTHONFAULTHANDLER="1", MEMORYBOT_EXTRACTOR="llm",
        MEMORYBOT_LLM_MODEL="fake-model", MEMORYBOT_LLM_BASE_URL=llm.base_url,
        MEMORYBOT_LLM_API_KEY=key, MEMORYBOT_LLM_FACT_CHECK="false",
        MEMORYBOT_EXTRACTION_BATCH_GAP="0",
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )  # fmt: skip


def _other_ids(export: Path) -> None:
    """Give an export's messages ids no other generated export has (the model is sent
    message ids, not guilds)."""
    doc = json.loads(export.read_text())
    for message in doc["messages"]:
        message["id"] = str(int(message["id"]) + (1 << 40))  # 2^18 ms later
    export.write_text(json.dumps(doc))


def _extracted(llm: FakeOpenAI) -> dict[str, list[tuple[float, bool]]]:
    """Each message sent to the model: when, and whether by the killed process, each time."""
    sent: dict[str, list[tuple[float, bool]]] = {}
    for request in llm.chat_requests:
        asked = json.loads(request.json["messages"][-1]["content"])
        by_killed = request.header("Authorization") == f"Bearer {KILLED}"
        for message in asked["messages"]:
            sent.setdefault(message["message_id"], []).append((request.at, by_killed))
    return sent


async def _memorybot(env: dict[str, str], *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from bot.cli import main; main()", *args, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def _finished(process: asyncio.subprocess.Process, seconds: float = 300) -> str:
    out, err = await asyncio.wait_for(process.communicate(), seconds)
    text = out.decode(errors="replace") + err.decode(errors="replace")
    assert process.returncode == 0, text
    return text


async def _import_alone(url: str, data: Path, llm: FakeOpenAI, *exports: Path) -> None:
    for export in exports:
        await _finished(await _memorybot(_env(url, data, llm), "import", str(export)))


async def _serve(env: dict[str, str]) -> tuple[asyncio.subprocess.Process, str]:
    process = await _memorybot(env, "serve", "--port", "0")
    assert process.stdout is not None
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
        assert line, "memorybot serve ended before it listened"
        if found := re.search(r"page: (http://\S+/)", line):
            return process, found.group(1)


async def _read_throughout(base: str, stop: asyncio.Event) -> Counter[int]:
    """Search both guilds over the API until ``stop``; the statuses answered (404: the
    guild has no message yet)."""
    statuses: Counter[int] = Counter()
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
        while not stop.is_set():
            for guild in (FIRST, SECOND):
                query = {"guildId": guild, "q": "who works as a nurse"}
                async with http.get(f"{base}api/memory/search", params=query,
                                    headers=headers) as response:  # fmt: skip
                    statuses[response.status] += 1
            await asyncio.sleep(0.1)
    return statuses


async def _stored(url: str, guild_id: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM messages WHERE guild_id = $1",
                                       guild_id))  # fmt: skip
    finally:
        await conn.close()


async def _figures(url: str) -> dict[str, Any]:
    conn = await asyncpg.connect(url)
    try:
        counts = "SELECT {0}, count(*) FROM {1} GROUP BY 1 ORDER BY 1"
        return {
            "messages": dict(await conn.fetch(counts.format("guild_id", "messages"))),
            "jobs": dict(await conn.fetch(counts.format("status", "ingest_jobs"))),
            "backlog": await conn.fetchval("SELECT count(*) FROM journal_backlog"),
            "facts": [tuple(row) for row in await conn.fetch(FACTS)],
        }
    finally:
        await conn.close()


def _journal_lines(data: Path, guild_id: str) -> Counter[str]:
    lines: Counter[str] = Counter()
    for path in (data / "journals" / guild_id).glob("????-??-??.md"):
        lines.update(line for line in path.read_text().splitlines() if line.startswith("- "))
    return lines


async def test_importers_a_kill_and_a_server_share_one_store(
    tmp_path: Path, postgres: Server, postgres_url: str
) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    write_export(first, COUNT, guild_id=FIRST, seed=1)
    write_export(second, COUNT, guild_id=SECOND, seed=2)
    _other_ids(second)
    data = tmp_path / "data"
    async with FakeOpenAI(chat_handler=facts_answer) as llm:
        env = _env(postgres_url, data, llm)
        server, base = await _serve(env)
        stop_reading = asyncio.Event()
        reading = asyncio.create_task(_read_throughout(base, stop_reading))
        try:
            killed = await _memorybot(_env(postgres_url, data, llm, KILLED), "import", str(first))
            others = [await _memorybot(env, "import", str(path)) for path in (second, first)]
            while await _stored(postgres_url, FIRST) < COUNT // 4:  # part of the way
                assert killed.returncode is None, "the import ended before it could be killed"
                await asyncio.sleep(0.05)
            died = time.monotonic()  # no other process may take its jobs before this
            killed.send_signal(signal.SIGKILL)
            assert await killed.wait() == -signal.SIGKILL
            assert await _stored(postgres_url, FIRST) < COUNT  # it was killed half-way
            for process in others:
                await _finished(process)
            # The operator runs the killed import again: what it left is taken up.
            await _import_alone(postgres_url, data, llm, first)
        finally:
            stop_reading.set()
            statuses = await reading
            server.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(server.wait(), 60) == 0
        sent = _extracted(llm)
        alone = postgres.create_database("alone")
        await _import_alone(alone, tmp_path / "alone", llm, first, second)

    assert statuses[200] > 10 and set(statuses) <= {200, 404}, statuses
    shared = await _figures(postgres_url)
    assert shared["messages"] == {FIRST: COUNT, SECOND: COUNT}
    assert set(shared["jobs"]) == {"done"} and shared["backlog"] == 0
    # No message was extracted by two living processes: one sent again was the killed
    # process's, and taken up only once it was dead.
    for message_id, sends in sent.items():
        living = [at for at, by_killed in sends if not by_killed]
        assert len(living) <= 1, f"message {message_id} extracted {len(living)} times"
        if len(sends) > 1:
            assert len(living) == 1 and living[0] > died, f"message {message_id} taken too soon"
    for guild_id in (FIRST, SECOND):  # each message's line once
        lines = _journal_lines(data, guild_id)
        assert sum(lines.values()) == COUNT and max(lines.values()) == 1
    assert shared["facts"] == (await _figures(alone))["facts"]  # no fact lost, none twice
