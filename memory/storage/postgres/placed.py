"""Closing jobs with the facts extracted from them, in PostgreSQL: each fact placed by the
lifecycle's rules (``memory.storage.placing``, awaited over ``facts.PgFactRows``), the caps,
the jobs closed and everything logged in one transaction; and an import's members judged
whole once the queue is idle, one member a transaction, claimed so that two processes never
judge the same member at once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from memory.audit import MemoryEvent
from memory.models import LORE_SUBJECT, CandidateFact, FactOrigin, parse_iso, utc_iso
from memory.storage import placing
from memory.storage.facts_sql import JOB_STATUSES
from memory.storage.placing import NO_ADVICE, Advice, Lifecycle
from memory.storage.postgres.events import record
from memory.storage.postgres.facts import PgFactRows, lock_subjects
from memory.storage.postgres.session import Session


class PgPlaced:
    """Jobs closed with their facts, and the facts an import left to judge."""

    pool: Any  # asyncpg's Pool
    session: Session
    vector_version: int
    lifecycle: Lifecycle

    async def finish_jobs(
        self,
        done: Sequence[int],
        failed: Sequence[tuple[int, str]] = (),
        facts: Sequence[tuple[FactOrigin, CandidateFact]] = (),
        events: Sequence[MemoryEvent] = (),
        *,
        advice: Advice = NO_ADVICE,
        judge_later: bool = False,
    ) -> set[tuple[str, str]]:
        """Store extracted facts and close their jobs, in one transaction (as ``Storage``
        says: an extracted fact is kept only while its job is open; ``judge_later``: its
        member is judged by :meth:`settle_waiting` instead). The ``(guild, subject)`` pairs
        whose facts changed."""
        now = utc_iso()
        at = parse_iso(now)
        later = judge_later and self.lifecycle.judge is not None
        rules = replace(self.lifecycle, judge=None) if later else self.lifecycle
        changed: set[tuple[str, str]] = set()
        log = list(events)
        claimant = await self.session.current_pid()
        async with self.pool.acquire() as conn, conn.transaction():
            await lock_subjects(conn, [(origin.guild_id, cand.subject) for origin, cand in facts])
            rows = PgFactRows(conn, claimant)
            for origin, cand in facts:
                placed = await placing.place_fact(
                    rows, origin, cand, now, rules, extracted=bool(done), advice=advice
                )
                if placed.fact_id is not None:
                    changed.add((origin.guild_id, cand.subject))
                    log += placed.events
            for guild_id, subject in sorted(changed):
                log += await placing.archive_beyond_cap(
                    rows, guild_id, subject, now, self.lifecycle.half_life_days
                )
            waiting = sorted(key for key in changed if key[1] != LORE_SUBJECT) if later else []
            if waiting:
                await conn.executemany(
                    "INSERT INTO subjects_to_settle (guild_id, subject) VALUES ($1, $2) "
                    "ON CONFLICT DO NOTHING",
                    waiting,
                )
            await conn.execute(
                "UPDATE ingest_jobs SET status = 'done', attempts = attempts + 1, "
                "last_error = NULL, updated_at = $2, claimed_by = NULL, claimed_until = NULL "
                "WHERE status = 'pending' AND message_row = ANY($1::bigint[]) AND claimed_by = $3",
                list(done), at, claimant,
            )  # fmt: skip
            await conn.executemany(
                "UPDATE ingest_jobs SET status = 'failed', attempts = attempts + 1, "
                "last_error = $1, updated_at = $2, claimed_by = NULL, claimed_until = NULL "
                "WHERE status = 'pending' AND message_row = $3 AND claimed_by = $4",
                [(error[:1000], at, job_id, claimant) for job_id, error in failed],
            )
            await record(conn, log, at)
        if facts:
            self.vector_version += 1
        return changed

    async def count_waiting(self, guild_id: str | None = None) -> int:
        """Subjects (of ``guild_id``, else of every guild) whose facts wait to be judged."""
        count = await self.pool.fetchval(
            "SELECT count(*) FROM subjects_to_settle WHERE $1::text IS NULL OR guild_id = $1",
            guild_id,
        )
        return int(count)

    async def settle_waiting(self, limit: int) -> list[tuple[str, str]]:
        """Judge up to ``limit`` of the members an import left to judge, one transaction
        each, each claimed (``SKIP LOCKED``: another process takes the next); return them.
        Nothing without a judge (they wait for one)."""
        if self.lifecycle.judge is None:
            return []
        settled: list[tuple[str, str]] = []
        for _ in range(max(1, limit)):
            async with self.pool.acquire() as conn, conn.transaction():
                row = await conn.fetchrow(
                    "SELECT guild_id, subject FROM subjects_to_settle "
                    "LIMIT 1 FOR UPDATE SKIP LOCKED"
                )
                if row is None:
                    break
                guild_id, subject = row[0], row[1]
                await self._settle(conn, guild_id, subject)
                await conn.execute(
                    "DELETE FROM subjects_to_settle WHERE guild_id = $1 AND subject = $2",
                    guild_id, subject,
                )  # fmt: skip
            settled.append((guild_id, subject))
        if settled:
            self.vector_version += 1
        return settled

    async def requeue_jobs(self, guild_id: str, statuses: Sequence[str]) -> int:
        """Set this guild's jobs of the given statuses back to pending; return how many. Done
        ones are extracted again: the facts their messages gave (not lore) are archived
        first, and a fact the new extraction proposes again comes back as the same row."""
        unknown = set(statuses) - JOB_STATUSES
        if unknown:
            raise ValueError(f"not job statuses: {sorted(unknown)}")
        at = parse_iso(utc_iso())
        async with self.pool.acquire() as conn, conn.transaction():
            if "done" in statuses:
                await conn.execute(
                    "UPDATE memory_facts SET is_active = false, updated_at = $3 "
                    "WHERE guild_id = $1 AND is_active AND subject <> $4 AND source_message_id "
                    "IN (SELECT m.message_id FROM messages m JOIN ingest_jobs j "
                    "    ON j.message_row = m.id WHERE j.guild_id = $1 AND j.status = ANY($2))",
                    guild_id, list(statuses), at, LORE_SUBJECT,
                )  # fmt: skip
            status = await conn.execute(
                "UPDATE ingest_jobs SET status = 'pending', updated_at = $3, claimed_by = NULL, "
                "claimed_until = NULL WHERE guild_id = $1 AND status = ANY($2::text[])",
                guild_id, list(statuses), at,
            )  # fmt: skip
        self.vector_version += 1
        return int(status.split()[-1])

    async def settle_facts(
        self, guild_id: str, progress: Callable[[int], None] | None = None
    ) -> dict[str, int]:
        """Apply the lifecycle rules to the guild's facts stored before them, a subject a
        transaction; how many facts were ``merged``, ``superseded`` and ``archived``.
        ``progress`` is told each subject done."""
        subjects = await self.pool.fetch(
            "SELECT DISTINCT subject FROM memory_facts WHERE guild_id = $1 AND is_active "
            "ORDER BY subject",
            guild_id,
        )
        counts = {"merged": 0, "superseded": 0, "archived": 0}
        for (subject,) in subjects:
            events: list[MemoryEvent] = []
            if self.lifecycle.judge is not None and subject != LORE_SUBJECT:
                async with self.pool.acquire() as conn, conn.transaction():
                    events = await self._settle(conn, guild_id, subject)
            placing.tally_settled(counts, events)
            if events:
                self.vector_version += 1
            if progress is not None:
                progress(1)
        return counts

    async def _settle(self, conn: Any, guild_id: str, subject: str) -> list[MemoryEvent]:
        """Settle one member's facts (``placing.settle_subject``) inside ``conn``'s
        transaction, holding them, and log what it did."""
        await lock_subjects(conn, [(guild_id, subject)])
        now = utc_iso()
        events = await placing.settle_subject(
            PgFactRows(conn), guild_id, subject, now, self.lifecycle
        )
        await record(conn, events, parse_iso(now))
        return events
