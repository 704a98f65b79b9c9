"""``PostgresStore``: the PostgreSQL backend's parts over one connection pool."""

from __future__ import annotations

from typing import Any, Self

from memory.storage.postgres.connection import open_pool
from memory.storage.postgres.events import PgEvents
from memory.storage.postgres.members import PgMembers
from memory.storage.postgres.messages import PgMessages
from memory.storage.postgres.migrations import migrate
from memory.storage.postgres.vectors import PgVectors

POOL_SIZE = 10


class PostgresStore(PgMembers, PgMessages, PgEvents, PgVectors):
    """The parts of ``Storage`` built so far (``memory.storage.postgres``), over ``pool``."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.vector_version = 0
        self.members_version = 0
        self.index_version = 0

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> Self:
        """Connect to ``url`` and bring its schema up to date."""
        pool = await open_pool(url, pool_size)
        try:
            await migrate(pool)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    async def close(self) -> None:
        await self.pool.close()

    async def versions(self) -> dict[str, str]:
        server = await self.pool.fetchval("SHOW server_version")
        vector = await self.pool.fetchval(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        )
        return {"postgresql": str(server), "pgvector": str(vector or "not installed")}
