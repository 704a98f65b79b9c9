"""SQL of the in-memory pass (``memory.search.signs``): a guild's sign bits, and the float
vectors of the facts it does not hold yet, read when facts changed.

Like ``vectors_sql``, each function takes the raw DB-API connection (``Store._call`` passes
it) and is scoped to one guild.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from memory.storage.vectors_sql import vector_table

SELECT_SIGNS = "SELECT rowid, coarse FROM {name} WHERE guild_id = ? AND is_active = 1"
# The float vectors straight from the table's ``_auxiliary`` shadow table (see
# ``vectors_sql.RESCORE``), the guild checked on ``memory_facts``.
SELECT_VECTORS = """
SELECT a.rowid, a.value00 FROM {name}_auxiliary a JOIN memory_facts f ON f.id = a.rowid
WHERE f.guild_id = ? AND a.rowid IN (SELECT value FROM json_each(?))
"""


class Signs(NamedTuple):
    """A guild's active facts with a vector of one model: their ids and the vectors' signs
    (``vec_quantize_binary``, ``dims / 8`` bytes each), in the same order."""

    ids: list[int]
    bits: bytes
    dims: int


def fact_signs(conn: Any, guild_id: str, model: str) -> Signs | None:
    """The guild's active facts' sign bits for ``model``; None when the model's table has no
    coarse column (or there is no table yet)."""
    table = vector_table(conn, model)
    if table is None or not table.coarse:
        return None
    rows = conn.execute(SELECT_SIGNS.format(name=table.name), (guild_id,)).fetchall()
    return Signs([int(r[0]) for r in rows], b"".join(bytes(r[1]) for r in rows), table.dims)


def fact_vectors_of(
    conn: Any, guild_id: str, model: str, fact_ids: Sequence[int]
) -> list[tuple[int, bytes]]:
    """``(fact id, float32 vector)`` of those of ``fact_ids`` that are the guild's facts with
    a ``model`` vector (any order)."""
    table = vector_table(conn, model)
    if table is None or not table.coarse:
        return []
    rows = conn.execute(
        SELECT_VECTORS.format(name=table.name), (guild_id, json.dumps(list(fact_ids)))
    ).fetchall()
    return [(int(row[0]), bytes(row[1])) for row in rows]
