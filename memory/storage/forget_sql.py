"""Forgetting, run whole on the database thread: a Discord deletion, a Discord edit, and
``/memory forget`` (a member's data). Each function is one transaction; ``Store`` calls
them through ``Store._call``.

Every statement is keyed by ``guild_id``. With a fact go its vectors (every model) and
the embedding-cache entries of its text for those models: the cache is content-addressed,
so a kept entry would still answer "was this ever said?". Full-text rows follow their
messages and facts through the triggers of ``memory.storage.migrations``; ingest jobs cascade
with their messages.

Deleted is gone from the file too: every connection zeroes what it deletes
(``PRAGMA secure_delete``), and after a member is forgotten ``wipe_traces`` merges the
full-text indexes (their old segments still hold the member's words) and empties the WAL
(it still holds the pages as they were before).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memory.models import StoredMessage
from memory.search.embeddings import content_hash
from memory.storage.ingest_sql import chunks, marks, transaction
from memory.storage.lifecycle_sql import SETTLED
from memory.storage.profiles_sql import delete_profiles
from memory.storage.vectors_sql import delete_fact_vectors, fact_embedding_text, fact_vector_models

MESSAGE_COLS = (
    "id, guild_id, channel_id, message_id, author_id, author_name, content, source, created_at"
)
# The job of an edited message is pending again (a message stored without a job gets one).
REPEND_JOB = """
INSERT INTO ingest_jobs (message_row, guild_id, status, live, trace, created_at, updated_at)
VALUES (?, ?, 'pending', 1, '{}', ?, ?)
ON CONFLICT (message_row) DO UPDATE SET
    status = 'pending', attempts = 0, last_error = NULL, updated_at = excluded.updated_at
"""
# Jobs of other members' messages that mention the member: ``trace.mentions`` holds
# ``[user id, display name]`` pairs (see ``memory.ingest._source``).
SCRUB_MENTIONS = """
UPDATE ingest_jobs SET trace = json_set(trace, '$.mentions', (
    SELECT json_group_array(json(value)) FROM json_each(trace, '$.mentions')
    WHERE CAST(value ->> 0 AS TEXT) IS NOT ?2
))
WHERE guild_id = ?1 AND instr(trace, ?2) > 0
  AND CASE WHEN json_valid(trace) THEN json_type(trace, '$.mentions') END = 'array'
"""


@dataclass(frozen=True, slots=True)
class DeleteOutcome:
    """What a deletion removed: the messages as they were stored (their daily-log lines
    can be found from them), how many facts and vectors, and whose facts went."""

    messages: tuple[StoredMessage, ...] = ()
    facts: int = 0
    vectors: int = 0
    subjects: tuple[str, ...] = ()

    @property
    def message_ids(self) -> tuple[str, ...]:
        return tuple(m.message_id for m in self.messages)


@dataclass(frozen=True, slots=True)
class ForgetOutcome(DeleteOutcome):
    """What forgetting a member removed; ``members`` is 1 when their members row went,
    ``mentions`` counts other messages' jobs that no longer name them."""

    members: int = 0
    mentions: int = 0


@dataclass(frozen=True, slots=True)
class EditOutcome:
    """A stored message before and after an edit, and the facts its old text lost."""

    before: StoredMessage
    after: StoredMessage
    facts: int = 0
    vectors: int = 0
    subjects: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """False when the text was already this (Discord also reports embed-only edits)."""
        return self.before.content != self.after.content


@dataclass(slots=True)
class _Dropped:
    facts: int = 0
    vectors: int = 0
    subjects: set[str] = field(default_factory=set)

    def subject_tuple(self) -> tuple[str, ...]:
        return tuple(sorted(self.subjects))


def delete_message(conn: Any, guild_id: str, message_id: str) -> DeleteOutcome:
    """Delete one message of the guild and every fact sourced from it."""
    with transaction(conn):
        row = conn.execute(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE guild_id = ? AND message_id = ?",
            (guild_id, message_id),
        ).fetchone()
        dropped = _drop_facts(conn, guild_id, _facts_sourced_from(conn, guild_id, [message_id]))
        if row is not None:
            conn.execute("DELETE FROM messages WHERE id = ? AND guild_id = ?", (row[0], guild_id))
    return DeleteOutcome(
        messages=(StoredMessage._make(row),) if row is not None else (),
        facts=dropped.facts,
        vectors=dropped.vectors,
        subjects=dropped.subject_tuple(),
    )


def edit_message(
    conn: Any, guild_id: str, message_id: str, content: str, now: str
) -> EditOutcome | None:
    """Store a message's new text, delete the facts grounded in its old text and set its
    job pending again; None when the guild has no such message. Same text: no change."""
    with transaction(conn):
        row = conn.execute(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE guild_id = ? AND message_id = ?",
            (guild_id, message_id),
        ).fetchone()
        if row is None:
            return None
        before = StoredMessage._make(row)
        after = before._replace(content=content)
        if before.content == content:
            return EditOutcome(before, after)
        conn.execute(
            "UPDATE messages SET content = ? WHERE id = ? AND guild_id = ?",
            (content, before.row_id, guild_id),
        )
        dropped = _drop_facts(conn, guild_id, _facts_sourced_from(conn, guild_id, [message_id]))
        conn.execute(REPEND_JOB, (before.row_id, guild_id, now, now))
    return EditOutcome(before, after, dropped.facts, dropped.vectors, dropped.subject_tuple())


def forget_member(conn: Any, guild_id: str, user_id: str) -> ForgetOutcome:
    """Delete the member's messages (every source), the facts about them, the facts sourced
    from their messages and the lore they wrote, their members row, their profile paragraph,
    and their name in the mentions that other messages' jobs carry."""
    with transaction(conn):
        # No (guild_id, author_id) index (see migrations): a scan of the guild's messages.
        rows = conn.execute(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE guild_id = ? AND author_id = ? ORDER BY id",
            (guild_id, user_id),
        ).fetchall()
        messages = tuple(StoredMessage._make(row) for row in rows)
        fact_ids = _facts_sourced_from(conn, guild_id, [m.message_id for m in messages])
        fact_ids += [
            fact_id
            for (fact_id,) in conn.execute(
                "SELECT id FROM memory_facts WHERE guild_id = ? AND (subject = ? OR author_id = ?)",
                (guild_id, user_id, user_id),
            )
        ]
        dropped = _drop_facts(conn, guild_id, fact_ids)
        for part in chunks([m.row_id for m in messages]):
            conn.execute(
                f"DELETE FROM messages WHERE id IN ({marks(part)}) AND guild_id = ?",
                (*part, guild_id),
            )
        members = conn.execute(
            "DELETE FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ).rowcount
        mentions = conn.execute(SCRUB_MENTIONS, (guild_id, user_id)).rowcount
        delete_profiles(conn, guild_id, user_id)
        conn.execute(SETTLED, (guild_id, user_id))
    return ForgetOutcome(
        messages=messages,
        facts=dropped.facts,
        vectors=dropped.vectors,
        subjects=dropped.subject_tuple(),
        members=max(0, members),
        mentions=max(0, mentions),
    )


def wipe_traces(conn: Any, fts_tables: Sequence[str]) -> bool:
    """After a deletion (outside its transaction): merge each full-text index into one
    segment, which drops the deleted documents' terms with the old segments (zeroed), then
    checkpoint the WAL into the database and truncate it. False when another connection
    still reads an older state, so the WAL could not be emptied (it is, at a later
    checkpoint: SQLite then writes over it from its start)."""
    for table in fts_tables:
        conn.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")
    (busy, _, _) = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return not busy


def messages_by_author(conn: Any, guild_id: str, user_id: str) -> list[StoredMessage]:
    """The member's stored messages in the guild, oldest first (a scan of the guild)."""
    rows = conn.execute(
        f"SELECT {MESSAGE_COLS} FROM messages WHERE guild_id = ? AND author_id = ? ORDER BY id",
        (guild_id, user_id),
    ).fetchall()
    return [StoredMessage._make(row) for row in rows]


def _facts_sourced_from(conn: Any, guild_id: str, message_ids: Sequence[str]) -> list[int]:
    found: list[int] = []
    for part in chunks(list(message_ids)):
        found += [
            fact_id
            for (fact_id,) in conn.execute(
                "SELECT id FROM memory_facts WHERE guild_id = ? "
                f"AND source_message_id IN ({marks(part)})",
                (guild_id, *part),
            )
        ]
    return found


def _drop_facts(conn: Any, guild_id: str, fact_ids: Sequence[int]) -> _Dropped:
    """Delete these facts of the guild, their vectors and their embedding-cache entries
    (inside the caller's transaction)."""
    dropped = _Dropped()
    for part in chunks(sorted(set(fact_ids))):
        where = f"guild_id = ? AND id IN ({marks(part)})"
        rows = conn.execute(
            f"SELECT id, subject, fact_type, fact, evidence_text FROM memory_facts WHERE {where}",
            (guild_id, *part),
        ).fetchall()
        texts = {row[0]: fact_embedding_text(row[2], row[3], row[4]) for row in rows}
        dropped.subjects.update(row[1] for row in rows)
        models = fact_vector_models(conn, guild_id, part)
        conn.executemany(
            "DELETE FROM embedding_cache WHERE sha256 = ? AND model = ?",
            [(content_hash(model, texts[fid]), model) for fid, model in models if fid in texts],
        )
        dropped.vectors += delete_fact_vectors(conn, guild_id, part)
        cursor = conn.execute(f"DELETE FROM memory_facts WHERE {where}", (guild_id, *part))
        dropped.facts += max(0, cursor.rowcount)
        # what a deleted fact had superseded is current again: the statement that replaced
        # it is gone (a wrong extraction, a deleted message), and no id points at nothing
        conn.execute(
            "UPDATE memory_facts SET is_active = 1, superseded_by = NULL, valid_until = NULL "
            f"WHERE guild_id = ? AND superseded_by IN ({marks(part)})",
            (guild_id, *part),
        )
    return dropped


def delete_fact(conn: Any, guild_id: str, fact_id: int) -> bool:
    """Delete one fact of the guild and its vectors (a moderator's removal)."""
    with transaction(conn):
        return _drop_facts(conn, guild_id, [fact_id]).facts > 0


def edit_fact(
    conn: Any, guild_id: str, fact_id: int, text: str | None, fact_type: str | None,
    active: bool | None, now: str,
) -> bool:  # fmt: skip
    """A moderator's edit of one fact of the guild; a new text drops its vectors (it is
    embedded again). ``ValueError`` when the text is another fact of the subject already."""
    sets: list[str] = ["updated_at = ?"]
    params: list[object] = [now]
    for column, value in (("fact", text), ("fact_type", fact_type)):
        if value is not None:
            sets.append(f"{column} = ?")
            params.append(value)
    if active is not None:
        sets.append("is_active = ?")
        params.append(int(active))
    with transaction(conn):
        try:
            changed = conn.execute(
                f"UPDATE memory_facts SET {', '.join(sets)} WHERE id = ? AND guild_id = ?",
                (*params, fact_id, guild_id),
            ).rowcount
        except Exception as exc:  # the (guild, subject, fact) key: another fact says it
            if "UNIQUE" in str(exc):
                raise ValueError("another fact of this subject says exactly that") from None
            raise
        if changed and text is not None:
            delete_fact_vectors(conn, guild_id, [fact_id])
    return bool(changed)
