"""Fact vectors and the embedding cache (the SQL is ``vectors_sql``'s)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from memory.storage import vectors_sql as vsql
from memory.storage.base import Database


class Vectors(Database):
    """The per-model sqlite-vec tables of fact vectors, and ``embedding_cache``."""

    async def cached_vectors(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        return await self._call(vsql.cached_vectors, model, list(hashes))

    async def cache_vectors(self, model: str, rows: Sequence[tuple[str, bytes]]) -> None:
        await self._call(vsql.cache_vectors, model, list(rows))

    async def facts_missing_vectors(
        self, guild_id: str, model: str, limit: int
    ) -> list[tuple[int, str]]:
        """Active facts of the guild without a ``model`` vector: ``(fact_id, text)``."""
        return await self._call(vsql.facts_missing_vectors, guild_id, model, limit)

    async def count_missing_vectors(self, guild_id: str, model: str) -> int:
        return await self._call(vsql.count_missing, guild_id, model)

    async def store_fact_vectors(
        self, guild_id: str, model: str, rows: Sequence[tuple[int, int, bytes]]
    ) -> int:
        stored = await self._call(vsql.store_fact_vectors, guild_id, model, list(rows))
        self.vector_version += 1
        return stored

    async def fact_vectors(self, guild_id: str, model: str) -> list[tuple[int, bytes]]:
        """``(fact_id, float32 blob)`` of the guild's active facts with a ``model`` vector."""
        return await self._call(vsql.fact_vectors, guild_id, model)

    async def missing_vector_ids(self, guild_id: str, model: str, limit: int) -> list[int]:
        """Up to ``limit`` ids of the guild's active facts without a ``model`` vector."""
        return await self._call(vsql.missing_fact_ids, guild_id, model, limit)

    async def nearest_facts(
        self,
        guild_id: str,
        model: str,
        query: bytes,
        k: int,
        bound: int | None = None,
        *,
        exact: bool = False,
    ) -> vsql.Nearest:
        """The guild's ``k`` active facts nearest to ``query`` by their ``model`` vectors
        (see ``vectors_sql.nearest_facts``)."""
        return await self._call(
            functools.partial(vsql.nearest_facts, exact=exact), guild_id, model, query, k, bound
        )
