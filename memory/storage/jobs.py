"""Ingest jobs: messages and their jobs written together, claimed in order, closed with the
facts extracted from them, dropped or set pending again."""

from __future__ import annotations

import json
from collections.abc import Sequence

from memory.audit import MemoryEvent
from memory.models import CandidateFact, FactOrigin, IngestItem, Job, utc_iso
from memory.storage import facts_sql
from memory.storage import ingest_sql as sql
from memory.storage.base import MESSAGE_COLS, Database, message_from_row
from memory.storage.placing import NO_ADVICE, Advice

SELECT_PENDING = f"""
SELECT j.message_row, j.live, j.trace, {MESSAGE_COLS}
FROM ingest_jobs j JOIN messages m ON m.id = j.message_row
WHERE j.status = 'pending' ORDER BY j.message_row LIMIT ?
"""


class Jobs(Database):
    """The ``ingest_jobs`` table (with the messages it is about)."""

    async def insert_messages(
        self, items: Sequence[IngestItem], *, live: bool, closed: sql.Closed = ()
    ) -> sql.InsertOutcome:
        """Store messages and their jobs in one transaction: pending, but ``done`` for the
        messages in ``closed`` (all of them for ``"all"``), which have nothing to extract.

        The outcome gives the row id of each message stored now and the job status
        ("done", "pending", ...) of each that was already there. Authors become members.
        """
        changed = {}
        for item in items:
            author = item.author
            key, value = (item.guild_id, author.id), (author.name, author.username)
            if author.id and self._members_written.get(key) != value:
                changed[key] = value
        members = [(g, uid, name, username) for (g, uid), (name, username) in changed.items()]
        guilds = {item.guild_id for item in items} - self._guilds_written
        outcome = await self._call(
            sql.insert_messages, list(items), live, utc_iso(), members, sorted(guilds), closed
        )
        self._members_written.update(changed)
        if changed:
            self.members_version += 1
        self._guilds_written |= guilds
        return outcome

    async def claim_pending(self, limit: int) -> list[Job]:
        """Queue-internal: the oldest pending jobs, in order, with their messages."""
        rows = await self._fetchall(SELECT_PENDING, (limit,))
        return [
            Job(
                job_id=r[0],
                live=bool(r[1]),
                trace=json.loads(r[2]),
                message=message_from_row(r[3:]),
            )
            for r in rows
        ]

    async def pending_keys(self) -> list[tuple[str, str, bool]]:
        """Queue-internal: ``(guild_id, message_id, live)`` of every pending job, oldest first."""
        rows = await self._fetchall(
            "SELECT m.guild_id, m.message_id, j.live FROM ingest_jobs j "
            "JOIN messages m ON m.id = j.message_row WHERE j.status = 'pending' "
            "ORDER BY j.message_row"
        )
        return [(r[0], r[1], bool(r[2])) for r in rows]

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
        """Store extracted facts and close their jobs, in one transaction. Each fact is said
        when its origin (the source message) was written. The audit log gets ``events`` and
        one event per fact stored new or archived past its subject's cap. ``advice``: verdicts
        on some pairs of a new fact and an active one that replace the judge's (the LLM's
        check of them); ignored with the lifecycle off. ``judge_later``: the facts are judged
        by :meth:`settle_waiting` instead (see ``facts_sql.finish_jobs``).

        Returns the ``(guild_id, subject)`` pairs whose facts changed.
        """
        changed = await self._call(
            facts_sql.finish_jobs,
            list(done),
            list(failed),
            list(facts),
            list(events),
            utc_iso(),
            self.lifecycle,
            advice,
            self.actives_kept,
            judge_later,
        )
        if facts:
            self.vector_version += 1
            self.waiting_to_settle |= judge_later
        return changed

    async def unclaimed_jobs(self) -> int:
        """None: this process is the only one working this database's jobs."""
        return 0

    async def pending_count(self, guild_id: str) -> int:
        """Jobs of this guild waiting to be processed."""
        row = await self._fetchone(
            "SELECT count(*) FROM ingest_jobs WHERE guild_id = ? AND status = 'pending'",
            (guild_id,),
        )
        return int(row[0])

    async def drop_jobs(self, keys: Sequence[tuple[str, str]], reason: str) -> None:
        """Mark the pending jobs of these messages ``dropped`` (the messages stay)."""
        await self._call(sql.drop_jobs, list(keys), reason, utc_iso())

    async def requeue_jobs(self, guild_id: str, statuses: Sequence[str]) -> int:
        """Set this guild's jobs of the given statuses back to pending; return how many."""
        return await self._call(facts_sql.requeue_jobs, guild_id, list(statuses), utc_iso())

    async def job_status(self, guild_id: str, message_id: str) -> tuple[str, str | None] | None:
        row = await self._fetchone(
            "SELECT j.status, j.last_error FROM ingest_jobs j JOIN messages m "
            "ON m.id = j.message_row WHERE m.guild_id = ? AND m.message_id = ?",
            (guild_id, message_id),
        )
        return (row[0], row[1]) if row else None
