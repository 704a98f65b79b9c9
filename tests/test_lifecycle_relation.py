"""The cached similarity of fact texts (memory.lifecycle)."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence

import numpy as np
import pytest

from memory.lifecycle import FactSimilarity
from memory.search.embeddings import to_blob

# --- similarity -----------------------------------------------------------------------------


class CountingEmbedder:
    """Deterministic unit vectors from a hash of the text; records every batch."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> list[bytes]:
        self.batches.append(list(texts))
        blobs = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            vector = np.random.default_rng(seed).normal(size=16)
            blobs.append(to_blob(vector / np.linalg.norm(vector)))
        return blobs


@pytest.fixture(scope="module")
def local() -> FactSimilarity:
    return FactSimilarity()


def test_the_same_text_is_similar_to_itself(local: FactSimilarity) -> None:
    assert local.score("Omar plays the cello.", "Omar plays the cello.") == pytest.approx(1.0)


def test_a_paraphrase_scores_above_an_unrelated_fact(local: FactSimilarity) -> None:
    paraphrase, other = local.scores(
        "Omar plays the cello.", ["Omar plays cello.", "Lena works at the airport."]
    )
    assert paraphrase > 0.9 > other


def test_a_batch_scores_like_single_calls(local: FactSimilarity) -> None:
    olds = ["Omar plays cello.", "Lena works at the airport.", "", "Omar hates mushrooms."]
    batch = local.scores("Omar plays the cello.", olds)
    singles = [FactSimilarity().score("Omar plays the cello.", old) for old in olds]
    assert batch == pytest.approx(singles, abs=1e-5)
    assert all(-1.0 <= score <= 1.0 for score in batch)


def test_vectors_are_cached_and_each_text_embedded_once() -> None:
    embed = CountingEmbedder()
    similarity = FactSimilarity(embed)
    first = similarity.scores("new fact", ["old a", "old b", "old a"])
    assert embed.batches == [["new fact", "old a", "old b"]]
    assert similarity.scores("new fact", ["old a", "old b", "old a"]) == first
    assert similarity.score("old b", "old c") == pytest.approx(similarity.score("old b", "old c"))
    assert embed.batches == [["new fact", "old a", "old b"], ["old c"]]
    info = similarity.cache_info()
    assert (info.misses, info.size) == (4, 4)
    assert info.hits >= 5
    assert similarity.scores("new fact", []) == []


def test_the_cache_evicts_the_least_recently_used() -> None:
    embed = CountingEmbedder()
    similarity = FactSimilarity(embed, cache_size=2)
    similarity.vectors(["a", "b"])
    similarity.vectors(["a"])  # "a" is now the most recently used
    similarity.vectors(["c"])  # evicts "b"
    similarity.vectors(["a", "b"])
    assert embed.batches == [["a", "b"], ["c"], ["b"]]
    with pytest.raises(ValueError):
        FactSimilarity(embed, cache_size=0)


async def test_similarity_is_synchronous_inside_a_running_loop(local: FactSimilarity) -> None:
    """The database thread has no event loop; code on the loop may call it too (it blocks)."""
    assert local.score("Omar plays the cello.", "Lena works at the airport.") < 0.9


def test_similarity_is_usable_from_several_threads() -> None:
    embed = CountingEmbedder()
    similarity = FactSimilarity(embed, cache_size=64)
    results: list[list[float]] = []

    def work() -> None:
        results.append(similarity.scores("new", [f"old {i}" for i in range(40)]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4
    assert all(result == pytest.approx(results[0]) for result in results)
