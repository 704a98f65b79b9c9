"""The store: SQLite with sqlite-vec, pragmas, migrations, guild-scoped reads."""

from __future__ import annotations

import json
import sqlite3
import struct
from pathlib import Path
from typing import Any

import pytest

from memory.errors import StoreError
from memory.extraction.lore import Origin
from memory.models import LORE_SUBJECT, CandidateFact, canonical_time, utc_iso
from memory.search import lexical
from memory.search.fts import query_tokens, term_groups
from memory.storage import facts_sql, ingest_sql
from memory.storage.db import connect_sync
from memory.storage.migrations import MIGRATIONS
from memory.storage.placing import Lifecycle
from memory.storage.store import Store
from tests.helpers import CHANNEL_A, CHANNEL_B, GUILD_A, GUILD_B, MIKE, SARAH, item, sql

LORE_LINE = "Memory line: the kiln club meets on fridays."


async def test_open_loads_sqlite_vec_and_fts5(store: Store) -> None:
    versions = await store.versions()
    assert versions["sqlite_vec"].startswith("v0.")
    assert versions["fts5"] == "available"
    assert tuple(int(p) for p in versions["sqlite"].split(".")[:2]) >= (3, 40)


async def test_pragmas_wal_foreign_keys_busy_timeout(store: Store) -> None:
    assert sql(store.path, "PRAGMA journal_mode")[0][0] == "wal"
    assert sql(store.path, "PRAGMA foreign_keys")[0][0] == 1
    assert sql(store.path, "PRAGMA busy_timeout")[0][0] >= 1000


async def test_every_table_of_the_design_exists(store: Store) -> None:
    rows = sql(store.path, "SELECT name FROM sqlite_master WHERE type = 'table'")
    names = {row[0] for row in rows}
    assert {
        "messages",
        "memory_facts",
        "memory_vector_tables",
        "ingest_jobs",
        "embedding_cache",
        "members",
        "messages_fts",
        "memory_facts_fts",
    } <= names


async def test_migrations_apply_once_and_are_recorded(data_dir: Path) -> None:
    path = data_dir / "memory.db"
    async with await Store.open(path):
        pass
    async with await Store.open(path) as again:
        rows = sql(again.path, "SELECT name FROM _migrations ORDER BY name")
    assert [r[0] for r in rows] == [name for name, _ in MIGRATIONS]


async def test_unopenable_path_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot create data directory"):
        await Store.open(blocker / "sub" / "memory.db")


async def test_a_file_that_is_not_sqlite_is_a_store_error(tmp_path: Path) -> None:
    bogus = tmp_path / "memory.db"
    bogus.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=r"memory\.db"):
        await Store.open(bogus)


async def test_insert_is_idempotent_per_guild_and_message(store: Store) -> None:
    first = await store.insert_messages([item(1), item(2)], live=True)
    again = await store.insert_messages([item(2), item(3)], live=True)
    assert set(first.row_ids) == {(GUILD_A, "1"), (GUILD_A, "2")}
    assert set(again.row_ids) == {(GUILD_A, "3")}
    assert again.existing == {(GUILD_A, "2"): "pending"}
    assert await store.count_messages(GUILD_A) == 3


async def test_a_big_batch_with_stored_repeated_and_other_guilds_messages(store: Store) -> None:
    """The batched path (more than a few rows): what is stored already, a message given
    twice, and two guilds in one batch."""
    await store.insert_messages([item(n) for n in range(5)], live=False)
    batch = [item(n) for n in range(3, 20)]  # 3 and 4 are stored already
    batch.insert(8, item(10, "a second copy, dropped"))
    batch += [item(n, guild_id=GUILD_B, channel_id=CHANNEL_B) for n in (3, 30)]
    outcome = await store.insert_messages(batch, live=False)
    assert outcome.existing == {(GUILD_A, "3"): "pending", (GUILD_A, "4"): "pending"}
    new = [(GUILD_A, str(n)) for n in range(5, 20)] + [(GUILD_B, "3"), (GUILD_B, "30")]
    assert [i.key for i in outcome.new] == new
    assert outcome.row_ids == dict(zip(new, range(6, 23), strict=True))
    assert (await store.get_message(GUILD_A, "10")).content == "hello there, this is a message"
    assert await store.count_messages(GUILD_A) == 20
    assert await store.count_messages(GUILD_B) == 2


async def test_duplicates_inside_one_batch_are_stored_once(store: Store) -> None:
    outcome = await store.insert_messages([item(7), item(7, "different text")], live=False)
    assert list(outcome.row_ids) == [(GUILD_A, "7")]
    assert (await store.get_message(GUILD_A, "7")).content == "hello there, this is a message"


async def test_a_batch_larger_than_one_statement_keeps_every_row_and_job_in_order(
    store: Store,
) -> None:
    count = ingest_sql.ROWS_PER_STATEMENT * 2 + 37  # three statements per table
    traces = [{"source": "import", "n": n % 3} for n in range(count)]
    items = [
        item(n, f"message number {n}", created_at="2026-10-12T20:03:11+02:00")._replace(
            trace=traces[n], source="import"
        )
        for n in range(count)
    ]
    items.insert(5, item(3, "a repeat inside the batch"))  # stored once, as its first copy
    outcome = await store.insert_messages(items, live=False)
    assert list(outcome.row_ids) == [(GUILD_A, str(n)) for n in range(count)]
    assert list(outcome.row_ids.values()) == list(range(1, count + 1))
    rows = sql(
        store.path,
        "SELECT m.id, m.message_id, m.content, m.created_at, m.source, j.status, j.live, "
        "j.trace FROM messages m JOIN ingest_jobs j ON j.message_row = m.id ORDER BY m.id",
    )
    assert len(rows) == count
    for n, row in enumerate(rows):
        assert row[:5] == (
            n + 1,
            str(n),
            f"message number {n}",
            "2026-10-12T18:03:11.000+00:00",
            "import",
        )
        assert row[5:7] == ("pending", 0)
        assert json.loads(row[7]) == traces[n]


@pytest.mark.parametrize("count", [3, ingest_sql.SMALL_BATCH + 40])  # row by row; batched
async def test_jobs_of_closed_messages_are_written_done(store: Store, count: int) -> None:
    async def statuses() -> dict[str, tuple[str, int]]:
        rows = sql(
            store.path,
            "SELECT m.message_id, j.status, j.attempts FROM messages m "
            "JOIN ingest_jobs j ON j.message_row = m.id",
        )
        return {row[0]: (row[1], row[2]) for row in rows}

    first = [item(n) for n in range(count)]
    closed = {(GUILD_A, str(n)) for n in range(0, count, 3)}
    await store.insert_messages(first, live=False, closed=closed)
    assert await statuses() == {
        str(n): ("done", 1) if n % 3 == 0 else ("pending", 0) for n in range(count)
    }
    await store.insert_messages([item(n) for n in range(100, 100 + count)], live=True, closed="all")
    after = await statuses()
    assert {after[str(n)] for n in range(100, 100 + count)} == {("done", 1)}
    assert after[str(1)] == ("pending", 0)  # a call's closed set names only its own


async def test_same_message_id_in_two_guilds_stays_apart(store: Store) -> None:
    await store.insert_messages(
        [
            item(5, "I love pizza", author=SARAH),
            item(5, "I love pizza", guild_id=GUILD_B, channel_id=CHANNEL_B, author=MIKE),
        ],
        live=True,
    )
    a = await store.get_message(GUILD_A, "5")
    b = await store.get_message(GUILD_B, "5")
    assert (a.guild_id, a.author_id) == (GUILD_A, SARAH.id)
    assert (b.guild_id, b.author_id) == (GUILD_B, MIKE.id)
    assert await store.member_names(GUILD_A) == {SARAH.id: "Sarah"}
    assert await store.member_names(GUILD_B) == {MIKE.id: "Mike"}


async def _fts_ids(store: Store, term: str) -> list[str]:
    rows = sql(
        store.path,
        "SELECT m.message_id FROM messages_fts f JOIN messages m ON m.id = f.rowid "
        "WHERE messages_fts MATCH ? ORDER BY m.id",
        (term,),
    )
    return [r[0] for r in rows]


async def test_messages_are_indexed_when_the_journal_cursor_passes_them(store: Store) -> None:
    outcome = await store.insert_messages(
        [item(1, "my corgi Biscuit loves the beach"), item(2, "Biscuit again")], live=True
    )
    assert await _fts_ids(store, "biscuit") == []
    await store.mark_journaled_through(outcome.row_ids[(GUILD_A, "1")])
    assert await _fts_ids(store, "biscuit") == ["1"]
    await store.mark_journaled_through(outcome.row_ids[(GUILD_A, "2")])
    await store.mark_journaled_through(outcome.row_ids[(GUILD_A, "1")])  # never goes back
    assert await _fts_ids(store, "biscuit") == ["1", "2"]
    assert await store.journal_cursor() == outcome.row_ids[(GUILD_A, "2")]


async def test_deleting_indexed_and_unindexed_messages_keeps_the_index_sound(
    store: Store,
) -> None:
    outcome = await store.insert_messages([item(1, "alpha beta"), item(2, "beta gamma")], live=True)
    await store.mark_journaled_through(outcome.row_ids[(GUILD_A, "1")])
    sql(store.path, "DELETE FROM messages WHERE guild_id = ?", (GUILD_A,))
    sql(store.path, "INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')")
    assert await _fts_ids(store, "beta") == []


async def test_timestamps_are_stored_in_canonical_utc(store: Store) -> None:
    await store.insert_messages([item(1, created_at="2026-10-12T20:03:11+02:00")], live=True)
    assert (await store.get_message(GUILD_A, "1")).created_at == "2026-10-12T18:03:11.000+00:00"


async def test_a_bad_timestamp_is_refused_and_nothing_is_written(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.insert_messages([item(1), item(2, created_at="yesterday")], live=True)
    assert await store.count_messages(GUILD_A) == 0


def _fact(subject: str, fact: str, confidence: float, source: str = "1") -> CandidateFact:
    return CandidateFact(subject, fact, "profile", confidence, fact, source)


async def test_fact_upsert_keeps_the_higher_confidence(store: Store) -> None:
    await store.insert_messages([item(1), item(2)], live=True)
    m1, m2 = await store.get_message(GUILD_A, "1"), await store.get_message(GUILD_A, "2")
    await store.finish_jobs([], [], [(m1, _fact(SARAH.id, "Sarah is a nurse.", 0.6, "1"))])
    await store.finish_jobs([], [], [(m2, _fact(SARAH.id, "Sarah is a nurse.", 0.9, "2"))])
    (fact,) = await store.active_facts(GUILD_A)
    # said again by another message: the clearer statement's source, a reinforced confidence
    assert (fact.source_message_id, fact.times_seen) == ("2", 2)
    assert fact.confidence == pytest.approx(0.9 + (0.97 - 0.9) * 0.25)
    await store.finish_jobs([], [], [(m2, _fact(SARAH.id, "Sarah is a nurse.", 0.5, "2"))])
    (again,) = await store.active_facts(GUILD_A)  # the same message again: nothing new
    assert (again.confidence, again.times_seen) == (fact.confidence, 2)


async def test_a_subject_keeps_at_most_80_active_facts(store: Store) -> None:
    await store.insert_messages([item(1)], live=True)
    message = await store.get_message(GUILD_A, "1")
    for n in range(85):
        await store.finish_jobs([], [], [(message, _fact(SARAH.id, f"Sarah fact {n}.", 0.9))])
    active = await store.active_facts(GUILD_A)
    assert len(active) == 80
    assert {f.fact for f in active} == {f"Sarah fact {n}." for n in range(5, 85)}
    stats = await store.stats(GUILD_A)
    assert (stats.facts, stats.active_facts) == (85, 80)


async def test_stats_count_one_guild_only(store: Store) -> None:
    await store.insert_messages([item(1), item(2)], live=True)
    await store.insert_messages([item(1, guild_id=GUILD_B, channel_id=CHANNEL_B)], live=True)
    await store.drop_jobs([(GUILD_A, "2")], "dropped: test")
    a, b = await store.stats(GUILD_A), await store.stats(GUILD_B)
    assert (a.messages, a.pending_jobs, a.dropped_jobs) == (2, 1, 1)
    assert (b.messages, b.pending_jobs, b.dropped_jobs) == (1, 1, 0)


async def test_requeue_reopens_failed_and_dropped_jobs_of_one_guild(store: Store) -> None:
    await store.insert_messages([item(1), item(2)], live=True)
    await store.insert_messages([item(3, guild_id=GUILD_B, channel_id=CHANNEL_B)], live=True)
    await store.drop_jobs([(GUILD_A, "1"), (GUILD_B, "3")], "dropped: test")
    await store.finish_jobs([], [(2, "boom")])
    assert await store.requeue_jobs(GUILD_A, ["failed", "dropped"]) == 2
    assert await store.job_status(GUILD_A, "2") == ("pending", "boom")
    assert await store.job_status(GUILD_B, "3") == ("dropped", "dropped: test")
    await store.finish_jobs([], [(1, "again")])  # failed once more: "done" jobs come back too
    assert await store.requeue_jobs(GUILD_A, ["done", "failed"]) == 1
    assert await store.job_status(GUILD_A, "1") == ("pending", "again")
    with pytest.raises(ValueError, match="not job statuses"):
        await store.requeue_jobs(GUILD_A, ["failed", "'; DROP TABLE messages; --"])


async def test_the_leaner_writes_migration_keeps_the_index_and_the_job_counts(
    tmp_path: Path,
) -> None:
    """A database left by m002: its message index is rebuilt without column sizes (search
    and edits still work), and the job counts move to the new partial index."""
    path = tmp_path / "memory.db"
    conn = database_at(path, "m002_scoped_fts")
    ingest_sql.insert_messages(
        conn, [item(n, f"kiln story number {n}") for n in range(1, 5)], True, "x"
    )
    ingest_sql.advance_journal_cursor(conn, 3)  # message 4 is not indexed yet
    ingest_sql.drop_jobs(conn, [(GUILD_A, "1")], "dropped: test", "x")
    facts_sql.finish_jobs(conn, [2], [(3, "boom")], [], [], "x", Lifecycle())
    conn.close()
    async with await Store.open(path) as store:
        schema = sql(store.path, "SELECT sql FROM sqlite_master WHERE name = 'messages_fts'")[0]
        assert "columnsize=0" in schema[0]
        indexes = {r[0] for r in sql(store.path, "SELECT name FROM sqlite_master")}
        assert "ingest_jobs_closed" in indexes and "ingest_jobs_open" not in indexes
        assert await _fts_ids(store, "kiln") == ["1", "2", "3"]
        stats = await store.stats(GUILD_A)
        assert (stats.pending_jobs, stats.dropped_jobs, stats.failed_jobs) == (1, 1, 1)
        await store.mark_journaled_through(4)
        await store.edit_message(GUILD_A, "2", "a mug this time")
        assert await _fts_ids(store, "kiln") == ["1", "3", "4"]
        assert await _fts_ids(store, "mug") == ["2"]
        sql(store.path, "INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')")


def database_at(path: Path, last: str) -> Any:
    """A connection to a new database built by the migrations up to ``last`` only."""
    conn = connect_sync(path)
    conn.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    names = [name for name, _ in MIGRATIONS]
    for name, statements in MIGRATIONS[: names.index(last) + 1]:
        for statement in statements:
            if callable(statement):  # a step written in Python (m006 moves vectors)
                statement(conn)
            else:
                conn.execute(statement)
        conn.execute("INSERT INTO _migrations VALUES (?, datetime('now'))", (name,))
    return conn


SAID = "2023-05-07T21:30:00.000+00:00"  # an old conversation's time
STORED = "2026-10-20T09:00:00.000+00:00"  # when its facts were stored
MODEL = "test-model"
# How facts were written before m004: no said_at.
M003_FACT = (
    "INSERT INTO memory_facts (guild_id, channel_id, subject, fact, fact_type, evidence_text, "
    "source_message_id, confidence, is_active, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, 'profile', ?, ?, 0.9, 1, ?, ?) RETURNING id"
)


def _m003_database_with_facts(path: Path) -> dict[str, int]:
    """A database left by m003: a message said at ``SAID``, three facts stored at ``STORED``
    (ids 1, 3 and 4: a deleted one left a gap), each with a vector; fact ids by text."""
    conn = database_at(path, "m003_leaner_writes")
    ingest_sql.insert_messages(conn, [item(1, "my kiln broke", created_at=SAID)], True, STORED)
    ingest_sql.advance_journal_cursor(conn, 1)
    rows = [
        (GUILD_A, CHANNEL_A, SARAH.id, "Sarah owns a kiln.", "my kiln broke", "1"),
        (GUILD_A, None, SARAH.id, "Sarah will forget this kiln.", "", None),
        (GUILD_A, None, LORE_SUBJECT, LORE_LINE, "", "5"),
        (GUILD_B, CHANNEL_B, MIKE.id, "Mike owns a kiln too.", "", "1"),  # B has no message 1
    ]
    ids = {row[3]: conn.execute(M003_FACT, (*row, STORED, STORED)).fetchone()[0] for row in rows}
    conn.execute(
        "DELETE FROM memory_facts WHERE id = ?", (ids.pop("Sarah will forget this kiln."),)
    )
    for text, fact_id in ids.items():
        guild = GUILD_B if text.startswith("Mike") else GUILD_A
        conn.execute(
            "INSERT INTO memory_fact_vectors (fact_id, model, guild_id, dims, embedding) "
            "VALUES (?, ?, ?, 2, ?)",
            (fact_id, MODEL, guild, struct.pack("2f", fact_id, 1.0)),
        )
    conn.close()
    return ids


async def _kiln_fact_ids(store: Store, guild_id: str) -> list[int]:
    """The guild's facts that full-text search finds for "kiln"."""
    found = await lexical.candidates(
        store, lexical.FACTS, guild_id, term_groups(query_tokens("kiln")), limit=10
    )
    return sorted(found.order)


async def test_the_said_at_migration_dates_old_facts_by_their_messages(tmp_path: Path) -> None:
    """m004 on a database with facts: a fact is said when its source message (in its own
    guild) was written, else when it was stored; ids, full-text search and vectors stay."""
    path = tmp_path / "memory.db"
    ids = _m003_database_with_facts(path)
    kiln, lore, mikes = ids.values()
    assert (kiln, lore, mikes) == (1, 3, 4)
    async with await Store.open(path) as store:
        facts = {f.id: f for g in (GUILD_A, GUILD_B) for f in await store.active_facts(g)}
        assert set(facts) == {kiln, lore, mikes}
        assert (facts[kiln].said_at, facts[kiln].created_at) == (SAID, STORED)
        assert facts[lore].said_at == STORED  # no such message: when it was stored
        assert facts[mikes].said_at == STORED  # message 1 is guild A's, not B's
        assert await _kiln_fact_ids(store, GUILD_A) == [kiln, lore]
        assert await _kiln_fact_ids(store, GUILD_B) == [mikes]
        vectors = dict(await store.fact_vectors(GUILD_A, MODEL))
        assert {i: struct.unpack("2f", v) for i, v in vectors.items()} == {
            kiln: (kiln, 1.0),
            lore: (lore, 1.0),
        }
    conn = connect_sync(path)
    conn.execute("INSERT INTO memory_facts_fts (memory_facts_fts) VALUES ('integrity-check')")
    schema = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE tbl_name = ?",
                                         ("memory_facts",))}  # fmt: skip
    conn.close()
    expected = {"memory_facts_recent", "memory_facts_source", "memory_facts_ai",
                "memory_facts_ad", "memory_facts_au"}  # fmt: skip
    assert expected <= schema


async def test_after_the_said_at_migration_facts_stay_consistent(tmp_path: Path) -> None:
    """Facts written, events stored and a message deleted after m004: the full-text index
    follows, and foreign keys are enforced again (a message's job goes with it)."""
    path = tmp_path / "memory.db"
    ids = _m003_database_with_facts(path)
    async with await Store.open(path) as store:
        event = CandidateFact(SARAH.id, "Sarah fired her kiln on 7 May 2023.", "event", 0.9,
                              "my kiln broke", "1")  # fmt: skip
        await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A, SAID), event)])
        facts = {f.fact: f for f in await store.active_facts(GUILD_A)}
        fired = facts[event.fact]
        assert (fired.fact_type, fired.said_at) == ("event", SAID)
        assert fired.id == max(ids.values()) + 1
        kiln, lore = ids["Sarah owns a kiln."], ids[LORE_LINE]
        assert await _kiln_fact_ids(store, GUILD_A) == [kiln, lore, fired.id]
        assert await store.pending_count(GUILD_A) == 1
        await store.delete_message(GUILD_A, "1")
        assert await _kiln_fact_ids(store, GUILD_A) == [lore]
        assert await store.pending_count(GUILD_A) == 0  # the job went by its foreign key
        assert [f for f, _ in await store.fact_vectors(GUILD_A, MODEL)] == [lore]
    conn = connect_sync(path)  # a writer that does not know said_at: said when stored
    row = (GUILD_A, None, MIKE.id, "Mike owns a wheel.", "", None, STORED, STORED)
    fact_id = conn.execute(M003_FACT, row).fetchone()[0]
    (said,) = conn.execute("SELECT said_at FROM memory_facts WHERE id = ?", (fact_id,)).fetchone()
    conn.close()
    assert canonical_time(said) == said and said[:4] >= "2026"


async def test_a_fact_said_again_keeps_the_earliest_time(store: Store) -> None:
    late, early = "2026-10-12T18:03:11.123+00:00", "2023-05-07T21:30:00.000+00:00"
    await store.insert_messages([item(1, created_at=late), item(2, created_at=early)], live=True)
    m1, m2 = await store.get_message(GUILD_A, "1"), await store.get_message(GUILD_A, "2")
    assert m1 is not None and m2 is not None
    await store.finish_jobs([], [], [(m1, _fact(SARAH.id, "Sarah is a nurse.", 0.9, "1"))])
    (fact,) = await store.active_facts(GUILD_A)
    assert fact.said_at == late
    await store.finish_jobs([], [], [(m2, _fact(SARAH.id, "Sarah is a nurse.", 0.5, "2"))])
    (fact,) = await store.active_facts(GUILD_A)
    # first said early, last said late; the clearer wording (message 1's) kept
    assert (fact.said_at, fact.last_seen_at, fact.source_message_id) == (early, late, "1")
    assert fact.times_seen == 2


async def test_lore_is_said_when_the_caller_says_or_now(store: Store) -> None:
    before = utc_iso()
    await store.remember_line(GUILD_A, "remember this: the raid is every friday")
    await store.remember_line(
        GUILD_A, "the server opened in 2019", said_at="2023-05-07T23:30:00+02:00"
    )
    said = {f.fact: f.said_at for f in await store.active_facts(GUILD_A)}
    assert before <= said["Memory line: the raid is every friday."] <= utc_iso()
    assert said["Memory line: the server opened in 2019."] == "2023-05-07T21:30:00.000+00:00"
    with pytest.raises(ValueError):
        await store.remember_line(GUILD_A, "the raid moved to saturday", said_at="last week")


def test_stdlib_sqlite_here_cannot_load_extensions_so_sqlean_is_used(tmp_path: Path) -> None:
    """The environment trap of DESIGN: the connection we make can load sqlite-vec anyway."""
    conn = connect_sync(tmp_path / "x.db")
    assert conn.execute("SELECT vec_version()").fetchone()[0].startswith("v0.")
    if not hasattr(sqlite3.Connection, "enable_load_extension"):
        assert type(conn).__module__.startswith("sqlean")


def test_rowids_are_never_reused_after_deletes(tmp_path: Path) -> None:
    """The journal cursor relies on it (AUTOINCREMENT on messages)."""
    import asyncio

    path = tmp_path / "memory.db"

    async def make() -> None:
        async with await Store.open(path) as s:
            await s.insert_messages([item(1), item(2)], live=True)

    asyncio.run(make())
    conn = connect_sync(path)
    conn.execute("DELETE FROM messages WHERE message_id = '2'")
    outcome = ingest_sql.insert_messages(conn, [item(3)], False, "now")
    assert outcome.row_ids == {(GUILD_A, "3"): 3}


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("2026-10-12T18:03:11.123+00:00", "2026-10-12T18:03:11.123+00:00"),  # as stored
        ("2024-02-29T23:59:59.999+00:00", "2024-02-29T23:59:59.999+00:00"),  # a leap day
        ("2026-10-31T00:00:00.000+00:00", "2026-10-31T00:00:00.000+00:00"),
        ("2026-10-12T20:03:11+02:00", "2026-10-12T18:03:11.000+00:00"),
        ("2026-10-12T18:03:11Z", "2026-10-12T18:03:11.000+00:00"),
        ("2026-10-12T18:03:11", "2026-10-12T18:03:11.000+00:00"),  # naive: UTC
    ],
)
def test_canonical_time_keeps_or_converts_real_times(given: str, stored: str) -> None:
    assert canonical_time(given) == stored


@pytest.mark.parametrize(
    "given",
    ["2023-02-29T10:00:00.000+00:00", "2026-04-31T10:00:00.000+00:00",
     "2026-13-01T10:00:00.000+00:00", "2026-00-10T10:00:00.000+00:00",
     "2026-01-01T24:00:00.000+00:00", "2026-01-01T10:60:00.000+00:00",
     "0000-01-01T10:00:00.000+00:00", "٢٠٢٦-01-01T10:00:00.000+00:00",
     "2026-01-01T10:00:00.000+00:00 ", "yesterday", ""],
)  # fmt: skip
def test_canonical_time_refuses_what_is_no_time_even_in_the_stored_shape(given: str) -> None:
    with pytest.raises(ValueError):
        canonical_time(given)


# How vectors were stored before m006 (``vectors_sql.UPSERT_FACT_VECTOR`` of m005's code).
M005_VECTOR = """
INSERT INTO memory_fact_vectors (fact_id, model, guild_id, dims, embedding)
SELECT id, ?, guild_id, ?, ? FROM memory_facts WHERE id = ? AND guild_id = ? AND is_active = 1
"""


def _unit(*values: float) -> bytes:
    norm = sum(v * v for v in values) ** 0.5
    return struct.pack(f"{len(values)}f", *(v / norm for v in values))


async def test_the_vec0_migration_keeps_every_vector_searchable(tmp_path: Path) -> None:
    """m006 on a database with vectors of two models (8 and 2 dimensions): each model's
    vectors move into its own vec0 table, with their guild and their fact's state."""
    path = tmp_path / "memory.db"
    conn = database_at(path, "m005_facts_by_recency")
    ids = {}
    for n in range(12):
        guild = GUILD_A if n < 10 else GUILD_B
        (ids[n],) = conn.execute(  # the m005 schema's columns, as that version stored facts
            "INSERT INTO memory_facts (guild_id, channel_id, subject, fact, fact_type, "
            "evidence_text, source_message_id, confidence, is_active, said_at, created_at, "
            "updated_at) VALUES (?, ?, ?, ?, 'other', '', ?, 0.9, 1, ?, ?, ?) RETURNING id",
            (guild, CHANNEL_A, SARAH.id, f"Sarah fact {n}.", str(n), STORED, STORED, STORED),
        ).fetchone()
        vector = _unit(*[1.0 if d == n % 8 else 0.1 for d in range(8)])
        conn.execute(M005_VECTOR, ("wide", 8, vector, ids[n], guild))
        conn.execute(M005_VECTOR, ("narrow", 2, struct.pack("2f", n, 1.0), ids[n], guild))
    archived, deleted = ids[1], ids[2]
    conn.execute("UPDATE memory_facts SET is_active = 0 WHERE id = ?", (archived,))
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("DELETE FROM memory_facts WHERE id = ?", (deleted,))  # its vectors went too
    conn.close()
    async with await Store.open(path) as store:
        tables = sql(store.path, "SELECT model, dims, coarse FROM memory_vector_tables")
        assert sorted(tuple(t) for t in tables) == [("narrow", 2, 0), ("wide", 8, 1)]
        names = {r[0] for r in sql(store.path, "SELECT name FROM sqlite_master")}
        assert "memory_fact_vectors" not in names
        kept = [ids[n] for n in range(10) if n not in (1, 2)]
        narrow = await store.fact_vectors(GUILD_A, "narrow")
        assert narrow == [(i, struct.pack("2f", n, 1.0)) for n, i in ids.items() if i in kept]
        assert [f for f, _ in await store.fact_vectors(GUILD_B, "wide")] == [ids[10], ids[11]]
        assert await store.count_missing_vectors(GUILD_A, "wide") == 0
        for exact in (False, True):
            wide = await store.nearest_facts(GUILD_A, "wide", _unit(*[0.1] * 8), 20, exact=exact)
            assert sorted(wide.similarities) == kept  # not archived, deleted or guild B's
        query = _unit(*[1.0 if d == 3 else 0.1 for d in range(8)])
        nearest = await store.nearest_facts(GUILD_A, "wide", query, 1)
        assert list(nearest.similarities) == [ids[3]]
        assert nearest.similarities[ids[3]] == pytest.approx(1.0)
        # the archived fact said again: its vector is found again
        cand = CandidateFact(SARAH.id, "Sarah fact 1.", "other", 0.9, "", "1")
        await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A), cand)])
        query = _unit(*[1.0 if d == 1 else 0.1 for d in range(8)])  # facts 1 and 9
        found = await store.nearest_facts(GUILD_A, "wide", query, 2)
        assert sorted(found.similarities) == [archived, ids[9]]


async def test_the_lifecycle_migration_counts_each_stored_fact_said_once(tmp_path: Path) -> None:
    """m011 on facts stored before it: said once, last said when first said, superseded by
    nothing; the rules then hold for them (said again, they are reinforced)."""
    path = tmp_path / "memory.db"
    conn = database_at(path, "m010_memory_events")
    conn.execute(
        "INSERT INTO memory_facts (guild_id, channel_id, subject, fact, fact_type, "
        "evidence_text, source_message_id, confidence, is_active, said_at, created_at, "
        "updated_at) VALUES (?, ?, ?, 'Sarah is a nurse.', 'profile', '', '1', 0.9, 1, ?, ?, ?)",
        (GUILD_A, CHANNEL_A, SARAH.id, SAID, STORED, STORED),
    )
    conn.commit()
    conn.close()
    async with await Store.open(path) as store:
        (fact,) = await store.active_facts(GUILD_A)
        assert (fact.times_seen, fact.last_seen_at, fact.superseded_by) == (1, SAID, None)
        await store.insert_messages([item(2)], live=True)
        message = await store.get_message(GUILD_A, "2")
        await store.finish_jobs([], [], [(message, _fact(SARAH.id, "Sarah is a nurse.", 0.9, "2"))])
        (again,) = await store.active_facts(GUILD_A)
        assert (again.times_seen, again.said_at) == (2, SAID)
        assert again.last_seen_at == message.created_at
