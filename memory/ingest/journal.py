"""The journal follower: one task that writes every stored message's daily-log line and
makes it searchable (full text), in row order, beside the extraction worker.

A cursor in the database (``journal_cursor``) says how far it got, so a crash between
writing lines and moving the cursor is caught on the next start (the daily-log writer skips
lines already there). During a bulk import it writes in steps of up to ``JOURNAL_BATCH``
messages, far fewer index segments and transactions than one step per submitted batch.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from memory.ingest.jobs import linger
from memory.models import StoredMessage
from memory.storage.protocol import Storage
from memory.tasks import stop_task

log = logging.getLogger(__name__)

JOURNAL_BATCH = 2000
JOURNAL_LINGER = 0.02


class JournalSink(Protocol):
    """Where daily-log lines go, and who hears of guilds whose memory changed."""

    async def append(self, messages: Sequence[StoredMessage]) -> None: ...

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

    @property
    def waiting(self) -> int:
        return len(self._queue)

    async def start(self) -> None:
        self._cursor = await self.store.journal_cursor()
        self._task = asyncio.create_task(self._run(), name="memorybot-journaler")
        self._wake.set()

    async def stop(self) -> None:
        await stop_task(self._task)
        self._task = None

    def add(self, message: StoredMessage) -> None:
        """A message was stored (by this process, in row order): journal it soon."""
        self._queue.append(message)

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
                    if not await self._step():
                        break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("journal step failed; retrying in 1 s")
                await asyncio.sleep(1)
                self._wake.set()
                continue
            if not holding and not self._wake.is_set():
                self._idle.set()

    async def _step(self) -> int:
        """Daily-log lines (when journals are on) and full-text indexing of the next messages."""
        messages = await self._batch()
        if not messages:
            return 0
        if self.sink is not None:
            await self.sink.append(messages)
        self._cursor = messages[-1].row_id
        await self.store.mark_journaled_through(self._cursor)
        if self.sink is not None:
            for guild_id in {m.guild_id for m in messages}:
                self._changed(guild_id)
        return len(messages)

    async def _batch(self) -> list[StoredMessage]:
        """The next stored messages past the cursor, in row order."""
        if self._from_db:
            messages = await self.store.unjournaled_messages(JOURNAL_BATCH)
            self._from_db = len(messages) == JOURNAL_BATCH
        else:
            count = min(JOURNAL_BATCH, len(self._queue))
            messages = [self._queue.popleft() for _ in range(count)]
        return [m for m in messages if m.row_id > self._cursor]
