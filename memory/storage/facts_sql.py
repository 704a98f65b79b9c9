"""Closing jobs with the facts extracted from them, run whole on the database thread: the
fact upsert (a fact said again keeps its earliest time and its clearest wording), the
per-subject caps, and setting jobs pending again for a new extraction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

from memory.audit import SYSTEM, MemoryEvent
from memory.models import LORE_SUBJECT, CandidateFact, FactOrigin, JobStatus, canonical_time
from memory.storage import events_sql
from memory.storage.ingest_sql import chunks, marks, transaction
from memory.storage.migrations import CLOSED

JOB_STATUSES = frozenset(get_args(JobStatus))
FACT_CAP = 80
LORE_FACT_CAP = 120

_INSERT_FACT = """
INSERT INTO memory_facts
    (guild_id, channel_id, subject, fact, fact_type, evidence_text, source_message_id,
     confidence, is_active, said_at, created_at, updated_at)
"""
_ON_FACT_CONFLICT = """
ON CONFLICT (guild_id, subject, fact) DO UPDATE SET
    fact_type = CASE WHEN excluded.confidence > confidence
                     THEN excluded.fact_type ELSE fact_type END,
    evidence_text = CASE WHEN excluded.confidence > confidence
                         THEN excluded.evidence_text ELSE evidence_text END,
    source_message_id = CASE WHEN excluded.confidence > confidence
                             THEN excluded.source_message_id ELSE source_message_id END,
    confidence = MAX(confidence, excluded.confidence),
    said_at = MIN(said_at, excluded.said_at),
    is_active = 1,
    updated_at = excluded.updated_at
RETURNING id, created_at
"""
UPSERT_FACT = _INSERT_FACT + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)" + _ON_FACT_CONFLICT
# A fact extracted from a message is stored only while the message's job is still open: a
# message deleted or forgotten while it was being extracted leaves no fact behind.
UPSERT_JOB_FACT = (
    _INSERT_FACT
    + """
SELECT ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ? WHERE EXISTS (
    SELECT 1 FROM messages m JOIN ingest_jobs j ON j.message_row = m.id
    WHERE m.guild_id = ? AND m.message_id = ? AND j.status = 'pending'
)"""
    + _ON_FACT_CONFLICT
)
# The subject's active facts past the newest ``keep`` (index memory_facts_recent).
ARCHIVE_BEYOND_CAP = """
UPDATE memory_facts SET is_active = 0, updated_at = ?
WHERE id IN (
    SELECT id FROM memory_facts WHERE guild_id = ? AND subject = ? AND is_active = 1
    ORDER BY updated_at DESC, id DESC LIMIT -1 OFFSET ?
)
RETURNING id
"""


def finish_jobs(
    conn: Any,
    done: Sequence[int],
    failed: Sequence[tuple[int, str]],
    facts: Sequence[tuple[FactOrigin, CandidateFact]],
    events: Sequence[MemoryEvent],
    now: str,
) -> set[tuple[str, str]]:
    """Upsert facts, archive beyond the caps, close jobs, and log it all.

    A fact is said when its message (``FactOrigin.created_at``) was written; stored again,
    it keeps the earliest time. When the call closes jobs, their facts are extracted ones:
    each is kept only if its message is still stored with its job open (not deleted
    meanwhile). Without jobs (lore) the facts are stored as they are. The audit log gets
    ``events``, a ``fact.stored`` per new fact and a ``fact.archived`` per fact past a cap."""
    changed: set[tuple[str, str]] = set()
    log, created = list(events), set()
    with transaction(conn):
        for message, cand in facts:
            params = _fact_params(message, cand, now)
            if done:
                params += (message.guild_id, cand.source_message_id)
            row = conn.execute(UPSERT_JOB_FACT if done else UPSERT_FACT, params).fetchone()
            if row is not None:
                changed.add((message.guild_id, cand.subject))
                if row[1] == now and row[0] not in created:  # created by this call
                    created.add(row[0])
                    log.append(stored_event(message.guild_id, row[0], cand))
        for guild_id, subject in changed:
            log += _archive_beyond_cap(conn, guild_id, subject, now)
        for chunk in chunks(done):
            conn.execute(
                "UPDATE ingest_jobs SET status = 'done', attempts = attempts + 1, "
                "last_error = NULL, updated_at = ? "
                f"WHERE status = 'pending' AND message_row IN ({marks(chunk)})",
                (now, *chunk),
            )
        conn.executemany(
            "UPDATE ingest_jobs SET status = 'failed', attempts = attempts + 1, "
            "last_error = ?, updated_at = ? WHERE status = 'pending' AND message_row = ?",
            [(error[:1000], now, job_id) for job_id, error in failed],
        )
        events_sql.record(conn, log, now)
    return changed


def stored_event(
    guild_id: str, fact_id: int, cand: CandidateFact, actor: str = SYSTEM
) -> MemoryEvent:
    """``fact.stored``: its type, confidence and source message (never its text)."""
    source = f", from message {cand.source_message_id}" if cand.source_message_id else ""
    return MemoryEvent(
        guild_id, "fact.stored", actor, str(fact_id), cand.subject,
        f"{cand.fact_type}, confidence {cand.confidence:.2f}{source}",
    )  # fmt: skip


def _archive_beyond_cap(conn: Any, guild_id: str, subject: str, now: str) -> list[MemoryEvent]:
    keep = LORE_FACT_CAP if subject == LORE_SUBJECT else FACT_CAP
    rows = conn.execute(ARCHIVE_BEYOND_CAP, (now, guild_id, subject, keep)).fetchall()
    whose = "the guild's lore" if subject == LORE_SUBJECT else "a member"
    detail = f"past the cap of {keep} active facts of {whose}"
    return [
        MemoryEvent(guild_id, "fact.archived", SYSTEM, str(r[0]), subject, detail) for r in rows
    ]


def store_lore(
    conn: Any, origin: FactOrigin, cand: CandidateFact, author_id: str, actor: str, now: str
) -> None:
    """Upsert a lore line (its first writer kept as ``author_id``) and archive lore beyond
    its cap, in one transaction, logged as done by ``actor``."""
    with transaction(conn):
        row = conn.execute(UPSERT_FACT, _fact_params(origin, cand, now)).fetchone()
        if author_id:
            conn.execute(
                "UPDATE memory_facts SET author_id = COALESCE(author_id, ?) "
                "WHERE guild_id = ? AND subject = ? AND fact = ?",
                (author_id, origin.guild_id, LORE_SUBJECT, cand.fact),
            )
        log = [stored_event(origin.guild_id, row[0], cand, actor)] if row[1] == now else []
        log += _archive_beyond_cap(conn, origin.guild_id, LORE_SUBJECT, now)
        events_sql.record(conn, log, now)


def requeue_jobs(conn: Any, guild_id: str, statuses: Sequence[str], now: str) -> int:
    unknown = set(statuses) - JOB_STATUSES
    if unknown:
        raise ValueError(f"not job statuses: {sorted(unknown)}")
    listed, params = f"({marks(statuses)})", tuple(statuses)
    if set(statuses) == {"dropped", "failed"}:  # named as the partial index names them
        listed, params = CLOSED, ()
    with transaction(conn):
        if "done" in statuses:  # extracted again: the old extraction's facts go, unless redone
            _archive_extracted_facts(conn, guild_id, listed, params, now)
        cur = conn.execute(
            "UPDATE ingest_jobs SET status = 'pending', updated_at = ? "
            f"WHERE guild_id = ? AND status IN {listed}",
            (now, guild_id, *params),
        )
        return int(cur.rowcount)


def _archive_extracted_facts(
    conn: Any, guild_id: str, listed: str, params: tuple[str, ...], now: str
) -> None:
    """Archive the active facts extracted from the messages whose jobs are about to run
    again (lore stays). A fact the new extraction proposes again is the same row, made
    active again by its upsert; one it does not is left archived, not behind."""
    conn.execute(
        "UPDATE memory_facts SET is_active = 0, updated_at = ? "
        "WHERE guild_id = ? AND is_active = 1 AND subject != ? AND source_message_id IN ("
        "  SELECT m.message_id FROM messages m JOIN ingest_jobs j ON j.message_row = m.id"
        f"  WHERE j.guild_id = ? AND j.status IN {listed})",
        (now, guild_id, LORE_SUBJECT, guild_id, *params),
    )


def _fact_params(message: FactOrigin, cand: CandidateFact, now: str) -> tuple[Any, ...]:
    return (
        message.guild_id,
        message.channel_id or None,
        cand.subject,
        cand.fact,
        cand.fact_type,
        cand.evidence,
        cand.source_message_id or None,
        cand.confidence,
        _said_at(message.created_at, now),
        now,
        now,
    )


def _said_at(when: str, now: str) -> str:
    """When a fact was said, in the stored format: its message's time (``when``), or ``now``
    when there is none or it is no timestamp (stored messages' times always are)."""
    if not when:
        return now
    try:
        return canonical_time(when)
    except ValueError:
        return now
