"""Stopping a background task (the queue's worker, the journaler, the fact embedder, the
audit log's pruner), and sharing one run of a coroutine among concurrent callers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (None: nothing to stop) and wait until it has ended; its cancellation
    is not raised, any other error it ended with is."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


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
