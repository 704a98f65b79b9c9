"""Schema migrations of the PostgreSQL backend: each applied once, in order, in a
transaction of its own, recorded in ``schema_migrations``. An advisory lock makes processes
that start together take turns, so each migration runs once however many there are."""

from __future__ import annotations

import logging
from typing import Any

from memory.storage.postgres.schema import MIGRATIONS

log = logging.getLogger(__name__)

LOCK = 0x6D656D6F  # pg_advisory_xact_lock key of migrations ("memo")

CREATE_RECORD = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    name       text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


async def migrate(pool: Any) -> list[str]:
    """Apply the migrations ``pool``'s database lacks; the names of those applied now."""
    applied: list[str] = []
    async with pool.acquire() as conn:
        for name, steps in MIGRATIONS:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK)
                await conn.execute(CREATE_RECORD)
                done = await conn.fetchval("SELECT 1 FROM schema_migrations WHERE name = $1", name)
                if done:
                    continue
                log.info("applying migration %s", name)
                for step in steps:
                    await conn.execute(step)
                await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
                applied.append(name)
    return applied
