"""Write transactions of the ingest path, each run whole on the database thread.

Each function takes the raw DB-API connection and runs one transaction; ``Store`` calls
them through ``Store._call``. Rowid arithmetic below relies on SQLite handing out
``max(rowid) + 1`` inside an exclusive transaction (checked, with a fallback).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Any, Literal, get_args

from memory.models import (
    IngestItem,
    JobStatus,
    canonical_time,
)
from memory.storage.fts_tables import INDEX_MESSAGES

SQL_PARAM_CHUNK = 500
JOB_STATUSES = frozenset(get_args(JobStatus))

# A batch is inserted by one multi-row ``VALUES`` statement per table: the parameters are
# bound in one C loop and SQLite inserts every row in one statement step, with the GIL
# released (a JSON array expanded by json_each costs a third more: every field is parsed).
MESSAGE_COLUMNS = (
    "(guild_id, channel_id, message_id, author_id, author_name, content, source, created_at)"
)
JOB_COLUMNS = "(message_row, guild_id, status, attempts, live, trace, created_at, updated_at)"
ROWS_PER_STATEMENT = 500  # 8 parameters a row: far below SQLite's 32,766 variables
INSERT_MESSAGE = f"""
INSERT OR IGNORE INTO messages {MESSAGE_COLUMNS}
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id
"""
INSERT_JOB = f"INSERT INTO ingest_jobs {JOB_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
# The jobs of a batch of messages just inserted (rows ``> ?`` and ``<= ?``): made by SQLite
# from the message rows, so no job field is bound from Python but the shared ones.
INSERT_JOBS_FOR_ROWS = f"""
INSERT INTO ingest_jobs {JOB_COLUMNS}
SELECT id, guild_id, ?, ?, ?, ?, ?, ? FROM messages WHERE id > ? AND id <= ?
"""
SET_JOB_TRACE = "UPDATE ingest_jobs SET trace = ? WHERE message_row = ?"
SMALL_BATCH = 8  # up to this many messages, row-by-row statements (RETURNING id) serve
UPSERT_MEMBER = """
INSERT INTO members (guild_id, user_id, display_name, username, updated_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    display_name = excluded.display_name,
    username = CASE WHEN excluded.username = '' THEN members.username ELSE excluded.username END,
    updated_at = excluded.updated_at
"""
UPSERT_GUILD = """
INSERT INTO guilds (guild_id, name, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""


#: Messages whose jobs are written closed: some keys, or ``"all"`` of a call's messages.
Closed = Collection[tuple[str, str]] | Literal["all"]


@contextmanager
def transaction(conn: Any) -> Iterator[Any]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error (a COMMIT that fails, on
    a full disk, can leave the transaction open; SQLite may also have rolled it back)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def chunks(values: Sequence[Any], size: int = SQL_PARAM_CHUNK) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


def record_guild(conn: Any, guild_id: str, name: str, now: str) -> None:
    with transaction(conn):
        conn.execute(UPSERT_GUILD, (guild_id, name, now))


def record_members(conn: Any, rows: list[tuple[str, str, str, str, str]]) -> None:
    with transaction(conn):
        conn.executemany(UPSERT_MEMBER, rows)


@dataclass(frozen=True, slots=True)
class InsertOutcome:
    """The messages stored now (``new``, in the order given) and their ``rows``; the job
    status of those that were already there (``existing``)."""

    new: Sequence[IngestItem]
    rows: Sequence[int]
    existing: dict[tuple[str, str], str]

    @property
    def row_ids(self) -> dict[tuple[str, str], int]:
        """The row id of each message stored now."""
        return {item.key: row for item, row in zip(self.new, self.rows, strict=True)}


def insert_messages(
    conn: Any,
    items: Sequence[IngestItem],
    live: bool,
    now: str,
    members: Sequence[tuple[str, str, str, str]] = (),
    guilds: Sequence[str] = (),
    closed: Closed = (),
) -> InsertOutcome:
    """Store new messages and their job rows, upsert ``members`` (``guild_id, user_id,
    name, username``), register ``guilds``; report the messages that were there before.

    The jobs of the messages in ``closed`` (every one, if it is ``"all"``) are written
    ``done`` (attempted once): they have nothing to extract. Full-text rows are written
    later, as the journal cursor passes the messages."""
    if len(items) <= SMALL_BATCH:
        return _insert_few(conn, items, live, now, members, guilds, closed)
    with transaction(conn):
        _register(conn, members, guilds, now)
        existing = _existing_statuses(conn, items)
        fresh = first_of_each(items, existing)
        rows = _insert_fresh(conn, fresh, live, now, closed) if fresh else range(0)
    return InsertOutcome(fresh, rows, existing)


def first_of_each(
    items: Sequence[IngestItem], existing: dict[tuple[str, str], str]
) -> list[IngestItem]:
    """The items whose message is not stored yet, the first of each (in order)."""
    fresh: list[IngestItem] = []
    seen = set(existing)
    for item in items:
        key = item.key
        if key not in seen:
            seen.add(key)
            fresh.append(item)
    return fresh


def _existing_statuses(conn: Any, items: Sequence[IngestItem]) -> dict[tuple[str, str], str]:
    by_guild: dict[str, list[str]] = {}
    for item in items:
        by_guild.setdefault(item.guild_id, []).append(item.message_id)
    existing: dict[tuple[str, str], str] = {}
    for guild_id, ids in by_guild.items():
        for chunk in chunks(ids):
            rows = conn.execute(
                "SELECT m.message_id, COALESCE(j.status, 'done') FROM messages m "
                "LEFT JOIN ingest_jobs j ON j.message_row = m.id "
                f"WHERE m.guild_id = ? AND m.message_id IN ({marks(chunk)})",
                (guild_id, *chunk),
            )
            for message_id, status in rows:
                existing[(guild_id, message_id)] = status
    return existing


def _max_message_row(conn: Any) -> int:
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").fetchone()
    return int(row[0]) if row else 0


def _insert_fresh(
    conn: Any, fresh: list[IngestItem], live: bool, now: str, closed: Closed
) -> range:
    before = _max_message_row(conn)
    for chunk in chunks(fresh, ROWS_PER_STATEMENT):
        params = list(chain.from_iterable(map(_message_params, chunk)))
        conn.execute(_rows_sql("messages", MESSAGE_COLUMNS, 8, len(chunk)), params)
    after = _max_message_row(conn)
    if after - before != len(fresh):  # pragma: no cover - SQLite hands out max(rowid) + 1
        raise RuntimeError("message rowids were not consecutive; refusing to guess job rows")
    # Every job gets the first message's trace (an import's messages share one), then
    # the others get their own.
    traces: dict[int, str] = {}
    shared = trace_json(fresh[0].trace, traces)
    every = closed == "all"
    status, attempts = ("done", 1) if every else ("pending", 0)
    conn.execute(
        INSERT_JOBS_FOR_ROWS, (status, attempts, int(live), shared, now, now, before, after)
    )
    own = [
        (trace, row_id)
        for row_id, item in enumerate(fresh, before + 1)
        if (trace := trace_json(item.trace, traces)) != shared
    ]
    if own:
        conn.executemany(SET_JOB_TRACE, own)
    if closed and not every:
        done = [row for row, item in enumerate(fresh, before + 1) if item.key in closed]
        for chunk in chunks(done):
            conn.execute(
                "UPDATE ingest_jobs SET status = 'done', attempts = 1 "
                f"WHERE message_row IN ({marks(chunk)})",
                chunk,
            )
    return range(before + 1, after + 1)


@lru_cache(maxsize=64)
def _rows_sql(table: str, columns: str, width: int, rows: int) -> str:
    """``INSERT INTO table columns VALUES (?, …), …`` for ``rows`` rows of ``width`` values."""
    row = "(" + ", ".join("?" * width) + ")"
    return f"INSERT INTO {table} {columns} VALUES " + ", ".join([row] * rows)


def _insert_few(
    conn: Any,
    items: Sequence[IngestItem],
    live: bool,
    now: str,
    members: Sequence[tuple[str, str, str, str]],
    guilds: Sequence[str],
    closed: Closed,
) -> InsertOutcome:
    """The live path: a message or a few, one statement per row."""
    row_ids: dict[tuple[str, str], int] = {}
    new: list[IngestItem] = []
    existing: dict[tuple[str, str], str] = {}
    traces: dict[int, str] = {}
    with transaction(conn):
        _register(conn, members, guilds, now)
        for item in items:
            if item.key in row_ids or item.key in existing:
                continue
            row = conn.execute(INSERT_MESSAGE, _message_params(item)).fetchone()
            if row is None:
                existing.update(_existing_statuses(conn, [item]))
                continue
            row_ids[item.key] = row_id = int(row[0])
            new.append(item)
            trace = trace_json(item.trace, traces)
            done = closed == "all" or item.key in closed
            status, attempts = ("done", 1) if done else ("pending", 0)
            conn.execute(
                INSERT_JOB, (row_id, item.guild_id, status, attempts, int(live), trace, now, now)
            )
    return InsertOutcome(new, list(row_ids.values()), existing)


def _register(
    conn: Any, members: Sequence[tuple[str, str, str, str]], guilds: Sequence[str], now: str
) -> None:
    if guilds:
        conn.executemany(
            "INSERT OR IGNORE INTO guilds (guild_id, name, updated_at) VALUES (?, '', ?)",
            [(guild_id, now) for guild_id in guilds],
        )
    if members:
        conn.executemany(UPSERT_MEMBER, [(*member, now) for member in members])


def trace_json(trace: dict[str, Any] | None, cache: dict[int, str]) -> str:
    if not trace:
        return "{}"
    text = cache.get(id(trace))
    if text is None:
        text = cache[id(trace)] = json.dumps(trace, ensure_ascii=False, default=str)
    return text


def _message_params(item: IngestItem) -> tuple[Any, ...]:
    """The values of ``MESSAGE_COLUMNS``; the time checked once more (the store's own guard)."""
    guild_id, channel_id, message_id, author, content, created_at, source, _trace = item
    return (guild_id, channel_id, message_id, author.id, author.name, content, source,
            canonical_time(created_at))  # fmt: skip


def advance_journal_cursor(conn: Any, through: int) -> None:
    """Index the messages up to ``through`` in FTS5 and move the cursor past them."""
    with transaction(conn):
        (current,) = conn.execute("SELECT journaled_through FROM journal_cursor").fetchone()
        if through <= current:
            return
        conn.execute(INDEX_MESSAGES, (current, through))
        conn.execute("UPDATE journal_cursor SET journaled_through = ?", (through,))


def drop_jobs(conn: Any, keys: Sequence[tuple[str, str]], reason: str, now: str) -> None:
    with transaction(conn):
        conn.executemany(
            "UPDATE ingest_jobs SET status = 'dropped', last_error = ?, updated_at = ? "
            "WHERE status = 'pending' AND message_row = "
            "(SELECT id FROM messages WHERE guild_id = ? AND message_id = ?)",
            [(reason, now, g, m) for g, m in keys],
        )
