"""The in-memory coarse pass of a big guild (``memory.search.signs``)."""

from __future__ import annotations

import numpy as np
import pytest

from memory.search import signs as signs_module
from memory.search.embeddings import to_blob
from memory.search.semantic import VectorIndex
from memory.storage.store import Store
from tests.helpers import GUILD_A, GUILD_B, sql
from tests.test_semantic import add_facts, as_rows, unit_rows


async def test_a_big_guilds_pass_in_memory_finds_the_nearest_exactly_scored(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(signs_module, "MIN_SIGNS", 100)
    rng = np.random.default_rng(7)
    matrix = np.repeat(unit_rows(rng, 40, 64), 10, axis=0) + 0.08 * unit_rows(rng, 400, 64)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    ids = await add_facts(store, GUILD_A, 400)
    theirs = await add_facts(store, GUILD_B, 20, start=400)
    await store.store_fact_vectors(GUILD_A, "m", as_rows(ids, matrix))
    await store.store_fact_vectors(GUILD_B, "m", as_rows(theirs, matrix[:20]))
    index = VectorIndex(store)
    for n in range(0, 400, 37):
        query = matrix[n] + 0.05 * matrix[n + 1]
        query /= np.linalg.norm(query)
        held = await index.signs.nearest(GUILD_A, "m", to_blob(query), 10)
        assert held is not None  # the guild's signs are held
        cosines = matrix @ query
        ranked = [ids[i] for i in np.argsort(cosines)[::-1]]
        assert set(ranked[:3]) <= set(held)
        for fact_id, score in held.items():
            assert score == pytest.approx(float(cosines[ids.index(fact_id)]), abs=1e-5)
        found = await index.similarities(GUILD_A, "m", to_blob(query), top=10)
        assert found.nearest == held
    calls: list[object] = []
    monkeypatch.setattr(store, "rescore_facts", lambda *a: calls.append(a))
    again = await index.similarities(GUILD_A, "m", to_blob(query), top=10)
    assert again.nearest == held and not calls  # asked again: the answer kept
    monkeypatch.undo()
    monkeypatch.setattr(signs_module, "MIN_SIGNS", 100)
    # a small guild keeps SQLite's pass
    assert await index.signs.nearest(GUILD_B, "m", to_blob(matrix[0]), 10) is None
    # a fact archived since: stale signs are not used (SQLite's pass) until read again
    sql(store.path, "UPDATE memory_facts SET is_active = 0 WHERE id = ?", (ids[0],))
    store.vector_version += 1  # what the store's own writes do
    assert await index.signs.nearest(GUILD_A, "m", to_blob(matrix[0]), 10) is None
    found = await index.similarities(GUILD_A, "m", to_blob(matrix[0]), top=10)
    assert ids[0] not in found.nearest
    monkeypatch.setattr(signs_module, "RELOAD_SECONDS", 0.0)
    held = await index.signs.nearest(GUILD_A, "m", to_blob(matrix[0]), 10)
    assert held is not None and ids[0] not in held and ids[1] in held


def test_hamming_distances_match_a_bit_count() -> None:
    rng = np.random.default_rng(8)
    for width in (8, 24, 64, 256):
        bits = rng.integers(0, 256, size=(50, width // 8), dtype=np.uint8)
        query = rng.integers(0, 256, size=(1, width // 8), dtype=np.uint8)
        got = signs_module.hamming(signs_module._words(bits), signs_module._words(query)[:, 0])
        want = np.unpackbits(bits ^ query, axis=1).sum(axis=1)
        assert got.tolist() == want.tolist()
