"""Vectors in PostgreSQL: so far the embedding cache (``embedding_cache``: float32 vectors of
texts by their SHA-256, per model)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.storage.vectors_sql import float32_dims

UPSERT_CACHE = """
INSERT INTO embedding_cache (sha256, model, dims, embedding)
SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::bytea[])
ON CONFLICT (sha256, model) DO UPDATE SET dims = excluded.dims, embedding = excluded.embedding
"""


class PgVectors:
    """The embedding cache."""

    pool: Any  # asyncpg's Pool

    async def cached_vectors(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """``{sha256: blob}`` of the ``hashes`` cached for ``model`` (missing ones left out)."""
        rows = await self.pool.fetch(
            "SELECT sha256, embedding FROM embedding_cache "
            "WHERE model = $1 AND sha256 = ANY($2::text[])",
            model, list(dict.fromkeys(hashes)),
        )  # fmt: skip
        return {digest: bytes(blob) for digest, blob in rows}

    async def cache_vectors(self, model: str, rows: Sequence[tuple[str, bytes]]) -> None:
        """Remember ``(sha256, blob)`` pairs for ``model`` (replacing any cached before; the
        last of a digest given twice wins)."""
        latest = dict(rows)
        if latest:
            dims = [float32_dims(blob) for blob in latest.values()]
            await self.pool.execute(
                UPSERT_CACHE, list(latest), [model] * len(latest), dims, list(latest.values())
            )
