"""The journal service: daily-log sink of the ingest queue and the MEMORY.md refresher."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from pathlib import Path

from memory.errors import disk_full, is_disk_full, store_unreachable
from memory.models import StoredMessage
from memory.storage.protocol import Storage
from memory_journals.daily import DailyLogWriter, format_line
from memory_journals.files import SNAPSHOT_NAME, guild_dir, remove_stale_temps, write_atomic
from memory_journals.repair import MissingLines
from memory_journals.snapshot import GuildView, render_index, render_snapshot

STALE_TEMP_SECONDS = 3600.0  # a journal write takes milliseconds
SNAPSHOT_FACTS = 2000  # facts a MEMORY.md lists at most: the most recently updated

log = logging.getLogger(__name__)


class Journals:
    """Writes daily logs as the queue asks and keeps each guild's MEMORY.md fresh.

    Rewrites of a guild's daily logs hold its journals in the store first
    (``Storage.journal_guilds``: processes sharing a store take turns), then this process's
    own lock.

    A change marks its guild dirty; the snapshot is rewritten ``debounce`` seconds later
    (changes in between share that rewrite), and every guild is rewritten every
    ``refresh_interval`` seconds.
    """

    def __init__(
        self,
        root: Path,
        store: Storage,
        *,
        debounce: float = 1.0,
        refresh_interval: float = 300.0,
    ) -> None:
        self.root = root
        self.store = store
        self.debounce = debounce
        self.refresh_interval = refresh_interval
        self.daily = DailyLogWriter(root)
        self._dirty: set[str] = set()
        self._flush_task: asyncio.Task[None] | None = None
        self._periodic_task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        # Appends and rewrites of daily logs take turns: a line appended while a file is
        # being rewritten would be lost with the file it went to.
        self._daily_lock = asyncio.Lock()
        # Message row id -> what to write instead of its line (None: nothing), for messages
        # deleted or edited while the queue may still hold a copy to journal.
        self._overrides: dict[int, StoredMessage | None] = {}

    async def start(self) -> None:
        # Other processes sharing the store may be writing here: only what is long dead.
        older = STALE_TEMP_SECONDS if self.store.shared else 0.0
        await asyncio.to_thread(remove_stale_temps, self.root, older_than=older)
        self._periodic_task = asyncio.create_task(self._periodic(), name="memorybot-journals")

    async def close(self) -> None:
        """Stop the timers and write what is still dirty."""
        for task in (self._periodic_task, self._flush_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._periodic_task = self._flush_task = None
        await self.flush()

    async def __aenter__(self) -> Journals:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- JournalSink --------------------------------------------------------------------

    async def append(self, messages: Sequence[StoredMessage], *, recheck: bool = False) -> None:
        # Appending a few hundred short lines takes a few ms: done on the loop's own thread,
        # since a worker thread would only fight it and the database thread for the GIL.
        async with self._daily_lock:
            written = self._overridden(messages) if self._overrides else messages
            try:
                self.daily.append(written, recheck=recheck)
            except OSError as exc:
                if is_disk_full(exc):
                    raise disk_full(f"the journals under {self.root}") from exc
                raise
            # Written: overrides they pass are done with (the queue journals in row order,
            # never a row below one it has journaled; a failed step is written again).
            top = max((m.row_id for m in messages), default=0)
            if self._overrides:
                self._overrides = {row: m for row, m in self._overrides.items() if row > top}

    def _overridden(self, messages: Sequence[StoredMessage]) -> list[StoredMessage]:
        """``messages`` as forgetting left them."""
        out: list[StoredMessage] = []
        for message in messages:
            if message.row_id not in self._overrides:
                out.append(message)
            elif (replacement := self._overrides[message.row_id]) is not None:
                out.append(replacement)
        return out

    async def write_missing(self, guild_id: str | None = None) -> int:
        """Append the daily-log lines the logs lack, compared with every stored message (of
        ``guild_id``, else of every guild); return how many."""
        guilds = [guild_id] if guild_id is not None else await self.store.guild_ids()
        async with self.store.journal_guilds(guilds), self._daily_lock:
            try:
                return await MissingLines(self.store, self.daily).write(guild_id)
            except OSError as exc:
                if is_disk_full(exc):
                    raise disk_full(f"the journals under {self.root}") from exc
                raise

    def guild_changed(self, guild_id: str) -> None:
        self._dirty.add(guild_id)
        if self._flush_task is None or self._flush_task.done():
            self._flush_task = asyncio.create_task(self._flush_later())

    # --- forgetting ---------------------------------------------------------------------

    async def forget_lines(
        self, guild_id: str, messages: Sequence[StoredMessage], *, author_id: str | None = None
    ) -> int:
        """Take the daily-log lines of ``messages`` (just deleted from the store) out of the
        guild's logs, and with ``author_id`` every line by that member whose message is no
        longer stored (lines an earlier, interrupted forget left); then refresh MEMORY.md.

        Lines carry no message id: a message's line is found by writing it again from the
        stored row. A copy the queue has yet to journal is never written. Returns how many
        lines went."""
        mine = [m for m in messages if m.guild_id == guild_id]
        for message in mine:
            self._overrides[message.row_id] = None
        async with self.store.journal_guilds([guild_id]), self._daily_lock:
            keep: set[str] = set()
            if author_id is not None:  # under the lock: no line of a newer message is out
                stored = await self.store.messages_by_author(guild_id, author_id)
                keep = {format_line(m) for m in stored}
            removed = await asyncio.to_thread(
                self.daily.rewrite, guild_id, [(m, None) for m in mine],
                author_id=author_id, keep=keep,
            )  # fmt: skip
        if removed:
            log.info("removed %d daily-log line(s) of guild %s", removed, guild_id)
        await self._refresh_journaled(guild_id)
        return removed

    async def rewrite_line(
        self, guild_id: str, before: StoredMessage, after: StoredMessage
    ) -> bool:
        """An edited message: its daily-log line says ``after``'s text from now on, in place
        (a copy of ``before`` the queue has yet to journal is written as ``after``); then
        refresh MEMORY.md. False when the log had no line of ``before``."""
        if before.guild_id != guild_id or after.row_id != before.row_id:
            return False
        self._overrides[before.row_id] = after
        async with self.store.journal_guilds([guild_id]), self._daily_lock:
            changed = await asyncio.to_thread(self.daily.rewrite, guild_id, [(before, after)])
        await self._refresh_journaled(guild_id)
        return bool(changed)

    async def _refresh_journaled(self, guild_id: str) -> None:
        """Refresh the guild's MEMORY.md if it has journals (no folder for a stranger's id)."""
        if guild_dir(self.root, guild_id).is_dir():
            self._dirty.discard(guild_id)
            await self.refresh(guild_id)

    # --- snapshots ----------------------------------------------------------------------

    def snapshot_path(self, guild_id: str) -> Path:
        return guild_dir(self.root, guild_id) / SNAPSHOT_NAME

    async def flush(self) -> None:
        """Rewrite the snapshots of every dirty guild now."""
        dirty, self._dirty = self._dirty, set()
        todo = sorted(dirty)
        try:
            while todo:
                await self.refresh(todo[0], index=False)
                todo.pop(0)
            if dirty:
                await self.refresh_index()
        except BaseException:
            self._dirty.update(todo or dirty)  # interrupted: what is left stays dirty
            raise

    async def refresh(self, guild_id: str, *, index: bool = True) -> str:
        """Rewrite one guild's MEMORY.md (and the root index); return its markdown."""
        async with self._lock:
            view = GuildView(
                stats=await self.store.stats(guild_id),
                facts=await self.store.snapshot_facts(guild_id, SNAPSHOT_FACTS),
                names=await self.store.member_names(guild_id),
                profiles={p.subject: p for p in await self.store.member_profiles(guild_id)},
            )
            path = self.snapshot_path(guild_id)
            text = await asyncio.to_thread(render_snapshot, view, path.parent)
            await self._write(path, text)
        if index:
            await self.refresh_index()
        return text

    async def refresh_index(self) -> str:
        async with self._lock:
            guilds = [
                (await self.store.stats(g), guild_dir(self.root, g).name)
                for g in await self.store.guild_ids()
            ]
            text = render_index(guilds)
            await self._write(self.root / SNAPSHOT_NAME, text)
        return text

    async def _write(self, path: Path, text: str) -> None:
        try:
            await asyncio.to_thread(write_atomic, path, text)
        except OSError as exc:
            if is_disk_full(exc):
                raise disk_full(f"the journals under {self.root}") from exc
            raise

    async def refresh_all(self) -> list[str]:
        """Rewrite every guild's snapshot and the index; return the guild ids."""
        guild_ids = await self.store.guild_ids()
        self._dirty.difference_update(guild_ids)
        for guild_id in guild_ids:
            await self.refresh(guild_id, index=False)
        await self.refresh_index()
        return guild_ids

    async def _flush_later(self) -> None:
        # Changes that arrive during a rewrite get their own rewrite, a debounce later.
        while self._dirty:
            await asyncio.sleep(self.debounce)
            try:
                await self.flush()
            except Exception as exc:
                if store_unreachable(exc):
                    log.warning("MEMORY.md refresh failed: cannot reach the database (%s)", exc)
                elif is_disk_full(exc):  # a snapshot: written again by the next change
                    log.warning("MEMORY.md refresh failed: %s", exc)
                else:
                    log.exception("MEMORY.md refresh failed")
                return

    async def _periodic(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_interval)
            try:
                await self.refresh_all()
            except Exception as exc:
                if store_unreachable(exc):
                    log.warning("periodic MEMORY.md refresh failed: cannot reach the database")
                elif is_disk_full(exc):
                    log.warning("periodic MEMORY.md refresh failed: %s", exc)
                else:
                    log.exception("periodic MEMORY.md refresh failed")
