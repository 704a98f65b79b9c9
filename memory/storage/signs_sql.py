"""SQL of the in-memory coarse pass (``memory.search.signs``): a guild's sign bits read once,
and the candidates it picks re-scored exactly on their float vectors.

Like ``vectors_sql``, each function takes the raw DB-API connection (``Store._call`` passes
it) and is scoped to one guild.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from memory.storage.vectors_sql import FLOAT32_BYTES, rescored, vector_table

SELECT_SIGNS = "SELECT rowid, coarse FROM {name} WHERE guild_id = ? AND is_active = 1"


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


def rescore_facts(
    conn: Any, model: str, query: bytes, candidates: Sequence[int], k: int
) -> dict[int, float]:
    """The ``k`` of ``candidates`` nearest to ``query`` by cosine similarity of their float
    vectors (as ``vectors_sql.nearest_facts`` re-scores its coarse pass's candidates)."""
    table = vector_table(conn, model)
    if table is None or len(query) != table.dims * FLOAT32_BYTES or k <= 0:
        return {}
    return rescored(conn, table.name, query, candidates, k)
