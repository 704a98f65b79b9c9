"""The SQLite statements of the fact lifecycle (``memory.storage.placing`` holds its rules),
run on the database thread inside the caller's transaction: ``SqliteFactRows`` and the
entry points the store calls, which run the rules there and then (``placing.run_now``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.audit import SYSTEM, MemoryEvent
from memory.lifecycle.value import CONFIDENCE_CEILING, REINFORCE_STEP
from memory.models import LORE_SUBJECT, CandidateFact, FactOrigin
from memory.storage import events_sql, placing
from memory.storage.active_facts import Active, ActiveFacts
from memory.storage.ingest_sql import transaction
from memory.storage.placing import NO_ADVICE, Advice, Lifecycle, Placed, Stored
from memory.storage.vectors_sql import delete_fact_vectors

_INSERT_FACT = """
INSERT INTO memory_facts
    (guild_id, channel_id, subject, fact, fact_type, evidence_text, source_message_id,
     confidence, is_active, said_at, created_at, updated_at, last_seen_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
"""
_HIGHER = "MAX(confidence, excluded.confidence)"
_REINFORCED = f"{_HIGHER} + ({CONFIDENCE_CEILING} - {_HIGHER}) * {REINFORCE_STEP}"
_AGAIN = "excluded.source_message_id IS NOT source_message_id"  # another message said it
# The same text again: a new statement reinforces it; the clearer (more confident) wording
# keeps its type, evidence and source; it is active again (and no longer superseded: the
# contradiction check that follows decides anew).
UPSERT_FACT = (
    _INSERT_FACT
    + f"""
ON CONFLICT (guild_id, subject, fact) DO UPDATE SET
    fact_type = CASE WHEN excluded.confidence > confidence
                     THEN excluded.fact_type ELSE fact_type END,
    evidence_text = CASE WHEN excluded.confidence > confidence
                         THEN excluded.evidence_text ELSE evidence_text END,
    source_message_id = CASE WHEN excluded.confidence > confidence
                             THEN excluded.source_message_id ELSE source_message_id END,
    confidence = CASE WHEN {_AGAIN}
                      THEN MAX({_HIGHER}, {_REINFORCED})
                      ELSE {_HIGHER} END,
    times_seen = times_seen + ({_AGAIN}),
    said_at = MIN(said_at, excluded.said_at),
    last_seen_at = MAX(COALESCE(last_seen_at, said_at), excluded.last_seen_at),
    is_active = 1,
    superseded_by = NULL,
    valid_until = NULL,
    updated_at = excluded.updated_at
RETURNING id, created_at, times_seen, last_seen_at, confidence
"""
)
TO_SETTLE = "INSERT OR IGNORE INTO subjects_to_settle (guild_id, subject) VALUES (?, ?)"
SETTLED = "DELETE FROM subjects_to_settle WHERE guild_id = ? AND subject = ?"
JOB_OPEN = """
SELECT 1 FROM messages m JOIN ingest_jobs j ON j.message_row = m.id
WHERE m.guild_id = ? AND m.message_id = ? AND j.status = 'pending'
"""


class SqliteFactRows:
    """``placing.FactRows`` on a SQLite connection: each statement runs as it is called.
    ``actives``: the subjects' active facts kept between transactions (none: read here)."""

    def __init__(self, conn: Any, actives: ActiveFacts | None = None) -> None:
        self.conn = conn
        self.kept = actives

    async def job_open(self, guild_id: str, message_id: str) -> bool:
        return self.conn.execute(JOB_OPEN, (guild_id, message_id)).fetchone() is not None

    async def exact(self, guild_id: str, subject: str, fact: str) -> tuple[int, bool] | None:
        row = self.conn.execute(
            "SELECT id, is_active FROM memory_facts WHERE guild_id = ? AND subject = ? "
            "AND fact = ?",
            (guild_id, subject, fact),
        ).fetchone()
        return (row[0], bool(row[1])) if row else None

    async def actives(self, guild_id: str, subject: str) -> list[Active]:
        if self.kept is None:
            self.kept = ActiveFacts()
        return self.kept.of(self.conn, guild_id, subject)

    async def upsert(self, origin: FactOrigin, cand: CandidateFact, said: str, now: str
                     ) -> Stored:  # fmt: skip
        params = (origin.guild_id, origin.channel_id or None, cand.subject, cand.fact,
                  cand.fact_type, cand.evidence, cand.source_message_id or None,
                  cand.confidence, said, now, now, said)  # fmt: skip
        fact_id, created_at, times_seen, last_seen, confidence = self.conn.execute(
            UPSERT_FACT, params
        ).fetchone()
        return fact_id, created_at, times_seen, last_seen, confidence

    async def evidence_of(self, fact_id: int) -> tuple[float, str | None]:
        confidence, source = self.conn.execute(
            "SELECT confidence, source_message_id FROM memory_facts WHERE id = ?", (fact_id,)
        ).fetchone()
        return confidence, source

    async def reinforce(self, fact_id: int, confidence: float, said: str, now: str,
                        clearer: CandidateFact | None) -> None:  # fmt: skip
        evidence, source = (clearer.evidence, clearer.source_message_id or None) if clearer else (
            None, None)  # fmt: skip
        self.conn.execute(
            "UPDATE memory_facts SET times_seen = times_seen + 1, confidence = ?, "
            "last_seen_at = MAX(COALESCE(last_seen_at, said_at), ?), updated_at = ?, "
            "evidence_text = CASE WHEN ? THEN ? ELSE evidence_text END, "
            "source_message_id = CASE WHEN ? THEN ? ELSE source_message_id END WHERE id = ?",
            (confidence, said, now, clearer is not None, evidence, clearer is not None, source,
             fact_id),
        )  # fmt: skip

    async def supersede(self, older: int, newer: int, until: str, now: str) -> None:
        self.conn.execute(
            "UPDATE memory_facts SET is_active = 0, superseded_by = ?, valid_until = ?, "
            "updated_at = ? WHERE id = ?",
            (newer, until, now, older),
        )

    async def archive(self, fact_ids: Sequence[int], now: str) -> None:
        self.conn.executemany(
            "UPDATE memory_facts SET is_active = 0, updated_at = ? WHERE id = ?",
            [(now, fact_id) for fact_id in fact_ids],
        )

    async def facts_to_settle(self, guild_id: str, subject: str
                              ) -> list[tuple[int, str, str, float, int]]:  # fmt: skip
        rows = self.conn.execute(
            "SELECT id, fact, COALESCE(last_seen_at, said_at), confidence, times_seen "
            "FROM memory_facts WHERE guild_id = ? AND subject = ? AND is_active = 1 "
            "ORDER BY COALESCE(last_seen_at, said_at), id",
            (guild_id, subject),
        ).fetchall()
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def absorb(self, guild_id: str, target: int, fact_id: int, times_seen: int,
                     last_seen: str, confidence: float, now: str) -> None:  # fmt: skip
        self.conn.execute(
            "UPDATE memory_facts SET times_seen = times_seen + ?, last_seen_at = ?, "
            "confidence = MAX(confidence, ?), updated_at = ? WHERE id = ?",
            (times_seen, last_seen, confidence, now, target),
        )
        self.conn.execute(  # what the merged row superseded, the row it joins did
            "UPDATE memory_facts SET superseded_by = ? WHERE guild_id = ? AND superseded_by = ?",
            (target, guild_id, fact_id),
        )
        delete_fact_vectors(self.conn, guild_id, [fact_id])
        self.conn.execute("DELETE FROM memory_facts WHERE id = ?", (fact_id,))


def place_fact(
    conn: Any, origin: FactOrigin, cand: CandidateFact, now: str, lifecycle: Lifecycle,
    *, extracted: bool, actor: str = SYSTEM, actives: ActiveFacts | None = None,
    advice: Advice = NO_ADVICE,
) -> Placed:  # fmt: skip
    """``placing.place_fact`` on ``conn``, inside the caller's transaction."""
    return placing.run_now(placing.place_fact(
        SqliteFactRows(conn, actives), origin, cand, now, lifecycle, extracted=extracted,
        actor=actor, advice=advice,
    ))  # fmt: skip


def archive_beyond_cap(
    conn: Any, guild_id: str, subject: str, now: str, half_life_days: float,
    actives: ActiveFacts | None = None,
) -> list[MemoryEvent]:  # fmt: skip
    """``placing.archive_beyond_cap`` on ``conn``, inside the caller's transaction."""
    return placing.run_now(placing.archive_beyond_cap(
        SqliteFactRows(conn, actives), guild_id, subject, now, half_life_days
    ))  # fmt: skip


def settle_subject(
    conn: Any, guild_id: str, subject: str, now: str, lifecycle: Lifecycle
) -> list[MemoryEvent]:
    """``placing.settle_subject`` in one transaction, logged; the subject no longer waits."""
    if lifecycle.judge is None or subject == LORE_SUBJECT:
        return []
    with transaction(conn):
        events = placing.run_now(
            placing.settle_subject(SqliteFactRows(conn), guild_id, subject, now, lifecycle)
        )
        events_sql.record(conn, events, now)
        conn.execute(SETTLED, (guild_id, subject))
    return events
