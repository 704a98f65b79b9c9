"""Closing jobs with the facts extracted from them, run whole on the database thread: each
fact placed among its subject's (``lifecycle_sql``), the per-subject caps, and setting jobs
pending again for a new extraction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, get_args

from memory.audit import MemoryEvent
from memory.models import LORE_SUBJECT, CandidateFact, FactOrigin, JobStatus
from memory.storage import events_sql
from memory.storage.active_facts import ActiveFacts
from memory.storage.ingest_sql import chunks, marks, transaction
from memory.storage.lifecycle_sql import TO_SETTLE, archive_beyond_cap, place_fact
from memory.storage.migrations import CLOSED
from memory.storage.placing import NO_ADVICE, Advice, Lifecycle

JOB_STATUSES = frozenset(get_args(JobStatus))


def finish_jobs(
    conn: Any,
    done: Sequence[int],
    failed: Sequence[tuple[int, str]],
    facts: Sequence[tuple[FactOrigin, CandidateFact]],
    events: Sequence[MemoryEvent],
    now: str,
    lifecycle: Lifecycle,
    advice: Advice = NO_ADVICE,
    actives: ActiveFacts | None = None,
    judge_later: bool = False,
) -> set[tuple[str, str]]:
    """Place facts among their subjects' (``placing.place_fact``: merged when said
    again, superseding what they contradict), archive past the caps, close jobs, and log it
    all.

    When the call closes jobs, their facts are extracted ones: each is kept only if its
    message is still stored with its job open (not deleted meanwhile). Without jobs the facts
    are stored as they are. The audit log gets ``events`` and what placing and capping did.
    ``advice`` (the LLM's verdicts on some pairs) goes to ``place_fact``; ``actives``: the
    subjects' active facts kept between calls (none: read in this one). ``judge_later``
    (an import's step): the facts are placed as if no judge were set, and their subjects
    noted in ``subjects_to_settle``, to be judged whole once the queue is idle
    (``settle_subject``): one judgement per fact left at the end, not one per fact said."""
    changed: set[tuple[str, str]] = set()
    log = list(events)
    actives = actives or ActiveFacts()
    later = judge_later and lifecycle.judge is not None
    placing = replace(lifecycle, judge=None) if later else lifecycle
    with actives.kept(conn), transaction(conn):
        for origin, cand in facts:
            placed = place_fact(
                conn, origin, cand, now, placing, extracted=bool(done), actives=actives,
                advice=advice,
            )  # fmt: skip
            if placed.fact_id is not None:
                changed.add((origin.guild_id, cand.subject))
                log += placed.events
        for guild_id, subject in changed:
            log += archive_beyond_cap(
                conn, guild_id, subject, now, lifecycle.half_life_days, actives
            )
        if later:
            conn.executemany(TO_SETTLE, [key for key in changed if key[1] != LORE_SUBJECT])
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


def store_lore(
    conn: Any, origin: FactOrigin, cand: CandidateFact, author_id: str, actor: str, now: str,
    lifecycle: Lifecycle,
) -> None:  # fmt: skip
    """Upsert a lore line (its first writer kept as ``author_id``) and archive lore beyond
    its cap, in one transaction, logged as done by ``actor``."""
    lore = ActiveFacts()  # the lore's active facts, read once for placing and capping
    with transaction(conn):
        placed = place_fact(
            conn, origin, cand, now, lifecycle, extracted=False, actor=actor, actives=lore
        )
        if author_id:
            conn.execute(
                "UPDATE memory_facts SET author_id = COALESCE(author_id, ?) "
                "WHERE guild_id = ? AND subject = ? AND fact = ?",
                (author_id, origin.guild_id, LORE_SUBJECT, cand.fact),
            )
        log = placed.events
        log += archive_beyond_cap(
            conn, origin.guild_id, LORE_SUBJECT, now, lifecycle.half_life_days, lore
        )
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
