"""DESIGN principle 3, "Nothing acknowledged is lost": kill -9 in the middle of an import,
restart, and every message, job and daily-log line is there exactly once."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.gen_export import write_export as write_export_of_size
from memory.storage.db import connect_sync
from tests.helpers import MEMORYBOT, cli_env, parse_summary, run_cli, stats_json

pytestmark = pytest.mark.slow  # not in the quick run (pytest -m "not slow")

REPO = Path(__file__).resolve().parent.parent
SAMPLE_EXPORT = REPO / "memory" / "samples" / "sample_export.json"
SAMPLE_GUILD = "584822070181888001"
CRASH_GUILD = "700000000000000011"
CRASH_COUNT = 60_000
KILL_AT = 12_000  # stored messages before the kill: well inside the import


def query(db: Path, sql: str, params: tuple[Any, ...] = (), timeout: float = 30) -> list[Any]:
    """Read with a read-only stdlib connection, retrying while the writer holds a lock."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
            try:
                conn.execute("PRAGMA busy_timeout = 5000")
                return conn.execute(sql, params).fetchall()
            finally:
                conn.close()
        except sqlite3.OperationalError as exc:
            transient = ("locked", "busy", "no such table", "unable to open")
            if not any(word in str(exc) for word in transient) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def daily_log_lines(data_dir: Path, guild_id: str, *, killed: bool = False) -> list[str]:
    """Every message line of the guild's daily logs; fails on any malformed line. Right
    after a kill (``killed``) the last line of a log may be cut short (the kernel can stop a
    big write between two pages): it is left out, and the next write removes it."""
    folder = data_dir / "journals" / guild_id
    lines: list[str] = []
    for path in sorted(folder.glob("*.md")):
        if path.name == "MEMORY.md":
            continue
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}\.md", path.name), path
        text = path.read_text(encoding="utf-8")
        assert text.startswith(f"# Daily Memory Log {path.stem}\n"), path
        if killed and not text.endswith("\n"):
            text = text[: text.rfind("\n") + 1]
        assert text.endswith("\n"), f"{path} ends in a half-written line"
        for line in text.splitlines()[1:]:
            if not line:
                continue
            # A line torn by the kill and completed by the restart would show up here.
            assert re.fullmatch(r"- \S+ \| .+ \(\d+\) \| \[guild:\d+ channel:\d+\] .+", line), line
            lines.append(line)
    return lines


def test_kill_9_during_import_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    export = tmp_path / "crash-export.json"
    write_export_of_size(export, CRASH_COUNT, guild_id=CRASH_GUILD, seed=3)
    expected_ids = {m["id"] for m in json.loads(export.read_text(encoding="utf-8"))["messages"]}
    assert len(expected_ids) == CRASH_COUNT
    data = tmp_path / "data"
    db = data / "memory.db"

    # 1. Start the import and kill -9 its whole process group (the CLI and its export-reader
    #    child) once some, but not all, messages are stored.
    log = tmp_path / "killed-import.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(MEMORYBOT), "--data-dir", str(data), "import", str(export)],
            env=cli_env(MEMORYBOT_EXTRACTOR="none"),  # the import path, not extraction
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        stored = 0
        while stored < KILL_AT:
            assert proc.poll() is None, (
                f"import finished before the kill (stored {stored}): {log.read_text()}"
            )
            assert time.monotonic() < deadline, "import made no progress"
            if db.exists():
                stored = query(db, "SELECT COUNT(*) FROM messages")[0][0]
            time.sleep(0.02)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    at_crash = query(db, "SELECT COUNT(*), COUNT(DISTINCT message_id) FROM messages")[0]
    stored_at_crash = at_crash[0]
    assert 0 < stored_at_crash < CRASH_COUNT, "the kill must land in the middle of the import"
    assert at_crash[1] == stored_at_crash
    # Message and job rows are written in one transaction: a kill cannot split them.
    assert query(db, "SELECT COUNT(*) FROM ingest_jobs")[0][0] == stored_at_crash
    crash_lines = daily_log_lines(data, CRASH_GUILD, killed=True)
    assert len(crash_lines) == len(set(crash_lines)) <= stored_at_crash

    # 2. Run the same import again, to completion.
    result = run_cli(data, "import", str(export), env=cli_env(MEMORYBOT_EXTRACTOR="none"))
    assert result.returncode == 0, result.stdout + result.stderr
    summary = parse_summary(result.stdout)
    assert summary["read"] == CRASH_COUNT
    assert summary["new"] == CRASH_COUNT - stored_at_crash

    # 3. Every message exactly once, with exactly one job, and every job done.
    total, distinct = query(
        db,
        "SELECT COUNT(*), COUNT(DISTINCT message_id) FROM messages WHERE guild_id = ?",
        (CRASH_GUILD,),
    )[0]
    assert (total, distinct) == (CRASH_COUNT, CRASH_COUNT)
    stored_ids = {row[0] for row in query(db, "SELECT message_id FROM messages")}
    assert stored_ids == expected_ids
    assert query(db, "SELECT COUNT(*), COUNT(DISTINCT message_row) FROM ingest_jobs")[0] == (
        CRASH_COUNT,
        CRASH_COUNT,
    )
    joined = query(
        db, "SELECT COUNT(*) FROM ingest_jobs j JOIN messages m ON m.id = j.message_row"
    )[0][0]
    assert joined == CRASH_COUNT
    statuses = dict(query(db, "SELECT status, COUNT(*) FROM ingest_jobs GROUP BY status"))
    assert statuses == {"done": CRASH_COUNT}
    # The full-text index has one document per message: none missing, none doubled (each
    # holds its guild id once), and it agrees with the messages table.
    conn = connect_sync(db)
    try:
        indexed = conn.execute(
            "SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH ?",
            (f'guild_id:"{CRASH_GUILD}"',),
        ).fetchone()[0]
        assert indexed == CRASH_COUNT
        conn.execute("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)")
    finally:
        conn.close()

    row = stats_json(data)[CRASH_GUILD]
    assert row["messages"] == CRASH_COUNT
    assert row["pending_jobs"] == row["dropped_jobs"] == row["failed_jobs"] == 0

    # 4. Exactly one daily-log line per message: the generated texts end in "#<n>".
    lines = daily_log_lines(data, CRASH_GUILD)
    duplicates = [line for line, n in Counter(lines).items() if n > 1]
    assert not duplicates, duplicates[:3]
    assert len(lines) == CRASH_COUNT
    numbers = Counter(int(line.rsplit("#", 1)[1]) for line in lines)
    assert set(numbers) == set(range(CRASH_COUNT))
    assert max(numbers.values()) == 1
    assert (data / "journals" / CRASH_GUILD / "MEMORY.md").is_file()


def test_pending_jobs_resume_after_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    db = data / "memory.db"

    # A deferred import with no drain time: whatever is not processed yet stays pending.
    deferred = run_cli(
        data, "import", "--defer", str(SAMPLE_EXPORT), env=cli_env(MEMORYBOT_DRAIN_TIMEOUT="0")
    )
    assert deferred.returncode == 0, deferred.stderr
    stored = parse_summary(deferred.stdout)["new"]
    assert stored > 0

    row = stats_json(data)[SAMPLE_GUILD]
    assert row["messages"] == stored
    pending_in_db = query(db, "SELECT COUNT(*) FROM ingest_jobs WHERE status = 'pending'")[0][0]
    assert row["pending_jobs"] == pending_in_db
    assert row["dropped_jobs"] == row["failed_jobs"] == 0

    # Leave the newest 100 jobs exactly as a process killed between storing and processing
    # leaves them (pending, never attempted), whatever the deferred run managed to finish.
    conn = sqlite3.connect(db)
    try:
        with conn:
            conn.execute(
                "UPDATE ingest_jobs SET status = 'pending', attempts = 0 WHERE message_row IN "
                "(SELECT message_row FROM ingest_jobs ORDER BY message_row DESC LIMIT 100)"
            )
    finally:
        conn.close()
    left_pending = query(db, "SELECT COUNT(*) FROM ingest_jobs WHERE status = 'pending'")[0][0]
    assert left_pending >= 100
    assert stats_json(data)[SAMPLE_GUILD]["pending_jobs"] == left_pending

    # Journals do not wait for extraction: every stored message has its daily-log line.
    refreshed = run_cli(data, "refresh-journals")
    assert refreshed.returncode == 0, refreshed.stderr
    assert (data / "journals" / SAMPLE_GUILD / "MEMORY.md").is_file()
    assert (data / "journals" / "MEMORY.md").is_file()
    lines = daily_log_lines(data, SAMPLE_GUILD)
    assert len(lines) == len(set(lines)) == stored

    # The next import starts the queue, which resumes the pending jobs and finishes them.
    resumed = run_cli(data, "import", str(SAMPLE_EXPORT))
    assert resumed.returncode == 0, resumed.stderr
    assert parse_summary(resumed.stdout)["new"] == 0

    row = stats_json(data)[SAMPLE_GUILD]
    assert row["messages"] == stored
    assert row["pending_jobs"] == row["dropped_jobs"] == row["failed_jobs"] == 0
    statuses = dict(query(db, "SELECT status, COUNT(*) FROM ingest_jobs GROUP BY status"))
    assert statuses == {"done": stored}
    never_run = query(db, "SELECT COUNT(*) FROM ingest_jobs WHERE attempts = 0")[0][0]
    assert never_run == 0, "a resumed job was marked done without being processed"
    lines_after = daily_log_lines(data, SAMPLE_GUILD)
    assert sorted(lines_after) == sorted(lines)  # resuming wrote no second line
