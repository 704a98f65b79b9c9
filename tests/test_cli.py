"""The ``memorybot`` command line, run as a real subprocess against a real data directory."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.gen_export import write_export as write_export_of_size
from tests.helpers import (
    MEMORYBOT,
    built_once,
    cli_env,
    export_message,
    parse_summary,
    run_cli,
    stats_json,
    write_export,
)

pytestmark = pytest.mark.slow  # not in the quick run (pytest -m "not slow")

REPO = Path(__file__).resolve().parent.parent
SAMPLE_EXPORT = REPO / "memory" / "samples" / "sample_export.json"
SAMPLE_GUILD = "584822070181888001"
BIG_GUILD = "700000000000000007"
BIG_COUNT = 20_000
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
BAR_CHARS = ("━", "╸", "╺")


@pytest.fixture(scope="module")
def big_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic export of 20k messages (~11 MB: read by the child reader process), made
    once for the run; tests only read it."""

    def generated(folder: Path) -> None:
        write_export_of_size(folder / "gen20k.json", BIG_COUNT, guild_id=BIG_GUILD, seed=7)

    return built_once(tmp_path_factory, "big-export", generated) / "gen20k.json"


def valid_export(path: Path, count: int) -> Path:
    """An export whose every message is a person's meaningful message (all are stored)."""
    messages = [
        export_message(1_000_000 + i, f"message number {i} about the weekend plans")
        for i in range(count)
    ]
    return write_export(path, messages)


# --- help ---------------------------------------------------------------------------------


def test_help_lists_commands(tmp_path: Path) -> None:
    result = run_cli(tmp_path / "data", "--help")
    assert result.returncode == 0
    commands = result.stdout.split("Commands:", 1)[1]
    listed = {line.split()[0] for line in commands.splitlines() if line.strip()}
    assert {"import", "stats", "doctor", "refresh-journals"} <= listed


# --- import -------------------------------------------------------------------------------


def test_import_sample_then_stats_and_reimport(tmp_path: Path) -> None:
    data = tmp_path / "data"
    read_total = len(json.loads(SAMPLE_EXPORT.read_text(encoding="utf-8"))["messages"])

    result = run_cli(data, "import", str(SAMPLE_EXPORT))
    assert result.returncode == 0, result.stderr
    first = parse_summary(result.stdout)
    assert first["files"] == 1
    assert first["read"] == read_total
    assert first["new"] > 0
    assert first["new"] + first["skipped"] == read_total
    assert first["queued"] == first["new"]
    assert "Traceback" not in result.stderr

    stats = stats_json(data)
    assert set(stats) == {SAMPLE_GUILD}
    row = stats[SAMPLE_GUILD]
    assert row["messages"] == first["new"] > 0
    assert row["pending_jobs"] == row["dropped_jobs"] == row["failed_jobs"] == 0
    assert row["name"] == "Tabletop Tavern"

    table = run_cli(data, "stats")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split()[:3] == ["guild", "name", "messages"]
    guild_lines = [line for line in lines if line.startswith(SAMPLE_GUILD)]
    assert len(guild_lines) == 1
    assert str(first["new"]) in guild_lines[0].split()

    again = run_cli(data, "import", str(SAMPLE_EXPORT))
    assert again.returncode == 0, again.stderr
    second = parse_summary(again.stdout)
    assert second["read"] == read_total
    assert second["new"] == 0
    assert second["queued"] == 0
    assert second["skipped"] == read_total
    assert "already stored" in again.stdout
    assert stats_json(data)[SAMPLE_GUILD]["messages"] == first["new"]


def test_import_json_summary(tmp_path: Path) -> None:
    result = run_cli(tmp_path / "data", "import", "--json", str(SAMPLE_EXPORT))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)  # stdout is nothing but the JSON document
    assert {"files", "read", "new", "skipped", "queued", "errors"} <= set(summary)
    assert summary["files"] == 1
    assert summary["errors"] == []
    assert summary["new"] > 0
    assert summary["new"] + summary["skipped"] == summary["read"]
    assert summary["queued"] == summary["new"]
    assert SAMPLE_GUILD in summary["guilds"]


def test_import_missing_path_is_one_error_line(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "export.json"
    result = run_cli(tmp_path / "data", "import", str(missing))
    assert result.returncode != 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error:")
    assert str(missing) in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("size", ["small", "large"])
def test_import_truncated_export_keeps_messages_before_the_break(
    tmp_path: Path, big_export: Path, size: str
) -> None:
    """Small exports are parsed in process; exports of 4 MB and more by a child process."""
    data = tmp_path / "data"
    if size == "small":
        whole = valid_export(tmp_path / "whole.json", 1000).read_bytes()
        guild = "111111111111111111"
    else:
        whole = big_export.read_bytes()
        guild = BIG_GUILD
    cut = tmp_path / "cut-export.json"
    cut.write_bytes(whole[: len(whole) // 2])

    quick = cli_env(MEMORYBOT_EXTRACTOR="none")  # what is stored is the subject, not extraction
    result = run_cli(data, "import", str(cut), env=quick)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert "cut-export.json" in errors[0]
    match = re.search(r"JSON breaks after message #(\d+)", errors[0])
    assert match, errors[0]
    before_break = int(match.group(1))
    assert before_break > 0

    # Every message of this export is a valid person's message: each one parsed before the
    # break must be stored (DESIGN: what was read before a fault is kept).
    stored = stats_json(data)[guild]["messages"]
    assert stored == before_break, (
        f"{before_break} messages precede the break but {stored} were stored"
    )


def test_import_folder_ignores_non_export_json(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    (folder / "nested").mkdir(parents=True)
    shutil.copy(SAMPLE_EXPORT, folder / "nested" / "tavern.json")
    (folder / "questions.json").write_text(
        json.dumps({"questions": [{"q": "where does Sarah work?", "a": "a hospital"}]}),
        encoding="utf-8",
    )
    (folder / "notes.txt").write_text("not json at all", encoding="utf-8")

    result = run_cli(tmp_path / "data", "import", str(folder))
    assert result.returncode == 0, result.stderr
    summary = parse_summary(result.stdout)
    assert summary["files"] == 1
    assert summary["new"] > 0
    assert "ignored 1 JSON file(s) that are not exports" in result.stdout
    assert "error" not in result.stderr
    assert stats_json(tmp_path / "data")[SAMPLE_GUILD]["messages"] == summary["new"]


def test_import_named_non_export_is_an_error(tmp_path: Path) -> None:
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps({"questions": []}), encoding="utf-8")
    result = run_cli(tmp_path / "data", "import", str(questions))
    assert result.returncode != 0
    assert "not a DiscordChatExporter JSON export" in result.stderr
    assert "Traceback" not in result.stderr


def test_import_defer_stores_messages(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = run_cli(data, "import", "--defer", str(SAMPLE_EXPORT))
    assert result.returncode == 0, result.stderr
    assert "processing deferred" in result.stdout
    summary = parse_summary(result.stdout)
    assert summary["new"] > 0
    row = stats_json(data)[SAMPLE_GUILD]
    assert row["messages"] == summary["new"]
    assert row["dropped_jobs"] == row["failed_jobs"] == 0


def test_commands_that_touch_no_vector_never_import_numpy(tmp_path: Path) -> None:
    """numpy (0.1 s) is imported where vectors are made: an import without extraction and
    `stats` start without it (sqlite-vec is loaded without importing its package either)."""
    data_dir = tmp_path / "data"
    script = (
        "import sys\n"
        "from bot.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
        "print('numpy' in sys.modules, file=sys.stderr)\n"
    )
    for args in (
        ["--data-dir", str(data_dir), "import", "--json", str(SAMPLE_EXPORT)],
        ["--data-dir", str(data_dir), "stats", "--json"],
    ):
        result = subprocess.run(
            [sys.executable, "-c", script, *args],
            capture_output=True,
            text=True,
            timeout=180,
            env=cli_env(MEMORYBOT_EXTRACTOR="none"),
            cwd=REPO,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stderr.strip().splitlines()[-1] == "False", args


# --- doctor -------------------------------------------------------------------------------


def test_doctor_reports_versions(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = run_cli(data, "doctor")
    assert result.returncode == 0, result.stdout + result.stderr
    checks = dict(
        re.match(r"\[(ok |ERR)\] ([^:]+): (.*)$", line).groups()[1:]  # type: ignore[union-attr]
        for line in result.stdout.splitlines()
    )
    assert re.fullmatch(r"\d+\.\d+\.\d+", checks["sqlite"])
    assert checks["fts5"] == "available"
    assert re.fullmatch(r"v0\.1\.\d+", checks["sqlite-vec"])
    assert checks["data dir"] == str(data.resolve())
    assert all(line.startswith("[ok ]") for line in result.stdout.splitlines())

    as_json = run_cli(data, "doctor", "--json")
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert report["ok"] is True
    names = {check["name"] for check in report["checks"]}
    assert {"settings", "data dir", "sqlite", "fts5", "sqlite-vec"} <= names
    assert all(check["ok"] for check in report["checks"])


def test_doctor_with_invalid_setting_fails_the_settings_check(tmp_path: Path) -> None:
    env = cli_env(MEMORYBOT_MAX_QUEUE="abc")
    result = run_cli(tmp_path / "data", "doctor", env=env)
    assert result.returncode != 0
    settings_lines = [line for line in result.stdout.splitlines() if "settings:" in line]
    assert len(settings_lines) == 1
    assert settings_lines[0].startswith("[ERR] settings:")
    assert "MEMORYBOT_MAX_QUEUE" in settings_lines[0]
    assert "Traceback" not in result.stderr

    as_json = run_cli(tmp_path / "data", "doctor", "--json", env=env)
    assert as_json.returncode != 0
    report = json.loads(as_json.stdout)
    assert report["ok"] is False
    (settings_check,) = [c for c in report["checks"] if c["name"] == "settings"]
    assert settings_check["ok"] is False
    assert "MEMORYBOT_MAX_QUEUE" in settings_check["detail"]


# --- journals -----------------------------------------------------------------------------


def test_refresh_journals_writes_and_recreates_snapshots(tmp_path: Path) -> None:
    data = tmp_path / "data"
    imported = run_cli(data, "import", "--defer", str(SAMPLE_EXPORT))
    assert imported.returncode == 0, imported.stderr
    guild_snapshot = data / "journals" / SAMPLE_GUILD / "MEMORY.md"
    index = data / "journals" / "MEMORY.md"

    result = run_cli(data, "refresh-journals")
    assert result.returncode == 0, result.stderr
    assert "refreshed MEMORY.md of 1 guild(s)" in result.stdout
    assert guild_snapshot.is_file()
    assert index.is_file()
    assert guild_snapshot.read_text(encoding="utf-8").startswith("# Durable Memory Snapshot")
    assert SAMPLE_GUILD in index.read_text(encoding="utf-8")

    guild_snapshot.unlink()
    again = run_cli(data, "refresh-journals")
    assert again.returncode == 0, again.stderr
    assert guild_snapshot.is_file()
    assert guild_snapshot.read_text(encoding="utf-8").startswith("# Durable Memory Snapshot")


# --- progress bar only on a terminal --------------------------------------------------------


def run_in_pty(args: list[str], env: dict[str, str], timeout: float = 120) -> tuple[int, str]:
    """Run with stdout and stderr on a pseudo-terminal; return the exit code and all output."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, close_fds=True
        )
    finally:
        os.close(slave)
    output = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer of the terminal is gone
                    break
                if not chunk:
                    break
                output += chunk
        else:
            proc.kill()
            pytest.fail("memorybot under a pseudo-terminal did not finish in time")
        code = proc.wait(timeout=30)
    finally:
        os.close(master)
    return code, output.decode("utf-8", errors="replace")


def test_progress_bar_only_on_a_terminal(tmp_path: Path, big_export: Path) -> None:
    quick = cli_env(MEMORYBOT_EXTRACTOR="none")  # the bar is the subject, not extraction
    plain = run_cli(tmp_path / "plain", "import", str(big_export), env=quick)
    assert plain.returncode == 0, plain.stderr
    assert parse_summary(plain.stdout)["new"] == BIG_COUNT
    for text in (plain.stderr, plain.stdout):
        assert "import gen20k.json" not in text
        assert not re.search(r"\d+%", text)
        assert not any(char in text for char in BAR_CHARS)

    env = cli_env(TERM="xterm-256color", COLUMNS="120", LINES="40", MEMORYBOT_EXTRACTOR="none")
    code, raw = run_in_pty(
        [str(MEMORYBOT), "--data-dir", str(tmp_path / "tty"), "import", str(big_export)], env
    )
    assert code == 0, raw
    text = ANSI.sub("", raw)
    assert parse_summary(text)["new"] == BIG_COUNT
    assert re.search(r"import gen20k\.json\s+[━╸╺]+\s+100%", text), text[-2000:]
    percentages = {int(p) for p in re.findall(r"(\d{1,3})%", text)}
    assert 100 in percentages


def _stored_messages(data: Path) -> int:
    """Messages on disk, read without disturbing the writer (0 while there is no table)."""
    try:
        conn = sqlite3.connect(f"file:{data / 'memory.db'}?mode=ro", uri=True, timeout=5)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return 0


def test_ctrl_c_during_an_import_keeps_what_was_stored(tmp_path: Path, big_export: Path) -> None:
    data = tmp_path / "data"
    proc = subprocess.Popen(
        [str(MEMORYBOT), "--data-dir", str(data), "import", str(big_export)],
        env=cli_env(MEMORYBOT_EXTRACTOR="none"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while _stored_messages(data) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # interrupt once some messages are stored
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    if proc.returncode == 0:  # it finished before the signal: then all of it is there
        assert stats_json(data)[BIG_GUILD]["messages"] == BIG_COUNT
        return
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == (
        "interrupted: what was stored is kept; run the same command again to finish"
    )
    kept = stats_json(data)[BIG_GUILD]
    assert kept["pending_jobs"] + kept["messages"] > 0
    again = run_cli(data, "import", str(big_export), env=cli_env(MEMORYBOT_EXTRACTOR="none"))
    assert again.returncode == 0, again.stderr
    assert stats_json(data)[BIG_GUILD]["messages"] == BIG_COUNT


async def test_a_second_writer_on_one_data_dir_is_refused_but_stats_still_work(
    tmp_path: Path,
) -> None:
    from memory.runtime import open_memory
    from memory.settings import load_settings

    data = tmp_path / "data"
    async with open_memory(load_settings(data_dir=data)):
        refused = run_cli(data, "import", str(SAMPLE_EXPORT))
        assert refused.returncode == 1
        (line,) = refused.stderr.splitlines()
        assert line == (
            f"error: data directory {data} is in use by another memorybot process "
            f"(pid {os.getpid()}); stop it, or use another --data-dir"
        )
        assert run_cli(data, "stats", "--json").returncode == 0
    assert run_cli(data, "import", str(SAMPLE_EXPORT)).returncode == 0


def test_backfill_reextracts_everything_with_a_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    data = tmp_path / "data"
    imported = run_cli(data, "import", str(SAMPLE_EXPORT), env=cli_env(MEMORYBOT_EXTRACTOR="none"))
    assert imported.returncode == 0, imported.stderr
    new = parse_summary(imported.stdout)["new"]
    guild = next(iter(stats_json(data)))
    assert stats_json(data)[guild]["facts"] == 0

    env = cli_env(TERM="xterm-256color", COLUMNS="120", LINES="40")
    args = [str(MEMORYBOT), "--data-dir", str(data), "backfill", "--extraction", "--all"]
    code, raw = run_in_pty(args, env)
    assert code == 0, raw
    text = ANSI.sub("", raw)
    assert re.search(rf"re-extract\s+[━╸╺]+\s+{new}/{new}", text), text[-2000:]
    assert f"re-ran extraction of {new} message(s) in 1 guild(s); 0 job(s) failed" in text
    assert stats_json(data)[guild]["active_facts"] > 0


def test_an_import_shows_its_members_facts_being_judged(tmp_path: Path) -> None:
    """With the lifecycle on (the default), an import's facts are judged once its messages
    are processed, members at a time: a bar of its own, complete when the command returns
    (2,000 messages: some 40 members' facts; the 20k export tells no more, at twice the time)."""
    export = tmp_path / "gen2k.json"
    write_export_of_size(export, 2_000, guild_id=BIG_GUILD, seed=7)
    env = cli_env(TERM="xterm-256color", COLUMNS="120", LINES="40")
    code, raw = run_in_pty(
        [str(MEMORYBOT), "--data-dir", str(tmp_path / "tty"), "import", str(export)], env
    )
    assert code == 0, raw
    text = ANSI.sub("", raw)
    assert re.search(r"judge the facts of \d+ member\(s\)\s+[━╸╺]+\s+100%", text), text[-2000:]
    conn = sqlite3.connect(tmp_path / "tty" / "memory.db")
    try:
        assert conn.execute("SELECT count(*) FROM subjects_to_settle").fetchone() == (0,)
    finally:
        conn.close()
