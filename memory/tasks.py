"""Stopping a background task (the queue's worker, the journaler, the fact embedder, the
audit log's pruner)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (None: nothing to stop) and wait until it has ended; its cancellation
    is not raised, any other error it ended with is."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
