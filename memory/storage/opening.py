"""Which store the settings name: PostgreSQL when ``MEMORYBOT_DATABASE_URL`` is set, else
the data directory's SQLite file."""

from __future__ import annotations

from memory.settings import Settings
from memory.storage.postgres.connection import shown
from memory.storage.protocol import Storage
from memory.storage.store import Store


async def open_storage(settings: Settings) -> Storage:
    """Open (and bring up to date) the store the settings name."""
    url = settings.postgres_url
    if url is None:
        return await Store.open(settings.db_path)
    from memory.storage.postgres.store import PostgresStore  # asyncpg: only when used

    return await PostgresStore.open(url, pool_size=settings.database_pool_size)


def store_name(settings: Settings) -> str:
    """The store as logs and messages show it (a URL's password hidden)."""
    url = settings.postgres_url
    if url is None:
        return str(settings.db_path)
    return shown(url)
