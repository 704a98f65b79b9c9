"""``memorybot migrate --to postgresql://…``, run as the operator runs it: a data directory's
SQLite memory moved into PostgreSQL answers every read as it did (the same facts with the
same ids, the same search results, the same opt-outs, settings and audit log); a move run
again changes nothing, one killed half-way goes on where it stopped, and a database holding
other memory is refused."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bench.gen_export import write_export as write_big_export
from memory.runtime import open_memory, reading_memory
from memory.settings import load_settings
from memory.storage.postgres.store import PostgresStore
from tests.conftest import SAMPLE_EXPORT
from tests.helpers import MEMORYBOT, cli_env, item, run_cli

pytestmark = pytest.mark.slow

SAMPLE_GUILD = "584822070181888001"
MEMBER = "538903610130432007"
QUERIES = ["pizza", "who works as a nurse", "where does Mike live", "board games"]


def _migrate(data: Path, url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli(data, "migrate", "--to", url, *extra, env=cli_env(MEMORYBOT_NOTICE="false"))


async def _reads(data: Path, url: str | None) -> dict[str, Any]:
    """Everything the API and the commands read of the sample guild."""
    settings = load_settings(data_dir=data, database_url=url, notice=False)
    async with reading_memory(settings) as memory:
        facts = await memory.active_facts(SAMPLE_GUILD)
        found = {}
        for query in QUERIES:
            hits = await memory.search(SAMPLE_GUILD, query, strict=False)
            # Every score but recency, which moves with the clock between the two reads.
            found[query] = [
                (h.fact.id, round(h.scores.lexical, 3), round(h.scores.semantic or 0.0, 3))
                for h in hits
            ]
            messages = await memory.messages(SAMPLE_GUILD, query)
            found[f"messages: {query}"] = [hit.message.message_id for hit in messages]
        stats = await memory.stats(SAMPLE_GUILD)
        events = await memory.events(SAMPLE_GUILD, limit=500)
        return {
            "facts": sorted((f.id, f.subject, f.fact, f.times_seen, f.said_at) for f in facts),
            "found": found,
            "stats": (stats.messages, stats.facts, stats.active_facts, stats.pending_jobs),
            "names": await memory.member_names(SAMPLE_GUILD),
            "opted_out": await memory.opted_out(SAMPLE_GUILD, MEMBER),
            "settings": await memory.guild_settings(SAMPLE_GUILD),
            "events": [(e.id, e.kind, e.detail) for e in events],
            "vectors_missing": await memory.missing_vectors(SAMPLE_GUILD),
        }


async def _sample_memory(data: Path) -> None:
    """The sample community imported, a lore line remembered, a member opted out and a
    setting changed: every table has rows."""
    settings = load_settings(data_dir=data, notice=False)
    async with open_memory(settings) as memory:
        assert await memory.importer().import_files([(SAMPLE_EXPORT, True)]) == []
        await memory.settle()
        await memory.remember(SAMPLE_GUILD, "The server's book club meets on Thursdays")
        await memory.opt_out(SAMPLE_GUILD, MEMBER, actor="moderator")
        await memory.ignore_channel(SAMPLE_GUILD, "584822070181888099", actor="moderator")
        await memory.settle()


async def test_moved_memory_answers_as_it_did_and_a_second_move_changes_nothing(
    tmp_path: Path, postgres_url: str
) -> None:
    data = tmp_path / "data"
    await _sample_memory(data)
    before = await _reads(data, None)
    moved = await asyncio.to_thread(_migrate, data, postgres_url, "--json")
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert report["complete"] and report["counts"]["messages"]["sqlite"] > 300
    for name, counts in report["counts"].items():
        assert counts["postgresql"] == counts["sqlite"], name
    assert await _reads(data, postgres_url) == before

    again = await asyncio.to_thread(_migrate, data, postgres_url)
    assert again.returncode == 0, again.stderr
    assert "MISSING" not in again.stdout and "MEMORYBOT_DATABASE_URL=" in again.stdout
    assert await _reads(data, postgres_url) == before

    # Memory goes on on PostgreSQL: new rows get ids past the moved ones.
    store = await PostgresStore.open(postgres_url)
    try:
        top = await store.pool.fetchval("SELECT max(id) FROM messages")
        outcome = await store.insert_messages([item(1, guild_id=SAMPLE_GUILD)], live=True)
        assert min(outcome.rows) > top
    finally:
        await store.close()


async def test_a_move_killed_half_way_goes_on_when_run_again(
    tmp_path: Path, postgres_url: str
) -> None:
    data = tmp_path / "data"
    export = tmp_path / "big.json"
    write_big_export(export, 30_000, guild_id="700000000000000031", seed=4)
    # Messages and their jobs are what there is most of to move: no extraction needed here.
    quick = cli_env(MEMORYBOT_EXTRACTOR="none")
    imported = await asyncio.to_thread(run_cli, data, "import", str(export), env=quick)
    assert imported.returncode == 0, imported.stderr
    process = await asyncio.create_subprocess_exec(
        str(MEMORYBOT), "--data-dir", str(data), "migrate", "--to", postgres_url,
        env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    conn = await asyncpg.connect(postgres_url)
    try:
        while await _count(conn, "messages") < 10_000:
            assert process.returncode is None, "the move ended before it could be killed"
            await asyncio.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        await process.wait()
        assert await _count(conn, "messages") < 30_000
        moved = await asyncio.to_thread(_migrate, data, postgres_url, "--json")
        assert moved.returncode == 0, moved.stderr
        counts = json.loads(moved.stdout)["counts"]
        assert counts["messages"] == {"sqlite": 30_000, "postgresql": 30_000}
        assert counts["ingest_jobs"]["postgresql"] == counts["ingest_jobs"]["sqlite"]
    finally:
        await conn.close()


async def test_a_database_holding_other_memory_is_refused(
    tmp_path: Path, postgres_url: str
) -> None:
    data = tmp_path / "data"
    await _sample_memory(data)
    store = await PostgresStore.open(postgres_url)
    try:
        await store.insert_messages([item(1)], live=True)  # another bot's memory
    finally:
        await store.close()
    moved = await asyncio.to_thread(_migrate, data, postgres_url)
    assert moved.returncode == 1
    assert "already holds memory that did not come from" in moved.stderr
    assert "Traceback" not in moved.stderr


async def _count(conn: Any, table: str) -> int:
    """Rows of ``table`` (0 before the move made it)."""
    try:
        return int(await conn.fetchval(f"SELECT count(*) FROM {table}"))
    except asyncpg.UndefinedTableError:
        return 0
