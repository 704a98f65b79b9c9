"""Fact vectors in PostgreSQL (pgvector): one table per embedding model (a vector column has
one width), made when the model's first vector is stored, listed in
``memory_vector_models``. Each has an HNSW index for cosine distance; a guild's k-NN filters
by guild with pgvector's iterative index scans (``relaxed_order``: the index is read on
until enough of the guild's vectors came), or scores every vector of the guild when asked
``exact``. A row goes with its fact (``ON DELETE CASCADE``); a fact whose text changes loses
its vectors (:func:`drop_vectors`) and is embedded again.

There are no sign bits here (``fact_signs`` is None): ``memory.search.signs`` then asks
``nearest_facts`` every time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memory.storage.signs_sql import Signs
from memory.storage.vectors_sql import (
    FLOAT32_BYTES,
    Nearest,
    check_widths,
    fact_embedding_text,
)

TABLE = "memory_fact_vec_{id}"
MISSING = """
FROM memory_facts f WHERE f.guild_id = $1 AND f.is_active
AND NOT EXISTS (SELECT 1 FROM {name} v WHERE v.fact_id = f.id)
"""
NEAREST = """
SELECT v.fact_id, 1 - (v.embedding <=> $1::vector) AS similarity
FROM {name} v JOIN memory_facts f ON f.id = v.fact_id AND f.is_active
WHERE v.guild_id = $2 ORDER BY v.embedding <=> $1::vector LIMIT $3
"""


def as_vector(blob: bytes) -> str:
    """A float32 blob as pgvector's text form (each value exactly, as the shortest decimal)."""
    return "[" + ",".join(map(repr, np.frombuffer(blob, dtype=np.float32).tolist())) + "]"


def as_blob(values: Sequence[float]) -> bytes:
    return np.asarray(values, dtype=np.float32).tobytes()


async def vector_table(conn: Any, model: str) -> tuple[str, int] | None:
    """The name and width of ``model``'s table, if it has one."""
    row = await conn.fetchrow("SELECT id, dims FROM memory_vector_models WHERE model = $1", model)
    return (TABLE.format(id=row[0]), int(row[1])) if row else None


async def _made_table(conn: Any, model: str, dims: int) -> tuple[str, int]:
    """``model``'s table, made now if it has none (inside the caller's transaction; one
    process at a time makes it)."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", f"vec/{model}")
    found = await vector_table(conn, model)
    if found is not None:
        return found
    table_id = await conn.fetchval(
        "INSERT INTO memory_vector_models (model, dims) VALUES ($1, $2) RETURNING id", model, dims
    )
    name = TABLE.format(id=table_id)
    for step in (
        f"CREATE TABLE {name} (fact_id bigint PRIMARY KEY REFERENCES memory_facts (id) "
        f"ON DELETE CASCADE, guild_id text NOT NULL, embedding vector({dims}) NOT NULL)",
        f"CREATE INDEX {name}_hnsw ON {name} USING hnsw (embedding vector_cosine_ops)",
        f"CREATE INDEX {name}_guild ON {name} (guild_id)",
        f"CREATE TRIGGER {name}_changed AFTER INSERT OR UPDATE OR DELETE ON {name} "
        "FOR EACH STATEMENT EXECUTE FUNCTION memorybot_changed()",
    ):
        await conn.execute(step)
    return name, dims


async def drop_vectors(conn: Any, fact_id: int) -> None:
    """Delete every model's vector of the fact (its text changed)."""
    for (table_id,) in await conn.fetch("SELECT id FROM memory_vector_models"):
        await conn.execute(f"DELETE FROM {TABLE.format(id=table_id)} WHERE fact_id = $1", fact_id)


class PgFactVectors:
    """The vectors of facts, per model."""

    pool: Any  # asyncpg's Pool
    vector_version: int

    async def store_fact_vectors(
        self, guild_id: str, model: str, rows: Sequence[tuple[int, int, bytes]]
    ) -> int:
        """Upsert ``(fact_id, dims, blob)`` vectors of ``model`` for facts of the guild; how
        many were stored. Facts that are gone, archived or another guild's are skipped; a
        blob that is not ``dims`` float32s, or a width other than the model's, raises
        ``ValueError`` (nothing stored)."""
        check_widths(rows)
        if not rows:
            return 0
        async with self.pool.acquire() as conn, conn.transaction():
            name, width = await _made_table(conn, model, rows[0][1])
            for fact_id, dims, _ in rows:
                if dims != width:
                    raise ValueError(f"vector of fact {fact_id}: {model} has {width} dims")
            status = await conn.execute(
                f"INSERT INTO {name} (fact_id, guild_id, embedding) "
                "SELECT f.id, f.guild_id, r.v::vector "
                "FROM unnest($1::bigint[], $2::text[]) AS r(id, v) "
                "JOIN memory_facts f ON f.id = r.id AND f.guild_id = $3 AND f.is_active "
                "ON CONFLICT (fact_id) DO UPDATE SET embedding = excluded.embedding",
                [r[0] for r in rows], [as_vector(r[2]) for r in rows], guild_id,
            )  # fmt: skip
        self.vector_version += 1
        return int(status.split()[-1])

    async def fact_vectors(self, guild_id: str, model: str) -> list[tuple[int, bytes]]:
        """``(fact_id, float32 blob)`` of the guild's active facts with a ``model`` vector."""
        table = await vector_table(self.pool, model)
        if table is None:
            return []
        rows = await self.pool.fetch(
            f"SELECT f.id, v.embedding::real[] FROM memory_facts f JOIN {table[0]} v "
            "ON v.fact_id = f.id WHERE f.guild_id = $1 AND f.is_active ORDER BY f.id",
            guild_id,
        )
        return [(int(r[0]), as_blob(r[1])) for r in rows]

    async def fact_vectors_of(
        self, guild_id: str, model: str, fact_ids: Sequence[int]
    ) -> list[tuple[int, bytes]]:
        """The ``model`` vectors of those of ``fact_ids`` that are the guild's facts."""
        table = await vector_table(self.pool, model)
        if table is None:
            return []
        rows = await self.pool.fetch(
            f"SELECT fact_id, embedding::real[] FROM {table[0]} "
            "WHERE fact_id = ANY($1::bigint[]) AND guild_id = $2",
            list(fact_ids), guild_id,
        )  # fmt: skip
        return [(int(r[0]), as_blob(r[1])) for r in rows]

    async def fact_signs(self, guild_id: str, model: str) -> Signs | None:
        """None: the k-NN runs in PostgreSQL (``nearest_facts``)."""
        return None

    async def _missing(self, model: str) -> str:
        table = await vector_table(self.pool, model)
        if table is None:
            return "FROM memory_facts f WHERE f.guild_id = $1 AND f.is_active"
        return MISSING.format(name=table[0])

    async def facts_missing_vectors(
        self, guild_id: str, model: str, limit: int
    ) -> list[tuple[int, str]]:
        """Up to ``limit`` active facts of the guild without a ``model`` vector, oldest
        first, as ``(fact_id, text to embed)``."""
        rows = await self.pool.fetch(
            f"SELECT f.id, f.fact_type, f.fact, f.evidence_text {await self._missing(model)} "
            "ORDER BY f.id LIMIT $2",
            guild_id, limit,
        )  # fmt: skip
        return [(int(r[0]), fact_embedding_text(r[1], r[2], r[3])) for r in rows]

    async def count_missing_vectors(self, guild_id: str, model: str) -> int:
        count = await self.pool.fetchval(f"SELECT count(*) {await self._missing(model)}", guild_id)
        return int(count)

    async def missing_vector_ids(self, guild_id: str, model: str, limit: int) -> list[int]:
        """Up to ``limit`` ids of the guild's active facts without a ``model`` vector."""
        rows = await self.pool.fetch(
            f"SELECT f.id {await self._missing(model)} ORDER BY f.id LIMIT $2", guild_id, limit
        )
        return [int(r[0]) for r in rows]

    async def nearest_facts(
        self, guild_id: str, model: str, query: bytes, k: int, bound: int | None = None,
        *, exact: bool = False,
    ) -> Nearest:  # fmt: skip
        """The guild's ``k`` active facts nearest to ``query`` by their ``model`` vectors,
        as cosine similarities: through the HNSW index read on until enough of the guild's
        came, or ``exact``-ly (every vector of the guild scored). No bound is used."""
        table = await vector_table(self.pool, model)
        if table is None or len(query) != table[1] * FLOAT32_BYTES or k <= 0:
            return Nearest({}, None)
        async with self.pool.acquire() as conn, conn.transaction():
            if exact:
                await conn.execute("SET LOCAL enable_indexscan = off")
            else:
                await conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                await conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, 2 * k)}")
            rows = await conn.fetch(NEAREST.format(name=table[0]), as_vector(query), guild_id, k)
        found = sorted(((float(r[1]), -int(r[0])) for r in rows), reverse=True)
        return Nearest({-negated: similarity for similarity, negated in found}, None)
