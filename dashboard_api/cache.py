"""Answers of search and slice, remembered until the data under them changes.

Keyed by the endpoint, its validated parameters and the store's ``data_version``: any new
fact, vector, member or searchable message makes every older entry unreachable (they age out
of the LRU), so a cached answer is always the one a fresh query would give. Concurrent misses
of one key share a single computation.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable


class ResponseCache:
    """An LRU of encoded JSON answers (``size`` 0: off)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[bytes]] = {}
        self.hits = 0
        self.misses = 0

    async def get(
        self, key: Hashable, compute: Callable[[], Awaitable[bytes]]
    ) -> tuple[bytes, bool]:
        """The answer for ``key`` and whether it came from the cache."""
        if self.size <= 0:
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
