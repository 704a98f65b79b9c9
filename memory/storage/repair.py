"""A damaged ``memory.db`` (a disk fault, a copy cut short, pages overwritten): telling it
(``is_damage``, ``quick_check``) and saving what can be read of it (``repair``).

``repair`` makes a new database with the current schema beside the damaged one, copies into
it every row of every table that can still be read — walking each table by rowid and
stepping over the stretches whose pages are unreadable; where the schema's own pages are
damaged, the tables whose schema could be read — rebuilds the full-text indexes,
then puts the new file in place and keeps the damaged one aside as
``memory.db.damaged-<time>`` (with its WAL). Fact vectors are not carried over (their tables
are SQLite extensions' own pages): ``memorybot backfill --embeddings`` makes them again,
from the embedding cache where it survived.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory.errors import UnrecoverableError
from memory.storage.damage import is_damage, reason
from memory.storage.db import connect_sync, open_connection, raw_connect

log = logging.getLogger(__name__)

#: Tables a repair leaves empty: the registry of vector tables (their vectors are made again).
NOT_COPIED = frozenset({"_migrations", "memory_vector_tables"})
FTS_TABLES = ("messages_fts", "memory_facts_fts")
_LAST_ROWID = 1 << 62  # a probe past this gives up on the rest of a table


def quick_check(path: Path) -> list[str]:
    """SQLite's ``PRAGMA quick_check``: [] when the file is sound, else up to 10 problems."""
    try:
        conn = connect_sync(path)
    except Exception as exc:
        if is_damage(exc):
            return [reason(exc)]
        raise
    try:
        rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check(10)")]
    except Exception as exc:
        if is_damage(exc):
            return [reason(exc)]
        raise
    finally:
        conn.close()
    return [] if rows == ["ok"] else rows


@dataclass(slots=True)
class RepairReport:
    """What a repair saved (rows per table), how many unreadable stretches it stepped over,
    and where the damaged file was put."""

    saved: dict[str, int] = field(default_factory=dict)
    stretches: int = 0
    kept_as: str = ""
    lost_tables: list[str] = field(default_factory=list)

    def describe(self) -> str:
        shown = ", ".join(
            f"{self.saved.get(t, 0):,} {t}" for t in ("messages", "memory_facts", "members")
        )
        lost = (
            f"; the schema of {len(self.lost_tables)} table(s) could not be read, so none of "
            f"their rows were: {', '.join(self.lost_tables)}"
            if self.lost_tables
            else ""
        )
        return (
            f"saved {shown} (and {sum(self.saved.values()):,} rows in all) into a new database; "
            f"stepped over {self.stretches} unreadable stretch(es){lost}; the damaged file is kept "
            f"as {self.kept_as}. Next: `memorybot backfill --embeddings` (fact vectors are "
            "made again) and `memorybot refresh-journals`"
        )


async def repair(path: Path) -> RepairReport:
    """Save what can be read of the damaged database at ``path`` into a new one that takes
    its place (the caller holds the data directory's lock). ``UnrecoverableError`` when
    nothing can be read (then only a backup helps)."""
    fresh = path.with_name(path.name + ".repairing")
    await asyncio.to_thread(_remove_with_wal, fresh)
    db = await open_connection(fresh)  # the current schema, every migration applied
    await db.close()
    report = await asyncio.to_thread(_salvage, path, fresh)
    log.info("repaired %s: %s", path, report.describe())
    return report


def _salvage(path: Path, fresh: Path) -> RepairReport:
    """Copy into ``fresh``, then put it in ``path``'s place; the damaged files kept aside."""
    try:
        report = _copy_all(path, fresh)
    except BaseException:
        _remove_with_wal(fresh)
        raise
    kept = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        old = Path(f"{path}{suffix}")
        if old.exists():
            old.rename(f"{kept}{suffix}")
    fresh.rename(path)
    report.kept_as = str(kept)
    return report


def _copy_all(damaged: Path, fresh: Path) -> RepairReport:
    report = RepairReport()
    src = raw_connect(str(damaged))
    try:
        schema_read = _read_schema(src, damaged)
        src_tables = _columns_by_table(src)
    except Exception as exc:
        src.close()
        if not is_damage(exc):
            raise
        raise UnrecoverableError(
            f"nothing can be read from {damaged} ({reason(exc)}): restore a backup"
        ) from None
    dst = connect_sync(fresh)
    try:
        dst.execute("PRAGMA foreign_keys = OFF")
        dst.execute("BEGIN IMMEDIATE")
        for table, columns in _columns_by_table(dst).items():
            if table in NOT_COPIED:
                continue
            if table not in src_tables:  # a table newer than the file, or its schema lost
                if not schema_read:
                    report.lost_tables.append(table)
                continue
            shared = [c for c in columns if c in src_tables[table]]
            if not shared:
                continue
            saved, stretches = _copy_table(src, dst, table, shared)
            report.saved[table] = saved
            report.stretches += stretches
        for table in FTS_TABLES:  # indexed again from the rows saved
            dst.execute(f"INSERT INTO {table} ({table}) VALUES ('rebuild')")
        dst.execute("COMMIT")
    finally:
        dst.close()
        src.close()
    return report


def _read_schema(conn: Any, path: Path) -> bool:
    """Have ``conn`` (to the damaged file, read only) load as much of the schema as can be
    read; whether all of it could. With ``writable_schema`` on, SQLite keeps the schema rows
    it read before a damaged page of ``sqlite_master`` instead of refusing every statement:
    the first statement meets the error, the ones after it use what was read."""
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("PRAGMA query_only = ON")
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except Exception as exc:
        if not is_damage(exc):
            raise
        log.info("repair: the schema of %s is damaged; reading what of it can be read", path)
        return False
    return True


def _columns_by_table(conn: Any) -> dict[str, list[str]]:
    """Ordinary tables (not virtual tables, their shadow tables nor SQLite's own) of the
    schema the connection has read, and their columns."""
    rows = conn.execute("PRAGMA main.table_list").fetchall()
    names = [str(r[1]) for r in rows if r[2] == "table" and not str(r[1]).startswith("sqlite_")]
    return {
        name: [str(r[1]) for r in conn.execute(f'PRAGMA table_info("{name}")')]
        for name in sorted(names)
    }


def _copy_table(src: Any, dst: Any, table: str, columns: Iterable[str]) -> tuple[int, int]:
    """Copy the readable rows of ``table``: ``(rows saved, unreadable stretches)``."""
    cols = ", ".join(f'"{c}"' for c in columns)
    width = len(cols.split(", "))
    insert = f'INSERT OR REPLACE INTO "{table}" ({cols}) VALUES ({", ".join("?" * width)})'
    errors = _errors(src)
    (without_rowid,) = src.execute(
        "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", (table,)
    ).fetchone()
    if without_rowid:
        return _copy_rows(src.execute(f'SELECT {cols} FROM "{table}"'), dst, insert, errors)
    saved = stretches = 0
    last = -(1 << 63)
    while True:
        try:
            rows = src.execute(
                f'SELECT rowid, {cols} FROM "{table}" WHERE rowid > ? ORDER BY rowid', (last,)
            )
            for rowid, *row in rows:
                saved += _insert(dst, insert, row, errors)
                last = rowid
            return saved, stretches
        except errors:
            stretches += 1
            resumed = _past_damage(src, table, last, errors)
            if resumed is None:
                return saved, stretches
            last = resumed


def _copy_rows(rows: Iterable[Any], dst: Any, insert: str, errors: Any) -> tuple[int, int]:
    saved = 0
    try:
        for row in rows:
            saved += _insert(dst, insert, row, errors)
    except errors:
        return saved, 1
    return saved, 0


def _insert(dst: Any, insert: str, row: Any, errors: Any) -> int:
    try:
        dst.execute(insert, tuple(row))
    except errors as exc:  # a row the damage garbled so that the schema refuses it
        log.info("repair: a row was not saved: %s", exc)
        return 0
    return 1


def _past_damage(src: Any, table: str, last: int, errors: Any) -> int | None:
    """A rowid after ``last`` from which ``table`` reads again, or None: steps doubling
    until a read works, then halving back to the first one that does."""

    def readable(after: int) -> bool:
        try:
            src.execute(
                f'SELECT rowid FROM "{table}" WHERE rowid > ? ORDER BY rowid LIMIT 1', (after,)
            ).fetchone()
        except errors:
            return False
        return True

    step = 1
    while not readable(last + step):
        step *= 2
        if last + step >= _LAST_ROWID:
            return None
    bad, good = last + step // 2, last + step
    while good - bad > 1:
        middle = (bad + good) // 2
        bad, good = (bad, middle) if readable(middle) else (middle, good)
    return good


def _errors(conn: Any) -> type[Exception]:
    """The ``DatabaseError`` class of ``conn``'s driver (``sqlite3`` or ``sqlean``)."""
    module = sys.modules[type(conn).__module__]
    error: type[Exception] = module.DatabaseError
    return error


def _remove_with_wal(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
