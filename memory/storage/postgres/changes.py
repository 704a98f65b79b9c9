"""Commits of other processes, noticed: every change to the tables search and caches read is
announced on the ``memorybot_changes`` channel (statement triggers, ``schema``), and a
connection of this store's own listens. Each notice moves ``data_version`` (all three
counters, as SQLite's ``PRAGMA data_version`` does), so a cache that compares it is renewed.

Notices arrive a moment after the commit (the time a local notification takes: well under a
millisecond on one machine), so an answer cached in this process may be served in that
moment, never after."""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

CHANNEL = "memorybot_changes"


class Changes:
    """Whether a change was announced since the last ``seen()``."""

    def __init__(self) -> None:
        self._conn: Any = None
        self._pending = False

    async def listen(self, conn: Any) -> None:
        """Listen on ``conn``: a connection outside the pool (a listener keeps its
        connection, and the pool keeps all of its size) that lives as long as this store
        — or on the one that replaced it, once it was lost: what was announced meanwhile
        went unheard, so everything counts as changed."""
        if conn is self._conn:
            return
        if self._conn is not None:
            self._pending = True
        self._conn = conn
        await conn.add_listener(CHANNEL, self._heard)

    def _heard(self, _conn: Any, _pid: int, _channel: str, table: str) -> None:
        self._pending = True

    def seen(self) -> bool:
        """Whether a change was announced since this was last asked."""
        pending, self._pending = self._pending, False
        return pending

    async def close(self) -> None:
        """Stop listening (the connection is its owner's to close)."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            if not conn.is_closed():
                await conn.remove_listener(CHANNEL, self._heard)
