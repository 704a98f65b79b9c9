"""The full-text tables as migration ``m013_every_script`` makes them: the index is given
each text as ``memorybot_fts_text`` makes it (``memory.search.scripts.index_text``: CJK runs as
character bigrams, other non-ASCII text folded), so Chinese, Japanese and Korean are
searchable. Never edited once shipped: a later change is a later migration.

Each index reads its content through a view that applies the same function, so FTS5's
``integrity-check`` and ``rebuild`` see what was indexed. The message view holds the
messages the journal cursor has passed: the ones in the index."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

#: The SQL function every connection has (``memory.storage.db``): text → what is indexed.
FTS_TEXT = "memorybot_fts_text"

#: Messages indexed per statement when an index is made again (progress logged between).
REINDEX_BATCH = 100_000

# The messages with row id in (?, ?] into the index: the journal cursor passing them.
INDEX_MESSAGES = f"""
INSERT INTO messages_fts (rowid, content, guild_id, channel_id, author_id)
SELECT id, {FTS_TEXT}(content), guild_id, channel_id, author_id FROM messages
WHERE id > ? AND id <= ?
"""

MESSAGES_FTS_TRIGGERS = [
    f"""
    CREATE TRIGGER messages_ad AFTER DELETE ON messages
    WHEN old.id <= (SELECT journaled_through FROM journal_cursor) BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content, guild_id, channel_id, author_id)
        VALUES ('delete', old.id, {FTS_TEXT}(old.content), old.guild_id, old.channel_id,
                old.author_id);
    END
    """,
    f"""
    CREATE TRIGGER messages_au AFTER UPDATE OF content ON messages
    WHEN old.id <= (SELECT journaled_through FROM journal_cursor) BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content, guild_id, channel_id, author_id)
        VALUES ('delete', old.id, {FTS_TEXT}(old.content), old.guild_id, old.channel_id,
                old.author_id);
        INSERT INTO messages_fts (rowid, content, guild_id, channel_id, author_id)
        VALUES (new.id, {FTS_TEXT}(new.content), new.guild_id, new.channel_id, new.author_id);
    END
    """,
]

FACTS_FTS_TRIGGERS = [
    f"""
    CREATE TRIGGER memory_facts_ai AFTER INSERT ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (rowid, fact, evidence_text, guild_id)
        VALUES (new.id, {FTS_TEXT}(new.fact), {FTS_TEXT}(new.evidence_text), new.guild_id);
    END
    """,
    f"""
    CREATE TRIGGER memory_facts_ad AFTER DELETE ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (memory_facts_fts, rowid, fact, evidence_text, guild_id)
        VALUES ('delete', old.id, {FTS_TEXT}(old.fact), {FTS_TEXT}(old.evidence_text),
                old.guild_id);
    END
    """,
    f"""
    CREATE TRIGGER memory_facts_au AFTER UPDATE OF fact, evidence_text ON memory_facts BEGIN
        INSERT INTO memory_facts_fts (memory_facts_fts, rowid, fact, evidence_text, guild_id)
        VALUES ('delete', old.id, {FTS_TEXT}(old.fact), {FTS_TEXT}(old.evidence_text),
                old.guild_id);
        INSERT INTO memory_facts_fts (rowid, fact, evidence_text, guild_id)
        VALUES (new.id, {FTS_TEXT}(new.fact), {FTS_TEXT}(new.evidence_text), new.guild_id);
    END
    """,
]


def _reindex(conn: Any) -> None:
    """Fill the new indexes: the messages the journal cursor has passed (in batches, progress
    logged: a big database takes a while), then the facts."""
    (through,) = conn.execute("SELECT journaled_through FROM journal_cursor").fetchone()
    (total,) = conn.execute("SELECT count(*) FROM messages WHERE id <= ?", (through,)).fetchone()
    done = 0
    for start in range(0, through, REINDEX_BATCH):
        done += conn.execute(INDEX_MESSAGES, (start, min(start + REINDEX_BATCH, through))).rowcount
        if total > REINDEX_BATCH:
            log.info("m013: indexed %d of %d messages for every script", done, total)
    conn.execute(
        f"INSERT INTO memory_facts_fts (rowid, fact, evidence_text, guild_id) "
        f"SELECT id, {FTS_TEXT}(fact), {FTS_TEXT}(evidence_text), guild_id FROM memory_facts"
    )
    (facts,) = conn.execute("SELECT count(*) FROM memory_facts").fetchone()
    log.info("m013: indexed %d messages and %d facts for every script", done, facts)


# Both indexes made again over their views, with the options they had (m002, m003).
M013_EVERY_SCRIPT: list[str | Callable[[Any], None]] = [
    "DROP TRIGGER messages_ad",
    "DROP TRIGGER messages_au",
    "DROP TABLE messages_fts",
    "DROP TRIGGER memory_facts_ai",
    "DROP TRIGGER memory_facts_ad",
    "DROP TRIGGER memory_facts_au",
    "DROP TABLE memory_facts_fts",
    f"""
    CREATE VIEW messages_fts_text AS
    SELECT id, {FTS_TEXT}(content) AS content, guild_id, channel_id, author_id FROM messages
    WHERE id <= (SELECT journaled_through FROM journal_cursor)
    """,
    f"""
    CREATE VIEW memory_facts_fts_text AS
    SELECT id, {FTS_TEXT}(fact) AS fact, {FTS_TEXT}(evidence_text) AS evidence_text, guild_id
    FROM memory_facts
    """,
    """
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        content, guild_id, channel_id, author_id, content='messages_fts_text',
        content_rowid='id', tokenize='unicode61 remove_diacritics 2', columnsize=0
    )
    """,
    """
    CREATE VIRTUAL TABLE memory_facts_fts USING fts5(
        fact, evidence_text, guild_id, content='memory_facts_fts_text', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2'
    )
    """,
    _reindex,
    *MESSAGES_FTS_TRIGGERS,
    *FACTS_FTS_TRIGGERS,
    "INSERT INTO messages_fts (messages_fts) VALUES ('optimize')",
    "INSERT INTO memory_facts_fts (memory_facts_fts) VALUES ('optimize')",
]
