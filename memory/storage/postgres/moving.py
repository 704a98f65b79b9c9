"""``memorybot migrate --to postgresql://…``: a data directory's SQLite store copied into
PostgreSQL — messages, jobs, facts with their history, their vectors, members, settings,
opt-outs, profiles, the audit log and the embedding cache — keeping every row id, so facts
still point at the facts that superseded them and vectors at their facts.

Each table is copied in batches of its key's order, each batch one transaction that skips
rows already there: a move that is stopped (Ctrl-C, a lost connection) and run again goes
on from the last batch, and one run twice changes nothing. The row ids the target hands out
itself start past the copied ones, so a bot already writing to it never takes one of them.
A target that holds memory from anywhere else is refused. At the end every table's rows
are counted on both sides.
"""

from __future__ import annotations

import json
import logging
import socket
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory.errors import StoreError
from memory.models import parse_iso
from memory.storage.postgres.store import PostgresStore
from memory.storage.postgres.words import as_tsvector, lexemes
from memory.storage.store import Store
from memory.storage.vectors_sql import float32_dims

log = logging.getLogger(__name__)

BATCH = 5000
Progress = Callable[[str, int, int], None]
"""Told ``(what, done, total)`` as a table (or the vectors) is copied."""


def _time(value: Any) -> Any:
    return parse_iso(value) if value else None


def _json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


@dataclass(frozen=True)
class Table:
    """One table: its columns (as both stores name them), how a SQLite value becomes a
    PostgreSQL one, its key (copied in its order; an integer key ``resumes``: a run starts
    past the rows copied before), and the index words PostgreSQL adds (``words_of``:
    the columns whose text they are)."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    convert: Mapping[str, Callable[[Any], Any]]
    words_of: tuple[str, ...] = ()
    identity: bool = False  # its key is a row id PostgreSQL hands out
    resumes: bool = False  # a big table with an integer key: copied past what is there

    def record(self, row: Sequence[Any]) -> tuple[Any, ...]:
        """A SQLite row as PostgreSQL takes it (and its index words, if it has them)."""
        values = tuple(
            self.convert.get(column, _same)(value)
            for column, value in zip(self.columns, row, strict=True)
        )
        if not self.words_of:
            return values
        text = " ".join(row[self.columns.index(column)] or "" for column in self.words_of)
        return (*values, lexemes(text))


TIME_COLUMNS = (
    "updated_at",
    "since",
    "created_at",
    "at",
    "said_at",
    "valid_until",
    "last_seen_at",
    "written_at",
)
TIMES: dict[str, Callable[[Any], Any]] = dict.fromkeys(TIME_COLUMNS, _time)
TABLES = [
    Table("guilds", ("guild_id", "name", "updated_at"), ("guild_id",), TIMES),
    Table("members", ("guild_id", "user_id", "display_name", "username", "updated_at"),
          ("guild_id", "user_id"), TIMES),
    Table("member_optouts", ("guild_id", "user_id", "since"), ("guild_id", "user_id"), TIMES),
    Table("guild_settings", ("guild_id", "key", "value", "updated_at"), ("guild_id", "key"),
          {**TIMES, "value": _json}),
    Table("messages", ("id", "guild_id", "channel_id", "message_id", "author_id", "author_name",
                       "content", "source", "created_at"), ("id",), TIMES,
          words_of=("content",), identity=True, resumes=True),
    Table("ingest_jobs", ("message_row", "guild_id", "status", "live", "trace", "attempts",
                          "last_error", "created_at", "updated_at"), ("message_row",),
          {**TIMES, "live": bool, "trace": _json}, resumes=True),
    Table("memory_facts", ("id", "guild_id", "channel_id", "subject", "fact", "fact_type",
                           "evidence_text", "source_message_id", "confidence", "is_active",
                           "said_at", "created_at", "updated_at", "author_id", "superseded_by",
                           "valid_until", "times_seen", "last_seen_at"), ("id",),
          {**TIMES, "is_active": bool}, words_of=("fact", "evidence_text"), identity=True,
          resumes=True),
    Table("subjects_to_settle", ("guild_id", "subject"), ("guild_id", "subject"), {}),
    Table("member_profiles", ("guild_id", "subject", "paragraph", "fact_ids", "digest", "model",
                              "written_at"), ("guild_id", "subject"),
          {**TIMES, "fact_ids": lambda v: [int(i) for i in json.loads(v)]}),
    Table("memory_events", ("id", "guild_id", "at", "kind", "actor", "object_id", "subject",
                            "detail"), ("id",), TIMES, identity=True, resumes=True),
    Table("embedding_cache", ("sha256", "model", "dims", "embedding"), ("sha256", "model"), {}),
]  # fmt: skip


@dataclass
class Tally:
    """What a move found and copied, table by table: ``{table: (in SQLite, in PostgreSQL)}``
    (vectors: per model, as ``vectors:<model>``)."""

    counts: dict[str, tuple[int, int]]

    @property
    def complete(self) -> bool:
        return all(target >= source for source, target in self.counts.values())


class Mover:
    """Copies the SQLite store at ``path`` into ``target``."""

    def __init__(self, path: Path, target: PostgresStore, progress: Progress | None = None):
        self.path = path
        self.target = target
        self.progress = progress or (lambda _what, _done, _total: None)
        self.origin = f"{socket.gethostname()}:{path.resolve()}"

    async def run(self) -> Tally:
        await self._claim_target()
        with _reading(self.path) as conn:
            source = await Store.open(self.path)  # the vectors are read through it
            try:
                await self._start_ids_past(conn)
                for table in TABLES:
                    await self._copy(conn, table)
                await self._journal_backlog(conn)
                wanted = {model: await self._copy_vectors(conn, source, model)
                          for model in _models(conn)}  # fmt: skip
            finally:
                await source.close()
            tally = await self._count(conn, wanted)
        if tally.complete:
            await self.target.pool.execute(
                "UPDATE moved_from SET finished_at = now() WHERE source = $1", self.origin
            )
        return tally

    async def _claim_target(self) -> None:
        """Refuse a target holding memory that did not come from this store."""
        pool = self.target.pool
        known = await pool.fetchval("SELECT count(*) FROM moved_from WHERE source = $1",
                                    self.origin)  # fmt: skip
        if not known:
            holds = await pool.fetchval(
                "SELECT EXISTS (SELECT 1 FROM messages) OR EXISTS (SELECT 1 FROM memory_facts)"
            )
            if holds:
                raise StoreError(
                    "the PostgreSQL database already holds memory that did not come from "
                    f"{self.path}: move into an empty database"
                )
            await pool.execute("INSERT INTO moved_from (source) VALUES ($1)", self.origin)

    async def _start_ids_past(self, conn: sqlite3.Connection) -> None:
        """The ids PostgreSQL hands out start past every row id of the source."""
        for table in TABLES:
            if not table.identity:
                continue
            await self.target.pool.execute(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                f"greatest($1::bigint, (SELECT coalesce(max(id), 0) FROM {table.name}), 1))",
                _top(conn, table),
            )

    async def _copy(self, conn: sqlite3.Connection, table: Table) -> None:
        (total,) = conn.execute(f"SELECT count(*) FROM {table.name}").fetchone()
        key = table.key[0]
        after = 0
        if table.resumes:
            after = await self.target.pool.fetchval(
                f"SELECT coalesce(max({key}), 0) FROM {table.name} WHERE {key} <= $1",
                _top(conn, table),
            )
        done = 0
        if after:
            sql = f"SELECT count(*) FROM {table.name} WHERE {key} <= ?"
            (done,) = conn.execute(sql, (after,)).fetchone()
        self.progress(table.name, done, total)
        for rows in _batches(conn, table, after):
            await self._insert(table, rows)
            done += len(rows)
            self.progress(table.name, done, total)

    async def _insert(self, table: Table, rows: list[tuple[Any, ...]]) -> None:
        columns = list(table.columns)
        records = [table.record(row) for row in rows]
        stage = f"moving_{table.name}"
        staged = columns + (["lexemes"] if table.words_of else [])
        chosen = ", ".join(columns) + (", words" if table.words_of else "")
        values = ", ".join(columns) + (f", {as_tsvector('lexemes')}" if table.words_of else "")
        overriding = "OVERRIDING SYSTEM VALUE " if table.identity else ""
        async with self.target.pool.acquire() as pg, pg.transaction():
            await pg.execute(
                f"CREATE TEMP TABLE IF NOT EXISTS {stage} ON COMMIT DELETE ROWS AS "
                f"SELECT {', '.join(columns)}, ''::text AS lexemes FROM {table.name} WITH NO DATA"
            )
            await pg.copy_records_to_table(stage, records=records, columns=staged)
            await pg.execute(
                f"INSERT INTO {table.name} ({chosen}) {overriding}SELECT {values} FROM {stage} "
                "ON CONFLICT DO NOTHING"
            )

    async def _journal_backlog(self, conn: sqlite3.Connection) -> None:
        """The messages past the source's journal cursor still need their daily-log lines."""
        cursor = conn.execute("SELECT journaled_through FROM journal_cursor").fetchone()
        await self.target.pool.execute(
            "INSERT INTO journal_backlog (message_row, guild_id) SELECT id, guild_id "
            "FROM messages WHERE id > $1 ON CONFLICT DO NOTHING",
            int(cursor[0]) if cursor else 0,
        )

    async def _copy_vectors(
        self, conn: sqlite3.Connection, source: Store, model: str
    ) -> dict[str, int]:
        """The model's vectors of active facts, a guild and ``BATCH`` facts at a time (a
        guild whose vectors are all there already is passed over); how many each guild has
        in the source."""
        what = f"vectors ({model})"
        wanted = {g: await _vectors(source, g, model) for g in await source.guild_ids()}
        total, done = sum(wanted.values()), 0
        self.progress(what, done, total)
        for guild_id, count in wanted.items():
            if await _vectors(self.target, guild_id, model) < count:
                ids = [row[0] for row in conn.execute(
                    "SELECT id FROM memory_facts WHERE guild_id = ? AND is_active ORDER BY id",
                    (guild_id,),
                )]  # fmt: skip
                for start in range(0, len(ids), BATCH):
                    rows = await source.fact_vectors_of(guild_id, model, ids[start : start + BATCH])
                    await self.target.store_fact_vectors(
                        guild_id, model, [(i, float32_dims(blob), blob) for i, blob in rows]
                    )
            done += count
            self.progress(what, done, total)
        return wanted

    async def _count(self, conn: sqlite3.Connection, vectors: dict[str, dict[str, int]]) -> Tally:
        """Each table's rows on both sides (of the target's, those with the source's keys),
        and each model's vectors (``vectors``: the source's, per guild)."""
        counts: dict[str, tuple[int, int]] = {}
        for table in TABLES:
            (source,) = conn.execute(f"SELECT count(*) FROM {table.name}").fetchone()
            if table.resumes:  # the rows a bot wrote to the target since are not counted
                key = table.key[0]
                target = await self.target.pool.fetchval(
                    f"SELECT count(*) FROM {table.name} WHERE {key} <= $1", _top(conn, table)
                )
            else:
                target = await self.target.pool.fetchval(f"SELECT count(*) FROM {table.name}")
            counts[table.name] = (int(source), int(target))
        for model, wanted in vectors.items():
            there = [await _vectors(self.target, guild_id, model) for guild_id in wanted]
            counts[f"vectors:{model}"] = (sum(wanted.values()), sum(there))
        return Tally(counts)


def _top(conn: sqlite3.Connection, table: Table) -> int:
    """The largest key of ``table`` in the source (0: empty)."""
    (top,) = conn.execute(f"SELECT coalesce(max({table.key[0]}), 0) FROM {table.name}").fetchone()
    return int(top)


def _same(value: Any) -> Any:
    return value


async def _vectors(store: Store | PostgresStore, guild_id: str, model: str) -> int:
    """The guild's active facts with a ``model`` vector."""
    active = await store.count_active_facts(guild_id)
    return active - await store.count_missing_vectors(guild_id, model)


def _batches(conn: sqlite3.Connection, table: Table, after: int) -> Iterator[list[tuple[Any, ...]]]:
    """The table's rows past ``after`` (its integer key; 0: all), in key order, a batch at a
    time (keyset: each batch starts past the last one's key)."""
    columns = ", ".join(table.columns)
    order = ", ".join(table.key)
    last: tuple[Any, ...] | None = (after,) if after else None
    while True:
        where = ""
        if last is not None:
            marks = ", ".join("?" * len(table.key))
            where = f"WHERE ({order}) > ({marks})"
        rows = conn.execute(
            f"SELECT {columns} FROM {table.name} {where} ORDER BY {order} LIMIT {BATCH}",
            last or (),
        ).fetchall()
        if not rows:
            return
        yield rows
        last = tuple(rows[-1][table.columns.index(k)] for k in table.key)


class _reading:
    """A read-only connection to the SQLite store (no extension needed: vectors are read
    through ``Store``)."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise StoreError(f"no memory to move: {path} does not exist")
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc_info: object) -> None:
        self.conn.close()


def _models(conn: sqlite3.Connection) -> list[str]:
    """The embedding models the source has vectors of."""
    return [row[0] for row in conn.execute("SELECT model FROM memory_vector_tables ORDER BY id")]
