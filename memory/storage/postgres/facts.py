"""Facts in PostgreSQL: the statements the lifecycle's rules need (``PgFactRows``: the rules
themselves are ``memory.storage.placing``'s, awaited here), storing lore, and reading a
guild's facts. Times are ``timestamptz``, given and returned in the stored format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.audit import SYSTEM
from memory.extraction.lore import Origin, lore_fact
from memory.lifecycle.value import CONFIDENCE_CEILING, REINFORCE_STEP
from memory.models import (
    LORE_SUBJECT,
    CandidateFact,
    Fact,
    FactOrigin,
    canonical_time,
    parse_iso,
    utc_iso,
)
from memory.storage import placing
from memory.storage.active_facts import Active
from memory.storage.base import FACT_COLS, fact_from_row
from memory.storage.placing import Lifecycle, Stored
from memory.storage.postgres.events import record
from memory.storage.postgres.fact_vectors import drop_vectors
from memory.storage.postgres.words import as_tsvector, lexemes

ORDER = 'ORDER BY f.subject COLLATE "C", f.confidence DESC, f.id'
UNIQUE_VIOLATION = "23505"
HIGHER = "GREATEST(memory_facts.confidence, excluded.confidence)"
AGAIN = "excluded.source_message_id IS DISTINCT FROM memory_facts.source_message_id"
CLEARER = "excluded.confidence > memory_facts.confidence"
# As SQLite's ``lifecycle_sql.UPSERT_FACT``: the same text again reinforces it when another
# message says it; the clearer wording keeps its type, evidence and source; active again.
UPSERT_FACT = f"""
INSERT INTO memory_facts (guild_id, channel_id, subject, fact, fact_type, evidence_text,
    source_message_id, confidence, is_active, said_at, created_at, updated_at, last_seen_at,
    words)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true, $9, $10, $10, $9, {as_tsvector("$11")})
ON CONFLICT (guild_id, subject, fact) DO UPDATE SET
    fact_type = CASE WHEN {CLEARER} THEN excluded.fact_type ELSE memory_facts.fact_type END,
    evidence_text = CASE WHEN {CLEARER} THEN excluded.evidence_text
                         ELSE memory_facts.evidence_text END,
    words = CASE WHEN {CLEARER} THEN excluded.words ELSE memory_facts.words END,
    source_message_id = CASE WHEN {CLEARER} THEN excluded.source_message_id
                             ELSE memory_facts.source_message_id END,
    confidence = CASE WHEN {AGAIN}
        THEN GREATEST({HIGHER}, {HIGHER} + ($12 - {HIGHER}) * $13) ELSE {HIGHER} END,
    times_seen = memory_facts.times_seen + (CASE WHEN {AGAIN} THEN 1 ELSE 0 END),
    said_at = LEAST(memory_facts.said_at, excluded.said_at),
    last_seen_at = GREATEST(COALESCE(memory_facts.last_seen_at, memory_facts.said_at),
                            excluded.last_seen_at),
    is_active = true,
    superseded_by = NULL,
    valid_until = NULL,
    updated_at = excluded.updated_at
RETURNING id, created_at, times_seen, last_seen_at, confidence
"""


# said_at, created_at, updated_at, last_seen_at, valid_until: timestamptz here
TIMES = frozenset({10, 11, 12, 14, 16})


def stored_fact(row: Sequence[Any]) -> Fact:
    """A ``FACT_COLS`` row as the store returns it (``base.fact_from_row``, its times in the
    stored format)."""
    return fact_from_row(
        [utc_iso(v) if i in TIMES and v is not None else v for i, v in enumerate(row)]
    )


async def lock_subjects(conn: Any, keys: Sequence[tuple[str, str]]) -> None:
    """Hold each ``(guild, subject)`` until the transaction ends, in one order (no deadlock
    between two transactions that lock some of the same): a subject's facts are placed by
    one process at a time, each seeing what the other stored (its cap, its contradictions)."""
    for guild_id, subject in sorted(set(keys)):
        await conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", f"{guild_id}/{subject}"
        )


def _words(fact_text: str, evidence: str) -> str:
    """A fact's index words: its text's and its evidence's (``words.lexemes``)."""
    return lexemes(f"{fact_text} {evidence}")


class PgFactRows:
    """``placing.FactRows`` on an asyncpg connection inside a transaction. The subjects'
    active facts are read once per transaction (other processes write them too)."""

    def __init__(self, conn: Any, claimant: int | None = None) -> None:
        self.conn = conn
        self.claimant = claimant  # the session whose claim on a job lets its facts in
        self._actives: dict[tuple[str, str], list[Active]] = {}

    async def job_open(self, guild_id: str, message_id: str) -> bool:
        """Whether the message's job is pending and claimed by ``claimant``: locked until
        the transaction ends, so no other process claims it meanwhile."""
        found = await self.conn.fetchval(
            "SELECT j.claimed_by IS NOT DISTINCT FROM $3 FROM messages m "
            "JOIN ingest_jobs j ON j.message_row = m.id "
            "WHERE m.guild_id = $1 AND m.message_id = $2 AND j.status = 'pending' FOR UPDATE OF j",
            guild_id, message_id, self.claimant,
        )  # fmt: skip
        return bool(found)

    async def exact(self, guild_id: str, subject: str, fact: str) -> tuple[int, bool] | None:
        row = await self.conn.fetchrow(
            "SELECT id, is_active FROM memory_facts WHERE guild_id = $1 AND subject = $2 "
            "AND fact = $3",
            guild_id, subject, fact,
        )  # fmt: skip
        return (row[0], row[1]) if row else None

    async def actives(self, guild_id: str, subject: str) -> list[Active]:
        key = (guild_id, subject)
        if key not in self._actives:
            rows = await self.conn.fetch(
                "SELECT id, fact, COALESCE(last_seen_at, said_at), confidence, times_seen "
                "FROM memory_facts WHERE guild_id = $1 AND subject = $2 AND is_active",
                guild_id, subject,
            )  # fmt: skip
            self._actives[key] = [Active.of(r[0], r[1], utc_iso(r[2]), r[3], r[4]) for r in rows]
        return self._actives[key]

    async def upsert(self, origin: FactOrigin, cand: CandidateFact, said: str, now: str
                     ) -> Stored:  # fmt: skip
        row = await self.conn.fetchrow(
            UPSERT_FACT, origin.guild_id, origin.channel_id or None, cand.subject, cand.fact,
            cand.fact_type, cand.evidence, cand.source_message_id or None, cand.confidence,
            parse_iso(said), parse_iso(now), _words(cand.fact, cand.evidence),
            CONFIDENCE_CEILING, REINFORCE_STEP,
        )  # fmt: skip
        return row[0], utc_iso(row[1]), row[2], utc_iso(row[3]), row[4]

    async def evidence_of(self, fact_id: int) -> tuple[float, str | None]:
        row = await self.conn.fetchrow(
            "SELECT confidence, source_message_id FROM memory_facts WHERE id = $1", fact_id
        )
        return row[0], row[1]

    async def reinforce(self, fact_id: int, confidence: float, said: str, now: str,
                        clearer: CandidateFact | None) -> None:  # fmt: skip
        await self.conn.execute(
            "UPDATE memory_facts SET times_seen = times_seen + 1, confidence = $2, "
            "last_seen_at = GREATEST(COALESCE(last_seen_at, said_at), $3), updated_at = $4, "
            "evidence_text = COALESCE($5, evidence_text), "
            "words = CASE WHEN $5::text IS NULL THEN words "
            f"             ELSE {as_tsvector('$6')} END, "
            "source_message_id = CASE WHEN $5::text IS NULL THEN source_message_id ELSE $7 END "
            "WHERE id = $1",
            fact_id, confidence, parse_iso(said), parse_iso(now),
            clearer.evidence if clearer else None,
            _words(clearer.fact, clearer.evidence) if clearer else "",
            (clearer.source_message_id or None) if clearer else None,
        )  # fmt: skip

    async def supersede(self, older: int, newer: int, until: str, now: str) -> None:
        await self.conn.execute(
            "UPDATE memory_facts SET is_active = false, superseded_by = $2, valid_until = $3, "
            "updated_at = $4 WHERE id = $1",
            older, newer, parse_iso(until), parse_iso(now),
        )  # fmt: skip

    async def archive(self, fact_ids: Sequence[int], now: str) -> None:
        await self.conn.execute(
            "UPDATE memory_facts SET is_active = false, updated_at = $2 "
            "WHERE id = ANY($1::bigint[])",
            list(fact_ids), parse_iso(now),
        )  # fmt: skip

    async def facts_to_settle(self, guild_id: str, subject: str
                              ) -> list[tuple[int, str, str, float, int]]:  # fmt: skip
        rows = await self.conn.fetch(
            "SELECT id, fact, COALESCE(last_seen_at, said_at) AS seen, confidence, times_seen "
            "FROM memory_facts WHERE guild_id = $1 AND subject = $2 AND is_active "
            "ORDER BY seen, id",
            guild_id, subject,
        )  # fmt: skip
        return [(r[0], r[1], utc_iso(r[2]), r[3], r[4]) for r in rows]

    async def absorb(self, guild_id: str, target: int, fact_id: int, times_seen: int,
                     last_seen: str, confidence: float, now: str) -> None:  # fmt: skip
        await self.conn.execute(
            "UPDATE memory_facts SET times_seen = times_seen + $2, last_seen_at = $3, "
            "confidence = GREATEST(confidence, $4), updated_at = $5 WHERE id = $1",
            target, times_seen, parse_iso(last_seen), confidence, parse_iso(now),
        )  # fmt: skip
        await self.conn.execute(  # what the merged row superseded, the row it joins did
            "UPDATE memory_facts SET superseded_by = $1 WHERE guild_id = $2 AND superseded_by = $3",
            target, guild_id, fact_id,
        )  # fmt: skip
        await self.conn.execute("DELETE FROM memory_facts WHERE id = $1", fact_id)


class PgFacts:
    """The ``memory_facts`` table: lore, and reading a guild's facts."""

    pool: Any  # asyncpg's Pool
    vector_version: int
    lifecycle: Lifecycle

    async def remember_line(
        self, guild_id: str, line: str, *, channel_id: str = "", source_message_id: str = "",
        said_at: str | None = None, author_id: str = "",
    ) -> CandidateFact:  # fmt: skip
        """Store ``line`` as guild lore; return the fact as stored (as ``Storage`` says)."""
        cand = lore_fact(line, source_message_id=source_message_id)
        origin = Origin(guild_id, channel_id, canonical_time(said_at) if said_at else "")
        now = utc_iso()
        actor = author_id or SYSTEM
        async with self.pool.acquire() as conn, conn.transaction():
            await lock_subjects(conn, [(guild_id, LORE_SUBJECT)])
            rows = PgFactRows(conn)
            placed = await placing.place_fact(
                rows, origin, cand, now, self.lifecycle, extracted=False, actor=actor
            )
            if author_id:
                await conn.execute(
                    "UPDATE memory_facts SET author_id = COALESCE(author_id, $1) "
                    "WHERE guild_id = $2 AND subject = $3 AND fact = $4",
                    author_id, guild_id, LORE_SUBJECT, cand.fact,
                )  # fmt: skip
            events = placed.events + await placing.archive_beyond_cap(
                rows, guild_id, LORE_SUBJECT, now, self.lifecycle.half_life_days
            )
            await record(conn, events, parse_iso(now))
        self.vector_version += 1
        return cand

    async def active_facts(self, guild_id: str) -> list[Fact]:
        rows = await self.pool.fetch(
            f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.guild_id = $1 AND f.is_active {ORDER}",
            guild_id,
        )
        return [stored_fact(r) for r in rows]

    async def facts_of(self, guild_id: str, subjects: Sequence[str]) -> list[Fact]:
        """Every active fact of the guild about ``subjects``."""
        rows = await self.pool.fetch(
            f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.guild_id = $1 AND f.is_active "
            "AND f.subject = ANY($2::text[])",
            guild_id, list(dict.fromkeys(subjects)),
        )  # fmt: skip
        return [stored_fact(r) for r in rows]

    async def facts_by_ids(
        self, guild_id: str, fact_ids: Sequence[int], *, archived: bool = False
    ) -> list[Fact]:
        """Active facts of the guild among ``fact_ids`` (``archived``: those too)."""
        rows = await self.pool.fetch(
            f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.id = ANY($1::bigint[]) "
            "AND f.guild_id = $2 AND (f.is_active OR $3)",
            list(fact_ids), guild_id, archived,
        )  # fmt: skip
        return [stored_fact(r) for r in rows]

    async def count_active_facts(self, guild_id: str) -> int:
        count = await self.pool.fetchval(
            "SELECT count(*) FROM memory_facts WHERE guild_id = $1 AND is_active", guild_id
        )
        return int(count)

    async def count_subjects(self, guild_id: str) -> int:
        """Members (and lore) with active facts in the guild."""
        count = await self.pool.fetchval(
            "SELECT count(DISTINCT subject) FROM memory_facts WHERE guild_id = $1 AND is_active",
            guild_id,
        )
        return int(count)

    async def member_facts(self, guild_id: str, user_id: str) -> tuple[list[Fact], list[Fact]]:
        """Every fact of the guild about the member, and the lore they wrote — active and
        archived, oldest first (what ``/memory export`` hands them)."""
        found = []
        for column in ("subject", "author_id"):
            rows = await self.pool.fetch(
                f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.guild_id = $1 "
                f"AND f.{column} = $2 ORDER BY f.said_at, f.id",
                guild_id, user_id,
            )  # fmt: skip
            found.append([stored_fact(r) for r in rows])
        return found[0], found[1]

    async def review_facts(
        self, guild_id: str, *, subject: str | None = None, archived: bool = False,
        limit: int = 100, before_id: int | None = None,
    ) -> list[Fact]:  # fmt: skip
        """The guild's facts for moderators, newest first (``archived``: those too)."""
        rows = await self.pool.fetch(
            f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.guild_id = $1 "
            "AND ($2::text IS NULL OR f.subject = $2) AND (f.is_active OR $3) "
            "AND ($4::bigint IS NULL OR f.id < $4) ORDER BY f.id DESC LIMIT $5",
            guild_id, subject, archived, before_id, limit,
        )  # fmt: skip
        return [stored_fact(r) for r in rows]

    async def snapshot_facts(self, guild_id: str, limit: int) -> list[Fact]:
        """The guild's ``limit`` most recently updated active facts (for MEMORY.md), in
        ``active_facts`` order."""
        rows = await self.pool.fetch(
            f"SELECT {FACT_COLS} FROM (SELECT * FROM memory_facts WHERE guild_id = $1 "
            f"AND is_active ORDER BY updated_at DESC, id DESC LIMIT $2) f {ORDER}",
            guild_id, limit,
        )  # fmt: skip
        return [stored_fact(r) for r in rows]

    async def edit_fact(
        self, guild_id: str, fact_id: int, *, text: str | None = None,
        fact_type: str | None = None, active: bool | None = None,
    ) -> Fact | None:  # fmt: skip
        """A moderator's change to one fact of the guild; None when the guild has no such
        fact. ``ValueError`` when the new text is another fact of the same subject already.
        (A new text is searched by its new words, and embedded again.)"""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                evidence = await conn.fetchval(
                    "SELECT evidence_text FROM memory_facts WHERE id = $1 AND guild_id = $2 "
                    "FOR UPDATE",
                    fact_id, guild_id,
                )  # fmt: skip
                status = await conn.execute(
                    "UPDATE memory_facts SET updated_at = $3, fact = COALESCE($4, fact), "
                    "fact_type = COALESCE($5, fact_type), is_active = COALESCE($6, is_active), "
                    "words = CASE WHEN $4::text IS NULL THEN words "
                    f"             ELSE {as_tsvector('$7')} END "
                    "WHERE id = $1 AND guild_id = $2",
                    fact_id, guild_id, parse_iso(utc_iso()), text, fact_type, active,
                    _words(text, evidence or "") if text is not None else "",
                )  # fmt: skip
                if text is not None and status.split()[-1] != "0":
                    await drop_vectors(conn, fact_id)  # embedded again
        except Exception as exc:  # the (guild, subject, fact) key: another fact says it
            if getattr(exc, "sqlstate", None) == UNIQUE_VIOLATION:
                raise ValueError("another fact of this subject says exactly that") from None
            raise
        if status.split()[-1] != "0":
            self.vector_version += 1
        found = await self.facts_by_ids(guild_id, [fact_id], archived=True)
        return found[0] if found else None

    async def delete_fact(self, guild_id: str, fact_id: int) -> bool:
        """Delete one fact of the guild."""
        status = await self.pool.execute(
            "DELETE FROM memory_facts WHERE id = $1 AND guild_id = $2", fact_id, guild_id
        )
        deleted: bool = status.split()[-1] != "0"
        if deleted:
            self.vector_version += 1
        return deleted
