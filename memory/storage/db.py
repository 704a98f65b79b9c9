"""Opening SQLite with sqlite-vec loaded, the pragmas memorybot relies on, and migrations."""

from __future__ import annotations

import importlib.util
import logging
import sqlite3
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import aiosqlite

from memory.errors import StoreError
from memory.search.scripts import index_text
from memory.storage.fts_tables import FTS_TEXT
from memory.storage.migrations import MIGRATIONS, Step
from memory.storage.permissions import create_private_file, make_private_dir

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000

CACHE_KIB = -16384  # 16 MiB page cache (negative = KiB)


def _stdlib_can_load_extensions() -> bool:
    return hasattr(sqlite3.Connection, "enable_load_extension")


CACHED_STATEMENTS = 1024
"""Prepared statements a connection keeps (sqlite3's default: 128). An import's write step
runs more distinct statements than 128 (lists of ids of every length), so its statements
were prepared again on every use, and preparing one that fires the full-text triggers costs
more than running it: 4,300 msg/s instead of 5,900 on the import bench."""


@cache
def _sqlite_vec_path() -> str:
    """The loadable extension bundled with the ``sqlite-vec`` package (what
    ``sqlite_vec.loadable_path()`` returns), found without importing the package: its
    ``__init__`` imports numpy (0.1 s at every start) for a helper memorybot does not use."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or spec.origin is None:
        raise StoreError("sqlite-vec is not installed: pip install -e . brings it")
    return str(Path(spec.origin).parent / "vec0")


def raw_connect(path: str) -> Any:
    """A DB-API connection able to load extensions: stdlib sqlite3 where it can, else sqlean."""
    if _stdlib_can_load_extensions():
        conn: Any = sqlite3.connect(
            path, check_same_thread=False, isolation_level=None,
            cached_statements=CACHED_STATEMENTS,
        )  # fmt: skip
    else:
        import sqlean

        conn = sqlean.connect(
            path, check_same_thread=False, isolation_level=None,
            cached_statements=CACHED_STATEMENTS,
        )  # fmt: skip
    conn.enable_load_extension(True)
    conn.load_extension(_sqlite_vec_path())
    conn.enable_load_extension(False)
    # What the full-text indexes are given for a text (CJK runs as bigrams; m013's tables
    # and triggers call it, so every connection that writes messages or facts needs it).
    conn.create_function(FTS_TEXT, 1, index_text, deterministic=True)
    return conn


def connect_sync(path: Path | str) -> Any:
    """A configured synchronous connection (used by tools and tests that need no event loop)."""
    conn = raw_connect(str(path))
    _configure(conn)
    return conn


PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    # NORMAL in WAL mode: a killed process loses nothing; only a power cut can lose the
    # last transactions. SQLite-specific, like every PRAGMA here.
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA temp_store = MEMORY",
    f"PRAGMA cache_size = {CACHE_KIB}",
    # Deleted rows are overwritten with zeros, not merely unlinked: what a member asked to
    # be forgotten cannot be read back from free pages or free space inside a page.
    "PRAGMA secure_delete = ON",
)
"""Every connection of memorybot runs these first."""


def _configure(conn: Any) -> None:
    for pragma in PRAGMAS:
        conn.execute(pragma)


class OutsideCommits:
    """Commits to the database by any other connection (other processes' too), noticed
    through ``PRAGMA data_version`` of a connection of its own: a check costs a few
    microseconds and no thread hop, so it runs on the caller's thread."""

    def __init__(self, path: Path | str) -> None:
        self._conn = raw_connect(str(path))  # the library the store uses (one set of locks)
        self._seen = self._version()

    def _version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """Whether another connection committed since the last check."""
        version = self._version()
        if version == self._seen:
            return False
        self._seen = version
        return True

    def close(self) -> None:
        self._conn.close()


async def open_connection(path: Path | str) -> aiosqlite.Connection:
    """Open ``path`` (created if missing), load sqlite-vec, apply pragmas and migrations."""
    target = Path(path)
    if str(path) != ":memory:":
        try:
            make_private_dir(target.parent)
            create_private_file(target)
        except OSError as exc:
            raise StoreError(f"cannot create data directory {target.parent}: {exc}") from exc
    factory: Callable[[], Any] = lambda: raw_connect(str(path))  # noqa: E731
    db = aiosqlite.Connection(factory, iter_chunk_size=64)
    try:
        await db
    except Exception as exc:
        raise StoreError(f"cannot open database {path}: {exc}") from exc
    try:
        for pragma in PRAGMAS:
            await db.execute(pragma)
        await apply_migrations(db)
    except Exception as exc:
        await db.close()
        if isinstance(exc, StoreError):
            raise
        raise StoreError(f"cannot prepare database {path}: {exc}") from exc
    return db


async def apply_migrations(db: aiosqlite.Connection) -> list[str]:
    """Apply every migration not yet recorded in ``_migrations``; return the names applied.

    Foreign keys are off while they run: a migration may make a table again (SQLite's way to
    change a constraint), and dropping the old table must not delete the rows that refer to
    it. Each migration checks the references before it commits."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in await db.execute_fetchall("SELECT name FROM _migrations")}
    pending = [(name, statements) for name, statements in MIGRATIONS if name not in done]
    if not pending:
        return []
    ((enforced,),) = await db.execute_fetchall("PRAGMA foreign_keys")
    await db.execute("PRAGMA foreign_keys = OFF")  # a no-op inside a transaction: before BEGIN
    try:
        for name, statements in pending:
            await _apply(db, name, statements)
    finally:
        await db.execute(f"PRAGMA foreign_keys = {'ON' if enforced else 'OFF'}")
    return [name for name, _ in pending]


async def _apply(db: aiosqlite.Connection, name: str, statements: Sequence[Step]) -> None:
    """One migration in one transaction, recorded in ``_migrations``. A step that is a
    function runs with the raw connection on its thread (as ``Store._call`` does)."""
    # Some rebuild an index over every stored message: on a big database, a while.
    log.info("applying migration %s", name)
    await db.execute("BEGIN IMMEDIATE")
    try:
        for step in statements:
            if callable(step):
                await db._execute(step, db._conn)  # type: ignore[no-untyped-call]
            else:
                await db.execute(step)
        broken = list(await db.execute_fetchall("PRAGMA foreign_key_check"))
        if broken:
            raise StoreError(f"migration {name} would break {len(broken)} reference(s)")
        await db.execute(
            "INSERT INTO _migrations (name, applied_at) VALUES (?, datetime('now'))", (name,)
        )
        await db.execute("COMMIT")
    except Exception:
        await db.execute("ROLLBACK")
        raise
    log.info("applied migration %s", name)


async def sqlite_versions(db: aiosqlite.Connection) -> dict[str, str]:
    """Versions of SQLite and sqlite-vec, and whether FTS5 works, as seen by this connection."""
    (row,) = await db.execute_fetchall("SELECT sqlite_version(), vec_version()")
    try:
        await db.execute("CREATE VIRTUAL TABLE temp._fts5_probe USING fts5(x)")
        await db.execute("DROP TABLE temp._fts5_probe")
        fts5 = "available"
    except Exception as exc:  # pragma: no cover - only on a SQLite built without FTS5
        fts5 = f"missing ({exc})"
    return {"sqlite": str(row[0]), "sqlite_vec": str(row[1]), "fts5": fts5}
