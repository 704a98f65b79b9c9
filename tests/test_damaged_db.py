"""A damaged ``memory.db`` (pages in its middle overwritten): every command says so in one
line that points to ``memorybot doctor``, ``doctor`` reports it (``PRAGMA quick_check``), and
``doctor --repair`` saves what can be read into a new database, the damaged file kept aside.
Real files, real damage, the CLI in subprocesses."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.helpers import (
    GUILD_A,
    MIKE,
    SARAH,
    built_once,
    export_message,
    run_cli,
    sql,
    write_export,
)

MESSAGES = 600


PAGE = 4096


def _overwrite(db: Path, pages: Iterable[int]) -> None:
    """Overwrite the given pages (numbered from 1, as SQLite does) with garbage."""
    with open(db, "r+b") as handle:
        for number in pages:
            handle.seek((number - 1) * PAGE)
            handle.write(b"\x5a" * PAGE)


def _middle(db: Path) -> range:
    """The pages from 30% to 70% of the file."""
    pages = db.stat().st_size // PAGE
    return range(pages * 3 // 10, pages * 7 // 10)


def _schema_pages(db: Path) -> list[int]:
    """The pages holding ``sqlite_schema`` (the table of tables), from SQLite's dbstat."""
    rows = sql(db, "SELECT pageno FROM dbstat WHERE name = 'sqlite_schema' ORDER BY pageno")
    return [row[0] for row in rows]


def _import(root: Path) -> None:
    messages = [
        export_message(n, f"I play chess with my friend number {n} every evening", author=who)
        for n, who in ((n, SARAH if n % 2 else MIKE) for n in range(MESSAGES))
    ]
    export = write_export(root / "export.json", messages)
    result = run_cli(root / "data", "import", str(export))
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def imported_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The export imported once; each test damages a copy of its own (``imported``)."""
    return built_once(tmp_path_factory, "damaged-db", _import) / "data"


@pytest.fixture
def imported(imported_once: Path, tmp_path: Path) -> Path:
    """A data directory of its own with the export imported."""
    return shutil.copytree(imported_once, tmp_path / "data")


@pytest.fixture
def damaged(imported: Path) -> Path:
    """Pages in the middle overwritten, the schema's own pages spared (their damage is
    its own case below)."""
    db = imported / "memory.db"
    schema = set(_schema_pages(db))
    _overwrite(db, [n for n in _middle(db) if n not in schema])
    return imported


def _one_clear_line(result: object, data_dir: Path) -> None:
    returncode, stderr = result.returncode, result.stderr  # type: ignore[attr-defined]
    assert returncode == 1, stderr
    assert "Traceback" not in stderr
    assert stderr.splitlines()[-1] == (
        f"error: the database {data_dir / 'memory.db'} is damaged (database disk image is "
        "malformed): run `memorybot doctor` to check it; with memorybot stopped, `memorybot "
        "doctor --repair` saves what can be read (or restore a backup)"
    )


def test_commands_on_a_damaged_database_say_so_in_one_line(damaged: Path, tmp_path: Path) -> None:
    more = write_export(tmp_path / "more.json", [export_message(9000, "I like green tea")])
    for args in (
        ["stats"],
        ["forget", "--guild", GUILD_A, "--user", SARAH.id, "--yes"],
        ["import", str(more)],
        ["search", "--guild", GUILD_A, "--kind", "messages", "chess"],
    ):
        _one_clear_line(run_cli(damaged, *args), damaged)


def test_doctor_finds_the_damage_and_repair_saves_what_can_be_read(damaged: Path) -> None:
    doctor = run_cli(damaged, "doctor")
    assert doctor.returncode == 1
    (line,) = [line for line in doctor.stdout.splitlines() if "database" in line]
    assert line.startswith(f"[ERR] database: {damaged / 'memory.db'} is damaged (quick_check: ")
    assert line.endswith("`memorybot doctor --repair` saves what can be read (or restore a backup)")

    repaired = run_cli(damaged, "doctor", "--repair")

    assert repaired.returncode == 0, repaired.stderr
    assert repaired.stdout.startswith(f"repaired {damaged / 'memory.db'}: saved ")
    (kept,) = damaged.glob("memory.db.damaged-*")
    assert kept.name in repaired.stdout
    checked = run_cli(damaged, "doctor")
    assert checked.returncode == 0, checked.stdout
    assert "quick_check ok" in checked.stdout
    saved = sql(damaged / "memory.db", "SELECT count(*) FROM messages")[0][0]
    assert 0 < saved < MESSAGES
    # What was saved is searchable again: the full-text index was made from it.
    indexed = sql(
        damaged / "memory.db",
        "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'chess'",
    )[0][0]
    assert indexed == saved
    stats = run_cli(damaged, "stats")
    assert stats.returncode == 0, stats.stderr
    assert f"{saved}" in stats.stdout
    more = run_cli(damaged, "forget", "--guild", GUILD_A, "--user", SARAH.id, "--yes")
    assert more.returncode == 0, more.stderr


def test_repair_leaves_a_sound_database_alone(one_message_imported: Path) -> None:
    data_dir = one_message_imported

    result = run_cli(data_dir, "doctor", "--repair")

    assert result.returncode == 0
    assert result.stdout.strip() == (
        f"{data_dir / 'memory.db'} passes quick_check: nothing to repair"
    )
    assert list(data_dir.glob("memory.db.damaged-*")) == []


def test_repair_saves_the_tables_whose_schema_survived_a_damaged_schema_page(
    imported: Path,
) -> None:
    db = imported / "memory.db"
    first, *later = _schema_pages(db)
    assert first == 1 and later, "the schema spans more than one page"
    _overwrite(db, [later[-1], *_middle(db)])

    repaired = run_cli(imported, "doctor", "--repair")

    assert repaired.returncode == 0, repaired.stderr
    assert "the schema of " in repaired.stdout
    assert "could not be read, so none of their rows were: " in repaired.stdout
    assert run_cli(imported, "doctor").returncode == 0
    saved = sql(db, "SELECT count(*) FROM messages")[0][0]
    assert 0 < saved <= MESSAGES


def test_repair_of_a_file_with_nothing_readable_says_restore_a_backup_and_keeps_it(
    imported: Path,
) -> None:
    db = imported / "memory.db"
    _overwrite(db, [1])
    before = db.read_bytes()

    result = run_cli(imported, "doctor", "--repair")

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"error: nothing can be read from {db} (file is not a database): restore a backup"
    )
    assert db.read_bytes() == before
    assert sorted(p.name for p in imported.glob("memory.db*")) == ["memory.db"]
    doctor = run_cli(imported, "doctor")
    (line,) = [line for line in doctor.stdout.splitlines() if "database" in line]
    assert line.endswith("its first page cannot be read: restore a backup")
