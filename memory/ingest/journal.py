"""The journal follower: one task that writes every stored message's daily-log line and
makes it searchable (full text), in row order, beside the extraction worker.

A cursor in the database (``journal_cursor``) says how far it got, so a crash between
writing lines and moving the cursor is caught on the next start (the daily-log writer skips
lines already there). During a bulk import it writes in steps of up to ``JOURNAL_BATCH``
messages, far fewer index segments and transactions than one step per submitted batch.

A step that fails (a journal folder that cannot be written for a while, a full disk) moves
nothing: its messages, and every one after them, are read again from the database past the
cursor, and the writer first looks for their lines already written. A full disk, or a
failure that lasts ``JOURNAL_PATIENCE`` seconds, is a ``fault`` whoever waits is told of.

On a shared store (PostgreSQL, several processes) there is no cursor: the store hands out
the messages still without their lines, of the guilds no other process is journaling, and
holds those guilds until they are marked; every step reads from the store and looks at its
files again (another process may have written to them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from memory.errors import DiskFullError, JournalError, MemorybotError, store_unreachable
from memory.ingest.jobs import linger
from memory.models import StoredMessage
from memory.storage.protocol import Storage
from memory.tasks import stop_task

log = logging.getLogger(__name__)

JOURNAL_BATCH = 2000
JOURNAL_LINGER = 0.02
JOURNAL_PATIENCE = 60.0  # seconds a step may keep failing before waiters are told
MAX_RETRY = 10.0  # seconds between retries of a step that keeps failing


class JournalSink(Protocol):
    """Where daily-log lines go, and who hears of guilds whose memory changed."""

    async def append(self, messages: Sequence[StoredMessage], *, recheck: bool = False) -> None:
        """Write the messages' lines; ``recheck``: some may be written already (a step
        that failed part way), skip those."""

    def guild_changed(self, guild_id: str) -> None: ...


class JournalFollower:
    """Journals and indexes stored messages past the cursor, from memory when this process
    stored them, else from the database."""

    def __init__(
        self,
        store: Storage,
        sink: JournalSink | None,
        *,
        changed: Callable[[str], None],
        holding: Callable[[], bool],
        closing: Callable[[], bool],
    ) -> None:
        self.store = store
        self.sink = sink
        self._changed = changed  # a guild got lines (its MEMORY.md shows recent ones)
        self._holding = holding  # a bulk import is feeding: wait for a fuller step
        self._closing = closing
        self._queue: deque[StoredMessage] = deque()
        self._from_db = True
        self._cursor = 0
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._recheck = False  # a step failed: its lines may be written in part
        self._failing_since: float | None = None
        self.fault: MemorybotError | None = None

    @property
    def waiting(self) -> int:
        return len(self._queue)

    async def left_over(self) -> str:
        """ " and the latest messages' logs" when stored messages wait for their daily-log
        lines and full-text index (said after a drain that timed out), else "". A shared
        store is not asked, as its read would claim them."""
        behind = bool(self._queue)
        if not behind and not self.store.shared:
            with contextlib.suppress(Exception):  # unreachable: the next start finds them
                behind = bool(await self.store.unjournaled_messages(1))
        return " and the latest messages' logs" if behind else ""

    async def start(self) -> None:
        self._cursor = await self.store.journal_cursor()
        self._task = asyncio.create_task(self._run(), name="memorybot-journaler")
        self._wake.set()

    async def stop(self) -> None:
        await stop_task(self._task)
        self._task = None

    def add(self, message: StoredMessage) -> None:
        """A message was stored (by this process, in row order): journal it soon."""
        if self.store.shared:  # other processes store messages too: the store says which
            return
        self._queue.append(message)
        if self._from_db and len(self._queue) > 2 * JOURNAL_BATCH:
            self._queue.clear()  # stored, past the cursor: the database gives them back

    def wake(self) -> None:
        self._wake.set()

    async def join(self) -> None:
        """Wait until every message handed over so far is journaled."""
        self._idle.clear()
        self._wake.set()
        await self._idle.wait()

    async def backlog(self) -> int:
        """Journal and index every stored message the cursor has not passed yet; return how
        many (without the task running)."""
        if not self._cursor:
            self._cursor = await self.store.journal_cursor()
        written = 0
        while count := await self._step():
            written += count
        return written

    def _holds(self) -> bool:
        return not self._from_db and len(self._queue) < JOURNAL_BATCH and self._holding()

    async def _run(self) -> None:
        retry = 1.0
        while True:
            await self._wake.wait()
            self._wake.clear()
            holding = False
            try:
                while True:
                    holding = self._holds()
                    if holding:  # woken again when the next batch is stored, or at the end
                        break
                    await linger(JOURNAL_LINGER, len(self._queue), closing=self._closing())
                    more = await self._step()
                    retry, self._failing_since, self.fault = 1.0, None, None
                    if not more:
                        break
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed(exc, retry)
                await asyncio.sleep(retry)
                retry = min(retry * 2, MAX_RETRY)
                self._wake.set()
                continue
            if not holding and not self._wake.is_set():
                self._idle.set()

    def _failed(self, exc: Exception, retry: float) -> None:
        """A step failed: what it took is read again from the database, its files looked
        at again; a full disk, or a failure that lasts, wakes whoever waits."""
        self._from_db, self._recheck = True, True
        self._queue.clear()
        now = asyncio.get_running_loop().time()
        first = self._failing_since is None
        if self._failing_since is None:
            self._failing_since = now
        if store_unreachable(exc):
            if first:
                log.warning("cannot reach the database (%s); the daily logs wait", exc)
        elif isinstance(exc, OSError | DiskFullError):  # said in one line, not a trace
            if first:
                log.info("cannot write the daily logs (%s); retrying", exc)
        else:
            log.exception("journal step failed; retrying in %.0f s", retry)
        if isinstance(exc, DiskFullError):
            self.fault = exc
        elif now - self._failing_since >= JOURNAL_PATIENCE:
            self.fault = JournalError(
                f"cannot write the daily logs for {now - self._failing_since:.0f} s ({exc}); "
                "every message is stored: once that is fixed, run memorybot refresh-journals"
            )
        if self.fault is not None:
            self._idle.set()

    async def _step(self) -> int:
        """Daily-log lines (when journals are on) and full-text indexing of the next messages."""
        messages = await self._batch()
        if not messages:
            return 0
        if self.sink is not None:
            # A shared store's guild may have been journaled by another process since this
            # one last wrote its files: they are always looked at again.
            await self.sink.append(messages, recheck=self._recheck or self.store.shared)
        await self.store.mark_journaled(messages)
        self._cursor, self._recheck = messages[-1].row_id, False
        if self.sink is not None:
            for guild_id in {m.guild_id for m in messages}:
                self._changed(guild_id)
        return len(messages)

    async def _batch(self) -> list[StoredMessage]:
        """The next stored messages past the cursor, in row order."""
        if self._from_db:
            messages = await self.store.unjournaled_messages(JOURNAL_BATCH)
            self._from_db = self.store.shared or len(messages) == JOURNAL_BATCH
            if messages:  # what the queue holds up to there is read already
                while self._queue and self._queue[0].row_id <= messages[-1].row_id:
                    self._queue.popleft()
            return messages
        count = min(JOURNAL_BATCH, len(self._queue))
        messages = [self._queue.popleft() for _ in range(count)]
        return [m for m in messages if m.row_id > self._cursor]
