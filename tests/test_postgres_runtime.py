"""Memory as a whole on PostgreSQL, chosen by ``MEMORYBOT_DATABASE_URL``: the bundled sample
export imported through the runtime (the queue, the offline extractor, the fact lifecycle,
the embedder, the journals) gives the same memory and the same journals as on SQLite, and
the command line works on it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from memory.runtime import open_memory
from memory.settings import load_settings
from tests.conftest import SAMPLE_EXPORT
from tests.helpers import GUILD_A, MIKE, SARAH, cli_env, item, run_cli
from tests.postgres_server import Server

SAMPLE_GUILD = "584822070181888001"


def _journals(data_dir: Path) -> dict[str, list[str]]:
    """Every journal file's lines but its generated line (it says when)."""
    return {
        str(path.relative_to(data_dir)): [
            line for line in path.read_text().splitlines() if "enerated" not in line
        ]
        for path in sorted((data_dir / "journals").rglob("*.md"))
    }


async def _import(data_dir: Path, database_url: str | None = None) -> dict[str, Any]:
    """The sample export imported into ``data_dir`` (its store in ``database_url``, when
    given): each guild's figures and facts, and its journals."""
    settings = load_settings(data_dir=data_dir, notice=False, database_url=database_url)
    async with open_memory(settings) as memory:
        errors = await memory.importer().import_files([(SAMPLE_EXPORT, True)])
        assert errors == []
        await memory.settle()
        found: dict[str, Any] = {}
        for guild in await memory.guild_ids():
            stats = await memory.stats(guild)
            facts = sorted((f.subject, f.fact, f.times_seen, f.said_at)
                           for f in await memory.active_facts(guild))  # fmt: skip
            found[guild] = (stats.messages, stats.facts, stats.active_facts, facts)
    return {"memory": found, "journals": _journals(data_dir)}


async def test_an_import_gives_the_same_memory_and_journals_on_both(
    tmp_path: Path, postgres_url: str
) -> None:
    for name in ("sqlite", "postgres"):
        (tmp_path / name).mkdir(mode=0o700)
    on_sqlite = await _import(tmp_path / "sqlite")
    on_postgres = await _import(tmp_path / "postgres", postgres_url)
    assert not (tmp_path / "postgres" / "memory.db").exists()
    (guild,) = on_sqlite["memory"]
    messages, _, active, _ = on_sqlite["memory"][guild]
    assert messages > 300 and active > 50 and len(on_sqlite["journals"]) > 5  # a real import
    assert on_postgres == on_sqlite


@pytest.mark.slow
def test_the_command_line_works_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    env = cli_env(MEMORYBOT_DATABASE_URL=postgres_url, MEMORYBOT_NOTICE="false")
    imported = run_cli(tmp_path, "import", str(SAMPLE_EXPORT), env=env)
    assert imported.returncode == 0, imported.stderr
    assert not (tmp_path / "memory.db").exists()
    assert (tmp_path / "journals" / SAMPLE_GUILD / "MEMORY.md").is_file()

    stats = run_cli(tmp_path, "stats", "--json", env=env)
    assert stats.returncode == 0, stats.stderr
    (row,) = json.loads(stats.stdout)["guilds"]
    assert row["guild_id"] == SAMPLE_GUILD and row["messages"] > 300 and row["facts"] > 50

    for kind, key, text in (("facts", "results", "fact"), ("messages", "messages", "content")):
        found = run_cli(tmp_path, "search", "--kind", kind, "--json", "pizza", env=env)
        assert found.returncode == 0, found.stderr
        results = json.loads(found.stdout)[key]
        assert results and "pizza" in results[0][text].lower()

    doctor = run_cli(tmp_path, "doctor", env=env)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "[ok ] postgresql: 18" in doctor.stdout and "[ok ] pgvector: 0.8" in doctor.stdout

    repair = run_cli(tmp_path, "doctor", "--repair", env=env)
    assert "mends SQLite files only" in repair.stdout + repair.stderr

    logs = sorted((tmp_path / "journals" / SAMPLE_GUILD).glob("????-??-??.md"))
    lost = logs[0].read_text()
    logs[0].unlink()  # a daily log deleted by hand: refresh-journals writes it again
    refreshed = run_cli(tmp_path, "refresh-journals", env=env)
    assert refreshed.returncode == 0, refreshed.stderr
    assert logs[0].read_text() == lost


async def test_memory_goes_on_when_the_server_restarts(
    tmp_path: Path, postgres: Server, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    settings = load_settings(data_dir=tmp_path, notice=False, database_url=postgres_url)
    said = [item(1, "I work as a nurse at the children's hospital"),
            item(2, "I play bass in a ska band", author=MIKE)]  # fmt: skip
    async with open_memory(settings) as memory:
        assert await asyncio.wait_for(await memory.ingest(said[0]), 30)
        await asyncio.to_thread(postgres.restart)  # every connection of memory's cut
        assert await asyncio.wait_for(await memory.ingest(said[1]), 30)
        await asyncio.wait_for(memory.join(), 60)
        stats = await memory.stats(GUILD_A)
        facts = sorted(f.subject for f in await memory.active_facts(GUILD_A))
    assert (stats.messages, stats.pending_jobs, facts) == (2, 0, sorted([SARAH.id, MIKE.id]))
    lines = [line for path in (tmp_path / "journals" / GUILD_A).glob("????-??-??.md")
             for line in path.read_text().splitlines() if line.startswith("- ")]  # fmt: skip
    assert len(lines) == 2 and "nurse" in lines[0] and "ska band" in lines[1]
    ours = [r for r in caplog.records if r.name.startswith(("memory", "bot"))]
    assert not [r.getMessage() for r in ours if r.exc_info], "the outage is told in one line"
