"""``PostgresStore``: the PostgreSQL backend's parts over one connection pool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from memory.models import GuildStats
from memory.storage.placing import Lifecycle
from memory.storage.postgres.changes import Changes
from memory.storage.postgres.connection import open_pool
from memory.storage.postgres.events import PgEvents
from memory.storage.postgres.fact_vectors import PgFactVectors
from memory.storage.postgres.facts import PgFacts
from memory.storage.postgres.forget import PgForget
from memory.storage.postgres.members import PgMembers
from memory.storage.postgres.messages import PgMessages
from memory.storage.postgres.migrations import migrate
from memory.storage.postgres.placed import PgPlaced
from memory.storage.postgres.profiles import PgProfiles
from memory.storage.postgres.queue import PgQueue
from memory.storage.postgres.session import CLAIM_SECONDS, Session
from memory.storage.postgres.vectors import PgVectors

POOL_SIZE = 10


class PostgresStore(
    PgMembers,
    PgMessages,
    PgEvents,
    PgVectors,
    PgFactVectors,
    PgFacts,
    PgPlaced,
    PgProfiles,
    PgForget,
    PgQueue,
):
    """``Storage`` in PostgreSQL (``memory.storage.postgres``), over one pool."""

    def __init__(self, pool: Any, session: Session, lifecycle: Lifecycle | None = None) -> None:
        self.pool = pool
        self.session = session
        self.lifecycle = lifecycle or Lifecycle()
        self.vector_version = 0
        self.members_version = 0
        self.index_version = 0
        self.changes = Changes()

    @classmethod
    async def open(
        cls, url: str, *, pool_size: int = POOL_SIZE, lifecycle: Lifecycle | None = None,
        claim_seconds: float = CLAIM_SECONDS,
    ) -> Self:  # fmt: skip
        """Connect to ``url`` and bring its schema up to date; ``lifecycle``: how facts live
        (none: only exact repeats merge); ``claim_seconds``: how long a job this process
        claimed stays its own without a heartbeat (``session``)."""
        pool = await open_pool(url, pool_size)
        try:
            await migrate(pool)
            session = await Session.open(url, claim_seconds)
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, session, lifecycle)
        session.on_connect = store.changes.listen
        await store.changes.listen(session.conn)  # other processes share the database
        return store

    async def close(self) -> None:
        await self.changes.close()
        await self.session.close()
        await self.pool.close()

    def watch_outside_commits(self) -> None:
        """Always on: other processes' commits are heard from the start (``changes``)."""

    @property
    def data_version(self) -> tuple[int, int, int]:
        """Moves whenever anything search or a slice reads changes, in this process (each
        write bumps its counter) or another (a notice moves all three)."""
        if self.changes.seen():
            self.vector_version += 1
            self.members_version += 1
            self.index_version += 1
        return (self.vector_version, self.members_version, self.index_version)

    async def versions(self) -> dict[str, str]:
        server = await self.pool.fetchval("SHOW server_version")
        vector = await self.pool.fetchval(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        )
        return {"postgresql": str(server), "pgvector": str(vector or "not installed")}

    async def stats(self, guild_id: str) -> GuildStats:
        stats = GuildStats(guild_id=guild_id, name=await self.guild_name(guild_id))
        row = await self.pool.fetchrow(
            "SELECT (SELECT count(*) FROM messages WHERE guild_id = $1), "
            "       (SELECT count(*) FROM memory_facts WHERE guild_id = $1), "
            "       (SELECT count(*) FROM memory_facts WHERE guild_id = $1 AND is_active)",
            guild_id,
        )
        stats.messages, stats.facts, stats.active_facts = int(row[0]), int(row[1]), int(row[2])
        for status, count in await self.pool.fetch(
            "SELECT status, count(*) FROM ingest_jobs WHERE guild_id = $1 "
            "AND status IN ('pending', 'dropped', 'failed') GROUP BY status",
            guild_id,
        ):
            setattr(stats, f"{status}_jobs", int(count))
        return stats


if TYPE_CHECKING:
    from memory.storage.protocol import Storage

    _IMPLEMENTS: type[Storage] = PostgresStore  # mypy checks that PostgresStore is a Storage
