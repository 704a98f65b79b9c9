"""Answers of search and slice, remembered until the data under them changes.

Keyed by the endpoint, its validated parameters and the store's ``data_version``: any new
fact, vector, member or searchable message makes every older entry unreachable (they age out
of the LRU), so a cached answer is always the one a fresh query would give. Concurrent misses
of one key share a single computation.

At most ``COMPUTING_AT_ONCE`` answers are computed at once in a process; other misses wait
their turn in arrival order. Left to run all together, fifty concurrent requests share the
event loop and the database thread, so each takes as long as all of them, and a slice (the
dearest) as long as fifty slices: p99 240–350 ms on the API bench with two workers. Queued,
each waits for the ones before it, whatever they cost: p99 190–220 ms at the same
throughput (bench/README.md). A few at once, not one: one's SQL runs beside another's
Python (two and four measure alike; one loses throughput).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable

COMPUTING_AT_ONCE = 4


class ResponseCache:
    """An LRU of encoded JSON answers (``size`` 0: off), computed ``COMPUTING_AT_ONCE`` at a
    time."""

    def __init__(self, size: int, computing: int = COMPUTING_AT_ONCE) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[bytes]] = {}
        self._computing = asyncio.Semaphore(computing)  # fair: waiters go in arrival order
        self.hits = 0
        self.misses = 0

    async def get(
        self, key: Hashable, compute: Callable[[], Awaitable[bytes]]
    ) -> tuple[bytes, bool]:
        """The answer for ``key`` and whether it came from the cache."""
        if self.size <= 0:
            async with self._computing:
                return await compute(), False
        body = self._entries.get(key)
        if body is not None:
            self._entries.move_to_end(key)
            self.hits += 1
            return body, True
        pending = self._pending.get(key)
        if pending is not None:  # someone is computing it right now
            self.hits += 1
            return await asyncio.shield(pending), True
        self.misses += 1
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            async with self._computing:
                body = await compute()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            del self._pending[key]
        future.set_result(body)
        self._entries[key] = body
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return body, False
