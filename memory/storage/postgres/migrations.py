"""Schema migrations of the PostgreSQL backend: each applied once, in order, in a
transaction of its own, recorded in ``schema_migrations``. An advisory lock makes processes
that start together take turns, so each migration runs once however many there are."""

from __future__ import annotations

import logging
from typing import Any

from memory.errors import StoreError
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
    """Apply the migrations ``pool``'s database lacks; the names of those applied now. The
    server's refusal is a ``StoreError`` saying what to do (the migration's transaction is
    rolled back: nothing of it stays)."""
    import asyncpg

    applied: list[str] = []
    async with pool.acquire() as conn:
        for name, steps in MIGRATIONS:
            try:
                if await _apply(conn, name, steps):
                    applied.append(name)
            except asyncpg.PostgresError as exc:
                raise StoreError(f"cannot update the PostgreSQL schema ({name}): {exc}"
                                 f"{_hint(exc)}") from exc  # fmt: skip
    return applied


async def _apply(conn: Any, name: str, steps: list[str]) -> bool:
    """Apply one migration unless it was; whether it was applied now."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK)
        await conn.execute(CREATE_RECORD)
        if await conn.fetchval("SELECT 1 FROM schema_migrations WHERE name = $1", name):
            return False
        log.info("applying migration %s", name)
        for step in steps:
            await conn.execute(step)
        await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
        return True


def _hint(exc: Exception) -> str:
    text = str(exc)
    if 'extension "vector"' in text:
        return (
            " — pgvector (0.8 or later) must be installed on the server, and a superuser must "
            "run CREATE EXTENSION vector in this database once"
        )
    if "permission denied" in text:
        return " — the database user needs the right to create tables in this database"
    return ""
