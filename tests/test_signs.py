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


async def test_a_big_guilds_pass_in_memory_finds_the_nearest_and_scores_them(
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
            exact = float(cosines[ids.index(fact_id)])
            assert score == pytest.approx(exact, abs=signs_module.SCORE_ERROR)
        found = await index.similarities(GUILD_A, "m", to_blob(query), top=10)
        assert found.nearest == held
    calls: list[object] = []
    monkeypatch.setattr(signs_module, "hamming", lambda *a: calls.append(a))
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
    read: list[list[int]] = []
    reading = store.fact_vectors_of

    async def counted(guild: str, model: str, fact_ids: list[int]) -> list[tuple[int, bytes]]:
        read.append(list(fact_ids))
        return await reading(guild, model, fact_ids)

    monkeypatch.setattr(store, "fact_vectors_of", counted)
    held = await index.signs.nearest(GUILD_A, "m", to_blob(matrix[0]), 10)
    assert held is not None and ids[0] not in held and ids[1] in held
    assert read == []  # read again: the vectors it held are kept, none read
    (new,) = await add_facts(store, GUILD_A, 1, start=1000)
    await store.store_fact_vectors(GUILD_A, "m", as_rows([new], matrix[5:6]))
    held = await index.signs.nearest(GUILD_A, "m", to_blob(matrix[5]), 10)
    assert read == [[new]] and held is not None and new in held
    assert held[new] == pytest.approx(1.0, abs=signs_module.SCORE_ERROR)


def test_int8_vectors_keep_the_cosine_within_the_stated_error() -> None:
    rng = np.random.default_rng(9)
    floats = rng.normal(size=(500, 256)).astype(np.float32)
    floats /= np.linalg.norm(floats, axis=1, keepdims=True)
    vectors, norms = signs_module.quantised(floats)
    query = floats[0]
    exact = floats @ query
    approx = (vectors @ query) / norms
    assert np.abs(approx - exact).max() < signs_module.SCORE_ERROR


def test_closest_keeps_the_smallest_distances_ties_lowest_position_first() -> None:
    rng = np.random.default_rng(7)
    distance = rng.integers(0, 40, size=5000).astype(np.uint16)
    for want in (1, 37, 960, 4999):
        at = signs_module.closest(distance, want)
        assert len(at) == len(set(at.tolist())) == want
        kept = np.sort(distance[at])
        assert kept.tolist() == np.sort(distance)[:want].tolist()
        cut = kept[-1]
        ties = np.flatnonzero(distance == cut)
        assert set(at[distance[at] == cut].tolist()) == set(ties[: np.sum(distance[at] == cut)])
    assert signs_module.closest(distance[:10], 960).tolist() == list(range(10))


def test_hamming_distances_match_a_bit_count() -> None:
    rng = np.random.default_rng(8)
    for width in (8, 24, 64, 256):
        bits = rng.integers(0, 256, size=(50, width // 8), dtype=np.uint8)
        query = rng.integers(0, 256, size=(1, width // 8), dtype=np.uint8)
        got = signs_module.hamming(signs_module._words(bits), signs_module._words(query)[:, 0])
        want = np.unpackbits(bits ^ query, axis=1).sum(axis=1)
        assert got.tolist() == want.tolist()
