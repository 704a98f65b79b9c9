"""Where a new fact goes among its subject's facts (issue 20): the rules, written once for
every backend over the few statements they need (``FactRows``).

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

The rules are coroutines. A backend whose statements run where they are called (SQLite, on
its database thread, inside the caller's transaction) runs them with :func:`run_now`: they
never suspend there. One whose statements are awaited (PostgreSQL) awaits them.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from memory.audit import SYSTEM, MemoryEvent
from memory.lifecycle.value import DEFAULT_HALF_LIFE_DAYS, decay_per_day, reinforced
from memory.models import LORE_SUBJECT, CandidateFact, FactOrigin, canonical_time
from memory.storage.active_facts import Active

T = TypeVar("T")

Judge = Callable[[str, Sequence[str], Hashable], Sequence[str]]
"""``(new fact, the subject's active facts, (guild, subject)) -> "same" | "contradicts" |
"unrelated"`` each; the key lets a judge keep what it learnt of a subject's facts."""
Advice = Mapping[tuple[str, str, str, str], str]
"""``(guild, subject, new fact, active fact) -> "same" | "contradicts" | "unrelated"``:
verdicts that replace the judge's for those pairs."""
NO_ADVICE: Advice = MappingProxyType({})

FACT_CAP = 80
LORE_FACT_CAP = 120

Stored = tuple[int, str, int, str, float]
"""A fact row as an upsert leaves it: id, created_at, times_seen, last_seen_at, confidence."""


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


class FactRows(Protocol):
    """The statements the rules need, inside one transaction of the caller's."""

    async def job_open(self, guild_id: str, message_id: str) -> bool:
        """Whether the message is stored with its job still pending."""
        ...

    async def exact(self, guild_id: str, subject: str, fact: str) -> tuple[int, bool] | None:
        """The id of the subject's fact with this text, and whether it is active."""
        ...

    async def actives(self, guild_id: str, subject: str) -> list[Active]:
        """The subject's active facts: a list the rules keep up to date as they write."""
        ...

    async def upsert(self, origin: FactOrigin, cand: CandidateFact, said: str, now: str
                     ) -> Stored:  # fmt: skip
        """Insert ``cand``, or reinforce the row with its text (the upsert's rules)."""
        ...

    async def evidence_of(self, fact_id: int) -> tuple[float, str | None]:
        """A fact's confidence and source message."""
        ...

    async def reinforce(self, fact_id: int, confidence: float, said: str, now: str,
                        clearer: CandidateFact | None) -> None:  # fmt: skip
        """Said again (by ``said``): one more time seen, ``confidence``; the evidence and
        source of ``clearer`` when it is given."""
        ...

    async def supersede(self, older: int, newer: int, until: str, now: str) -> None: ...

    async def archive(self, fact_ids: Sequence[int], now: str) -> None: ...

    async def facts_to_settle(self, guild_id: str, subject: str
                              ) -> list[tuple[int, str, str, float, int]]:  # fmt: skip
        """The subject's active facts as ``(id, fact, last said, confidence, times seen)``,
        in the order they were last said."""
        ...

    async def absorb(self, guild_id: str, target: int, fact_id: int, times_seen: int,
                     last_seen: str, confidence: float, now: str) -> None:  # fmt: skip
        """Merge row ``fact_id`` into ``target`` (what it superseded, ``target`` did) and
        delete it with its vectors."""
        ...


def run_now(coro: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (its statements run as they are
    called), computed here and now."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a statement suspended: its backend needs await")


async def place_fact(
    rows: FactRows, origin: FactOrigin, cand: CandidateFact, now: str, lifecycle: Lifecycle,
    *, extracted: bool, actor: str = SYSTEM, advice: Advice = NO_ADVICE,
) -> Placed:  # fmt: skip
    """Store ``cand`` (said when ``origin`` was written) among its subject's facts. An
    ``extracted`` fact is stored only while its message's job is still open (a message
    deleted or forgotten meanwhile leaves no fact behind). ``advice`` overrides the judge
    for the pairs it names (nothing is judged without a judge, so nothing else)."""
    guild, subject = origin.guild_id, cand.subject
    if extracted and not await rows.job_open(guild, cand.source_message_id):
        return Placed(None, [])
    said = said_at(origin.created_at, now)
    exact = await rows.exact(guild, subject, cand.fact)
    judge = lifecycle.judge if subject != LORE_SUBJECT else None
    mine = await rows.actives(guild, subject)
    relations: list[tuple[Active, str]] = []
    if exact is None and judge is not None:
        relations = _judged(mine, cand.fact, judge, (guild, subject), exclude=None)
        relations = _advised(relations, advice, guild, cand)
        same = [old for old, relation in relations if relation == "same"]
        if same:  # a paraphrase of a fact it has: merged into the one said last
            target = max(same, key=lambda old: (old.last_seen_at, old.id))
            merged = await _merge(rows, guild, subject, target, cand, said, now)
            if merged is None:
                return Placed(target.id, [])
            mine[mine.index(target)], said_again = merged
            return Placed(target.id, said_again)
    fact_id, created_at, times_seen, last_seen, confidence = await rows.upsert(
        origin, cand, said, now
    )
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
        superseding = await _supersede(rows, guild, subject, fact_id, last_seen, contradicted,
                                       now)  # fmt: skip
        events += superseding
        gone = {int(event.object_id) for event in superseding}
    mine[:] = [old for old in mine if old.id not in gone and old.id != fact_id]
    if fact_id not in gone:
        mine.append(stored)
    return Placed(fact_id, events)


async def archive_beyond_cap(
    rows: FactRows, guild_id: str, subject: str, now: str, half_life_days: float
) -> list[MemoryEvent]:
    """Archive the subject's active facts of least value past its cap (80; lore 120)."""
    keep = LORE_FACT_CAP if subject == LORE_SUBJECT else FACT_CAP
    mine = await rows.actives(guild_id, subject)
    if len(mine) <= keep:
        return []
    decay = decay_per_day(half_life_days)  # the value's order, from what each fact keeps
    ranked = sorted(mine, key=lambda f: (f.worth + decay * f.seen_day, f.seen_day, f.id))
    dropped = {fact.id for fact in ranked[: len(mine) - keep]}
    await rows.archive(sorted(dropped), now)
    mine[:] = [fact for fact in mine if fact.id not in dropped]
    whose = "the guild's lore" if subject == LORE_SUBJECT else "a member"
    detail = f"least valued past the cap of {keep} active facts of {whose}"
    return [
        MemoryEvent(guild_id, "fact.archived", SYSTEM, str(i), subject, detail)
        for i in sorted(dropped)
    ]


async def settle_subject(
    rows: FactRows, guild_id: str, subject: str, now: str, lifecycle: Lifecycle
) -> list[MemoryEvent]:
    """Apply the rules to a subject's active facts stored before them (``backfill
    --lifecycle``, an import's facts once the queue is idle): in the order they were last
    said, a paraphrase of a fact kept is merged into it (its row goes), a contradiction
    supersedes the fact said earlier; then the cap by value."""
    judge = lifecycle.judge
    if judge is None or subject == LORE_SUBJECT:
        return []
    kept: list[Active] = []
    events: list[MemoryEvent] = []
    for fact_id, text, last_seen, confidence, times_seen in await rows.facts_to_settle(
        guild_id, subject
    ):
        relations = list(
            zip(kept, judge(text, [k.fact for k in kept], (guild_id, subject)), strict=True)
        )
        same = [old for old, relation in relations if relation == "same"]
        if same:
            target = same[-1]
            await rows.absorb(guild_id, target.id, fact_id, times_seen, last_seen,
                              reinforced(confidence), now)  # fmt: skip
            kept[kept.index(target)] = Active.of(  # said last now (the rows come in order)
                target.id, target.fact, last_seen, target.confidence, target.times_seen
            )
            detail = f"fact {fact_id}, a paraphrase of it, merged into it (settled later)"
            events.append(MemoryEvent(guild_id, "fact.reinforced", SYSTEM, str(target.id),
                                      subject, detail))  # fmt: skip
            continue
        contradicted = [old for old, relation in relations if relation == "contradicts"]
        events += await _supersede(rows, guild_id, subject, fact_id, last_seen, contradicted,
                                   now)  # fmt: skip
        gone = {old.id for old in contradicted}
        kept = [k for k in kept if k.id not in gone]
        kept.append(Active.of(fact_id, text, last_seen, confidence, times_seen))
    events += await archive_beyond_cap(rows, guild_id, subject, now, lifecycle.half_life_days)
    return events


SETTLED_AS = {"fact.reinforced": "merged", "fact.superseded": "superseded",
              "fact.archived": "archived"}  # fmt: skip
"""What settling a subject did, by the kind of its events (``Storage.settle_facts``)."""


def tally_settled(counts: dict[str, int], events: Sequence[MemoryEvent]) -> None:
    """Add a settled subject's ``events`` to ``counts`` (``merged``, ``superseded``,
    ``archived``)."""
    for event in events:
        counts[SETTLED_AS[event.kind]] = counts.get(SETTLED_AS[event.kind], 0) + 1


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


async def _merge(
    rows: FactRows, guild_id: str, subject: str, target: Active, cand: CandidateFact,
    said: str, now: str,
) -> tuple[Active, list[MemoryEvent]] | None:  # fmt: skip
    """``cand`` repeats ``target`` in other words: ``target`` is reinforced (keeping the
    evidence of the more confident statement). Returns it as it is now, with the event;
    None when ``cand`` comes from the message ``target`` came from (nothing new)."""
    confidence, source = await rows.evidence_of(target.id)
    if source == (cand.source_message_id or None):  # the same message again: nothing new
        return None
    stronger = reinforced(max(confidence, cand.confidence))
    clearer = cand if cand.confidence > confidence else None
    await rows.reinforce(target.id, stronger, said, now, clearer)
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


async def _supersede(
    rows: FactRows, guild_id: str, subject: str, fact_id: int, mine: str,
    contradicted: list[Active], now: str,
) -> list[MemoryEvent]:  # fmt: skip
    """Of ``fact_id`` (last said at ``mine``) and each active fact it contradicts, the one
    said later stays."""
    events: list[MemoryEvent] = []
    for old in sorted(contradicted, key=lambda o: (o.last_seen_at, o.id)):
        older, newer, until = (old.id, fact_id, mine) if old.last_seen_at <= mine else (
            fact_id, old.id, old.last_seen_at)  # fmt: skip
        await rows.supersede(older, newer, until, now)
        detail = f"by fact {newer}, said {until[:10]}"
        events.append(MemoryEvent(guild_id, "fact.superseded", SYSTEM, str(older), subject, detail))
        if older == fact_id:  # the new fact is the older statement: it is done
            break
    return events
