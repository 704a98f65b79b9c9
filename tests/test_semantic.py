"""Fact vectors and semantic search: background embedding after ingest, per-query top-up,
model switching without mixing vectors, and embedding failures that never reach ingest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory import semantic as semantic_module
from memory.embeddings import LOCAL_MODEL_KEY, LocalEmbedder, to_blob
from memory.embeddings_openai import OpenAIEmbedder
from memory.lore import Origin
from memory.models import CandidateFact
from memory.runtime import open_memory
from memory.search.retriever import Retriever
from memory.semantic import Semantic
from memory.settings import load_settings
from memory.store import Store
from tests.fake_openai import FakeOpenAI, unused_port
from tests.helpers import CHANNEL_A, GUILD_A, SARAH, item, run_cli

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
def test_backfill_embeddings_after_a_model_switch(tmp_path: Path) -> None:
    from tests.conftest import SAMPLE_EXPORT

    data = tmp_path / "data"
    assert run_cli(data, "import", str(SAMPLE_EXPORT)).returncode == 0
    done = run_cli(data, "backfill", "--embeddings", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["requeued"] == 0  # the import embedded every fact already


async def test_a_big_guild_scan_is_cut_down_and_rescored_exactly(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above PREFILTER_FROM facts, the first quarter of the dimensions picks PREFILTER × top
    candidates and those are scored on all of them: the nearest facts are the exact ones."""
    rng = np.random.default_rng(3)
    # Matryoshka-like vectors: the leading dimensions carry most of the signal
    matrix = rng.standard_normal((400, 64)).astype(np.float32) * np.linspace(4, 0.5, 64)
    matrix = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)
    for n in range(400):
        subject = str(300000000000000100 + n % 10)  # (at most 80 active facts per member)
        fact = CandidateFact(subject, f"Fact number {n}.", "other", 0.9, "", str(n))
        await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A), fact)])
    ids = sorted(f.id for f in await store.active_facts(GUILD_A))
    assert len(ids) == 400
    rows = [(i, 64, to_blob(v)) for i, v in zip(ids, matrix, strict=True)]
    await store.store_fact_vectors(GUILD_A, "m", rows)
    monkeypatch.setattr(semantic_module, "PREFILTER_FROM", 100)
    index = semantic_module.VectorIndex(store)
    query = matrix[7] + 0.05 * matrix[8]
    query /= np.linalg.norm(query)  # embedders give unit vectors
    found = await index.similarities(GUILD_A, "m", to_blob(query), top=10)
    exact = matrix @ query
    ranked = [ids[i] for i in np.argsort(exact)[::-1]]
    assert set(ranked[:3]) <= set(found.nearest)  # the nearest ones are never cut
    assert len(set(found.nearest) & set(ranked[:10])) >= 7  # the scale bench measures real ones
    for fact_id, score in found.nearest.items():  # and the scores are the exact cosines
        assert score == pytest.approx(float(exact[ids.index(fact_id)]), abs=1e-5)
    assert found[ids[0]] == found.nearest.get(ids[0], 0.0)  # outside the top: far, not absent


async def test_query_vectors_stay_out_of_the_embedding_cache_table(store: Store) -> None:
    await seed(store)
    semantic = Semantic(store, LocalEmbedder())
    await semantic.facts.backfill(GUILD_A)
    (cached,) = await store._fetchone("SELECT count(*) FROM embedding_cache")
    for _ in range(2):
        assert await semantic.similarities(GUILD_A, "who has a puppy?")
    assert (await store._fetchone("SELECT count(*) FROM embedding_cache"))[0] == cached


async def test_renamed_members_are_found_by_their_new_name(store: Store) -> None:
    await seed(store)
    retriever = Retriever(store)
    assert await retriever.named_members(GUILD_A, "what does Sarah like?") == {SARAH.id: "Sarah"}
    await store.record_members(GUILD_A, [(SARAH.id, "Saz", SARAH.username)])
    assert await retriever.named_members(GUILD_A, "what does Saz like?") == {SARAH.id: "Saz"}
    assert await retriever.named_members(GUILD_A, "what does Sarah like?") == {}


async def test_the_index_appends_new_vectors_and_rereads_only_after_removals(
    store: Store,
) -> None:
    reads: list[int] = []
    original = store.fact_vectors_since

    async def recorded(guild_id: str, model: str, after_row: int) -> Any:
        reads.append(after_row)
        return await original(guild_id, model, after_row)

    store.fact_vectors_since = recorded  # type: ignore[method-assign]
    index = semantic_module.VectorIndex(store)

    async def add(n: int) -> int:
        fact = CandidateFact(SARAH.id, f"Fact number {n}.", "other", 0.9, "", str(n))
        await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A), fact)])
        (fact_id,) = [f.id for f in await store.active_facts(GUILD_A) if f.fact == fact.fact]
        vector = np.zeros(4, dtype=np.float32)
        vector[n % 4] = 1.0
        await store.store_fact_vectors(GUILD_A, "m", [(fact_id, 4, to_blob(vector))])
        return fact_id

    first = [await add(n) for n in range(3)]
    ids, _ = await index.matrix(GUILD_A, "m")
    assert sorted(ids.tolist()) == sorted(first) and reads == [0]
    more = [await add(n) for n in range(3, 80)]  # past the first capacity: it grows
    ids, matrix = await index.matrix(GUILD_A, "m")
    assert sorted(ids.tolist()) == sorted(first + more) and matrix.shape == (80, 4)
    assert reads[0] == 0 and all(after > 0 for after in reads[1:])  # appended, never reread
    found = await index.similarities(GUILD_A, "m", to_blob(np.array([0, 0, 0, 1.0])), top=5)
    assert set(found.nearest) <= {f for n, f in enumerate(first + more) if n % 4 == 3}
    # a fact that goes away makes the index read everything again
    await store._fetchall("UPDATE memory_facts SET is_active = 0 WHERE id = ?", (more[0],))
    store.vector_version += 1
    ids, _ = await index.matrix(GUILD_A, "m")
    assert more[0] not in ids.tolist() and len(ids) == 79 and reads[-1] == 0
