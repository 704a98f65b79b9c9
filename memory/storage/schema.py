"""The schema as it first shipped (migration ``m001_core``) and the pieces later migrations
rebuild from it (the full-text tables and their triggers). Never edited once shipped."""

from __future__ import annotations

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
REINDEX_MESSAGES = """
    INSERT INTO messages_fts (rowid, content, guild_id, channel_id, author_id)
    SELECT id, content, guild_id, channel_id, author_id FROM messages
    WHERE id <= (SELECT journaled_through FROM journal_cursor)
    """
MESSAGES_FTS_TRIGGERS = [
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


def rebuild_messages_fts(options: str = "") -> list[str]:
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
        REINDEX_MESSAGES,
        *MESSAGES_FTS_TRIGGERS,
    ]


# The fact full-text index follows its table: a row's guild is an indexed column.
FACTS_FTS_TRIGGERS = [
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
