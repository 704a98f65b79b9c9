"""Fact vectors and semantic search: background embedding after ingest, per-query top-up,
model switching without mixing vectors, and embedding failures that never reach ingest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.extraction.lore import Origin
from memory.models import CandidateFact
from memory.runtime import open_memory
from memory.search import semantic as semantic_module
from memory.search.embeddings import LOCAL_MODEL_KEY, LocalEmbedder, to_blob
from memory.search.embeddings_openai import OpenAIEmbedder
from memory.search.retriever import Retriever
from memory.search.semantic import Semantic
from memory.settings import load_settings
from memory.storage.store import Store
from tests.fake_openai import FakeOpenAI, unused_port
from tests.helpers import CHANNEL_A, GUILD_A, GUILD_B, SARAH, item, run_cli, sql

FACTS = [
    "Sarah works as a nurse at the children's hospital.",
    "Sarah has a dog named Biscuit.",
    "Sarah likes pineapple on pizza.",
]


async def seed(store: Store) -> None:
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    for n, text in enumerate(FACTS):
        fact = CandidateFact(SARAH.id, text, "other", 0.9, "", str(n))
        await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A), fact)])


async def test_facts_get_vectors_in_the_background_after_ingest(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data")
    async with open_memory(settings) as rt:
        await (await rt.ingest(item(1, "i'm a nurse at the children's hospital")))
        await rt.settle()
        assert await rt.missing_vectors(GUILD_A) == 0 and rt.embedding_model == LOCAL_MODEL_KEY
        (hit,) = await rt.search(GUILD_A, "who is a healthcare worker")
        assert hit.fact.fact == "Sarah is a nurse at the children's hospital."
        assert hit.scores.semantic is not None and hit.scores.semantic > 0.2


async def test_semantic_scores_rank_by_meaning_and_top_up_per_query(store: Store) -> None:
    await seed(store)
    semantic = Semantic(store, LocalEmbedder())
    assert await store.count_missing_vectors(GUILD_A, LOCAL_MODEL_KEY) == 3
    hits = await Retriever(store, semantic).search(GUILD_A, "puppy", strict=False)
    # the query embedded the (up to 8) facts that lacked a vector first
    assert await store.count_missing_vectors(GUILD_A, LOCAL_MODEL_KEY) == 0
    assert hits[0].fact.fact == "Sarah has a dog named Biscuit."
    assert all(h.scores.semantic is not None for h in hits)


async def test_switching_models_never_mixes_vectors(store: Store) -> None:
    await seed(store)
    await Semantic(store, LocalEmbedder()).facts.backfill(GUILD_A)
    async with FakeOpenAI() as fake:
        remote = OpenAIEmbedder("fake-embed", base_url=fake.base_url, api_key="k", dimensions=64)
        assert await store.count_missing_vectors(GUILD_A, remote.model_key) == 3
        semantic = Semantic(store, remote)
        await semantic.facts.backfill(GUILD_A)
        await remote.aclose()
    local = await store.fact_vectors(GUILD_A, LOCAL_MODEL_KEY)
    other = await store.fact_vectors(GUILD_A, "fake-embed@64")
    assert {len(blob) for _, blob in local} == {256 * 4}
    assert {len(blob) for _, blob in other} == {64 * 4}


async def test_an_unreachable_embedder_never_fails_ingest_and_search_stays_lexical(
    tmp_path: Path,
) -> None:
    settings = load_settings(
        data_dir=tmp_path / "data",
        embedding_model="remote-embed",
        llm_base_url=f"http://127.0.0.1:{unused_port()}/v1",
        llm_max_retries=0,
    )
    async with open_memory(settings) as rt:
        handle = await rt.ingest(item(1, "i'm a nurse at the children's hospital"))
        assert await handle is True
        await rt.settle()
        (hit,) = await rt.search(GUILD_A, "nurse")
        assert hit.scores.semantic is None  # lexical only, and it still finds the fact


@pytest.mark.slow
def test_backfill_embeddings_after_a_model_switch(sample_imported: Path) -> None:
    data = sample_imported  # imported by `memorybot import`
    done = run_cli(data, "backfill", "--embeddings", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["requeued"] == 0  # the import embedded every fact already


async def add_facts(store: Store, guild_id: str, count: int, start: int = 0) -> list[int]:
    """``count`` facts of the guild (ten members' worth), their ids in order."""
    for n in range(start, start + count):
        subject = str(300000000000000100 + n % 10)  # (at most 80 active facts per member)
        fact = CandidateFact(subject, f"Fact number {n}.", "other", 0.9, "", str(n))
        await store.finish_jobs([], [], [(Origin(guild_id, CHANNEL_A), fact)])
    texts = {f"Fact number {n}." for n in range(start, start + count)}
    return sorted(f.id for f in await store.active_facts(guild_id) if f.fact in texts)


def as_rows(ids: list[int], matrix: Any) -> list[tuple[int, int, bytes]]:
    """``store_fact_vectors`` rows: each fact with its row of ``matrix``."""
    return [(i, matrix.shape[1], to_blob(v)) for i, v in zip(ids, matrix, strict=True)]


def unit_rows(rng: np.random.Generator, count: int, dims: int) -> Any:
    matrix = rng.standard_normal((count, dims)).astype(np.float32)
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)


async def test_the_k_nn_finds_the_nearest_facts_and_scores_them_exactly(store: Store) -> None:
    """The coarse pass (signs, Hamming distance) keeps 8 × top candidates, re-scored on the
    float vectors: the nearest facts are found, with their exact cosines."""
    rng = np.random.default_rng(3)
    # 40 topics of 10 facts each: a fact's nearest are (mostly) its topic's
    matrix = np.repeat(unit_rows(rng, 40, 64), 10, axis=0) + 0.08 * unit_rows(rng, 400, 64)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    ids = await add_facts(store, GUILD_A, 400)
    await store.store_fact_vectors(GUILD_A, "m", as_rows(ids, matrix))
    index = semantic_module.VectorIndex(store)
    exact = await store.nearest_facts(GUILD_A, "m", to_blob(matrix[7]), 10, exact=True)
    assert list(exact.similarities)[:1] == [ids[7]] and exact.bound is None
    for n in range(0, 400, 37):
        query = matrix[n] + 0.05 * matrix[n + 1]
        query /= np.linalg.norm(query)  # embedders give unit vectors
        found = await index.similarities(GUILD_A, "m", to_blob(query), top=10)
        cosines = matrix @ query
        ranked = [ids[i] for i in np.argsort(cosines)[::-1]]
        assert set(ranked[:3]) <= set(found.nearest)  # the nearest ones are never missed
        assert len(set(found.nearest) & set(ranked[:10])) >= 8  # the scale bench: real ones
        for fact_id, score in found.nearest.items():  # and the scores are the exact cosines
            assert score == pytest.approx(float(cosines[ids.index(fact_id)]), abs=1e-5)
    far = next(i for i in ids if i not in found.nearest)
    assert found[far] == 0.0 and far in found  # outside the top: far, not absent


async def test_the_k_nn_never_returns_another_guilds_facts(store: Store) -> None:
    rng = np.random.default_rng(4)
    matrix = unit_rows(rng, 30, 16)
    mine = await add_facts(store, GUILD_A, 30)
    theirs = await add_facts(store, GUILD_B, 30)
    await store.store_fact_vectors(GUILD_A, "m", as_rows(mine, matrix))
    # guild B's facts have the very same vectors
    await store.store_fact_vectors(GUILD_B, "m", as_rows(theirs, matrix))
    # and a fact of guild B offered under guild A is not stored
    assert await store.store_fact_vectors(GUILD_A, "m", [(theirs[0], 16, to_blob(matrix[0]))]) == 0
    for exact in (False, True):
        found = await store.nearest_facts(GUILD_A, "m", to_blob(matrix[0]), 100, exact=exact)
        assert set(found.similarities) == set(mine)
        found = await store.nearest_facts(GUILD_B, "m", to_blob(matrix[0]), 100, exact=exact)
        assert set(found.similarities) == set(theirs)


async def test_archived_and_deleted_facts_never_come_back(store: Store) -> None:
    rng = np.random.default_rng(5)
    matrix = unit_rows(rng, 20, 16)
    ids = await add_facts(store, GUILD_A, 20)
    await store.store_fact_vectors(GUILD_A, "m", as_rows(ids, matrix))
    archived, deleted = ids[0], ids[1]
    sql(store.path, "UPDATE memory_facts SET is_active = 0 WHERE id = ?", (archived,))
    sql(store.path, "DELETE FROM memory_facts WHERE id = ?", (deleted,))
    for n in (0, 1):
        for exact in (False, True):
            found = await store.nearest_facts(GUILD_A, "m", to_blob(matrix[n]), 50, exact=exact)
            assert set(found.similarities) == set(ids[2:])
    assert [f for f, _ in await store.fact_vectors(GUILD_A, "m")] == ids[2:]
    # the archived fact said again is active again, and so is its vector
    fact = CandidateFact(str(300000000000000100), "Fact number 0.", "other", 0.9, "", "0")
    await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A), fact)])
    found = await store.nearest_facts(GUILD_A, "m", to_blob(matrix[0]), 1)
    assert list(found.similarities) == [archived]


async def test_the_k_nn_never_mixes_models(store: Store) -> None:
    rng = np.random.default_rng(6)
    ids = await add_facts(store, GUILD_A, 10)
    same_width, other_width = unit_rows(rng, 10, 16), unit_rows(rng, 10, 24)
    await store.store_fact_vectors(GUILD_A, "m", as_rows(ids[:5], same_width[:5]))
    await store.store_fact_vectors(GUILD_A, "n", as_rows(ids[5:], same_width[:5]))
    await store.store_fact_vectors(GUILD_A, "w", as_rows(ids, other_width))
    for exact in (False, True):
        found = await store.nearest_facts(GUILD_A, "m", to_blob(same_width[7]), 10, exact=exact)
        assert set(found.similarities) == set(ids[:5])
        found = await store.nearest_facts(GUILD_A, "n", to_blob(same_width[0]), 10, exact=exact)
        assert set(found.similarities) == set(ids[5:])
    assert (await store.nearest_facts(GUILD_A, "w", to_blob(same_width[0]), 10)).similarities == {}
    assert (await store.nearest_facts(GUILD_A, "x", to_blob(same_width[0]), 10)).similarities == {}
    assert (
        len((await store.nearest_facts(GUILD_A, "w", to_blob(other_width[0]), 10)).similarities)
        == 10
    )


async def test_facts_without_a_vector_are_absent_from_the_similarities(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seed(store)
    semantic = Semantic(store, LocalEmbedder())
    ids = sorted(f.id for f in await store.active_facts(GUILD_A))
    monkeypatch.setattr(semantic_module, "PER_QUERY", 2)
    found = await semantic.similarities(GUILD_A, "who has a puppy?")
    assert found is not None and found.missing == {ids[2]}  # the query embedded two of three
    assert ids[2] not in found and found.get(ids[2]) is None  # lexical for it
    assert set(found) == set(ids[:2])
    found = await semantic.similarities(GUILD_A, "who has a puppy?")  # and now the third
    assert found is not None and found.missing == frozenset() and set(found) == set(ids)
    monkeypatch.setattr(semantic_module, "MISSING_LISTED", 0)  # mid-backfill: too many to list
    for n, text in enumerate(["Sarah sails on weekends.", "Sarah bakes bread."]):
        fact = CandidateFact(SARAH.id, text, "other", 0.9, "", str(9 + n))
        await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A), fact)])
    monkeypatch.setattr(semantic_module, "PER_QUERY", 1)
    found = await semantic.similarities(GUILD_A, "who has a puppy?")
    assert found is not None and found.missing is None  # only the nearest count
    newest = max(f.id for f in await store.active_facts(GUILD_A))
    assert len(found) == 4 and newest not in found


async def test_query_vectors_stay_out_of_the_embedding_cache_table(store: Store) -> None:
    await seed(store)
    semantic = Semantic(store, LocalEmbedder())
    await semantic.facts.backfill(GUILD_A)
    (cached,) = sql(store.path, "SELECT count(*) FROM embedding_cache")[0]
    for _ in range(2):
        assert await semantic.similarities(GUILD_A, "who has a puppy?")
    assert sql(store.path, "SELECT count(*) FROM embedding_cache")[0][0] == cached


async def test_renamed_members_are_found_by_their_new_name(store: Store) -> None:
    await seed(store)
    retriever = Retriever(store)
    assert await retriever.named_members(GUILD_A, "what does Sarah like?") == {SARAH.id: "Sarah"}
    await store.record_members(GUILD_A, [(SARAH.id, "Saz", SARAH.username)])
    assert await retriever.named_members(GUILD_A, "what does Saz like?") == {SARAH.id: "Saz"}
    assert await retriever.named_members(GUILD_A, "what does Sarah like?") == {}
