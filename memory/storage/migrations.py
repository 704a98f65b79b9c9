"""Append-only schema migrations, applied in order on open and recorded in ``_migrations``.

Never edit a migration that has shipped: add a new one. Every table of guild data carries
``guild_id``. A step is SQL, or (where the schema depends on the data) a function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from memory.storage.fts_tables import M013_EVERY_SCRIPT
from memory.storage.schema import (
    FACTS_FTS_TRIGGERS,
    M001_CORE,
    rebuild_messages_fts,
)

#: A migration step: SQL, or a function run with the raw connection (same transaction).
Step = str | Callable[[Any], None]

# Job statuses that stay until someone acts (backfill): indexed per guild. Queries name them
# with this exact text, or SQLite cannot tell that the partial index covers them.
CLOSED = "('dropped', 'failed')"

# Full-text indexes that carry their scope: the guild (and for messages the channel and the
# author) are indexed columns, so one MATCH finds a guild's most recent matches without
# walking other guilds' (``memory.lexical``). Ranking is done by ``memory.lexical`` too:
# FTS5's bm25() counts every match of every term in the whole index on each query.
M002_SCOPED_FTS = [
    *rebuild_messages_fts(),
    "DROP TRIGGER memory_facts_ai",
    "DROP TRIGGER memory_facts_ad",
    "DROP TRIGGER memory_facts_au",
    "DROP TABLE memory_facts_fts",
    """
    CREATE VIRTUAL TABLE memory_facts_fts USING fts5(
        fact, evidence_text, guild_id, content='memory_facts', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2'
    )
    """,
    """
    INSERT INTO memory_facts_fts (rowid, fact, evidence_text, guild_id)
    SELECT id, fact, evidence_text, guild_id FROM memory_facts
    """,
    *FACTS_FTS_TRIGGERS,
    "INSERT INTO messages_fts (messages_fts) VALUES ('optimize')",
    "INSERT INTO memory_facts_fts (memory_facts_fts) VALUES ('optimize')",
]

# Less to write for every message. The message index keeps no per-document column sizes
# (they serve FTS5's bm25() only, and memorybot ranks in ``memory.lexical``). The per-guild
# job index holds only the jobs that stay open (dropped, failed), not the pending ones that
# every message adds and its processing removes: ``ingest_jobs_pending`` counts those.
M003_LEANER_WRITES = [
    *rebuild_messages_fts(", columnsize=0"),
    "INSERT INTO messages_fts (messages_fts) VALUES ('optimize')",
    "DROP INDEX ingest_jobs_open",
    f"CREATE INDEX ingest_jobs_closed ON ingest_jobs (guild_id, status) WHERE status IN {CLOSED}",
]

# Facts know when they were said: ``said_at`` is their source message's time (else when the
# fact was stored), the time recency is computed from; and a fact may be an ``event``. SQLite
# cannot alter a CHECK constraint, so the table is made again its documented way (copy, drop,
# rename, then its indexes and triggers again; ``apply_migrations`` turns foreign keys off
# around it, so dropping the old table does not take the facts' vectors with it). The ids are
# kept: the full-text index (keyed by id, over unchanged text) and the vectors stay right.
# ``said_at`` defaults to now for writers that do not give it (every memorybot path does).
M004_FACTS_SAID_AT = [
    """
    CREATE TABLE memory_facts_m004 (
        id                INTEGER PRIMARY KEY,
        guild_id          TEXT NOT NULL,
        channel_id        TEXT,
        subject           TEXT NOT NULL,
        fact              TEXT NOT NULL,
        fact_type         TEXT NOT NULL DEFAULT 'other'
                          CHECK (fact_type IN ('preference', 'profile', 'relationship',
                                               'project', 'event', 'other')),
        evidence_text     TEXT NOT NULL DEFAULT '',
        source_message_id TEXT,
        confidence        REAL NOT NULL DEFAULT 0.5 CHECK (confidence BETWEEN 0 AND 1),
        is_active         INTEGER NOT NULL DEFAULT 1,
        said_at           TEXT NOT NULL
                          DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
        created_at        TEXT NOT NULL,
        updated_at        TEXT NOT NULL,
        UNIQUE (guild_id, subject, fact)
    )
    """,
    """
    INSERT INTO memory_facts_m004
        (id, guild_id, channel_id, subject, fact, fact_type, evidence_text, source_message_id,
         confidence, is_active, said_at, created_at, updated_at)
    SELECT f.id, f.guild_id, f.channel_id, f.subject, f.fact, f.fact_type, f.evidence_text,
           f.source_message_id, f.confidence, f.is_active,
           COALESCE((SELECT m.created_at FROM messages m
                     WHERE m.guild_id = f.guild_id AND m.message_id = f.source_message_id),
                    f.created_at),
           f.created_at, f.updated_at
    FROM memory_facts f ORDER BY f.id
    """,
    "DROP TABLE memory_facts",
    "ALTER TABLE memory_facts_m004 RENAME TO memory_facts",
    "CREATE INDEX memory_facts_subject ON memory_facts (guild_id, subject, is_active)",
    "CREATE INDEX memory_facts_source ON memory_facts (guild_id, source_message_id)",
    *FACTS_FTS_TRIGGERS,
]

# A subject's active facts in the order the caps keep them (newest updated first): archiving
# beyond a cap walks the index past the kept ones instead of sorting them on every write.
M005_FACTS_BY_RECENCY = [
    "DROP INDEX memory_facts_subject",
    """
    CREATE INDEX memory_facts_recent
    ON memory_facts (guild_id, subject, is_active, updated_at, id)
    """,
]


def _move_vectors_to_vec0(conn: Any) -> None:
    """Each model's vectors into its new vec0 table (``memory.storage.vectors_sql``), with their
    facts' guild and state; a model's vectors of another width than most of its own are
    left behind (no table of it could hold them)."""
    from memory.storage import vectors_sql  # it imports ingest_sql, which imports this module

    widths = conn.execute(
        "SELECT model, dims FROM memory_fact_vectors GROUP BY model, dims "
        "ORDER BY model, count(*) DESC, dims"
    ).fetchall()
    for model, dims in widths:
        if vectors_sql.vector_table(conn, model) is None:
            table = vectors_sql.create_vector_table(conn, model, int(dims))
            conn.execute(MOVE_VECTORS.format(**vectors_sql.insert_columns(table)), (model, dims))


MOVE_VECTORS = """
    INSERT INTO {name} (rowid, guild_id, is_active, embedding{coarse_col})
    SELECT v.fact_id, f.guild_id, f.is_active, v.embedding{coarse_of_embedding}
    FROM memory_fact_vectors v JOIN memory_facts f ON f.id = v.fact_id AND f.guild_id = v.guild_id
    WHERE v.model = ? AND v.dims = ?
    """

# Fact vectors live in sqlite-vec: one vec0 table per model, the guild its partition key,
# searched by k-NN (``memory.storage.vectors_sql``). Each model with vectors gets its table here,
# filled with them; the old table goes.
M006_VECTORS_IN_VEC0: list[Step] = [
    """
    CREATE TABLE memory_vector_tables (
        id     INTEGER PRIMARY KEY,
        model  TEXT NOT NULL UNIQUE,
        dims   INTEGER NOT NULL,
        coarse INTEGER NOT NULL
    )
    """,
    _move_vectors_to_vec0,
    "DROP TABLE memory_fact_vectors",
]

# Members who opted out of memory, per guild: nothing they write or say is stored from then
# on (the choice outlives forgetting them and re-imports).
M007_MEMBER_OPTOUTS: list[Step] = [
    """
    CREATE TABLE member_optouts (
        guild_id TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        since    TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID
    """,
]

# Who asked to remember a lore line (``/memory remember``): its writer can forget it.
M008_LORE_AUTHORS: list[Step] = ["ALTER TABLE memory_facts ADD COLUMN author_id TEXT"]

# A guild's settings, as moderators choose them: key -> JSON value (``ignored_channels``, ...).
M009_GUILD_SETTINGS: list[Step] = [
    """
    CREATE TABLE guild_settings (
        guild_id   TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, key)
    ) WITHOUT ROWID
    """,
]

# The audit log (``memory.audit``): what memory did and who asked, newest first per guild,
# pruned by age.
M010_MEMORY_EVENTS: list[Step] = [
    """
    CREATE TABLE memory_events (
        id        INTEGER PRIMARY KEY,
        guild_id  TEXT NOT NULL,
        at        TEXT NOT NULL,
        kind      TEXT NOT NULL,
        actor     TEXT NOT NULL,
        object_id TEXT NOT NULL DEFAULT '',
        subject   TEXT NOT NULL DEFAULT '',
        detail    TEXT NOT NULL DEFAULT ''
    )
    """,
    "CREATE INDEX memory_events_guild ON memory_events (guild_id, id)",
    "CREATE INDEX memory_events_at ON memory_events (at)",
]

# A fact's life (issue 20): said again (``times_seen``, ``last_seen_at``: when it was last
# said), or superseded by a newer fact that contradicts it (``superseded_by``, ``valid_until``:
# when the newer one was said).
M011_FACT_LIFECYCLE: list[Step] = [
    "ALTER TABLE memory_facts ADD COLUMN superseded_by INTEGER",
    "ALTER TABLE memory_facts ADD COLUMN valid_until TEXT",
    "ALTER TABLE memory_facts ADD COLUMN times_seen INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE memory_facts ADD COLUMN last_seen_at TEXT",
    "UPDATE memory_facts SET last_seen_at = said_at",
]

# A member's condensed paragraph, written by the LLM from their facts (``memory.profile_writer``):
# one per member of a guild, with the ids of the facts it cites (a JSON array), a digest of the
# facts it was written from, the model and when.
M012_MEMBER_PROFILES: list[Step] = [
    """
    CREATE TABLE member_profiles (
        guild_id   TEXT NOT NULL,
        subject    TEXT NOT NULL,
        paragraph  TEXT NOT NULL,
        fact_ids   TEXT NOT NULL,
        digest     TEXT NOT NULL,
        model      TEXT NOT NULL,
        written_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, subject)
    ) WITHOUT ROWID
    """,
]

# Chinese, Japanese and Korean searchable: both full-text indexes made again from each text as
# ``memory.search.scripts`` splits it (``memory.storage.fts_tables``; progress logged).

# Subjects whose facts an import stored without judging them (issue 20): the queue's worker
# settles each once it is idle (``placing.settle_subject``), a row at a time.
M014_SUBJECTS_TO_SETTLE: list[Step] = [
    """
    CREATE TABLE subjects_to_settle (
        guild_id TEXT NOT NULL,
        subject  TEXT NOT NULL,
        PRIMARY KEY (guild_id, subject)
    ) WITHOUT ROWID
    """,
]

# The facts a fact superseded, found by it (a merge repoints them to the fact it joins, a
# deletion brings them back): without it every merge read all of the guild's facts.
M015_FACTS_BY_SUCCESSOR: list[Step] = [
    "CREATE INDEX memory_facts_successor ON memory_facts (guild_id, superseded_by) "
    "WHERE superseded_by IS NOT NULL",
]

MIGRATIONS: list[tuple[str, Sequence[Step]]] = [
    ("m001_core", M001_CORE),
    ("m002_scoped_fts", M002_SCOPED_FTS),
    ("m003_leaner_writes", M003_LEANER_WRITES),
    ("m004_facts_said_at", M004_FACTS_SAID_AT),
    ("m005_facts_by_recency", M005_FACTS_BY_RECENCY),
    ("m006_vectors_in_vec0", M006_VECTORS_IN_VEC0),
    ("m007_member_optouts", M007_MEMBER_OPTOUTS),
    ("m008_lore_authors", M008_LORE_AUTHORS),
    ("m009_guild_settings", M009_GUILD_SETTINGS),
    ("m010_memory_events", M010_MEMORY_EVENTS),
    ("m011_fact_lifecycle", M011_FACT_LIFECYCLE),
    ("m012_member_profiles", M012_MEMBER_PROFILES),
    ("m013_every_script", M013_EVERY_SCRIPT),
    ("m014_subjects_to_settle", M014_SUBJECTS_TO_SETTLE),
    ("m015_facts_by_successor", M015_FACTS_BY_SUCCESSOR),
]
