"""The bounded, durable ingest queue (DESIGN "Ingest").

``submit`` writes the message and its job row in one transaction before it returns; one
worker then extracts and stores facts in order, while the journaler writes daily-log lines
and search rows in row order. A job with nothing to extract is written ``done`` at once.
Live overflow drops the oldest live job (its message stays, its job row says ``dropped``);
bulk submits wait for room.

The database is the truth; memory holds what this process submitted (at most
``max_queue`` jobs) so the worker need not read back what it has just written. Jobs left
by an earlier run, or set pending again by ``requeue`` or an edit, are read from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from memory.errors import InvalidMessageError, QueueClosedError
from memory.extraction import (
    CONTEXT_TURNS,
    MAX_FACTS_PER_MESSAGE,
    ContextTurn,
    Extractor,
    Mention,
    NoopExtractor,
    SourceMessage,
)
from memory.extraction.fact_filter import filter_fact
from memory.forget_sql import EditOutcome
from memory.ingest_sql import Closed
from memory.models import CandidateFact, IngestItem, Job, StoredMessage, canonical_time
from memory.store import Store
from memory.text import clean_text, is_meaningful

log = logging.getLogger(__name__)

Key = tuple[str, str]
MIN_EXTRACT_CHARS = 4
JOB_BATCH = 512
JOURNAL_BATCH = 2000
# After a wake-up the worker waits this long, so live messages arriving one by one are
# processed (and committed) in batches rather than one transaction each.
WORKER_LINGER = 0.005
JOURNAL_LINGER = 0.02
LINGER_BELOW = 64  # with this much work waiting, a step starts at once
MAX_BACKOFF = 30.0  # seconds between retries of a worker step that keeps failing
DROP_REASON = "dropped: ingest queue full"


class JournalSink(Protocol):
    """Where the queue writes daily-log lines and announces guilds whose memory changed."""

    async def append(self, messages: Sequence[StoredMessage]) -> None: ...

    def guild_changed(self, guild_id: str) -> None: ...


class FactFilter(Protocol):
    def __call__(
        self, message: SourceMessage, candidate: CandidateFact
    ) -> CandidateFact | None: ...


def keep_fact(message: SourceMessage, candidate: CandidateFact) -> CandidateFact | None:
    """No filtering at all (for tests of the queue's mechanics)."""
    return candidate


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
class BulkOutcome:
    """What a bulk submit did: stored ``new``, found ``stored_before`` (its job closed) or
    still ``pending`` (resumed), or skipped as ``empty`` (too short to keep)."""

    new: int = 0
    stored_before: int = 0
    pending: int = 0
    empty: int = 0
    new_keys: set[tuple[str, str]] = field(default_factory=set, repr=False)  # live only


class _Extracted(NamedTuple):
    """A step the worker has extracted: its jobs, and what their write closes and stores."""

    jobs: list[Job]
    keys: list[Key]
    done: list[int]
    failed: list[tuple[int, str]]
    facts: list[tuple[SourceMessage, CandidateFact]]


@dataclass(slots=True)
class _Entry:
    future: asyncio.Future[bool] | None  # made when someone waits for this job
    live: bool
    job: Job | None  # None: not in memory (resumed or requeued), read from the database
    arrived: float = 0.0  # loop time of the submit (0: long ago), for the quiet gap


class IngestQueue:
    """One ordered worker over the ``ingest_jobs`` table, with in-memory handles."""

    def __init__(
        self,
        store: Store,
        *,
        extractor: Extractor | None = None,
        journal: JournalSink | None = None,
        fact_filter: FactFilter = filter_fact,
        max_queue: int = 400,
        drain_timeout: float = 4.0,
        on_facts: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        #: Called with a guild id after facts of that guild were stored (embedding wakes).
        self.on_facts = on_facts
        self.extractor: Extractor = extractor or NoopExtractor()
        self.journal = journal
        self.fact_filter = fact_filter
        self.max_queue = max_queue
        self.drain_timeout = drain_timeout
        self.dropped = 0
        self._pending: dict[Key, _Entry] = {}  # in submit order (dicts keep insertion order)
        self._submitting: dict[Key, asyncio.Future[bool] | None] = {}
        self._live_buffer: list[tuple[IngestItem, asyncio.Future[bool]]] = []
        self._live_writer: asyncio.Task[None] | None = None
        self._in_progress: set[Key] = set()
        self._dropping: set[Key] = set()
        # Messages edited while this process runs -> their newest text: an extraction of
        # any other text (under way when the edit came) must not close the job.
        self._edits: dict[Key, str] = {}
        self._claim_from_db = True
        self._journal_from_db = True
        self._journal_queue: deque[StoredMessage] = deque()
        self._journal_cursor = 0
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._room = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._unwritten: _Extracted | None = None  # the last step, its write not started
        self._writing: asyncio.Task[None] | None = None  # the last step's write, under way
        self._journaler: asyncio.Task[None] | None = None
        self._journal_wake = asyncio.Event()
        self._journal_idle = asyncio.Event()
        self._closing = False
        self._bulk_sessions = 0
        # Guilds changed during an import: their snapshots are refreshed when it ends, and
        # ``on_facts`` called for those whose facts changed.
        self._bulk_guilds: set[str] = set()
        self._bulk_facts: set[str] = set()
        self._joining = 0

    # --- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Resume the pending jobs a previous run left, then start the worker."""
        self._journal_cursor = await self.store.journal_cursor()
        for guild_id, message_id, live in await self.store.pending_keys():
            self._pending[(guild_id, message_id)] = _Entry(None, live, None)
        if self._pending:
            log.info("resuming %d pending ingest jobs", len(self._pending))
        self._worker = asyncio.create_task(self._run(), name="memorybot-ingest-worker")
        self._journaler = asyncio.create_task(self._run_journal(), name="memorybot-journaler")
        self._wake.set()
        self._journal_wake.set()

    async def close(self, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Stop accepting work, drain for up to ``timeout`` seconds; the rest stays pending."""
        self._closing = True
        timeout = self.drain_timeout if timeout is None else timeout
        if self._worker is not None:
            try:
                await asyncio.wait_for(self.join(), timeout)
            except TimeoutError:
                log.warning(
                    "ingest drain timed out: up to %d job(s) stay pending for the next start",
                    len(self._pending),
                )
            for task in (self._worker, self._writing, self._journaler):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            self._worker = self._writing = self._journaler = None
        for entry in self._pending.values():
            _settle(entry.future, False)
        self._pending.clear()
        self._room.set()

    async def __aenter__(self) -> IngestQueue:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def depth(self) -> int:
        """Pending jobs (including those being processed)."""
        return len(self._pending)

    @property
    def bulk_room(self) -> int:
        """Pending jobs bulk submits may fill; the last quarter of the bound stays for live."""
        return max(1, self.max_queue - self.max_queue // 4)

    @property
    def _step_jobs(self) -> int:
        """The most jobs a worker step takes from memory, and a bulk submit stores at once:
        half the bulk room, so one half is extracted while the other is written or filled."""
        return max(1, min(JOB_BATCH, self.bulk_room // 2))

    async def join(self) -> None:
        """Wait until every pending job is processed and every message journaled."""
        self._joining += 1  # the journal does not wait for fuller steps meanwhile
        try:
            while True:
                self._idle.clear()
                self._wake.set()
                await self._idle.wait()
                self._journal_idle.clear()
                self._journal_wake.set()
                await self._journal_idle.wait()
                if not self._pending and not self._journal_queue:
                    return
        finally:
            self._joining -= 1

    async def requeue(self, guild_id: str, statuses: Sequence[str] = ("failed", "dropped")) -> int:
        """Set this guild's jobs of these statuses pending again (backfill); return how many."""
        count = await self.store.requeue_jobs(guild_id, statuses)
        if count:
            self._reclaim()
        return count

    async def edit_message(
        self, guild_id: str, message_id: str, content: str
    ) -> EditOutcome | None:
        """A message edited on Discord: ``Store.edit_message`` (new text stored, facts of the
        old text deleted, job pending again), then the worker extracts the new text.

        An extraction of the old text that is under way when the edit comes stores
        nothing and leaves the job pending. None for a message the guild does not have."""
        key = (guild_id, message_id)
        previous = self._edits.get(key)
        self._edits[key] = content  # before the write: see _stale
        try:
            outcome = await self.store.edit_message(guild_id, message_id, content)
        except BaseException:
            self._restore_edit(key, previous)
            raise
        if outcome is None or not outcome.changed:
            self._restore_edit(key, previous)
            return outcome
        entry = self._pending.get(key)
        if entry is not None:
            entry.job = None  # its message is the old text: read the job again
        self._reclaim()
        return outcome

    def discard(self, keys: Iterable[Key]) -> None:
        """Messages deleted from the store: drop the jobs this process still holds for them
        (their handles resolve False), so their text is not extracted after all."""
        for key in keys:
            self._edits.pop(key, None)
            entry = self._pending.pop(key, None)
            if entry is not None:
                _settle(entry.future, False)
        if len(self._pending) < self.bulk_room:
            self._room.set()

    def _restore_edit(self, key: Key, previous: str | None) -> None:
        if previous is None:
            self._edits.pop(key, None)
        else:
            self._edits[key] = previous

    def _reclaim(self) -> None:
        """Jobs were set pending in the database: the worker reads them from there."""
        self._claim_from_db = True
        self._idle.clear()
        self._wake.set()

    async def journal_backlog(self) -> int:
        """Journal and index every stored message the journal cursor has not passed yet;
        return how many (without starting the worker)."""
        if not self._journal_cursor:
            self._journal_cursor = await self.store.journal_cursor()
        written = 0
        while count := await self._journal_step():
            written += count
        return written

    # --- submitting ---------------------------------------------------------------------

    async def submit(self, item: IngestItem) -> IngestHandle:
        """Store one live message and queue its job; overflow drops the oldest live job.

        Returns once the message and its job are committed. Submits that arrive while a
        write is under way share the next transaction (group commit).
        """
        if self._closing:
            raise QueueClosedError("the ingest queue is shutting down")
        item = _validate(item)
        key = item.key
        if key in self._pending or key in self._submitting:
            return IngestHandle(key, self._future_for(key), stored=False)
        loop = asyncio.get_running_loop()
        if not is_meaningful(item.content):
            return IngestHandle(key, _resolved(loop, False), stored=False)
        future: asyncio.Future[bool] = loop.create_future()
        self._submitting[key] = future
        written: asyncio.Future[bool] = loop.create_future()
        self._live_buffer.append((item, written))
        if self._live_writer is None or self._live_writer.done():
            self._live_writer = asyncio.create_task(self._write_live())
        return IngestHandle(key, future, stored=await written)

    async def _write_live(self) -> None:
        """Commit buffered live submits, a transaction at a time, until none is left."""
        while self._live_buffer:
            batch, self._live_buffer = self._live_buffer, []
            try:
                stored = await self._store_fresh([i for i, _ in batch], live=True)
            except BaseException as exc:
                for _, written in batch:
                    if not written.done():
                        written.set_exception(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for item, written in batch:
                written.set_result(item.key in stored.new_keys)

    @contextlib.asynccontextmanager
    async def bulk(self) -> AsyncIterator[None]:
        """A bulk import is under way: journal lines and full-text rows are written in
        steps of up to ``JOURNAL_BATCH`` messages instead of one per submitted batch (far
        fewer index segments and transactions); whatever waits is written when it ends.
        The MEMORY.md snapshots of the guilds it journals are refreshed, and ``on_facts``
        called for the guilds whose facts it changed, when it ends, not every step while it
        runs: facts that the caps archive during an import are never embedded."""
        self._bulk_sessions += 1
        try:
            yield
        finally:
            self._bulk_sessions -= 1
            self._journal_wake.set()
            if not self._bulk_sessions:
                for guild_id in sorted(self._bulk_guilds):
                    self._guild_changed(guild_id, facts=guild_id in self._bulk_facts)
                self._bulk_guilds.clear()
                self._bulk_facts.clear()

    def _guild_changed(self, guild_id: str, *, facts: bool) -> None:
        """The guild's memory changed (its facts too when ``facts``): its MEMORY.md is
        refreshed and, for facts, ``on_facts`` is called; after the imports under way."""
        if self._bulk_sessions:
            self._bulk_guilds.add(guild_id)
            if facts:
                self._bulk_facts.add(guild_id)
            return
        if self.journal is not None:
            self.journal.guild_changed(guild_id)
        if facts and self.on_facts is not None:
            self.on_facts(guild_id)

    def _journal_holds(self) -> bool:
        """Whether the journal waits for a fuller step (a bulk import is still feeding it)."""
        return (
            self._bulk_sessions > 0
            and not self._joining
            and not self._closing
            and not self._journal_from_db
            and len(self._journal_queue) < JOURNAL_BATCH
        )

    async def submit_many(self, items: Sequence[IngestItem]) -> BulkOutcome:
        """Store a batch (bulk import): waits for room in the queue instead of dropping.

        Bulk submits get counts, not handles: a bulk job is never dropped. A batch larger
        than the room bulk submits have is stored in parts, so the bound always holds.
        """
        if self._worker is None:
            raise QueueClosedError("the ingest queue is not running")
        items = [_validate(item) for item in items]
        total = BulkOutcome()
        room = self._step_jobs
        for start in range(0, len(items), room):
            part = await self._submit_bulk(items[start : start + room])
            total.new += part.new
            total.stored_before += part.stored_before
            total.pending += part.pending
            total.empty += part.empty
        return total

    async def _submit_bulk(self, items: Sequence[IngestItem]) -> BulkOutcome:
        # Sorted before waiting for room, so the write starts as soon as there is room.
        fresh: list[IngestItem] = []
        pending = empty = 0
        for item in items:
            key = item.key
            if key in self._pending or key in self._submitting:
                pending += 1
            elif not is_meaningful(item.content):
                empty += 1
            else:
                self._submitting[key] = None  # a submit of the same id meanwhile shares it
                fresh.append(item)
        closed = self._closed_at_write(fresh)
        opening = 0 if closed == "all" else len(fresh) - len(closed)
        try:
            while self._pending and len(self._pending) + opening > self.bulk_room:
                self._room.clear()
                self._wake.set()
                await self._room.wait()
            if self._closing:
                raise QueueClosedError("the ingest queue is shutting down")
        except BaseException as exc:
            self._abandon(fresh, exc)
            raise
        outcome = (
            await self._store_fresh(fresh, live=False, closed=closed) if fresh else BulkOutcome()
        )
        outcome.pending += pending
        outcome.empty += empty
        return outcome

    def _abandon(self, items: Sequence[IngestItem], exc: BaseException) -> None:
        """These items will not be written: whoever waits for one of them gets ``exc``."""
        for item in items:
            future = self._submitting.pop(item.key, None)
            if future is not None and not future.done():
                future.set_exception(exc)
                future.exception()  # retrieved here: the caller sees the raised error

    def _future_for(self, key: Key) -> asyncio.Future[bool]:
        """The shared future of a message being submitted or pending (made on first ask)."""
        entry = self._pending.get(key)
        future = entry.future if entry is not None else self._submitting.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            if entry is not None:
                entry.future = future
            else:
                self._submitting[key] = future
        return future

    def _closed_at_write(self, items: Sequence[IngestItem]) -> Closed:
        """The messages whose jobs have nothing to extract (no extractor proposes facts, or
        the text is too short or has no guild): written closed, the worker never sees them.
        Their daily-log lines and full-text rows follow the journal cursor, like any other."""
        if not self.extractor.proposes_facts:
            return "all"
        return {item.key for item in items if not _extractable_text(item.guild_id, item.content)}

    async def _store_fresh(
        self, fresh: list[IngestItem], *, live: bool, closed: Closed | None = None
    ) -> BulkOutcome:
        if closed is None:
            closed = self._closed_at_write(fresh)
        every = closed == "all"
        try:
            outcome = await self.store.insert_messages(fresh, live=live, closed=closed)
        except BaseException as exc:
            # Interrupted (cancelled) after the write was handed to the database thread,
            # it may still have committed: the worker looks for such jobs in the database.
            self._claim_from_db = True
            self._wake.set()
            self._abandon(fresh, exc)
            raise
        result = BulkOutcome()
        now = asyncio.get_running_loop().time()
        opened = False
        existing = outcome.existing
        # ``fresh`` holds each message once: those not stored before are ``outcome.new``,
        # in the same order, and take its rows one by one.
        if len(outcome.new) != len(fresh) - len(existing):  # pragma: no cover - a bug
            raise RuntimeError("the store stored other messages than the queue gave it")
        rows = iter(outcome.rows)
        for item in fresh:
            key = item.key
            future = self._submitting.pop(key)
            if existing and key in existing:  # stored before: report what became of it
                status = existing[key]
                if status == "pending":
                    result.pending += 1
                else:
                    result.stored_before += 1
                if future is not None:
                    future.set_result(status == "done")
                continue
            result.new += 1
            if live:
                result.new_keys.add(key)
            row_id = next(rows)
            message = _stored(item, row_id)
            if every or key in closed:  # nothing to extract: done as it was written
                if future is not None:
                    future.set_result(True)
            else:
                opened = True
                self._pending[key] = _Entry(
                    future, live, Job(row_id, live, item.trace or {}, message), now
                )
            self._journal_queue.append(message)
        if opened:
            if live:
                await self._drop_overflow()
            self._idle.clear()
            self._wake.set()  # the worker before the journal: its write keeps the database busy
        self._journal_wake.set()
        return result

    async def _drop_overflow(self) -> None:
        excess = len(self._pending) - self.max_queue
        if excess <= 0:
            return
        victims: list[Key] = []
        for key, entry in self._pending.items():
            if len(victims) == excess:
                break
            if entry.live and key not in self._in_progress:
                victims.append(key)
        for key in victims:
            _settle(self._pending.pop(key).future, False)
            self._edits.pop(key, None)
        if not victims:
            return
        self.dropped += len(victims)
        log.warning("ingest queue full: dropped %d oldest job(s)", len(victims))
        self._dropping.update(victims)
        try:
            await self.store.drop_jobs(victims, DROP_REASON)
        finally:
            self._dropping.difference_update(victims)

    # --- the worker ---------------------------------------------------------------------

    async def _run(self) -> None:
        backoff = 1.0
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                while True:
                    await self._linger(WORKER_LINGER, len(self._pending))
                    if not await self._step():
                        break
                    backoff = 1.0
            except asyncio.CancelledError:
                raise
            except Exception:
                # The jobs stay pending (durable); retry, less often while it keeps failing.
                log.exception("ingest worker step failed; retrying in %.0f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
                self._wake.set()
                continue
            if not self._wake.is_set():
                self._idle.set()

    async def _linger(self, seconds: float, waiting: int) -> None:
        """Let more work arrive before a small step (not while closing: drain at once)."""
        if not self._closing and waiting < LINGER_BELOW:
            await asyncio.sleep(seconds)

    async def _step(self) -> bool:
        """Process one batch of jobs; False when there is none."""
        jobs = await self._next_jobs()
        if jobs and self.extractor.batch_gap > 0 and not self._closing:
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
        self._signal_room()
        return bool(jobs)

    def _signal_room(self) -> None:
        if len(self._pending) < self.bulk_room:
            self._room.set()

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
            if _extractable(job.message):
                channel = (job.message.guild_id, job.message.channel_id)
                entry = self._pending.get(_job_key(job))
                last[channel] = max(last.get(channel, 0.0), entry.arrived if entry else 0.0)
                count[channel] = count.get(channel, 0) + 1
            channels.append(channel)
        open_channels = {c for c in last if count[c] < size and now - last[c] < gap}
        ready = [job for job, c in zip(jobs, channels, strict=True) if c not in open_channels]
        wait = min((last[c] + gap - now for c in open_channels), default=0.0)
        return ready, max(wait, 0.001)

    async def _wait_for_gap(self, seconds: float) -> None:
        """Sleep until a channel's gap ends, a new message arrives or the queue closes."""
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    async def _run_journal(self) -> None:
        """Daily-log lines, written in row order beside the job worker (files, not jobs)."""
        while True:
            await self._journal_wake.wait()
            self._journal_wake.clear()
            holding = False
            try:
                while True:
                    holding = self._journal_holds()
                    if holding:  # woken again when the next batch is stored, or at the end
                        break
                    await self._linger(JOURNAL_LINGER, len(self._journal_queue))
                    if not await self._journal_step():
                        break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("journal step failed; retrying in 1 s")
                await asyncio.sleep(1)
                self._journal_wake.set()
                continue
            if not holding and not self._journal_wake.is_set():
                self._journal_idle.set()

    async def _journal_step(self) -> int:
        """Daily-log lines (when journals are on) and full-text indexing of the next messages."""
        messages = await self._journal_batch()
        if not messages:
            return 0
        if self.journal is not None:
            await self.journal.append(messages)
        self._journal_cursor = messages[-1].row_id
        await self.store.mark_journaled_through(self._journal_cursor)
        if self.journal is not None:
            for guild_id in {m.guild_id for m in messages}:
                self._guild_changed(guild_id, facts=False)
        return len(messages)

    async def _next_jobs(self) -> list[Job]:
        """The oldest pending jobs not yet being processed: from memory when this process
        submitted them all."""
        if not self._claim_from_db:
            batch = self._jobs_in_memory()
            if batch is not None:
                return batch
            self._claim_from_db = True
        await self._land_write()  # the database then says which jobs are still pending
        claimed = await self.store.claim_pending(JOB_BATCH)
        jobs = []
        for job in claimed:
            key = _job_key(job)
            if key in self._dropping:
                continue
            entry = self._pending.get(key)
            if entry is None:  # set pending behind our back (requeue): adopted
                self._pending[key] = _Entry(None, job.live, job)
            elif entry.job is None:
                entry.job = job
            jobs.append(job)
        if len(claimed) < JOB_BATCH:
            # That claim saw every pending job: memory knows all of them from now on.
            self._claim_from_db = False
            self._forget_stale()
        return jobs

    def _jobs_in_memory(self) -> list[Job] | None:
        """Up to a step of the oldest jobs not being processed, or None if one of them is
        only in the database."""
        batch: list[Job] = []
        for key, entry in self._pending.items():
            if len(batch) == self._step_jobs:
                break
            if key in self._dropping or key in self._in_progress:
                continue
            if entry.job is None:
                return batch or None
            batch.append(entry.job)
        return batch

    def _forget_stale(self) -> None:
        """Entries known only by key whose job is no longer pending in the database."""
        for key in [k for k, e in self._pending.items() if e.job is None]:
            _settle(self._pending.pop(key).future, False)

    async def _journal_batch(self) -> list[StoredMessage]:
        """The next stored messages past the journal cursor, in row order."""
        if self._journal_from_db:
            messages = await self.store.unjournaled_messages(JOURNAL_BATCH)
            self._journal_from_db = len(messages) == JOURNAL_BATCH
        else:
            count = min(JOURNAL_BATCH, len(self._journal_queue))
            messages = [self._journal_queue.popleft() for _ in range(count)]
        return [m for m in messages if m.row_id > self._journal_cursor]

    async def _process(self, jobs: list[Job]) -> None:
        """Extract a step's jobs and return; the step is written while the next one is
        extracted (an extractor in child processes then runs beside the database). Each
        write starts once the next step has read its context, so that read does not wait
        behind it; writes land in step order."""
        keys = [_job_key(job) for job in jobs]
        self._in_progress.update(keys)
        try:
            done, failed, facts = await self._extract(jobs)
            await self._land_write()
        except BaseException:
            self._in_progress.difference_update(keys)
            raise
        self._unwritten = _Extracted(jobs, keys, done, failed, facts)

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
        """Store a step's facts and close its jobs; settle their handles."""
        jobs, keys, done, failed, facts = step
        stale: set[Key] = set()
        try:
            # No await between this check and the write being queued: an edit either comes
            # before it (seen here) or its own write runs after this one (and reopens the job).
            stale = self._stale(jobs)
            if stale:
                done, failed, facts = _without(stale, jobs, done, failed, facts)
            changed = await self.store.finish_jobs(done, failed, facts)
        finally:
            self._in_progress.difference_update(keys)
        failed_ids = {job_id for job_id, _ in failed}
        for job, key in zip(jobs, keys, strict=True):
            if key in stale:  # edited meanwhile: pending again, to be read anew
                entry = self._pending.get(key)
                if entry is not None:
                    entry.job = None
                self._claim_from_db = True
                continue
            entry = self._pending.pop(key, None)
            if entry is not None:
                _settle(entry.future, job.job_id not in failed_ids)
        for guild_id in {guild_id for guild_id, _ in changed}:
            self._guild_changed(guild_id, facts=True)
        self._signal_room()

    def _stale(self, jobs: list[Job]) -> set[Key]:
        """Keys of the jobs whose message was edited to another text than the one extracted;
        the edits of the others are settled."""
        stale: set[Key] = set()
        if not self._edits:
            return stale
        for job in jobs:
            key = _job_key(job)
            newest = self._edits.get(key)
            if newest is None:
                continue
            if newest == job.message.content:
                del self._edits[key]
            else:
                stale.add(key)
        return stale

    async def _extract(
        self, jobs: list[Job]
    ) -> tuple[list[int], list[tuple[int, str]], list[tuple[SourceMessage, CandidateFact]]]:
        """Run the extractor once per channel batch (one guild, one channel, in order, at most
        ``batch_size`` messages) with the channel's turns before it as context; a failed batch
        fails its jobs, the others go on."""
        if not self.extractor.proposes_facts:  # nothing to extract: the jobs are done
            return [job.job_id for job in jobs], [], []
        by_channel: dict[tuple[str, str], list[tuple[int, SourceMessage]]] = {}
        for job in jobs:
            if _extractable(job.message):
                key = (job.message.guild_id, job.message.channel_id)
                by_channel.setdefault(key, []).append((job.job_id, _source(job)))
        size = max(1, self.extractor.batch_size)
        chunks = [
            (channel, members[start : start + size])
            for channel, members in by_channel.items()
            for start in range(0, len(members), size)
        ]
        contexts = [await self._context([message for _, message in c]) for _, c in chunks]
        self._start_write()  # the last step's write: queued after these reads
        failed: list[tuple[int, str]] = []
        facts: list[tuple[SourceMessage, CandidateFact]] = []
        for ((guild_id, channel_id), chunk), context in zip(chunks, contexts, strict=True):
            messages = [message for _, message in chunk]
            try:
                candidates = await self.extractor.extract(messages, context=context)
                kept = self._filter(messages, candidates)
            except Exception as exc:  # the extractor's or a filter's: these jobs fail
                log.warning(
                    "extraction failed for %d message(s) of guild %s channel %s: %s",
                    len(messages),
                    guild_id,
                    channel_id,
                    exc,
                )
                error = f"{type(exc).__name__}: {exc}"
                failed += [(job_id, error) for job_id, _ in chunk]
                continue
            facts += kept
        failed_rows = {row_id for row_id, _ in failed}
        done = [job.job_id for job in jobs if job.job_id not in failed_rows]
        return done, failed, facts

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

    def _filter(
        self, messages: list[SourceMessage], candidates: list[CandidateFact]
    ) -> list[tuple[SourceMessage, CandidateFact]]:
        by_id = {m.message_id: m for m in messages}
        fact_filter = self.fact_filter
        if fact_filter is filter_fact and self.extractor.prefiltered:
            fact_filter = keep_fact  # the extractor applied this very filter already
        kept: list[tuple[SourceMessage, CandidateFact]] = []
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
    stale: set[Key],
    jobs: list[Job],
    done: list[int],
    failed: list[tuple[int, str]],
    facts: list[tuple[SourceMessage, CandidateFact]],
) -> tuple[list[int], list[tuple[int, str]], list[tuple[SourceMessage, CandidateFact]]]:
    """What a step closes and stores, less the jobs of ``stale`` messages and their facts."""
    rows = {job.job_id for job in jobs if _job_key(job) in stale}
    return (
        [row for row in done if row not in rows],
        [(row, error) for row, error in failed if row not in rows],
        [(m, f) for m, f in facts if (m.guild_id, m.message_id) not in stale],
    )


def _extractable(message: StoredMessage) -> bool:
    return _extractable_text(message.guild_id, message.content)


def _extractable_text(guild_id: str, content: str) -> bool:
    """DESIGN: extract from a message of a guild whose cleaned text has 4+ characters."""
    return bool(guild_id) and len(clean_text(content)) >= MIN_EXTRACT_CHARS


def _source(job: Job) -> SourceMessage:
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


def _job_key(job: Job) -> Key:
    return (job.message.guild_id, job.message.message_id)


def _stored(item: IngestItem, row_id: int) -> StoredMessage:
    """The stored row of a validated item (its time is already canonical)."""
    return StoredMessage(
        row_id, item.guild_id, item.channel_id, item.message_id, item.author.id,
        item.author.name, item.content, item.source, item.created_at,
    )  # fmt: skip


def _validate(item: IngestItem) -> IngestItem:
    """Refuse, before anything is written, what the store could not keep; return the item
    with its time in the stored format."""
    if not isinstance(item.message_id, str) or not item.message_id:
        raise InvalidMessageError(f"message has no id: {item.message_id!r}")
    if not isinstance(item.content, str):
        raise InvalidMessageError(f"message {item.message_id}: content is not text")
    try:
        created_at = canonical_time(item.created_at)
    except (ValueError, TypeError, AttributeError):
        raise InvalidMessageError(
            f"message {item.message_id}: created_at is not an ISO 8601 time: "
            f"{str(item.created_at)[:40]!r}"
        ) from None
    return item if created_at == item.created_at else item._replace(created_at=created_at)


def _settle(future: asyncio.Future[bool] | None, value: bool) -> None:
    if future is not None and not future.done():
        future.set_result(value)


def _resolved(loop: asyncio.AbstractEventLoop, value: bool) -> asyncio.Future[bool]:
    future: asyncio.Future[bool] = loop.create_future()
    future.set_result(value)
    return future
