"""The extraction worker: one task that takes the oldest pending jobs in steps, extracts
each channel's messages with the turns before them as context, filters the candidates and
stores the facts, closing the jobs.

A step's write runs while the next step is extracted (an extractor in child processes then
runs beside the database); it starts once that step has read its context, so the read never
waits behind it, and writes land in step order. An edit that comes while its message is
being extracted wins: the stale extraction stores nothing and the job stays pending.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import NamedTuple, Protocol

from memory.audit import MemoryEvent, extraction_call, extraction_error
from memory.errors import DiskFullError, endpoint_down, store_unreachable
from memory.extraction import (
    CONTEXT_TURNS,
    MAX_FACTS_PER_MESSAGE,
    ContextTurn,
    Extractor,
    SourceMessage,
)
from memory.extraction.fact_filter import filter_fact, keep_fact
from memory.ingest.jobs import (
    JOB_BATCH,
    Entry,
    JobBook,
    Key,
    extractable,
    job_key,
    linger,
    source_message,
)
from memory.models import CandidateFact, Job
from memory.storage.placing import NO_ADVICE, Advice
from memory.storage.protocol import Storage
from memory.tasks import stop_task

log = logging.getLogger(__name__)

# After a wake-up the worker waits this long, so live messages arriving one by one are
# processed (and committed) in batches rather than one transaction each.
WORKER_LINGER = 0.005
MAX_BACKOFF = 30.0  # seconds between retries of a step that keeps failing
SETTLE_STEP = 8  # subjects settled in one step, when the queue is idle

Facts = list[tuple[SourceMessage, CandidateFact]]
Failed = list[tuple[int, str]]
Changed = Callable[[str, bool], None]
"""Told a guild id whose memory changed, and whether its facts did."""
FactCheck = Callable[[Facts], Awaitable[Advice]]
"""A step's facts -> verdicts on some of their pairs for the store (the LLM's check)."""


class FactFilter(Protocol):
    def __call__(
        self, message: SourceMessage, candidate: CandidateFact
    ) -> CandidateFact | None: ...


class _Extracted(NamedTuple):
    """A step the worker has extracted: its jobs, and what their write closes and stores."""

    jobs: list[Job]
    keys: list[Key]
    done: list[int]
    failed: Failed
    facts: Facts
    events: list[MemoryEvent]


class ExtractionWorker:
    """Empties the job book: extracts, filters, stores facts and closes jobs, in order."""

    def __init__(
        self,
        book: JobBook,
        store: Storage,
        extractor: Extractor,
        *,
        fact_filter: FactFilter = filter_fact,
        changed: Changed,
        fact_check: FactCheck | None = None,
    ) -> None:
        self.book = book
        self.store = store
        self.extractor = extractor
        self.fact_filter = fact_filter
        self.fact_check = fact_check
        self._changed = changed
        self._task: asyncio.Task[None] | None = None
        self._unwritten: _Extracted | None = None  # the last step, its write not started
        self._writing: asyncio.Task[None] | None = None  # the last step's write, under way

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="memorybot-ingest-worker")
        self.book.wake.set()

    @property
    def running(self) -> bool:
        return self._task is not None

    async def stop(self) -> None:
        for task in (self._task, self._writing):
            await stop_task(task)
        self._task = self._writing = None

    async def _run(self) -> None:
        book, backoff = self.book, 1.0
        while True:
            await book.wake.wait()
            book.wake.clear()
            try:
                while True:
                    await linger(WORKER_LINGER, len(book.pending), closing=book.closing)
                    more = await self._step()
                    backoff, book.fault = 1.0, None
                    if not more:
                        break
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # The jobs stay pending (durable); retry, less often while it keeps failing.
                if isinstance(exc, DiskFullError):  # said once, to whoever waits, no trace
                    if book.fault is None:
                        log.info("%s; ingest retries every %.0f s at most", exc, MAX_BACKOFF)
                    book.fail(exc)
                elif store_unreachable(exc):  # said once an outage, in one line
                    if backoff == 1.0:
                        log.warning("cannot reach the database (%s); ingest retries", exc)
                else:
                    log.exception("ingest worker step failed; retrying in %.0f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
                book.wake.set()
                continue
            if not book.wake.is_set():
                book.idle.set()

    async def _step(self) -> bool:
        """Process one batch of jobs; False when there is none."""
        jobs = await self._next_jobs()
        if jobs and self.extractor.batch_gap > 0 and not self.book.closing:
            ready, wait = self._ready(jobs)
            if not ready:  # every waiting channel is still talking: wait for its gap
                await self._wait_for_gap(wait)
                return True
            jobs = ready
        if jobs:
            await self._process(jobs)
        elif self._unwritten is not None or self._writing is not None:
            await self._land_write()  # nothing new: let the last write land first
            return True
        else:
            await self.extractor.rest()  # idle: what only extraction needs may go
            if await self._settle():  # what imports left to judge, judged once it is idle
                return True
        self.book.signal_room()
        return bool(jobs)

    async def _settle(self) -> bool:
        """Settle a few of the subjects whose facts were stored unjudged; False: none left."""
        settled = await self.store.settle_waiting(SETTLE_STEP)
        for guild_id in {guild_id for guild_id, _ in settled}:
            self._changed(guild_id, True)
        return bool(settled)

    def _ready(self, jobs: list[Job]) -> tuple[list[Job], float]:
        """The jobs that may be processed now, and how long until the next channel's gap ends.

        A channel's waiting messages are extracted together once the channel has been quiet
        for ``batch_gap`` seconds or once a full batch is waiting; messages that need no
        extraction, and jobs from an earlier run, are ready at once.
        """
        gap, size = self.extractor.batch_gap, self.extractor.batch_size
        now = asyncio.get_running_loop().time()
        last: dict[tuple[str, str], float] = {}
        count: dict[tuple[str, str], int] = {}
        channels: list[tuple[str, str] | None] = []  # per job; None: nothing to extract
        for job in jobs:
            channel = None
            if extractable(job.message.guild_id, job.message.content):
                channel = (job.message.guild_id, job.message.channel_id)
                entry = self.book.pending.get(job_key(job))
                last[channel] = max(last.get(channel, 0.0), entry.arrived if entry else 0.0)
                count[channel] = count.get(channel, 0) + 1
            channels.append(channel)
        open_channels = {c for c in last if count[c] < size and now - last[c] < gap}
        ready = [job for job, c in zip(jobs, channels, strict=True) if c not in open_channels]
        wait = min((last[c] + gap - now for c in open_channels), default=0.0)
        return ready, max(wait, 0.001)

    async def _wait_for_gap(self, seconds: float) -> None:
        """Sleep until a channel's gap ends, a new message arrives or the queue closes."""
        self.book.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.book.wake.wait(), seconds)

    async def _next_jobs(self) -> list[Job]:
        """The oldest pending jobs not yet being processed: from memory when this process
        submitted them all."""
        book = self.book
        if not book.claim_from_db:
            batch = book.in_memory()
            if batch is not None:
                return batch
            book.claim_from_db = True
        await self._land_write()  # the database then says which jobs are still pending
        claimed = await self.store.claim_pending(JOB_BATCH)
        jobs = []
        for job in claimed:
            key = job_key(job)
            if key in book.dropping:
                continue
            entry = book.pending.get(key)
            if entry is None:  # set pending behind our back (requeue): adopted
                book.pending[key] = Entry(None, job.live, job)
            elif entry.job is None:
                entry.job = job
            jobs.append(job)
        if len(claimed) < JOB_BATCH:
            # That claim saw every pending job: memory knows all of them from now on.
            book.claim_from_db = False
            book.forget_stale()
        return jobs

    async def _process(self, jobs: list[Job]) -> None:
        """Extract a step's jobs; it is written while the next step is extracted."""
        keys = [job_key(job) for job in jobs]
        self.book.in_progress.update(keys)
        try:
            done, failed, facts, events = await self._extract(jobs)
            await self._land_write()
        except BaseException:
            self.book.in_progress.difference_update(keys)
            raise
        self._unwritten = _Extracted(jobs, keys, done, failed, facts, events)

    def _start_write(self) -> None:
        """Start writing the last step (whose write has not started yet)."""
        step, self._unwritten = self._unwritten, None
        if step is not None:
            self._writing = asyncio.create_task(self._write(step))

    async def _land_write(self) -> None:
        """Write the last step and wait for it (its error, if any, is raised here)."""
        self._start_write()
        writing, self._writing = self._writing, None
        if writing is not None:
            await writing

    async def _write(self, step: _Extracted) -> None:
        """Store a step's facts (checked first, when a check is set: it reads the facts the
        last write stored) and close its jobs; settle their handles."""
        book = self.book
        jobs, keys, done, failed, facts, events = step
        stale: set[Key] = set()
        try:
            check = self.fact_check
            advice = await check(facts) if check is not None and facts else NO_ADVICE
            # No await between this check and the write being queued: an edit either comes
            # before it (seen here) or its own write runs after this one (and reopens the job).
            stale = self._stale(jobs)
            if stale:
                done, failed, facts = _without(stale, jobs, done, failed, facts)
            later = check is None and not any(job.live for job in jobs)  # judged when idle
            changed = await self.store.finish_jobs(done, failed, facts, events, advice=advice,
                                                   judge_later=later)  # fmt: skip
        finally:
            book.in_progress.difference_update(keys)
        failed_ids = {job_id for job_id, _ in failed}
        for job, key in zip(jobs, keys, strict=True):
            if key in stale:  # edited meanwhile: pending again, to be read anew
                entry = book.pending.get(key)
                if entry is not None:
                    entry.job = None
                book.claim_from_db = True
                continue
            book.close(key, job.job_id not in failed_ids)
        for guild_id in {guild_id for guild_id, _ in changed}:
            self._changed(guild_id, True)
        book.signal_room()

    def _stale(self, jobs: list[Job]) -> set[Key]:
        """Keys of the jobs whose message was edited to another text than the one extracted;
        the edits of the others are settled."""
        edits = self.book.edits
        stale: set[Key] = set()
        if not edits:
            return stale
        for job in jobs:
            key = job_key(job)
            newest = edits.get(key)
            if newest is None:
                continue
            if newest == job.message.content:
                del edits[key]
            else:
                stale.add(key)
        return stale

    async def _extract(self, jobs: list[Job]) -> tuple[list[int], Failed, Facts, list[MemoryEvent]]:
        """Run the extractor once per channel batch (one guild, one channel, in order, at most
        ``batch_size`` messages) with the channel's turns before it as context; a failed batch
        fails its jobs, the others go on. The audit log gets each failure, and each call of
        an extractor that calls out (an LLM)."""
        if not self.extractor.proposes_facts:  # nothing to extract: the jobs are done
            return [job.job_id for job in jobs], [], [], []
        by_channel: dict[tuple[str, str], list[tuple[int, SourceMessage]]] = {}
        for job in jobs:
            if extractable(job.message.guild_id, job.message.content):
                key = (job.message.guild_id, job.message.channel_id)
                by_channel.setdefault(key, []).append((job.job_id, source_message(job)))
        size = max(1, self.extractor.batch_size)
        chunks = [
            (channel, members[start : start + size])
            for channel, members in by_channel.items()
            for start in range(0, len(members), size)
        ]
        contexts = [await self._context([message for _, message in c]) for _, c in chunks]
        self._start_write()  # the last step's write: queued after these reads
        failed: Failed = []
        facts: Facts = []
        events: list[MemoryEvent] = []
        loop, name = asyncio.get_running_loop(), self.extractor.name
        for ((guild_id, channel_id), chunk), context in zip(chunks, contexts, strict=True):
            messages = [message for _, message in chunk]
            started = loop.time()
            try:
                candidates = await self.extractor.extract(messages, context=context)
                kept = self._filter(messages, candidates)
            except Exception as exc:  # the extractor's or a filter's: these jobs fail
                # An endpoint found down is logged once, by its breaker, not every batch.
                log.log(
                    logging.DEBUG if endpoint_down(exc) else logging.WARNING,
                    "extraction failed for %d message(s) of guild %s channel %s: %s",
                    len(messages), guild_id, channel_id, exc,
                )  # fmt: skip
                events.append(extraction_error(name, guild_id, channel_id, len(chunk), exc))
                failed += [(job_id, f"{type(exc).__name__}: {exc}") for job_id, _ in chunk]
                self.book.extractions.failed += len(chunk)
                continue
            self.book.extractions.extracted += len(chunk)
            facts += kept
            if self.extractor.remote:
                took = loop.time() - started
                events.append(
                    extraction_call(name, guild_id, channel_id, len(chunk), len(kept), took)
                )
        failed_rows = {row_id for row_id, _ in failed}
        done = [job.job_id for job in jobs if job.job_id not in failed_rows]
        return done, failed, facts, events

    async def _context(self, messages: list[SourceMessage]) -> list[ContextTurn]:
        """The channel's turns just before a batch's first message (at most ``CONTEXT_TURNS``,
        oldest first): one store query per batch. The batch's own messages, and anything
        said after its first message, are never its context."""
        first = messages[0]
        before = await self.store.recent_messages(
            first.guild_id, first.channel_id, CONTEXT_TURNS, before=first.message_id
        )
        batch = {m.message_id for m in messages}
        return [
            ContextTurn(m.author_id, m.author_name, m.content, m.created_at)
            for m in before
            if m.message_id not in batch and m.created_at <= first.created_at
        ]

    def _filter(self, messages: list[SourceMessage], candidates: list[CandidateFact]) -> Facts:
        by_id = {m.message_id: m for m in messages}
        fact_filter = self.fact_filter
        if fact_filter is filter_fact and self.extractor.prefiltered:
            fact_filter = keep_fact  # the extractor applied this very filter already
        kept: Facts = []
        per_message: dict[str, int] = {}
        for cand in candidates:
            message = by_id.get(cand.source_message_id)
            if message is None or per_message.get(message.message_id, 0) >= MAX_FACTS_PER_MESSAGE:
                continue
            fact = fact_filter(message, cand)
            if fact is not None:
                kept.append((message, fact))
                per_message[message.message_id] = per_message.get(message.message_id, 0) + 1
        return kept


def _without(
    stale: set[Key], jobs: list[Job], done: list[int], failed: Failed, facts: Facts
) -> tuple[list[int], Failed, Facts]:
    """What a step closes and stores, less the jobs of ``stale`` messages and their facts."""
    rows = {job.job_id for job in jobs if job_key(job) in stale}
    return (
        [row for row in done if row not in rows],
        [(row, error) for row, error in failed if row not in rows],
        [(m, f) for m, f in facts if (m.guild_id, m.message_id) not in stale],
    )
