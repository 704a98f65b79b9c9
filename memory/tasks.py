"""Stopping a background task (the queue's worker, the journaler, the fact embedder, the
audit log's pruner), running one periodically (the pruner, the profile pass), and sharing
one run of a coroutine among concurrent callers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (None: nothing to stop) and wait until it has ended; its cancellation
    is not raised, any other error it ended with is."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


class Periodic:
    """Runs ``run`` ``first_delay`` seconds after ``start``, then every ``every`` seconds
    until ``close`` (``every`` 0 or less: never started); a run that fails is one warning
    line, ``failing`` first ("pruning the audit log failed: ..."), and the next one comes."""

    def __init__(
        self, run: Callable[[], Awaitable[object]], every: float, *, name: str, failing: str,
        first_delay: float = 0.0,
    ) -> None:  # fmt: skip
        self.run = run
        self.every = every
        self.first_delay = first_delay
        self.name = name  # the task's
        self.failing = failing
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.every > 0 and self._task is None:
            self._task = asyncio.create_task(self._loop(), name=self.name)

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def _loop(self) -> None:
        if self.first_delay > 0:
            await asyncio.sleep(self.first_delay)
        while True:
            try:
                await self.run()
            except Exception as exc:  # a busy or full disk: try again next time
                log.warning("%s: %s", self.failing, " ".join(str(exc).split()))
            await asyncio.sleep(self.every)


class SharedRuns(Generic[T]):
    """Concurrent callers with one key share one run: the first starts ``start()``, the
    ones that come while it runs wait for its result (or its error) instead of running it
    again. (A cold guild's first queries, fifty at once under load, read its signs or check
    its missing vectors once, not fifty times over.)"""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Future[T]] = {}

    async def run(self, key: Hashable, start: Callable[[], Awaitable[T]]) -> T:
        running = self._running.get(key)
        if running is None:
            running = self._running[key] = asyncio.ensure_future(start())
            running.add_done_callback(lambda _: self._running.pop(key, None))
        return await asyncio.shield(running)  # one caller cancelled: the run goes on
