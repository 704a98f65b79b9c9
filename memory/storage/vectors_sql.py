"""SQL of fact vectors and the embedding cache, run whole on the database thread.

Each function takes the raw DB-API connection (``Store._call`` passes it); each one that
writes runs its own transaction (``create_vector_table`` and ``delete_fact_vectors`` run in
the caller's). Every function that reads or writes vectors is scoped to one guild.

Fact vectors live in sqlite-vec ``vec0`` tables, one per embedding model (``model`` is the
embedder's ``model_key``): a vec0 column has one fixed dimension, and the bundled model and
a remote one differ. ``memory_vector_tables`` lists them — model, dimensions, and the table
``memory_fact_vec_<id>`` — and a model's table is made when its first vector is stored.
Its rows::

    rowid      the fact's id
    guild_id   partition key: a guild's vectors are stored (and searched) apart
    is_active  metadata column, the fact's: the k-NN leaves archived facts out
    coarse     bit[dims]: the vector's signs, the column the k-NN runs on
    embedding  auxiliary column: the float32 vector as the embedder gave it, read only for
               the k-NN's candidates

(a width that is no whole number of bytes has no ``coarse``: ``embedding`` is then a
``float[dims]`` column with cosine distance, and the k-NN runs on it, exactly).

Triggers made with the table keep it following ``memory_facts``: archiving or restoring a
fact sets ``is_active``; deleting a fact deletes its vectors (a virtual table has no foreign
keys). A migration that makes ``memory_facts`` again must make them again
(``vector_table_triggers``).

The nearest facts (:func:`nearest_facts`): a k-NN on the coarse column (Hamming distance of
the signs) keeps ``COARSE`` × k candidates within a distance bound, and those are re-scored
exactly on their float vectors. The bound keeps sqlite-vec's per-chunk selection (which
costs k × chunk size per chunk) to the few vectors under it; it starts where the guild's
last query found its candidates and widens until enough pass. A guild's first query has
no bound (on 100k facts a one-off ~0.15 s); nor does a guild with fewer vectors than the
candidates wanted, whose every vector is re-scored: exact. An exact k-NN over float
vectors measured 3-5x slower on 100k facts (``bench/README.md``): cosine distance over
every float is what costs, the signs' Hamming distance is cheap. A candidate's float vector
is read from the auxiliary column's own row (``RESCORE``) in about a microsecond; from a
float vector column (inside a chunk's blob) it took ~30.

The embedding cache (``embedding_cache``) is content-addressed (``sha256`` of model key and
text, see ``memory.search.embeddings.content_hash``) and holds no guild data beyond the vector.

What is embedded for a fact (:func:`fact_embedding_text`)::

    <fact_type>: <fact> (evidence: <evidence>)

the evidence part left out when it is empty or says the same as the fact.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from memory.storage.ingest_sql import chunks, marks, transaction

FLOAT32_BYTES = 4
CHUNK_SIZE = 1024  # vectors per vec0 chunk (sqlite-vec's default); allocated whole
COARSE = 8  # candidates the coarse pass keeps per wanted neighbour
BOUND_STEP = 0.03  # how much it widens when too few candidates pass
ENOUGH = 0.5  # share of the wanted candidates that is enough to stop widening

UPSERT_CACHE = """
INSERT INTO embedding_cache (sha256, model, dims, embedding) VALUES (?, ?, ?, ?)
ON CONFLICT (sha256, model) DO UPDATE SET dims = excluded.dims, embedding = excluded.embedding
"""
SELECT_TABLE = "SELECT id, dims, coarse FROM memory_vector_tables WHERE model = ?"
SELECT_TABLES = "SELECT id, dims, coarse, model FROM memory_vector_tables ORDER BY id"
INSERT_TABLE = """
INSERT INTO memory_vector_tables (model, dims, coarse) VALUES (?, ?, ?) RETURNING id
"""
CREATE_TABLE = """
CREATE VIRTUAL TABLE {name} USING vec0(
    guild_id  text partition key,
    is_active boolean,
    {vectors},
    chunk_size={chunk}
)
"""
# The k-NN column and the float vector: the signs, with the vector beside them (read only
# for the candidates); or, for a width that is no whole number of bytes, the float vector.
COARSE_COLUMNS = "coarse bit[{dims}],\n    +embedding blob"
EXACT_COLUMNS = "embedding float[{dims}] distance_metric=cosine"
# The fact must exist, belong to the guild and be active: a fact deleted or archived since
# it was read is skipped instead of failing the batch (or filing a vector under a guild the
# fact does not belong to).
INSERT_VECTOR = """
INSERT INTO {name} (rowid, guild_id, is_active, embedding{coarse_col})
SELECT id, guild_id, 1, ?1{coarse_val} FROM memory_facts
WHERE id = ?2 AND guild_id = ?3 AND is_active = 1
"""
DELETE_VECTOR = "DELETE FROM {name} WHERE rowid = ? AND guild_id = ?"
HAS_VECTOR = "SELECT 1 FROM {name} WHERE rowid = ? AND guild_id = ?"
ACTIVE_FACTS = "FROM memory_facts f WHERE f.guild_id = ? AND f.is_active = 1"
# Whether a fact has a vector is asked of the table's ``_rowids`` shadow table (a plain
# table keyed by rowid, see sqlite-vec's ARCHITECTURE.md): 5x faster than the virtual
# table's point lookups over a 100k-fact guild (0.1 s against 0.5 s).
NO_VECTOR = " AND NOT EXISTS (SELECT 1 FROM {name}_rowids v WHERE v.rowid = f.id)"
SELECT_MISSING = "SELECT f.id, f.fact_type, f.fact, f.evidence_text {where} ORDER BY f.id LIMIT ?"
SELECT_FACT_VECTORS = """
SELECT f.id, v.embedding FROM memory_facts f JOIN {name} v ON v.rowid = f.id
WHERE f.guild_id = ? AND f.is_active = 1 AND v.guild_id = f.guild_id
ORDER BY f.id
"""
# Exact, without a coarse column: a k-NN by cosine distance over the float vectors.
NEAREST_EXACT = """
SELECT rowid, 1.0 - distance FROM {name}
WHERE embedding MATCH ?1 AND k = ?2 AND guild_id = ?3 AND is_active = 1
"""
# Exact, with one: every vector of the guild scored (slow: for checks, not for search).
SCORE_ALL = """
SELECT rowid, 1.0 - vec_distance_cosine(embedding, ?1) FROM {name}
WHERE guild_id = ?2 AND is_active = 1
"""
# Coarse: the candidates by Hamming distance of the signs (within ``?4`` bits) ...
NEAREST_COARSE = """
SELECT rowid, distance FROM {name}
WHERE coarse MATCH vec_quantize_binary(?1) AND k = ?2 AND guild_id = ?3 AND is_active = 1
"""
WITHIN_BOUND = " AND distance <= ?4"
# ... then re-scored on their float vectors, read in one statement from the table's
# ``_auxiliary`` shadow table (``valueNN`` columns, see sqlite-vec's ARCHITECTURE.md): the
# virtual table reads an auxiliary value with a statement prepared for each (7 us a row).
# SQLite keeps the k best itself: only those cross into Python, a row at a time, each step
# taking the GIL back (under load, from the event loop's thread). Ties: the lower id first,
# as the rows come (``best`` keeps that order too).
RESCORE = """
SELECT rowid, 1.0 - vec_distance_cosine(value00, ?1) AS similarity FROM {name}_auxiliary
WHERE rowid IN (SELECT value FROM json_each(?2))
ORDER BY similarity DESC, rowid LIMIT ?3
"""


class VectorTable(NamedTuple):
    """The vec0 table of one model's fact vectors."""

    name: str
    dims: int
    coarse: bool


def fact_embedding_text(fact_type: str, fact: str, evidence: str) -> str:
    """The text embedded for a fact: type, fact and (when it adds anything) the evidence."""
    text = f"{fact_type}: {fact.strip()}"
    quoted = " ".join(evidence.split())
    if quoted and quoted.casefold().rstrip(".") != " ".join(fact.split()).casefold().rstrip("."):
        text += f" (evidence: {quoted})"
    return text


# --- the vec0 tables ---------------------------------------------------------------------


def vector_table(conn: Any, model: str) -> VectorTable | None:
    """The table of ``model``'s fact vectors, or None before its first vector."""
    row = conn.execute(SELECT_TABLE, (model,)).fetchone()
    return None if row is None else _table(row)


def vector_tables(conn: Any) -> dict[str, VectorTable]:
    """Every model's table, by model."""
    return {row[3]: _table(row) for row in conn.execute(SELECT_TABLES).fetchall()}


def _table(row: Sequence[Any]) -> VectorTable:
    return VectorTable(f"memory_fact_vec_{int(row[0])}", int(row[1]), bool(row[2]))


def create_vector_table(conn: Any, model: str, dims: int) -> VectorTable:
    """Make ``model``'s table (``dims`` wide) and its triggers, in the caller's transaction.
    The coarse column needs whole bytes of bits: other widths are searched exactly."""
    coarse = dims % 8 == 0
    (table_id,) = conn.execute(INSERT_TABLE, (model, dims, int(coarse))).fetchone()
    table = _table((table_id, dims, coarse))
    vectors = (COARSE_COLUMNS if coarse else EXACT_COLUMNS).format(dims=dims)
    conn.execute(CREATE_TABLE.format(name=table.name, vectors=vectors, chunk=CHUNK_SIZE))
    for sql in vector_table_triggers(table.name):
        conn.execute(sql)
    return table


def vector_table_triggers(name: str) -> list[str]:
    """The triggers that keep a vector table following ``memory_facts``."""
    return [
        f"""
    CREATE TRIGGER {name}_active AFTER UPDATE OF is_active ON memory_facts
    WHEN old.is_active IS NOT new.is_active BEGIN
        UPDATE {name} SET is_active = new.is_active WHERE rowid = new.id;
    END
    """,
        f"""
    CREATE TRIGGER {name}_ad AFTER DELETE ON memory_facts BEGIN
        DELETE FROM {name} WHERE rowid = old.id;
    END
    """,
    ]


def insert_columns(table: VectorTable) -> dict[str, str]:
    """What an insert into ``table`` names: the table, and its coarse column when it has
    one (filled from ``?1`` or from ``v.embedding``)."""
    if not table.coarse:
        return {"name": table.name, "coarse_col": "", "coarse_val": "", "coarse_of_embedding": ""}
    return {
        "name": table.name,
        "coarse_col": ", coarse",
        "coarse_val": ", vec_quantize_binary(?1)",
        "coarse_of_embedding": ", vec_quantize_binary(v.embedding)",
    }


# --- the embedding cache ---------------------------------------------------------------


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
    params = [(digest, model, float32_dims(blob), blob) for digest, blob in rows]
    with transaction(conn):
        conn.executemany(UPSERT_CACHE, params)


# --- fact vectors ------------------------------------------------------------------------


def _missing_where(conn: Any, model: str) -> str:
    table = vector_table(conn, model)
    return ACTIVE_FACTS + (NO_VECTOR.format(name=table.name) if table else "")


def facts_missing_vectors(
    conn: Any, guild_id: str, model: str, limit: int
) -> list[tuple[int, str]]:
    """Up to ``limit`` active facts of the guild without a ``model`` vector, oldest first,
    as ``(fact_id, text to embed)`` (see :func:`fact_embedding_text`)."""
    sql = SELECT_MISSING.format(where=_missing_where(conn, model))
    return [
        (int(fact_id), fact_embedding_text(fact_type, fact, evidence))
        for fact_id, fact_type, fact, evidence in conn.execute(sql, (guild_id, limit))
    ]


def missing_fact_ids(conn: Any, guild_id: str, model: str, limit: int) -> list[int]:
    """Up to ``limit`` ids of active facts of the guild without a ``model`` vector."""
    sql = f"SELECT f.id {_missing_where(conn, model)} ORDER BY f.id LIMIT ?"
    return [int(fact_id) for (fact_id,) in conn.execute(sql, (guild_id, limit))]


def count_missing(conn: Any, guild_id: str, model: str) -> int:
    """How many active facts of the guild have no ``model`` vector yet."""
    (count,) = conn.execute(
        f"SELECT count(*) {_missing_where(conn, model)}", (guild_id,)
    ).fetchone()
    return int(count)


def store_fact_vectors(
    conn: Any, guild_id: str, model: str, rows: Sequence[tuple[int, int, bytes]]
) -> int:
    """Upsert ``(fact_id, dims, blob)`` vectors of ``model`` for facts of the guild; return
    how many were stored. Facts that are gone, archived or of another guild are skipped;
    a blob whose length is not ``dims`` float32s, or a width other than the model's
    vectors have, raises ``ValueError`` (nothing stored)."""
    check_widths(rows)
    if not rows:
        return 0
    stored = 0
    with transaction(conn):
        table = vector_table(conn, model) or create_vector_table(conn, model, rows[0][1])
        insert = INSERT_VECTOR.format(**insert_columns(table))
        delete = DELETE_VECTOR.format(name=table.name)
        for fact_id, dims, blob in rows:
            if dims != table.dims:
                raise ValueError(f"vector of fact {fact_id}: {model} has {table.dims} dims")
            conn.execute(delete, (fact_id, guild_id))  # vec0 has no upsert
            stored += max(0, conn.execute(insert, (blob, fact_id, guild_id)).rowcount)
    return stored


def fact_vectors(conn: Any, guild_id: str, model: str) -> list[tuple[int, bytes]]:
    """``(fact_id, blob)`` of every active fact of the guild with a ``model`` vector."""
    table = vector_table(conn, model)
    if table is None:
        return []
    rows = conn.execute(SELECT_FACT_VECTORS.format(name=table.name), (guild_id,)).fetchall()
    return [(int(fact_id), bytes(blob)) for fact_id, blob in rows]


def fact_vector_models(conn: Any, guild_id: str, fact_ids: Sequence[int]) -> list[tuple[int, str]]:
    """``(fact_id, model)`` of every vector these facts of the guild have."""
    found = []
    for model, table in vector_tables(conn).items():
        sql = HAS_VECTOR.format(name=table.name)
        found += [(f, model) for f in fact_ids if conn.execute(sql, (f, guild_id)).fetchone()]
    return found


def drop_fact_vectors(conn: Any, guild_id: str, fact_ids: Sequence[int]) -> int:
    """Delete every model's vectors of these facts of the guild (their text changed, so
    they get embedded again); return how many rows went."""
    if not fact_ids:
        return 0
    with transaction(conn):
        return delete_fact_vectors(conn, guild_id, fact_ids)


def delete_fact_vectors(conn: Any, guild_id: str, fact_ids: Sequence[int]) -> int:
    """:func:`drop_fact_vectors` in the caller's transaction."""
    removed = 0
    for table in vector_tables(conn).values():
        sql = DELETE_VECTOR.format(name=table.name)
        for fact_id in fact_ids:
            removed += max(0, conn.execute(sql, (fact_id, guild_id)).rowcount)
    return removed


# --- the nearest facts -------------------------------------------------------------------


class Nearest(NamedTuple):
    """The nearest active facts as ``{fact_id: cosine similarity}``, and the Hamming bound
    the guild's next coarse pass starts from (None: no coarse pass)."""

    similarities: dict[int, float]
    bound: int | None


def nearest_facts(
    conn: Any,
    guild_id: str,
    model: str,
    query: bytes,
    k: int,
    bound: int | None = None,
    *,
    exact: bool = False,
) -> Nearest:
    """The ``k`` active facts of the guild whose ``model`` vectors are nearest to ``query``
    (by a coarse pass and exact re-scoring, starting at Hamming distance ``bound``; or
    ``exact``-ly, every vector scored, as a table without a coarse column always is). A
    query of another width than the model's finds nothing."""
    table = vector_table(conn, model)
    if table is None or len(query) != table.dims * FLOAT32_BYTES or k <= 0:
        return Nearest({}, bound)
    if not table.coarse:
        rows = conn.execute(NEAREST_EXACT.format(name=table.name), (query, k, guild_id))
        return Nearest({int(f): float(s) for f, s in rows}, None)
    if exact:
        scored = conn.execute(SCORE_ALL.format(name=table.name), (query, guild_id))
        return Nearest(best(scored, k), bound)
    want = COARSE * k
    enough = max(1, round(want * ENOUGH))
    step = max(1, round(BOUND_STEP * table.dims))
    if bound is None:  # a guild's first query: no bound (it sets the next one's)
        bound = table.dims
    params: tuple[Any, ...]
    while True:
        if bound * 2 >= table.dims:  # past half the bits: every vector, no bound
            sql, params = NEAREST_COARSE, (query, want, guild_id)
        else:
            sql, params = NEAREST_COARSE + WITHIN_BOUND, (query, want, guild_id, bound)
        rows = conn.execute(sql.format(name=table.name), params).fetchall()
        if len(rows) >= enough or len(params) == 3:
            break
        bound += step
    # Full: the next query starts where this one's last candidate was (rows come nearest
    # first), else where enough passed.
    following = int(rows[-1][1]) if len(rows) == want else bound
    return Nearest(rescored(conn, table.name, query, [rowid for rowid, _ in rows], k), following)


def rescored(
    conn: Any, name: str, query: bytes, candidates: Sequence[int], k: int
) -> dict[int, float]:
    """The ``k`` of ``candidates`` (fact ids of the vec0 table ``name``) nearest to ``query``
    by cosine similarity of their float vectors: the exact step after a coarse pass."""
    scored = conn.execute(RESCORE.format(name=name), (query, json.dumps(list(candidates)), k))
    return {int(f): float(s) for f, s in scored}


def best(scored: Iterable[Sequence[Any]], k: int) -> dict[int, float]:
    """The ``k`` best of (fact id, similarity) rows, as ``{id: similarity}``."""
    top = heapq.nlargest(k, scored, key=lambda row: row[1])
    return {int(f): float(s) for f, s in top}


def check_widths(rows: Sequence[tuple[int, int, bytes]]) -> None:
    """``ValueError`` unless each ``(fact_id, dims, blob)``'s blob is ``dims`` float32s."""
    for fact_id, dims, blob in rows:
        if float32_dims(blob) != dims:
            raise ValueError(f"vector of fact {fact_id}: {len(blob)} bytes is not {dims} float32s")


def float32_dims(blob: bytes) -> int:
    if len(blob) % FLOAT32_BYTES:
        raise ValueError(f"a float32 vector has a multiple of 4 bytes, not {len(blob)}")
    return len(blob) // FLOAT32_BYTES
