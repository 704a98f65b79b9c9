"""This process's own session with PostgreSQL: one connection outside the pool that lives as
long as the store. Its server process id names the process in the jobs it claims (a claim
holds while that session lives and its heartbeat renews it: a process killed, even by
``kill -9``, loses its claims as its connection closes, and one cut off without a word
loses them when they expire), and it holds the advisory locks of the guilds whose journals
this process is writing (session locks: they span the file writes, never a transaction)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from memory.storage.postgres.connection import connect
from memory.tasks import stop_task

log = logging.getLogger(__name__)

CLAIM_SECONDS = 60.0  # a claim not renewed for this long is anyone's
JOURNAL_LOCKS = 0x6A726E6C  # first key of the journal locks ("jrnl"); the second: the guild's


def journal_lock(function: str) -> str:
    """The statement applying an advisory-lock ``function`` to guild ``$1``'s journals."""
    return f"SELECT {function}({JOURNAL_LOCKS}, hashtext($1))"


# A claim is held while its session lives and its heartbeat renews it.
CLAIM_HELD = (
    "(j.claimed_until > now() AND EXISTS (SELECT 1 FROM pg_stat_activity a "
    "WHERE a.pid = j.claimed_by))"
)
# Jobs being closed meanwhile are locked by their transaction: passed over, not waited for
# (waiting could deadlock with it; they are done with their claim anyway).
RENEW = """
UPDATE ingest_jobs SET claimed_until = now() + make_interval(secs => $2)
WHERE message_row IN (SELECT message_row FROM ingest_jobs
                      WHERE claimed_by = $1 AND status = 'pending' FOR UPDATE SKIP LOCKED)
"""


class Session:
    """The connection, the id it gives this process, and the journal locks it holds. A lost
    connection (the server restarted, the network cut) is made again at its next use: a new
    session, with a new id for the claims to come (the old claims lapse with the old
    session) and no journal lock held; ``on_connect`` hears of each new connection."""

    def __init__(self, url: str, conn: Any, claim_seconds: float = CLAIM_SECONDS) -> None:
        self.url = url
        self.conn = conn
        self.pid: int = conn.get_server_pid()
        self.claim_seconds = claim_seconds
        self.on_connect: Callable[[Any], Awaitable[None]] | None = None
        self._use = asyncio.Lock()  # one statement at a time on the connection
        self._journaling: set[str] = set()  # guilds whose journal lock it holds
        self._heartbeat: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, claim_seconds: float = CLAIM_SECONDS) -> Session:
        session = cls(url, await connect(url), claim_seconds)
        session._heartbeat = asyncio.create_task(session._renew(), name="memorybot-pg-claims")
        return session

    async def close(self) -> None:
        await stop_task(self._heartbeat)
        self._heartbeat = None
        await self.conn.close()  # its claims and locks end with it

    async def current_pid(self) -> int:
        """This process's id for the claims it makes or closes now: the connection is made
        again first if it was lost, so no job is claimed in a dead session's name."""
        async with self._use:
            await self._live()
            return self.pid

    async def _live(self) -> Any:
        """The connection, made again if it was lost (under ``_use``)."""
        if self.conn.is_closed():
            self._journaling.clear()  # they ended with the old session
            self.conn = await connect(self.url)
            self.pid = self.conn.get_server_pid()
            log.info("connected to PostgreSQL again (a new session: %d)", self.pid)
            if self.on_connect is not None:
                await self.on_connect(self.conn)
        return self.conn

    async def _renew(self) -> None:
        """Renew this process's claims a few times per claim's life."""
        while True:
            await asyncio.sleep(self.claim_seconds / 4)
            try:
                async with self._use:
                    await (await self._live()).execute(RENEW, self.pid, self.claim_seconds)
            except Exception as exc:  # the next beat tries again; claims may lapse meanwhile
                log.warning("cannot renew this process's job claims: %s", exc)

    async def journal_turn(self, guild_ids: Collection[str]) -> list[str]:
        """Release the journal locks of the last turn, then take those of ``guild_ids`` that
        no other process holds; return the guilds this process may journal now."""
        async with self._use:
            conn = await self._live()
            await self._release(conn)
            for guild_id in sorted(set(guild_ids)):
                got = await conn.fetchval(journal_lock("pg_try_advisory_lock"), guild_id)
                if got:
                    self._journaling.add(guild_id)
            return sorted(self._journaling)

    async def end_journal_turn(self) -> None:
        async with self._use:
            await self._release(await self._live())

    async def _release(self, conn: Any) -> None:
        for guild_id in sorted(self._journaling):
            await conn.execute(journal_lock("pg_advisory_unlock"), guild_id)
        self._journaling.clear()
