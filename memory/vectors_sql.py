"""SQL of fact vectors and the embedding cache, run whole on the database thread.

Each function takes the raw DB-API connection (``Store._call`` passes it); each one that
writes runs its own transaction. Fact vectors live in ``memory_fact_vectors`` keyed by
``(fact_id, model)`` (``model`` is the embedder's ``model_key``) and carry the fact's
``guild_id``: every function here is scoped to one guild and one model. The embedding cache
(``embedding_cache``) is content-addressed (``sha256`` of model key and text, see
``memory.embeddings.content_hash``) and holds no guild data beyond the vector itself.

What is embedded for a fact (:func:`fact_embedding_text`)::

    <fact_type>: <fact> (evidence: <evidence>)

the evidence part left out when it is empty or says the same as the fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from memory.embeddings import matrix_from_blobs
from memory.ingest_sql import chunks, marks, transaction

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FLOAT32_BYTES = 4

UPSERT_CACHE = """
INSERT INTO embedding_cache (sha256, model, dims, embedding) VALUES (?, ?, ?, ?)
ON CONFLICT (sha256, model) DO UPDATE SET dims = excluded.dims, embedding = excluded.embedding
"""
# The fact must exist, belong to the guild and be active: a fact deleted or archived since
# it was read is skipped instead of failing the batch (or filing a vector under a guild the
# fact does not belong to).
UPSERT_FACT_VECTOR = """
INSERT INTO memory_fact_vectors (fact_id, model, guild_id, dims, embedding)
SELECT id, ?, guild_id, ?, ? FROM memory_facts WHERE id = ? AND guild_id = ? AND is_active = 1
ON CONFLICT (fact_id, model) DO UPDATE SET dims = excluded.dims, embedding = excluded.embedding
"""
MISSING_WHERE = """
FROM memory_facts f
WHERE f.guild_id = ? AND f.is_active = 1 AND NOT EXISTS (
    SELECT 1 FROM memory_fact_vectors v WHERE v.fact_id = f.id AND v.model = ?
)
"""
SELECT_MISSING = f"""
SELECT f.id, f.fact_type, f.fact, f.evidence_text {MISSING_WHERE} ORDER BY f.id LIMIT ?
"""
COUNT_MISSING = f"SELECT count(*) {MISSING_WHERE}"
SELECT_FACT_VECTORS = """
SELECT v.fact_id, v.embedding
FROM memory_fact_vectors v JOIN memory_facts f ON f.id = v.fact_id
WHERE v.guild_id = ? AND v.model = ? AND f.guild_id = ? AND f.is_active = 1
ORDER BY v.fact_id
"""


def fact_embedding_text(fact_type: str, fact: str, evidence: str) -> str:
    """The text embedded for a fact: type, fact and (when it adds anything) the evidence."""
    text = f"{fact_type}: {fact.strip()}"
    quoted = " ".join(evidence.split())
    if quoted and quoted.casefold().rstrip(".") != " ".join(fact.split()).casefold().rstrip("."):
        text += f" (evidence: {quoted})"
    return text


def cached_vectors(conn: Any, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
    """``{sha256: blob}`` of the ``hashes`` cached for ``model`` (missing ones left out)."""
    found: dict[str, bytes] = {}
    for part in chunks(list(dict.fromkeys(hashes))):
        rows = conn.execute(
            f"SELECT sha256, embedding FROM embedding_cache "
            f"WHERE model = ? AND sha256 IN ({marks(part)})",
            (model, *part),
        ).fetchall()
        found.update((digest, bytes(blob)) for digest, blob in rows)
    return found


def cache_vectors(conn: Any, model: str, rows: Sequence[tuple[str, bytes]]) -> None:
    """Remember ``(sha256, blob)`` pairs for ``model`` (replacing any cached before)."""
    if not rows:
        return
    params = [(digest, model, _dims(blob), blob) for digest, blob in rows]
    with transaction(conn):
        conn.executemany(UPSERT_CACHE, params)


def facts_missing_vectors(
    conn: Any, guild_id: str, model: str, limit: int
) -> list[tuple[int, str]]:
    """Up to ``limit`` active facts of the guild without a ``model`` vector, oldest first,
    as ``(fact_id, text to embed)`` (see :func:`fact_embedding_text`)."""
    rows = conn.execute(SELECT_MISSING, (guild_id, model, limit)).fetchall()
    return [
        (int(fact_id), fact_embedding_text(fact_type, fact, evidence))
        for fact_id, fact_type, fact, evidence in rows
    ]


def count_missing(conn: Any, guild_id: str, model: str) -> int:
    """How many active facts of the guild have no ``model`` vector yet."""
    (count,) = conn.execute(COUNT_MISSING, (guild_id, model)).fetchone()
    return int(count)


def store_fact_vectors(
    conn: Any, guild_id: str, model: str, rows: Sequence[tuple[int, int, bytes]]
) -> int:
    """Upsert ``(fact_id, dims, blob)`` vectors of ``model`` for facts of the guild; return
    how many were stored. Facts that are gone, archived or of another guild are skipped;
    a blob whose length is not ``dims`` float32s raises ``ValueError`` (nothing stored)."""
    params = []
    for fact_id, dims, blob in rows:
        if _dims(blob) != dims:
            raise ValueError(f"vector of fact {fact_id}: {len(blob)} bytes is not {dims} float32s")
        params.append((model, dims, blob, fact_id, guild_id))
    if not params:
        return 0
    with transaction(conn):
        before = conn.total_changes
        conn.executemany(UPSERT_FACT_VECTOR, params)
        return int(conn.total_changes - before)


def fact_vectors(conn: Any, guild_id: str, model: str) -> list[tuple[int, bytes]]:
    """``(fact_id, blob)`` of every active fact of the guild with a ``model`` vector."""
    rows = conn.execute(SELECT_FACT_VECTORS, (guild_id, model, guild_id)).fetchall()
    return [(int(fact_id), bytes(blob)) for fact_id, blob in rows]


FACT_VECTORS_SINCE = """
SELECT v.rowid, v.fact_id, v.embedding
FROM memory_fact_vectors v JOIN memory_facts f ON f.id = v.fact_id
WHERE v.guild_id = ? AND v.model = ? AND f.guild_id = ? AND f.is_active = 1 AND v.rowid > ?
ORDER BY v.rowid
"""
COUNT_FACT_VECTORS = """
SELECT count(*), coalesce(max(v.rowid), 0)
FROM memory_fact_vectors v JOIN memory_facts f ON f.id = v.fact_id
WHERE v.guild_id = ? AND v.model = ? AND f.guild_id = ? AND f.is_active = 1 AND v.rowid > ?
"""
MATRIX_CHUNK = 4096


class VectorRows(NamedTuple):
    """Vectors of a guild's active facts: ids, rows, the newest vector row read (the next
    read starts after it) and how many active facts with a vector the guild has in all."""

    ids: NDArray[np.int64]
    matrix: NDArray[np.float32]
    last_row: int
    active: int


def fact_vectors_since(conn: Any, guild_id: str, model: str, after_row: int) -> VectorRows:
    """The vectors of the guild's active facts stored after vector row ``after_row`` (0: all),
    filled into one matrix a chunk at a time: a big guild's vectors are never held twice
    (as blobs and as rows)."""
    import numpy as np

    params = (guild_id, model, guild_id)
    (total, last_row) = conn.execute(COUNT_FACT_VECTORS, (*params, after_row)).fetchone()
    (active, _last) = conn.execute(COUNT_FACT_VECTORS, (*params, 0)).fetchone()
    ids = np.empty(total, dtype=np.int64)
    matrix: NDArray[np.float32] | None = None
    filled = 0
    cursor = conn.execute(FACT_VECTORS_SINCE, (*params, after_row))
    while rows := cursor.fetchmany(MATRIX_CHUNK):
        rows = rows[: total - filled]  # nothing writes in between (one thread); guard anyway
        if not rows:
            break
        if matrix is None:
            matrix = np.empty((total, len(rows[0][2]) // FLOAT32_BYTES), dtype=np.float32)
        end = filled + len(rows)
        ids[filled:end] = [fact_id for _, fact_id, _ in rows]
        matrix[filled:end] = matrix_from_blobs([bytes(b) for _, _, b in rows], matrix.shape[1])
        filled = end
    if matrix is None:
        return VectorRows(ids[:0], np.zeros((0, 1), dtype=np.float32), int(last_row), active)
    return VectorRows(ids[:filled], matrix[:filled], int(last_row), int(active))


def drop_fact_vectors(conn: Any, guild_id: str, fact_ids: Sequence[int]) -> int:
    """Delete every model's vectors of these facts of the guild (their text changed, so
    they get embedded again); return how many rows went."""
    if not fact_ids:
        return 0
    removed = 0
    with transaction(conn):
        for part in chunks(list(fact_ids)):
            cursor = conn.execute(
                "DELETE FROM memory_fact_vectors "
                f"WHERE guild_id = ? AND fact_id IN ({marks(part)})",
                (guild_id, *part),
            )
            removed += max(0, cursor.rowcount)
    return removed


def _dims(blob: bytes) -> int:
    if len(blob) % FLOAT32_BYTES:
        raise ValueError(f"a float32 vector has a multiple of 4 bytes, not {len(blob)}")
    return len(blob) // FLOAT32_BYTES
