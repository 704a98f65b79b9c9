"""Forgetting in PostgreSQL: a Discord deletion, a Discord edit, and ``/memory forget`` (a
member's data), each one transaction keyed by the guild (as ``memory.storage.forget_sql``
does for SQLite). With a fact go its vectors (every model, by cascade) and the
embedding-cache entries of its text for those models; jobs go with their messages.

Unlike SQLite's (``secure_delete``), PostgreSQL's files keep a deleted row's bytes until
``VACUUM`` lets the space be used again and new rows overwrite it, and its WAL (and any
backup or replica) keeps them as long as it is kept: an operator who must forget for
good vacuums and rotates those too."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memory.search.embeddings import content_hash
from memory.storage.base import MESSAGE_COLS
from memory.storage.forget_sql import DeleteOutcome, EditOutcome, ForgetOutcome
from memory.storage.postgres.fact_vectors import TABLE
from memory.storage.postgres.facts import lock_subjects
from memory.storage.postgres.messages import message
from memory.storage.postgres.words import as_tsvector, lexemes
from memory.storage.vectors_sql import fact_embedding_text

# The job of an edited message is pending again (a message stored without a job gets one).
REPEND_JOB = """
INSERT INTO ingest_jobs (message_row, guild_id, status, live, trace, created_at, updated_at)
VALUES ($1, $2, 'pending', true, '{}', $3, $3)
ON CONFLICT (message_row) DO UPDATE SET
    status = 'pending', attempts = 0, last_error = NULL, updated_at = excluded.updated_at,
    claimed_by = NULL, claimed_until = NULL
"""
# Other messages' jobs that mention the member: ``trace.mentions`` holds ``[user id,
# display name]`` pairs (see ``memory.ingest._source``); theirs are left out.
SCRUB_MENTIONS = """
UPDATE ingest_jobs SET trace = jsonb_set(trace, '{mentions}', COALESCE((
    SELECT jsonb_agg(pair) FROM jsonb_array_elements(trace -> 'mentions') AS pair
    WHERE pair ->> 0 IS DISTINCT FROM $2), '[]'::jsonb))
WHERE guild_id = $1 AND jsonb_typeof(trace -> 'mentions') = 'array'
  AND EXISTS (SELECT 1 FROM jsonb_array_elements(trace -> 'mentions') AS pair
              WHERE pair ->> 0 = $2)
"""


class PgForget:
    """Deleting and editing messages, and forgetting a member."""

    pool: Any  # asyncpg's Pool
    vector_version: int
    members_version: int

    async def delete_message(self, guild_id: str, message_id: str) -> DeleteOutcome:
        """A message deleted on Discord: it and every fact sourced from it go."""
        async with self.pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                f"DELETE FROM messages m WHERE m.guild_id = $1 AND m.message_id = $2 "
                f"RETURNING {MESSAGE_COLS}",
                guild_id, message_id,
            )  # fmt: skip
            facts, vectors, subjects = await _drop_facts(
                conn, guild_id, await _sourced_from(conn, guild_id, [message_id])
            )
        if row is not None or facts:
            self.vector_version += 1
        messages = (message(row),) if row is not None else ()
        return DeleteOutcome(messages, facts, vectors, subjects)

    async def edit_message(
        self, guild_id: str, message_id: str, content: str
    ) -> EditOutcome | None:
        """Store a message's new text, delete the facts grounded in its old text and set its
        job pending again; None when the guild has no such message. Same text: no change."""
        async with self.pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = $1 "
                "AND m.message_id = $2 FOR UPDATE",
                guild_id, message_id,
            )  # fmt: skip
            if row is None:
                return None
            before = message(row)
            after = before._replace(content=content)
            if before.content == content:
                return EditOutcome(before, after)
            await conn.execute(
                "UPDATE messages SET content = $3, "
                f"words = {as_tsvector('$4')} "
                "WHERE id = $1 AND guild_id = $2",
                before.row_id, guild_id, content, lexemes(content),
            )  # fmt: skip
            facts, vectors, subjects = await _drop_facts(
                conn, guild_id, await _sourced_from(conn, guild_id, [message_id])
            )
            await conn.execute(REPEND_JOB, before.row_id, guild_id, datetime.now(UTC))
        self.vector_version += 1
        return EditOutcome(before, after, facts, vectors, subjects)

    async def forget_member(self, guild_id: str, user_id: str) -> ForgetOutcome:
        """Delete the member's messages (every source), the facts about them, the facts
        sourced from their messages and the lore they wrote, their members row, their
        profile paragraph, and their name in the mentions that other messages' jobs
        carry."""
        async with self.pool.acquire() as conn, conn.transaction():
            await lock_subjects(conn, [(guild_id, user_id)])
            rows = await conn.fetch(
                f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = $1 "
                "AND m.author_id = $2 ORDER BY m.id",
                guild_id, user_id,
            )  # fmt: skip
            messages = tuple(message(row) for row in rows)
            fact_ids = await _sourced_from(conn, guild_id, [m.message_id for m in messages])
            fact_ids += [r[0] for r in await conn.fetch(
                "SELECT id FROM memory_facts WHERE guild_id = $1 "
                "AND (subject = $2 OR author_id = $2)",
                guild_id, user_id,
            )]  # fmt: skip
            facts, vectors, subjects = await _drop_facts(conn, guild_id, fact_ids)
            await conn.execute(
                "DELETE FROM messages WHERE id = ANY($1::bigint[]) AND guild_id = $2",
                [m.row_id for m in messages], guild_id,
            )  # fmt: skip
            members = await conn.execute(
                "DELETE FROM members WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
            mentions = await conn.execute(SCRUB_MENTIONS, guild_id, user_id)
            for table in ("member_profiles", "subjects_to_settle"):
                await conn.execute(
                    f"DELETE FROM {table} WHERE guild_id = $1 AND subject = $2", guild_id, user_id
                )
        self.vector_version += 1
        self.members_version += 1
        return ForgetOutcome(
            messages=messages, facts=facts, vectors=vectors, subjects=subjects,
            members=_count(members), mentions=_count(mentions),
        )  # fmt: skip


def _count(status: str) -> int:
    return int(status.split()[-1])


async def _sourced_from(conn: Any, guild_id: str, message_ids: Sequence[str]) -> list[int]:
    rows = await conn.fetch(
        "SELECT id FROM memory_facts WHERE guild_id = $1 AND source_message_id = ANY($2)",
        guild_id, list(message_ids),
    )  # fmt: skip
    return [r[0] for r in rows]


async def _drop_facts(
    conn: Any, guild_id: str, fact_ids: Sequence[int]
) -> tuple[int, int, tuple[str, ...]]:
    """Delete these facts of the guild, their vectors (by cascade) and their
    embedding-cache entries; what a deleted fact had superseded is current again. How many
    facts and vectors went, and whose facts they were."""
    ids = sorted(set(fact_ids))
    if not ids:
        return 0, 0, ()
    rows = await conn.fetch(
        "SELECT id, subject, fact_type, fact, evidence_text FROM memory_facts "
        "WHERE guild_id = $1 AND id = ANY($2::bigint[])",
        guild_id, ids,
    )  # fmt: skip
    texts = {r[0]: fact_embedding_text(r[2], r[3], r[4]) for r in rows}
    vectors = 0
    for table_id, model in await conn.fetch("SELECT id, model FROM memory_vector_models"):
        having = await conn.fetch(
            f"SELECT fact_id FROM {TABLE.format(id=table_id)} WHERE fact_id = ANY($1::bigint[])",
            list(texts),
        )
        vectors += len(having)
        await conn.execute(
            "DELETE FROM embedding_cache WHERE model = $1 AND sha256 = ANY($2::text[])",
            model, [content_hash(model, texts[r[0]]) for r in having],
        )  # fmt: skip
    deleted = await conn.execute(
        "DELETE FROM memory_facts WHERE guild_id = $1 AND id = ANY($2::bigint[])", guild_id, ids
    )
    await conn.execute(
        "UPDATE memory_facts SET is_active = true, superseded_by = NULL, valid_until = NULL "
        "WHERE guild_id = $1 AND superseded_by = ANY($2::bigint[])",
        guild_id, ids,
    )  # fmt: skip
    return _count(deleted), vectors, tuple(sorted({r[1] for r in rows}))
