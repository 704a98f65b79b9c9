"""The data directory is private: folders 0700, files 0600 (the database, its WAL and
shared memory, journals, the lock, the API token) — made so by the CLI, and tightened with
one warning line when found looser. A token file too short to be a secret is refused."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memory.storage.db import connect_sync
from tests.helpers import GUILD_A, export_message, run_cli, write_export


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _modes(data_dir: Path) -> dict[str, int]:
    """Mode of the data directory and of every folder and file under it."""
    found = {".": _mode(data_dir)}
    for path in sorted(data_dir.rglob("*")):
        found[str(path.relative_to(data_dir))] = _mode(path)
    return found


def test_what_the_cli_creates_only_its_user_can_read(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"  # made by the import
    export = write_export(tmp_path / "export.json", [export_message(1, "I love hiking")])

    result = run_cli(data_dir, "import", str(export))

    assert result.returncode == 0, result.stderr
    reader = connect_sync(data_dir / "memory.db")  # with a reader, WAL and -shm stay
    try:
        reader.execute("SELECT count(*) FROM messages").fetchone()
        modes = _modes(data_dir)
    finally:
        reader.close()
    assert {name for name in modes} >= {
        ".",
        "memory.db",
        "memory.db-wal",
        "memory.db-shm",
        "memorybot.lock",
        "journals",
        "journals/MEMORY.md",
        f"journals/{GUILD_A}",
        f"journals/{GUILD_A}/MEMORY.md",
        f"journals/{GUILD_A}/2026-10-12.md",
    }
    folders = {".", "journals", f"journals/{GUILD_A}"}
    assert {name: mode for name, mode in modes.items() if name in folders} == dict.fromkeys(
        folders, 0o700
    )
    assert {name: mode for name, mode in modes.items() if name not in folders} == dict.fromkeys(
        set(modes) - folders, 0o600
    )


def test_a_data_directory_found_readable_by_others_is_tightened_with_one_warning(
    one_message_imported: Path,
) -> None:
    data_dir = one_message_imported
    # As an older memorybot (or a copy) left it.
    loose = ["memory.db", "memorybot.lock", "api-token", f"journals/{GUILD_A}/2026-10-12.md"]
    (data_dir / "api-token").write_text("a-long-enough-secret-token-value\n", encoding="utf-8")
    for name in loose:
        os.chmod(data_dir / name, 0o644)
    for folder in (data_dir, data_dir / "journals", data_dir / "journals" / GUILD_A):
        os.chmod(folder, 0o755)
    other = data_dir / "notes.txt"  # not memorybot's: left as it is
    other.write_text("mine\n", encoding="utf-8")
    os.chmod(other, 0o644)

    result = run_cli(data_dir, "refresh-journals")

    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, result.stderr
    assert "7 folder(s) or file(s) could be read by other users" in warnings[0]
    assert "made private (folders 0700, files 0600)" in warnings[0]
    modes = _modes(data_dir)
    assert modes.pop("notes.txt") == 0o644
    assert {mode for name, mode in modes.items() if (data_dir / name).is_dir()} == {0o700}
    assert {mode for name, mode in modes.items() if (data_dir / name).is_file()} == {0o600}

    again = run_cli(data_dir, "refresh-journals")  # nothing left to tighten: no warning
    assert again.returncode == 0 and "WARNING" not in again.stderr, again.stderr


def test_a_token_file_too_short_to_be_a_secret_is_refused(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    token = data_dir / "api-token"
    token.write_text("abc\n", encoding="utf-8")

    result = run_cli(data_dir, "serve", "--port", "0", timeout=60)

    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        f"configuration error: the API token file {token} holds a token of 3 characters: use "
        "at least 16 (or delete the file, and a new token is made)"
    )
    assert "Traceback" not in result.stderr


async def test_memory_run_in_process_keeps_its_folders_private_whatever_the_umask(
    tmp_path: Path,
) -> None:
    """A program that runs memory itself (as the benchmarks do) has not set the CLI's umask:
    the journal folders are still made 0700."""
    from bot.commands_ingest import run_import
    from memory.settings import load_settings

    data_dir = tmp_path / "data"
    export = write_export(tmp_path / "export.json", [export_message(1, "I love hiking")])
    settings = load_settings(data_dir=data_dir, extractor="offline")
    previous = os.umask(0o022)
    try:
        _summary, errors = await run_import(settings, [export], quiet=True)
    finally:
        os.umask(previous)

    assert errors == []
    folders = {name: mode for name, mode in _modes(data_dir).items() if name in
               {".", "journals", f"journals/{GUILD_A}"}}  # fmt: skip
    assert folders == dict.fromkeys([".", "journals", f"journals/{GUILD_A}"], 0o700)
