"""Where a new fact goes among its subject's facts (issue 20), run on the database thread
inside the caller's transaction.

* Said again — the same text, or a paraphrase the judge calls ``same`` — it is merged into
  the fact it repeats: ``times_seen`` and ``last_seen_at`` grow and its confidence rises toward
  a ceiling (:func:`memory.lifecycle.value.reinforced`); no new row. The same message
  extracted again is not "said again".
* Contradicting an active fact of the subject (the judge says ``contradicts``), the one said
  later stays active and the other is archived with ``superseded_by`` and ``valid_until``
  (when the later one was said): facts imported out of order are ordered by when they were
  said, not by arrival.
* Past the subject's cap, the active facts of least value (:func:`fact_value`) are archived.

Lore (the guild's remembered lines) is never merged or superseded, only capped.

``advice`` carries verdicts given from outside for some pairs (the LLM's check,
:mod:`memory.lifecycle.llm_check`): for those pairs it is followed instead of the judge.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from memory.audit import SYSTEM, MemoryEvent
from memory.lifecycle.value import (
    CONFIDENCE_CEILING,
    DEFAULT_HALF_LIFE_DAYS,
    REINFORCE_STEP,
    decay_per_day,
    reinforced,
)
from memory.models import LORE_SUBJECT, CandidateFact, FactOrigin, canonical_time
from memory.storage import events_sql
from memory.storage.active_facts import Active, ActiveFacts
from memory.storage.ingest_sql import transaction
from memory.storage.vectors_sql import delete_fact_vectors

Judge = Callable[[str, Sequence[str], Hashable], Sequence[str]]
"""``(new fact, the subject's active facts, (guild, subject)) -> "same" | "contradicts" |
"unrelated"`` each; the key lets a judge keep what it learnt of a subject's facts."""
Advice = Mapping[tuple[str, str, str, str], str]
"""``(guild, subject, new fact, active fact) -> "same" | "contradicts" | "unrelated"``:
verdicts that replace the judge's for those pairs."""
NO_ADVICE: Advice = MappingProxyType({})

FACT_CAP = 80
LORE_FACT_CAP = 120

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


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """How facts live: the judge of two facts (None: only exact repeats merge, nothing is
    superseded) and the half-life of a fact's value."""

    judge: Judge | None = None
    half_life_days: float = DEFAULT_HALF_LIFE_DAYS


@dataclass(slots=True)
class Placed:
    """What placing one fact did: the row it lives in (None: not stored) and its events."""

    fact_id: int | None
    events: list[MemoryEvent]


def place_fact(
    conn: Any, origin: FactOrigin, cand: CandidateFact, now: str, lifecycle: Lifecycle,
    *, extracted: bool, actor: str = SYSTEM, actives: ActiveFacts | None = None,
    advice: Advice = NO_ADVICE,
) -> Placed:  # fmt: skip
    """Store ``cand`` (said when ``origin`` was written) among its subject's facts. An
    ``extracted`` fact is stored only while its message's job is still open (a message
    deleted or forgotten meanwhile leaves no fact behind). ``actives`` holds the subjects'
    active facts, kept up to date here (:mod:`memory.storage.active_facts`); ``advice``
    overrides the judge for the pairs it names (nothing is judged without a judge, so
    nothing else)."""
    guild, subject = origin.guild_id, cand.subject
    if extracted and not conn.execute(JOB_OPEN, (guild, cand.source_message_id)).fetchone():
        return Placed(None, [])
    said = said_at(origin.created_at, now)
    exact = conn.execute(
        "SELECT id, is_active FROM memory_facts WHERE guild_id = ? AND subject = ? AND fact = ?",
        (guild, subject, cand.fact),
    ).fetchone()
    judge = lifecycle.judge if subject != LORE_SUBJECT else None
    mine = (actives or ActiveFacts()).of(conn, guild, subject)
    relations: list[tuple[Active, str]] = []
    if exact is None and judge is not None:
        relations = _judged(mine, cand.fact, judge, (guild, subject), exclude=None)
        relations = _advised(relations, advice, guild, cand)
        same = [old for old, relation in relations if relation == "same"]
        if same:  # a paraphrase of a fact it has: merged into the one said last
            target = max(same, key=lambda old: (old.last_seen_at, old.id))
            merged = _merge(conn, guild, subject, target, cand, said, now)
            if merged is None:
                return Placed(target.id, [])
            mine[mine.index(target)], said_again = merged
            return Placed(target.id, said_again)
    params = (guild, origin.channel_id or None, subject, cand.fact, cand.fact_type,
              cand.evidence, cand.source_message_id or None, cand.confidence, said, now, now,
              said)  # fmt: skip
    row = conn.execute(UPSERT_FACT, params).fetchone()
    fact_id, created_at, times_seen, last_seen, confidence = row
    stored = Active.of(fact_id, cand.fact, last_seen, confidence, times_seen)
    events: list[MemoryEvent] = []
    if exact is None and created_at == now:
        events.append(stored_event(guild, fact_id, cand, actor))
    elif times_seen > 1 and exact is not None:
        events.append(_said_again(guild, subject, fact_id, cand, "the same words"))
    gone: set[int] = set()
    if judge is not None and (exact is None or not exact[1]):  # new, or active again
        if exact is not None:
            relations = _judged(mine, cand.fact, judge, (guild, subject), exclude=fact_id)
            relations = _advised(relations, advice, guild, cand)
        contradicted = [old for old, relation in relations if relation == "contradicts"]
        superseding = _supersede(conn, guild, subject, fact_id, last_seen, contradicted, now)
        events += superseding
        gone = {int(event.object_id) for event in superseding}
    mine[:] = [old for old in mine if old.id not in gone and old.id != fact_id]
    if fact_id not in gone:
        mine.append(stored)
    return Placed(fact_id, events)


def archive_beyond_cap(
    conn: Any, guild_id: str, subject: str, now: str, half_life_days: float,
    actives: ActiveFacts | None = None,
) -> list[MemoryEvent]:  # fmt: skip
    """Archive the subject's active facts of least value past its cap (80; lore 120)."""
    keep = LORE_FACT_CAP if subject == LORE_SUBJECT else FACT_CAP
    mine = (actives or ActiveFacts()).of(conn, guild_id, subject)
    if len(mine) <= keep:
        return []
    decay = decay_per_day(half_life_days)  # the value's order, from what each fact keeps
    ranked = sorted(mine, key=lambda f: (f.worth + decay * f.seen_day, f.seen_day, f.id))
    dropped = {fact.id for fact in ranked[: len(mine) - keep]}
    conn.executemany(
        "UPDATE memory_facts SET is_active = 0, updated_at = ? WHERE id = ?",
        [(now, fact_id) for fact_id in sorted(dropped)],
    )
    mine[:] = [fact for fact in mine if fact.id not in dropped]
    whose = "the guild's lore" if subject == LORE_SUBJECT else "a member"
    detail = f"least valued past the cap of {keep} active facts of {whose}"
    return [
        MemoryEvent(guild_id, "fact.archived", SYSTEM, str(i), subject, detail)
        for i in sorted(dropped)
    ]


def stored_event(
    guild_id: str, fact_id: int, cand: CandidateFact, actor: str = SYSTEM
) -> MemoryEvent:
    """``fact.stored``: its type, confidence and source message (never its text)."""
    source = f", from message {cand.source_message_id}" if cand.source_message_id else ""
    return MemoryEvent(
        guild_id, "fact.stored", actor, str(fact_id), cand.subject,
        f"{cand.fact_type}, confidence {cand.confidence:.2f}{source}",
    )  # fmt: skip


def said_at(when: str, now: str) -> str:
    """When a fact was said, in the stored format: its message's time (``when``), or ``now``
    when there is none or it is no timestamp (stored messages' times always are)."""
    if not when:
        return now
    try:
        return canonical_time(when)
    except ValueError:
        return now


def _judged(
    mine: list[Active], text: str, judge: Judge, whose: Hashable, *, exclude: int | None
) -> list[tuple[Active, str]]:
    olds = [old for old in mine if old.id != exclude]
    if not olds:
        return []
    return list(zip(olds, judge(text, [old.fact for old in olds], whose), strict=True))


def _advised(
    relations: list[tuple[Active, str]], advice: Advice, guild_id: str, cand: CandidateFact
) -> list[tuple[Active, str]]:
    """The judge's ``relations`` of ``cand`` with the advised verdicts in their place."""
    if not advice:
        return relations
    return [
        (old, advice.get((guild_id, cand.subject, cand.fact, old.fact), relation))
        for old, relation in relations
    ]


def _merge(
    conn: Any, guild_id: str, subject: str, target: Active, cand: CandidateFact, said: str,
    now: str,
) -> tuple[Active, list[MemoryEvent]] | None:  # fmt: skip
    """``cand`` repeats ``target`` in other words: ``target`` is reinforced (keeping the
    evidence of the more confident statement). Returns it as it is now, with the event;
    None when ``cand`` comes from the message ``target`` came from (nothing new)."""
    confidence, source = conn.execute(
        "SELECT confidence, source_message_id FROM memory_facts WHERE id = ?", (target.id,)
    ).fetchone()
    if source == (cand.source_message_id or None):  # the same message again: nothing new
        return None
    clearer = cand.confidence > confidence
    stronger = reinforced(max(confidence, cand.confidence))
    conn.execute(
        "UPDATE memory_facts SET times_seen = times_seen + 1, confidence = ?, "
        "last_seen_at = MAX(COALESCE(last_seen_at, said_at), ?), updated_at = ?, "
        "evidence_text = CASE WHEN ? THEN ? ELSE evidence_text END, "
        "source_message_id = CASE WHEN ? THEN ? ELSE source_message_id END WHERE id = ?",
        (stronger, said, now, clearer, cand.evidence, clearer, cand.source_message_id or None,
         target.id),
    )  # fmt: skip
    now_held = Active.of(target.id, target.fact, max(said, target.last_seen_at), stronger,
                         target.times_seen + 1)  # fmt: skip
    return now_held, [_said_again(guild_id, subject, target.id, cand, "other words")]


def _said_again(
    guild_id: str, subject: str, fact_id: int, cand: CandidateFact, how: str
) -> MemoryEvent:
    source = f" in message {cand.source_message_id}" if cand.source_message_id else ""
    return MemoryEvent(
        guild_id, "fact.reinforced", SYSTEM, str(fact_id), subject, f"said again{source}, in {how}"
    )


def _supersede(
    conn: Any, guild_id: str, subject: str, fact_id: int, mine: str, contradicted: list[Active],
    now: str,
) -> list[MemoryEvent]:  # fmt: skip
    """Of ``fact_id`` (last said at ``mine``) and each active fact it contradicts, the one
    said later stays."""
    events: list[MemoryEvent] = []
    for old in sorted(contradicted, key=lambda o: (o.last_seen_at, o.id)):
        older, newer, until = (old.id, fact_id, mine) if old.last_seen_at <= mine else (
            fact_id, old.id, old.last_seen_at)  # fmt: skip
        conn.execute(
            "UPDATE memory_facts SET is_active = 0, superseded_by = ?, valid_until = ?, "
            "updated_at = ? WHERE id = ?",
            (newer, until, now, older),
        )
        detail = f"by fact {newer}, said {until[:10]}"
        events.append(MemoryEvent(guild_id, "fact.superseded", SYSTEM, str(older), subject, detail))
        if older == fact_id:  # the new fact is the older statement: it is done
            break
    return events


def settle_subject(
    conn: Any, guild_id: str, subject: str, now: str, lifecycle: Lifecycle
) -> list[MemoryEvent]:
    """Apply the rules to a subject's active facts stored before them (``backfill
    --lifecycle``), in one transaction: in the order they were last said, a paraphrase of a
    fact kept is merged into it (its row goes), a contradiction supersedes the fact said
    earlier; then the cap by value."""
    judge = lifecycle.judge
    if judge is None or subject == LORE_SUBJECT:
        return []
    rows = conn.execute(
        "SELECT id, fact, COALESCE(last_seen_at, said_at), confidence, times_seen "
        "FROM memory_facts WHERE guild_id = ? AND subject = ? AND is_active = 1 "
        "ORDER BY COALESCE(last_seen_at, said_at), id",
        (guild_id, subject),
    ).fetchall()
    kept: list[Active] = []
    events: list[MemoryEvent] = []
    with transaction(conn):
        for fact_id, text, last_seen, confidence, times_seen in rows:
            relations = list(
                zip(kept, judge(text, [k.fact for k in kept], (guild_id, subject)), strict=True)
            )
            same = [old for old, relation in relations if relation == "same"]
            if same:
                target = same[-1]
                conn.execute(
                    "UPDATE memory_facts SET times_seen = times_seen + ?, last_seen_at = ?, "
                    "confidence = MAX(confidence, ?), updated_at = ? WHERE id = ?",
                    (times_seen, last_seen, reinforced(confidence), now, target.id),
                )
                conn.execute(  # what the merged row superseded, the row it joins did
                    "UPDATE memory_facts SET superseded_by = ? "
                    "WHERE guild_id = ? AND superseded_by = ?",
                    (target.id, guild_id, fact_id),
                )
                delete_fact_vectors(conn, guild_id, [fact_id])
                conn.execute("DELETE FROM memory_facts WHERE id = ?", (fact_id,))
                kept[kept.index(target)] = Active.of(  # said last now (the rows come in order)
                    target.id, target.fact, last_seen, target.confidence, target.times_seen
                )
                detail = f"fact {fact_id}, a paraphrase of it, merged into it (settled later)"
                events.append(MemoryEvent(guild_id, "fact.reinforced", SYSTEM, str(target.id),
                                          subject, detail))  # fmt: skip
                continue
            contradicted = [old for old, relation in relations if relation == "contradicts"]
            events += _supersede(conn, guild_id, subject, fact_id, last_seen, contradicted, now)
            gone = {old.id for old in contradicted}
            kept = [k for k in kept if k.id not in gone]
            kept.append(Active.of(fact_id, text, last_seen, confidence, times_seen))
        events += archive_beyond_cap(conn, guild_id, subject, now, lifecycle.half_life_days)
        events_sql.record(conn, events, now)
        conn.execute(SETTLED, (guild_id, subject))
    return events
