"""Forgetting a member leaves no trace of their words in the data directory: not in
``memory.db`` (free pages, the full-text indexes), not in its WAL, not in a temporary
journal file that a killed write left behind. Real imports through the CLI, then a grep of
the raw bytes of every file."""

from __future__ import annotations

from pathlib import Path

from memory.storage.db import connect_sync
from tests.helpers import GUILD_A, MIKE, SARAH, export_message, run_cli, write_export

SARAH_SAYS = [
    "zanzibarquokka is my favourite word",
    "I love my purple xylophonegarden",
    "I work at Flibbertigibbet Corp now",
    "my cat Wobblesnort is sick again",
    "we went to Quixotrambleville yesterday",
    "I prefer marmaladegrapefruit tea in the morning",
    "my sister Hortensiablue lives in Oslo",
]
PHRASES = [
    "zanzibarquokka",
    "xylophonegarden",
    "Flibbertigibbet",
    "Wobblesnort",
    "Quixotrambleville",
    "marmaladegrapefruit",
    "Hortensiablue",
]
MIKE_SAYS = "I really like the band Mikeword{n} and my dog plays chess every evening"


def _export(path: Path, others: int) -> Path:
    """Mike talks a lot; Sarah's seven messages sit between his."""
    messages = []
    for n in range(others):
        messages.append(export_message(1000 + n, MIKE_SAYS.format(n=n), author=MIKE))
        if n % 20 == 0 and n // 20 < len(SARAH_SAYS):
            messages.append(export_message(n, SARAH_SAYS[n // 20], author=SARAH))
    return write_export(path, messages)


def _files_with(data_dir: Path, word: str) -> list[str]:
    """Every file under ``data_dir`` whose raw bytes hold ``word`` (any case: the full-text
    index keeps words folded)."""
    needle = word.lower().encode("utf-8")
    return sorted(
        str(p.relative_to(data_dir))
        for p in data_dir.rglob("*")
        if p.is_file() and needle in p.read_bytes().lower()
    )


def test_forget_leaves_no_trace_in_the_database_its_wal_or_temporary_files(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    export = _export(tmp_path / "export.json", others=400)
    # A reader stays connected the whole time (the API, a `memorybot search` beside the
    # bot): SQLite then keeps the WAL file, with every page written to it, after each CLI
    # process exits.
    data_dir.mkdir()
    reader = connect_sync(data_dir / "memory.db")
    try:
        imported = run_cli(data_dir, "import", str(export))
        assert imported.returncode == 0, imported.stderr
        assert reader.execute("SELECT count(*) FROM messages").fetchone() == (407,)
        wal = data_dir / "memory.db-wal"
        assert wal.exists()
        for word in PHRASES:  # stored, indexed and journaled before
            assert "memory.db" in _files_with(data_dir, word) or "memory.db-wal" in _files_with(
                data_dir, word
            ), word
        # A MEMORY.md rewrite killed half-way left its temporary file.
        left = data_dir / "journals" / GUILD_A / ".MEMORY.md.k3j2h1q0.tmp"
        left.write_text(f"- Sarah: {SARAH_SAYS[3]}\n", encoding="utf-8")

        forgot = run_cli(data_dir, "forget", "--guild", GUILD_A, "--user", SARAH.id, "--yes")
        assert forgot.returncode == 0, forgot.stderr
        assert "deleted 7 messages" in forgot.stdout

        for word in PHRASES:
            assert _files_with(data_dir, word) == [], word
        assert not left.exists()
        # Mike's words are all still there, and searchable.
        assert "memory.db" in _files_with(data_dir, "Mikeword399")
        assert reader.execute(
            "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'mikeword123'"
        ).fetchone() == (1,)
    finally:
        reader.close()


def test_every_connection_zeroes_what_it_deletes(tmp_path: Path) -> None:
    conn = connect_sync(tmp_path / "memory.db")
    try:
        assert conn.execute("PRAGMA secure_delete").fetchone() == (1,)
    finally:
        conn.close()
