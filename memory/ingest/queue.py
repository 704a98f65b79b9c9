"""The bounded, durable ingest queue (DESIGN "Ingest"): ``submit`` commits the message and
its job before it returns; the worker (``worker.py``) extracts in order, the journal follower
(``journal.py``) writes log lines and search rows in row order. A job with nothing to extract
is written ``done`` at once. Live overflow drops the oldest live job (its message stays, its
job row says ``dropped``); bulk submits wait for room."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field

from memory.errors import MemorybotError, QueueClosedError
from memory.extraction import Extractor, NoopExtractor
from memory.extraction.fact_filter import filter_fact
from memory.ingest.admission import Admission
from memory.ingest.jobs import Entry, IngestHandle, JobBook, Key, closed_at_write, resolved
from memory.ingest.journal import JournalFollower, JournalSink
from memory.ingest.notices import ChangeNotices
from memory.ingest.worker import ExtractionWorker, FactCheck, FactFilter
from memory.models import IngestItem, Job
from memory.storage.forget_sql import EditOutcome
from memory.storage.ingest_sql import Closed
from memory.storage.protocol import Storage
from memory.tasks import stop_task
from memory.text import is_meaningful

log = logging.getLogger(__name__)

DROP_REASON = "dropped: ingest queue full"
SHARED_POLL = 5.0  # seconds between looks for work other processes left (shared store)


@dataclass(slots=True)
class BulkOutcome:
    """What a bulk submit did: stored ``new``, found ``stored_before`` (its job closed) or
    still ``pending`` (resumed), or skipped as ``empty`` (too short to keep) or ``refused``
    (by reason: its author opted out, its channel is ignored; ``admission.py``)."""

    new: int = 0
    stored_before: int = 0
    pending: int = 0
    empty: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    new_keys: set[tuple[str, str]] = field(default_factory=set, repr=False)  # live only


class IngestQueue:
    """Submits in, durable jobs out: the book of pending jobs, their worker and the journal."""

    def __init__(
        self,
        store: Storage,
        *,
        extractor: Extractor | None = None,
        journal: JournalSink | None = None,
        fact_filter: FactFilter = filter_fact,
        max_queue: int = 400,
        drain_timeout: float = 4.0,
        on_facts: Callable[[str], None] | None = None,
        admission: Admission | None = None,
        fact_check: FactCheck | None = None,
    ) -> None:
        self.store = store
        self.admission = admission or Admission(store)
        self.notices = ChangeNotices(journal, on_facts)
        self.extractor: Extractor = extractor or NoopExtractor()
        self.drain_timeout = drain_timeout
        self.dropped = 0
        self._book = JobBook(max_queue)
        self.extractions = self._book.extractions  # what the worker extracted and failed
        self._worker = ExtractionWorker(
            self._book, store, self.extractor, fact_filter=fact_filter,
            changed=self.notices.changed, fact_check=fact_check,
        )  # fmt: skip
        self._journaler = JournalFollower(
            store,
            journal,
            changed=lambda guild_id: self.notices.changed(guild_id, False),
            holding=lambda: self.notices.imports > 0 and not self._joining and not self.closing,
            closing=lambda: self.closing,
        )
        self._live_buffer: list[tuple[IngestItem, asyncio.Future[bool]]] = []
        self._live_writer: asyncio.Task[None] | None = None
        self._joining = 0
        self._watcher: asyncio.Task[None] | None = None

    @property
    def closing(self) -> bool:
        return self._book.closing

    async def start(self) -> None:
        """Resume the pending jobs a previous run left, then start the worker."""
        await self._journaler.start()
        if resumed := self._book.resume(await self.store.pending_keys()):
            log.info("resuming %d pending ingest jobs", resumed)
        self._worker.start()
        if self.store.shared:
            self._watcher = asyncio.create_task(self._watch_others(), name="memorybot-adopt")

    async def _watch_others(self) -> None:
        """A shared store: take on, now and then, the jobs a process that died left (its
        claims lapsed) and the journal lines of guilds another process stopped writing."""
        while True:
            await asyncio.sleep(SHARED_POLL)
            try:
                if await self.store.unclaimed_jobs():
                    self._book.reclaim()
            except Exception as exc:  # the store is unreachable for now: next time
                log.warning("cannot look for jobs other processes left: %s", exc)
            self._journaler.wake()

    async def close(self, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Stop accepting work, drain for up to ``timeout`` seconds; the rest stays pending."""
        self._book.closing = True
        timeout = self.drain_timeout if timeout is None else timeout
        if self._worker.running:
            try:
                await asyncio.wait_for(self.join(), timeout)
            except TimeoutError:
                left, logs = len(self._book.pending), await self._journaler.left_over()
                log.warning("ingest drain timed out: %d job(s)%s wait for next time", left, logs)
            except MemorybotError as exc:  # a fault (told to whoever waited): kept for later
                log.info("ingest stopped (%s): the rest stays pending for next time", exc)
            await stop_task(self._watcher)
            await self._worker.stop()
            await self._journaler.stop()
        self._book.settle_all()

    async def __aenter__(self) -> IngestQueue:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def depth(self) -> int:
        """Pending jobs (including those being processed)."""
        return len(self._book.pending)

    @property
    def bulk_room(self) -> int:
        """Pending jobs bulk submits may fill; the last quarter of the bound stays for live."""
        return self._book.bulk_room

    @property
    def fault(self) -> MemorybotError | None:
        """What keeps the worker or the journal from going on (a full disk), if anything."""
        return self._book.fault or self._journaler.fault

    def _raise_fault(self) -> None:
        if (fault := self.fault) is not None:
            raise fault

    async def join(self) -> None:
        """Wait until every pending job is processed and every message journaled; raise the
        ``fault`` that stops them instead of waiting for ever (what is stored stays)."""
        book = self._book
        self._joining += 1  # the journal does not wait for fuller steps meanwhile
        try:
            while True:
                self._raise_fault()
                book.wake_worker()
                await book.idle.wait()
                self._raise_fault()
                await self._journaler.join()
                self._raise_fault()
                if not book.pending and not self._journaler.waiting:
                    return
        finally:
            self._joining -= 1

    async def requeue(self, guild_id: str, statuses: Sequence[str] = ("failed", "dropped")) -> int:
        """Set this guild's jobs of these statuses pending again (backfill); return how many."""
        count = await self.store.requeue_jobs(guild_id, statuses)
        if count:
            self._book.reclaim()
        return count

    async def edit_message(
        self, guild_id: str, message_id: str, content: str
    ) -> EditOutcome | None:
        """A message edited on Discord (``Storage.edit_message``), then extracted again; an
        extraction of the old text under way stores nothing. None: no such message."""
        book, key = self._book, (guild_id, message_id)
        previous = book.edits.get(key)
        book.edits[key] = content  # before the write: the worker's stale check sees it
        try:
            outcome = await self.store.edit_message(guild_id, message_id, content)
        except BaseException:
            book.undo_edit(key, previous)
            raise
        if outcome is None or not outcome.changed:
            book.undo_edit(key, previous)
            return outcome
        entry = book.pending.get(key)
        if entry is not None:
            entry.job = None  # its message is the old text: read the job again
        book.reclaim()
        return outcome

    def discard(self, keys: Iterable[Key]) -> None:
        """Messages deleted from the store: drop the jobs this process still holds for them
        (their handles resolve False), so their text is not extracted after all."""
        self._book.discard(keys)

    async def journal_backlog(self) -> int:
        """Journal and index every stored message the journal cursor has not passed yet;
        return how many (without starting the worker)."""
        return await self._journaler.backlog()

    # --- submitting ---------------------------------------------------------------------

    async def submit(self, item: IngestItem) -> IngestHandle:
        """Store one live message and queue its job; overflow drops the oldest live job.

        Returns once the message and its job are committed. Submits that arrive while a
        write is under way share the next transaction (group commit)."""
        if self.closing:
            raise QueueClosedError("the ingest queue is shutting down")
        book = self._book
        item = item.validated()
        key = item.key
        if key in book.pending or key in book.submitting:
            return IngestHandle(key, book.future_for(key), stored=False)
        loop = asyncio.get_running_loop()
        if not is_meaningful(item.content):
            return IngestHandle(key, resolved(loop, False), stored=False)
        future: asyncio.Future[bool] = loop.create_future()
        book.submitting[key] = future
        written: asyncio.Future[bool] = loop.create_future()
        self._live_buffer.append((item, written))
        if self._live_writer is None or self._live_writer.done():
            self._live_writer = asyncio.create_task(self._write_live())
        return IngestHandle(key, future, stored=await written)

    async def _write_live(self) -> None:
        """Commit buffered live submits, a transaction at a time, until none is left."""
        while self._live_buffer:
            batch, self._live_buffer = self._live_buffer, []
            try:  # what memory may not keep is refused for the batch at once, as in bulk
                refused = await self.admission.judge([i for i, _ in batch])
                batch = self._book.refuse(batch, refused) if refused else batch
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
        """A bulk import is under way: the journal writes in full steps, whatever waits is
        written when it ends, and guilds' change notices wait for it (``ChangeNotices``)."""
        self.notices.imports += 1
        try:
            yield
        finally:
            self._journaler.wake()
            self.notices.import_ended()

    async def submit_many(self, items: Sequence[IngestItem]) -> BulkOutcome:
        """Store a batch (bulk import): waits for room in the queue instead of dropping.

        Bulk submits get counts, not handles: a bulk job is never dropped. A batch larger
        than the room bulk submits have is stored in parts, so the bound always holds.
        """
        if not self._worker.running:
            raise QueueClosedError("the ingest queue is not running")
        items = [item.validated() for item in items]
        total = BulkOutcome()
        room = self._book.step_jobs
        for start in range(0, len(items), room):
            part = await self._submit_bulk(items[start : start + room])
            total.new += part.new
            total.stored_before += part.stored_before
            total.pending += part.pending
            total.empty += part.empty
            for reason, count in part.refused.items():
                total.refused[reason] = total.refused.get(reason, 0) + count
        return total

    async def _submit_bulk(self, items: Sequence[IngestItem]) -> BulkOutcome:
        # Sorted before waiting for room, so the write starts as soon as there is room.
        book = self._book
        refused = await self.admission.judge(items)
        fresh: list[IngestItem] = []
        pending = empty = 0
        skipped: dict[str, int] = {}
        for item in items:
            key = item.key
            if key in book.pending or key in book.submitting:
                pending += 1
            elif key in refused:
                skipped[refused[key]] = skipped.get(refused[key], 0) + 1
            elif not is_meaningful(item.content):
                empty += 1
            else:
                book.submitting[key] = None  # a submit of the same id meanwhile shares it
                fresh.append(item)
        closed = closed_at_write(self.extractor, fresh)
        opening = 0 if closed == "all" else len(fresh) - len(closed)
        try:
            while book.pending and len(book.pending) + opening > book.bulk_room:
                self._raise_fault()  # no room will come: say why
                book.room.clear()
                book.wake.set()
                await book.room.wait()
            if self.closing:
                raise QueueClosedError("the ingest queue is shutting down")
        except BaseException as exc:
            self._book.abandon(fresh, exc)
            raise
        outcome = (
            await self._store_fresh(fresh, live=False, closed=closed) if fresh else BulkOutcome()
        )
        outcome.pending += pending
        outcome.empty += empty
        outcome.refused = skipped
        return outcome

    async def _store_fresh(
        self, fresh: list[IngestItem], *, live: bool, closed: Closed | None = None
    ) -> BulkOutcome:
        book = self._book
        if closed is None:
            closed = closed_at_write(self.extractor, fresh)
        every = closed == "all"
        try:
            outcome = await self.store.insert_messages(fresh, live=live, closed=closed)
        except BaseException as exc:
            # Interrupted (cancelled) after the write was handed to the database thread,
            # it may still have committed: the worker looks for such jobs in the database.
            book.claim_from_db = True
            book.wake.set()
            self._book.abandon(fresh, exc)
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
            future = book.submitting.pop(key)
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
            message = item.stored(next(rows))
            if every or key in closed:  # nothing to extract: done as it was written
                if future is not None:
                    future.set_result(True)
            else:
                opened = True
                job = Job(message.row_id, live, item.trace or {}, message)
                book.pending[key] = Entry(future, live, job, now)
            self._journaler.add(message)
        if opened:
            if live:
                self.dropped += await _drop_overflow(self.store, book)
            book.wake_worker()  # the worker before the journal: its write keeps the db busy
        self._journaler.wake()
        return result


async def _drop_overflow(store: Storage, book: JobBook) -> int:
    """Live overflow: the oldest live jobs beyond the bound are dropped (their messages stay,
    their job rows say why); return how many."""
    victims = book.drop_oldest_live(len(book.pending) - book.max_queue)
    if not victims:
        return 0
    log.warning("ingest queue full: dropped %d oldest job(s)", len(victims))
    book.dropping.update(victims)
    try:
        await store.drop_jobs(victims, DROP_REASON)
    finally:
        book.dropping.difference_update(victims)
    return len(victims)
