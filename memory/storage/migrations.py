"""Append-only schema migrations, applied in order on open and recorded in ``_migrations``.

Never edit a migration that has shipped: add a new one. Every table of guild data carries
``guild_id``. A step is SQL, or (where the schema depends on the data) a function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: A migration step: SQL, or a function run with the raw connection (same transaction).
Step = str | Callable[[Any], None]

# Job statuses that stay until someone acts (backfill): indexed per guild. Queries name them
# with this exact text, or SQLite cannot tell that the partial index covers them.
CLOSED = "('dropped', 'failed')"

M001_CORE = [
    # Every message row with id <= journaled_through has its daily-log line and its FTS5
    # entry. AUTOINCREMENT keeps rowids from being reused after deletes: the cursor holds.
    """
    CREATE TABLE journal_cursor (
        id                INTEGER PRIMARY KEY CHECK (id = 1),
        journaled_through INTEGER NOT NULL
    )
    """,
    "INSERT INTO journal_cursor (id, journaled_through) VALUES (1, 0)",
    """
    CREATE TABLE guilds (
        guild_id   TEXT PRIMARY KEY,
        name       TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE members (
        guild_id     TEXT NOT NULL,
        user_id      TEXT NOT NULL,
        display_name TEXT NOT NULL,
        username     TEXT NOT NULL DEFAULT '',
        updated_at   TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE messages (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    TEXT NOT NULL,
        channel_id  TEXT NOT NULL,
        message_id  TEXT NOT NULL,
        author_id   TEXT NOT NULL,
        author_name TEXT NOT NULL,
        content     TEXT NOT NULL,
        source      TEXT NOT NULL CHECK (source IN ('text', 'voice', 'import', 'bot')),
        created_at  TEXT NOT NULL,
        UNIQUE (guild_id, message_id)
    )
    """,
    "CREATE INDEX messages_guild_channel_time ON messages (guild_id, channel_id, created_at)",
    # No (guild_id, author_id) index: with many authors it dirties pages all over the
    # b-tree on every insert (~40% of bulk insert cost). Per-author reads (forget) are rare
    # and scan the guild through the (guild_id, message_id) index instead.
    """
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        content, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
    )
    """,
    # No AFTER INSERT trigger: new messages are indexed in bulk when the journal cursor
    # passes them (one FTS5 segment per batch instead of one per message). The delete and
    # update triggers touch the index only for rows the cursor has passed.
    """
    CREATE TRIGGER messages_ad AFTER DELETE ON messages
    WHEN old.id <= (SELECT journaled_through FROM journal_cursor) BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content)
        VALUES ('delete', old.id, old.content);
    END
    """,
    """
    CREATE TRIGGER messages_au AFTER UPDATE OF content ON messages
    WHEN old.id <= (SELECT journaled_through FROM journal_cursor) BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content)
        VALUES ('delete', old.id, old.content);
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
    END
    """,
    """
    CREATE TABLE ingest_jobs (
        -- one job per message: its key is the message's row id, so job order is arrival order
        message_row INTEGER PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        guild_id    TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'done', 'dropped', 'failed')),
        live        INTEGER NOT NULL DEFAULT 1,
        trace       TEXT NOT NULL DEFAULT '{}',
        attempts    INTEGER NOT NULL DEFAULT 0,
        last_error  TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
    )
    """,
    "CREATE INDEX ingest_jobs_pending ON ingest_jobs (message_row) WHERE status = 'pending'",
    # stats count pending / dropped / failed per guild; done jobs (nearly all) stay unindexed
    """
    CREATE INDEX ingest_jobs_open ON ingest_jobs (guild_id, status) WHERE status != 'done'
    """,
    """
    CREATE TABLE memory_facts (
        id                INTEGER PRIMARY KEY,
        guild_id          TEXT NOT NULL,
        channel_id        TEXT,
        subject           TEXT NOT NULL,
        fact              TEXT NOT NULL,
        fact_type         TEXT NOT NULL DEFAULT 'other'
                          CHECK (fact_type IN
                                 ('preference', 'profile', 'relationship', 'project', 'other')),
        evidence_text     TEXT NOT NULL DEFAULT '',
        source_message_id TEXT,
        confidence        REAL NOT NULL DEFAULT 0.5 CHECK (confidence BETWEEN 0 AND 1),
        is_active         INTEGER NOT NULL DEFAULT 1,
        created_at        TEXT NOT NULL,
        updated_at        TEXT NOT NULL,
        UNIQUE (guild_id, subject, fact)
    )
    """,
    "CREATE INDEX memory_facts_subject ON memory_facts (guild_id, subject, is_active)",
    "CREATE INDEX memory_facts_source ON memory_facts (guild_id, source_message_id)",
    """
    CREATE VIRTUAL TABLE memory_facts_fts USING fts5(
        fact, evidence_text, content='memory_facts', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE TRIGGER memory_facts_ai AFTER INSERT ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (rowid, fact, evidence_text)
        VALUES (new.id, new.fact, new.evidence_text);
    END
    """,
    """
    CREATE TRIGGER memory_facts_ad AFTER DELETE ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (memory_facts_fts, rowid, fact, evidence_text)
        VALUES ('delete', old.id, old.fact, old.evidence_text);
    END
    """,
    """
    CREATE TRIGGER memory_facts_au AFTER UPDATE OF fact, evidence_text ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (memory_facts_fts, rowid, fact, evidence_text)
        VALUES ('delete', old.id, old.fact, old.evidence_text);
        INSERT INTO memory_facts_fts (rowid, fact, evidence_text)
        VALUES (new.id, new.fact, new.evidence_text);
    END
    """,
    """
    CREATE TABLE memory_fact_vectors (
        fact_id   INTEGER NOT NULL REFERENCES memory_facts (id) ON DELETE CASCADE,
        model     TEXT NOT NULL,
        guild_id  TEXT NOT NULL,
        dims      INTEGER NOT NULL,
        embedding BLOB NOT NULL,
        PRIMARY KEY (fact_id, model)
    )
    """,
    "CREATE INDEX memory_fact_vectors_guild ON memory_fact_vectors (guild_id, model)",
    """
    CREATE TABLE embedding_cache (
        sha256    TEXT NOT NULL,
        model     TEXT NOT NULL,
        dims      INTEGER NOT NULL,
        embedding BLOB NOT NULL,
        PRIMARY KEY (sha256, model)
    )
    """,
]

# Messages the journal cursor has passed are in the full-text index; deleting or editing one
# updates the index (messages past the cursor are indexed when the cursor reaches them).
_REINDEX_MESSAGES = """
    INSERT INTO messages_fts (rowid, content, guild_id, channel_id, author_id)
    SELECT id, content, guild_id, channel_id, author_id FROM messages
    WHERE id <= (SELECT journaled_through FROM journal_cursor)
    """
_MESSAGES_FTS_TRIGGERS = [
    """
    CREATE TRIGGER messages_ad AFTER DELETE ON messages
    WHEN old.id <= (SELECT journaled_through FROM journal_cursor) BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content, guild_id, channel_id, author_id)
        VALUES ('delete', old.id, old.content, old.guild_id, old.channel_id, old.author_id);
    END
    """,
    """
    CREATE TRIGGER messages_au AFTER UPDATE OF content ON messages
    WHEN old.id <= (SELECT journaled_through FROM journal_cursor) BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content, guild_id, channel_id, author_id)
        VALUES ('delete', old.id, old.content, old.guild_id, old.channel_id, old.author_id);
        INSERT INTO messages_fts (rowid, content, guild_id, channel_id, author_id)
        VALUES (new.id, new.content, new.guild_id, new.channel_id, new.author_id);
    END
    """,
]


def _rebuild_messages_fts(options: str = "") -> list[str]:
    """The message full-text index made again (with FTS5 ``options``), holding what the
    journal cursor has passed, with its delete and update triggers."""
    return [
        "DROP TRIGGER messages_ad",
        "DROP TRIGGER messages_au",
        "DROP TABLE messages_fts",
        f"""
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        content, guild_id, channel_id, author_id, content='messages', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2'{options}
    )
    """,
        _REINDEX_MESSAGES,
        *_MESSAGES_FTS_TRIGGERS,
    ]


# The fact full-text index follows its table: a row's guild is an indexed column.
_FACTS_FTS_TRIGGERS = [
    """
    CREATE TRIGGER memory_facts_ai AFTER INSERT ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (rowid, fact, evidence_text, guild_id)
        VALUES (new.id, new.fact, new.evidence_text, new.guild_id);
    END
    """,
    """
    CREATE TRIGGER memory_facts_ad AFTER DELETE ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (memory_facts_fts, rowid, fact, evidence_text, guild_id)
        VALUES ('delete', old.id, old.fact, old.evidence_text, old.guild_id);
    END
    """,
    """
    CREATE TRIGGER memory_facts_au AFTER UPDATE OF fact, evidence_text ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (memory_facts_fts, rowid, fact, evidence_text, guild_id)
        VALUES ('delete', old.id, old.fact, old.evidence_text, old.guild_id);
        INSERT INTO memory_facts_fts (rowid, fact, evidence_text, guild_id)
        VALUES (new.id, new.fact, new.evidence_text, new.guild_id);
    END
    """,
]


# Full-text indexes that carry their scope: the guild (and for messages the channel and the
# author) are indexed columns, so one MATCH finds a guild's most recent matches without
# walking other guilds' (``memory.lexical``). Ranking is done by ``memory.lexical`` too:
# FTS5's bm25() counts every match of every term in the whole index on each query.
M002_SCOPED_FTS = [
    *_rebuild_messages_fts(),
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
    *_FACTS_FTS_TRIGGERS,
    "INSERT INTO messages_fts (messages_fts) VALUES ('optimize')",
    "INSERT INTO memory_facts_fts (memory_facts_fts) VALUES ('optimize')",
]

# Less to write for every message. The message index keeps no per-document column sizes
# (they serve FTS5's bm25() only, and memorybot ranks in ``memory.lexical``). The per-guild
# job index holds only the jobs that stay open (dropped, failed), not the pending ones that
# every message adds and its processing removes: ``ingest_jobs_pending`` counts those.
M003_LEANER_WRITES = [
    *_rebuild_messages_fts(", columnsize=0"),
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
    *_FACTS_FTS_TRIGGERS,
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

MIGRATIONS: list[tuple[str, Sequence[Step]]] = [
    ("m001_core", M001_CORE),
    ("m002_scoped_fts", M002_SCOPED_FTS),
    ("m003_leaner_writes", M003_LEANER_WRITES),
    ("m004_facts_said_at", M004_FACTS_SAID_AT),
    ("m005_facts_by_recency", M005_FACTS_BY_RECENCY),
    ("m006_vectors_in_vec0", M006_VECTORS_IN_VEC0),
    ("m007_member_optouts", M007_MEMBER_OPTOUTS),
    ("m008_lore_authors", M008_LORE_AUTHORS),
]
