"""The jobs this process knows are pending, in submit order, and who waits for each: the
book the queue fills and the extraction worker empties.

The database is the truth; the book holds what this process submitted (at most
``max_queue`` jobs) so the worker need not read back what it has just written. Jobs left
by an earlier run, or set pending again by a requeue or an edit, are known only by key
(``Entry.job`` is None) and read from the database (``claim_from_db``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from memory.errors import MemorybotError
from memory.extraction import Extractor, Mention, SourceMessage
from memory.models import IngestItem, Job
from memory.storage.ingest_sql import Closed
from memory.text import clean_text

Key = tuple[str, str]
JOB_BATCH = 512
MIN_EXTRACT_CHARS = 4


class IngestHandle:
    """The result of a submit: ``await handle`` → True (facts processed) / False."""

    __slots__ = ("_future", "key", "stored")

    def __init__(self, key: Key, future: asyncio.Future[bool], *, stored: bool) -> None:
        self.key = key
        self._future = future
        #: True when this submit wrote the message; False when it was already there.
        self.stored = stored

    def __await__(self) -> Generator[Any, None, bool]:
        return asyncio.shield(self._future).__await__()

    def done(self) -> bool:
        return self._future.done()

    def result(self) -> bool:
        return self._future.result()


@dataclass(slots=True)
class ExtractionTally:
    """Messages the worker has extracted, and those whose extraction failed (their jobs
    say ``failed``: ``backfill --extraction`` re-runs them), since the queue started."""

    extracted: int = 0
    failed: int = 0


@dataclass(slots=True)
class Entry:
    future: asyncio.Future[bool] | None  # made when someone waits for this job
    live: bool
    job: Job | None  # None: not in memory (resumed or requeued), read from the database
    arrived: float = 0.0  # loop time of the submit (0: long ago), for the quiet gap


class JobBook:
    """Pending jobs by key (in submit order: dicts keep insertion order), the messages being
    written, the jobs being processed or dropped, edits under way, and the events the queue
    and the worker signal each other with."""

    def __init__(self, max_queue: int) -> None:
        self.max_queue = max_queue
        self.pending: dict[Key, Entry] = {}
        self.submitting: dict[Key, asyncio.Future[bool] | None] = {}
        self.in_progress: set[Key] = set()
        self.dropping: set[Key] = set()
        # Messages edited while this process runs -> their newest text: an extraction of
        # any other text (under way when the edit came) must not close the job.
        self.edits: dict[Key, str] = {}
        self.claim_from_db = True
        self.closing = False
        self.wake = asyncio.Event()  # work for the worker
        self.idle = asyncio.Event()  # the worker found nothing to do
        self.room = asyncio.Event()  # bulk submits may go on
        # A fault the worker cannot get past by itself (a full disk): whoever waits for it
        # (join, a bulk submit waiting for room) is told instead of waiting for ever. It
        # keeps retrying; the next step that succeeds clears it.
        self.fault: MemorybotError | None = None
        self.extractions = ExtractionTally()

    @property
    def bulk_room(self) -> int:
        """Pending jobs bulk submits may fill; the last quarter of the bound stays for live."""
        return max(1, self.max_queue - self.max_queue // 4)

    @property
    def step_jobs(self) -> int:
        """The most jobs a worker step takes from memory, and a bulk submit stores at once:
        half the bulk room, so one half is extracted while the other is written or filled."""
        return max(1, min(JOB_BATCH, self.bulk_room // 2))

    def future_for(self, key: Key) -> asyncio.Future[bool]:
        """The shared future of a message being submitted or pending (made on first ask)."""
        entry = self.pending.get(key)
        future = entry.future if entry is not None else self.submitting.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            if entry is not None:
                entry.future = future
            else:
                self.submitting[key] = future
        return future

    def resume(self, keys: Iterable[tuple[str, str, bool]]) -> int:
        """Jobs a previous run left pending (``guild_id, message_id, live``): known by key,
        read from the database when their turn comes; return how many."""
        for guild_id, message_id, live in keys:
            self.pending[(guild_id, message_id)] = Entry(None, live, None)
        return len(self.pending)

    def wake_worker(self) -> None:
        self.idle.clear()
        self.wake.set()

    def reclaim(self) -> None:
        """Jobs were set pending in the database: the worker reads them from there."""
        self.claim_from_db = True
        self.wake_worker()

    def fail(self, fault: MemorybotError) -> None:
        """The worker is stuck on ``fault``: wake whoever waits for it."""
        self.fault = fault
        self.idle.set()
        self.room.set()

    def signal_room(self) -> None:
        if len(self.pending) < self.bulk_room:
            self.room.set()

    def close(self, key: Key, value: bool) -> None:
        """The job is over (``value``: its facts were processed): its waiters are told."""
        entry = self.pending.pop(key, None)
        if entry is not None:
            settle(entry.future, value)

    def discard(self, keys: Iterable[Key]) -> None:
        """Messages deleted from the store: their jobs go (their handles resolve False)."""
        for key in keys:
            self.edits.pop(key, None)
            self.close(key, False)
        self.signal_room()

    def abandon(self, items: Sequence[IngestItem], exc: BaseException) -> None:
        """These items will not be written: whoever waits for one of them gets ``exc``."""
        for item in items:
            future = self.submitting.pop(item.key, None)
            if future is not None and not future.done():
                future.set_exception(exc)
                future.exception()  # retrieved here: the caller sees the raised error

    def refuse(
        self, batch: list[tuple[IngestItem, asyncio.Future[bool]]], refused: Collection[Key]
    ) -> list[tuple[IngestItem, asyncio.Future[bool]]]:
        """Live submits memory may not keep (``admission``): not written, their handles
        resolve False; the rest of the batch."""
        kept = []
        for item, written in batch:
            if item.key in refused:
                settle(self.submitting.pop(item.key, None), False)
                written.set_result(False)
            else:
                kept.append((item, written))
        return kept

    def drop_oldest_live(self, excess: int) -> list[Key]:
        """Overflow: close the oldest ``excess`` live jobs not being processed; their keys."""
        victims: list[Key] = []
        for key, entry in self.pending.items():
            if len(victims) >= excess:
                break
            if entry.live and key not in self.in_progress:
                victims.append(key)
        for key in victims:
            self.close(key, False)
            self.edits.pop(key, None)
        return victims

    def undo_edit(self, key: Key, previous: str | None) -> None:
        """An edit that changed nothing: the newest text is the one before it again."""
        if previous is None:
            self.edits.pop(key, None)
        else:
            self.edits[key] = previous

    def forget_stale(self) -> None:
        """Entries known only by key whose job is no longer pending in the database."""
        for key in [k for k, e in self.pending.items() if e.job is None]:
            self.close(key, False)

    def settle_all(self) -> None:
        """Closing: every waiter is told False (the jobs stay pending in the database)."""
        for entry in self.pending.values():
            settle(entry.future, False)
        self.pending.clear()
        self.room.set()

    def in_memory(self) -> list[Job] | None:
        """Up to a step of the oldest jobs not being processed, or None if one of them is
        only in the database."""
        batch: list[Job] = []
        for key, entry in self.pending.items():
            if len(batch) == self.step_jobs:
                break
            if key in self.dropping or key in self.in_progress:
                continue
            if entry.job is None:
                return batch or None
            batch.append(entry.job)
        return batch


def job_key(job: Job) -> Key:
    return (job.message.guild_id, job.message.message_id)


def settle(future: asyncio.Future[bool] | None, value: bool) -> None:
    if future is not None and not future.done():
        future.set_result(value)


def resolved(loop: asyncio.AbstractEventLoop, value: bool) -> asyncio.Future[bool]:
    future: asyncio.Future[bool] = loop.create_future()
    future.set_result(value)
    return future


LINGER_BELOW = 64  # with this much work waiting, a step starts at once


async def linger(seconds: float, waiting: int, *, closing: bool) -> None:
    """Let more work arrive before a small step (not while closing: drain at once)."""
    if not closing and waiting < LINGER_BELOW:
        await asyncio.sleep(seconds)


def source_message(job: Job) -> SourceMessage:
    """What the extractor sees of a job's message; mentions travel in the job's trace."""
    message = job.message
    mentions: list[Mention] = []
    for pair in job.trace.get("mentions") or ():
        if isinstance(pair, list | tuple) and len(pair) == 2:
            mentions.append(Mention(str(pair[0]), str(pair[1])))
    return SourceMessage(
        message_id=message.message_id,
        guild_id=message.guild_id,
        channel_id=message.channel_id,
        author_id=message.author_id,
        author_name=message.author_name,
        text=message.content,
        created_at=message.created_at,
        mentions=tuple(mentions),
    )


def closed_at_write(extractor: Extractor, items: Sequence[IngestItem]) -> Closed:
    """The messages whose jobs have nothing to extract (no extractor proposes facts, or the
    text is too short or has no guild): written closed, the worker never sees them. Their
    daily-log lines and full-text rows follow the journal cursor, like any other."""
    if not extractor.proposes_facts:
        return "all"
    return {item.key for item in items if not extractable(item.guild_id, item.content)}


def extractable(guild_id: str, content: str) -> bool:
    """DESIGN: extract from a message of a guild whose cleaned text has 4+ characters."""
    return bool(guild_id) and len(clean_text(content)) >= MIN_EXTRACT_CHARS
