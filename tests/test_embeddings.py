"""Embedders (bundled wordllama, a remote model over real HTTP), the content cache and the
vector SQL, on real SQLite."""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.errors import ConfigError
from memory.search.embeddings import (
    LOCAL_MODEL_KEY,
    EmbeddingError,
    LocalEmbedder,
    build_embedder,
    content_hash,
    embed_cached,
    from_blob,
    matrix_from_blobs,
    normalise,
    to_blob,
)
from memory.search.embeddings_openai import OpenAIEmbedder
from memory.settings import load_settings
from memory.storage import vectors_sql
from memory.storage.db import connect_sync
from memory.storage.store import Store
from tests.fake_openai import FakeOpenAI, hash_embedding, raw, status
from tests.helpers import GUILD_A, GUILD_B

REPO = Path(__file__).resolve().parent.parent
NOW = "2026-10-12T18:03:11.123+00:00"
MODEL = "text-embedding-3-small"


def unit(blob: bytes) -> float:
    return float(np.linalg.norm(from_blob(blob)))


def cosine(a: bytes, b: bytes) -> float:
    return float(from_blob(a) @ from_blob(b))


# --- blobs and vectors --------------------------------------------------------------------


def test_blob_round_trip_is_float32_little_endian() -> None:
    vec = np.array([1.0, -2.5, 3.25], dtype=np.float64)
    blob = to_blob(vec)
    assert blob == np.array([1.0, -2.5, 3.25], dtype="<f4").tobytes()
    back = from_blob(blob)
    assert back.dtype == np.float32
    assert back.tolist() == [1.0, -2.5, 3.25]
    with pytest.raises(ValueError):
        from_blob(b"\x00\x00\x00")
    with pytest.raises(ValueError):
        to_blob(np.zeros((2, 2)))


def test_normalise_rows_and_zero_rows() -> None:
    out = normalise(np.array([[3.0, 4.0], [0.0, 0.0], [-2.0, 0.0]]))
    assert out.dtype == np.float32
    assert out.tolist() == [[0.6000000238418579, 0.800000011920929], [0.0, 0.0], [-1.0, 0.0]]


def test_matrix_from_blobs() -> None:
    blobs = [to_blob(np.array([1.0, 0.0])), to_blob(np.array([0.0, 1.0]))]
    assert matrix_from_blobs(blobs).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert matrix_from_blobs([], 4).shape == (0, 4)
    with pytest.raises(ValueError):
        matrix_from_blobs([*blobs, to_blob(np.array([1.0, 0.0, 0.0]))])


def test_content_hash_depends_on_model_and_text() -> None:
    base = content_hash("local:wordllama-256", "Sarah is a nurse")
    assert len(base) == 64
    assert base == content_hash("local:wordllama-256", "Sarah is a nurse")
    assert base != content_hash("text-embedding-3-small", "Sarah is a nurse")
    assert base != content_hash("local:wordllama-256", "Sarah is a nurse.")
    # the separator keeps (key, text) pairs apart that concatenate alike
    assert content_hash("ab", "c") != content_hash("a", "bc")


# --- the bundled model --------------------------------------------------------------------

OFFLINE_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys

    def no_network(event, args):
        if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname"):
            raise RuntimeError(f"network access attempted: {event} {args!r}")

    sys.addaudithook(no_network)

    from memory.search.embeddings import LocalEmbedder

    async def main():
        embedder = LocalEmbedder()
        blobs = await embedder.embed(["Sarah works as a nurse"])
        await embedder.aclose()
        print(json.dumps({"key": embedder.model_key, "dims": embedder.dims,
                          "bytes": len(blobs[0])}))

    asyncio.run(main())
    """
)


@pytest.mark.slow
def test_local_embedder_loads_offline(tmp_path: Path) -> None:
    """A fresh process with no network, no Hugging Face access and an empty home directory
    loads the bundled model: nothing is downloaded or read from a cache."""
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONPATH": str(REPO),
    }
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE_SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"key": LOCAL_MODEL_KEY, "dims": 256, "bytes": 1024}
    assert not (tmp_path / "cache").exists()
    assert not (tmp_path / ".cache").exists()


@pytest.fixture(scope="module")
def local_blobs() -> Iterator[dict[str, bytes]]:
    """One model load and one embedding pass shared by the local tests."""
    texts = [
        "Sarah works as a nurse",
        "what is Sarah's job",
        "the dragon ate the pizza",
        "Mike is training for the Berlin marathon",
        "",
        "   ",
    ]

    async def run() -> list[bytes]:
        embedder = LocalEmbedder()
        try:
            await embedder.load()
            return await embedder.embed(texts)
        finally:
            await embedder.aclose()

    yield dict(zip(texts, asyncio.run(run()), strict=True))


def test_local_embedder_shape_and_norm(local_blobs: dict[str, bytes]) -> None:
    embedder = LocalEmbedder()
    assert embedder.model_key == "local:wordllama-256"
    assert embedder.dims == 256
    for blob in local_blobs.values():
        assert len(blob) == 256 * 4
        assert math.isclose(unit(blob), 1.0, rel_tol=1e-5)


def test_local_embedder_similar_sentences_score_higher(local_blobs: dict[str, bytes]) -> None:
    job = cosine(local_blobs["Sarah works as a nurse"], local_blobs["what is Sarah's job"])
    dragon = cosine(local_blobs["Sarah works as a nurse"], local_blobs["the dragon ate the pizza"])
    assert job > dragon + 0.2


def test_local_embedder_blank_texts_get_one_vector(local_blobs: dict[str, bytes]) -> None:
    assert local_blobs[""] == local_blobs["   "]


async def test_local_embedder_keeps_order_and_is_deterministic(
    local_blobs: dict[str, bytes],
) -> None:
    embedder = LocalEmbedder()
    texts = ["the dragon ate the pizza", "Sarah works as a nurse", "what is Sarah's job"]
    assert await embedder.embed(texts) == [local_blobs[t] for t in texts]
    assert await embedder.embed([]) == []
    # concurrent calls share the one model safely
    many = await asyncio.gather(*(embedder.embed(texts) for _ in range(4)))
    assert all(result == many[0] for result in many)


# --- a remote model -----------------------------------------------------------------------


def remote(fake: FakeOpenAI, **options: Any) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        options.pop("model", MODEL), base_url=fake.base_url, api_key="test-key", **options
    )


def expected(text: str, dims: int) -> list[float]:
    values: list[float] = normalise(np.array([hash_embedding(text, dims)]))[0].tolist()
    return values


async def test_remote_batches_and_keeps_order(fake: FakeOpenAI) -> None:
    fake.embedding_dimensions = 24  # the model's own size (no dimensions asked)
    texts = [f"fact number {i}" for i in range(300)]
    embedder = remote(fake, batch_size=128)
    try:
        blobs = await embedder.embed(texts)
    finally:
        await embedder.aclose()
    sizes = [len(r.json["input"]) for r in fake.embeddings_requests]
    assert sizes == [128, 128, 44]
    assert [t for r in fake.embeddings_requests for t in r.json["input"]] == texts
    assert all(r.json["model"] == MODEL for r in fake.embeddings_requests)
    assert all("dimensions" not in r.json for r in fake.embeddings_requests)
    assert len(blobs) == 300
    for text, blob in zip(texts[::37], blobs[::37], strict=True):
        assert np.allclose(from_blob(blob), expected(text, 24), atol=1e-6)
    assert embedder.model_key == MODEL
    assert embedder.dims == 24  # learned from the first answer


async def test_remote_dimensions_are_sent_and_keyed(fake: FakeOpenAI) -> None:
    embedder = remote(fake, dimensions=512)
    assert embedder.model_key == "text-embedding-3-small@512"
    assert embedder.dims == 512
    try:
        (blob,) = await embedder.embed(["Sarah works as a nurse"])
    finally:
        await embedder.aclose()
    (request,) = fake.embeddings_requests
    assert request.json["dimensions"] == 512
    assert len(blob) == 512 * 4
    assert math.isclose(unit(blob), 1.0, rel_tol=1e-5)


async def test_remote_blank_texts_and_no_texts(fake: FakeOpenAI) -> None:
    embedder = remote(fake, dimensions=8)
    try:
        assert await embedder.embed([]) == []
        assert fake.embeddings_requests == []
        blobs = await embedder.embed(["", "  ", "x"])
    finally:
        await embedder.aclose()
    assert fake.embeddings_requests[0].json["input"] == [" ", " ", "x"]
    assert blobs[0] == blobs[1] != blobs[2]


@pytest.mark.slow
async def test_remote_retries_server_errors(fake: FakeOpenAI) -> None:
    fake.script(status(500), status(503), endpoint="embeddings")
    embedder = remote(fake, max_retries=3, dimensions=16)
    try:
        blobs = await embedder.embed(["a", "b"])
    finally:
        await embedder.aclose()
    assert len(fake.embeddings_requests) == 3
    assert len(blobs) == 2


@pytest.mark.slow
async def test_remote_gives_up_after_retries(fake: FakeOpenAI) -> None:
    fake.script(status(500), status(500), status(500), endpoint="embeddings")
    embedder = remote(fake, max_retries=2)
    try:
        with pytest.raises(EmbeddingError, match="after 3 attempts: HTTP 500"):
            await embedder.embed(["a"])
    finally:
        await embedder.aclose()
    assert len(fake.embeddings_requests) == 3


async def test_remote_client_error_is_not_retried(fake: FakeOpenAI) -> None:
    fake.script(
        status(400, {"error": {"message": "dimensions not supported"}}), endpoint="embeddings"
    )
    embedder = remote(fake, max_retries=4, dimensions=64)
    try:
        with pytest.raises(EmbeddingError) as caught:
            await embedder.embed(["a"])
    finally:
        await embedder.aclose()
    assert len(fake.embeddings_requests) == 1
    message = str(caught.value)
    assert "HTTP 400: dimensions not supported" in message
    assert "\n" not in message


async def test_remote_wrong_key_is_not_retried(fake: FakeOpenAI) -> None:
    embedder = OpenAIEmbedder(MODEL, base_url=fake.base_url, api_key="wrong", max_retries=4)
    try:
        with pytest.raises(EmbeddingError, match="HTTP 401"):
            await embedder.embed(["a"])
    finally:
        await embedder.aclose()
    assert len(fake.embeddings_requests) == 1


def answer(*items: dict[str, Any]) -> bytes:
    return json.dumps(
        {
            "object": "list",
            "data": [{"object": "embedding", **item} for item in items],
            "model": MODEL,
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }
    ).encode()


async def test_remote_reorders_by_index(fake: FakeOpenAI) -> None:
    fake.script(
        raw(answer({"index": 1, "embedding": [0.0, 2.0]}, {"index": 0, "embedding": [3.0, 0.0]})),
        endpoint="embeddings",
    )
    embedder = remote(fake)
    try:
        first, second = await embedder.embed(["a", "b"])
    finally:
        await embedder.aclose()
    assert from_blob(first).tolist() == [1.0, 0.0]
    assert from_blob(second).tolist() == [0.0, 1.0]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (answer({"index": 0, "embedding": [1.0, 0.0]}), "1 vector(s) for 2 input(s)"),
        (
            answer(
                {"index": 0, "embedding": [1.0, 0.0]}, {"index": 1, "embedding": [1.0, 0.0, 0.0]}
            ),
            "different lengths",
        ),
        (
            b'{"object": "list", "model": "m", "usage": {"prompt_tokens": 1, "total_tokens": 1},'
            b' "data": [{"object": "embedding", "index": 0, "embedding": [NaN, 1.0]},'
            b' {"object": "embedding", "index": 1, "embedding": [1.0, 1.0]}]}',
            "NaN or infinite",
        ),
        (
            answer({"index": 0, "embedding": [1.0, 0.0]}, {"index": 0, "embedding": [1.0, 0.0]}),
            "out of range or repeated",
        ),
        (
            answer({"index": 0, "embedding": [1.0, 0.0]}, {"index": 1, "embedding": ["x", 0.0]}),
            "other than numbers",
        ),
        (
            answer({"index": 0, "embedding": [1.0, 0.0]}, {"index": 1, "embedding": "%%%"}),
            "not valid base64",
        ),
        (answer({"index": 0, "embedding": [1.0]}, {"index": 1, "embedding": None}), "missing"),
        (b'{"data": "nope"}', "no data list"),
        (b'{"data": [', "malformed JSON"),
    ],
)
async def test_remote_malformed_answer(fake: FakeOpenAI, body: bytes, reason: str) -> None:
    fake.script(raw(body), endpoint="embeddings")
    embedder = remote(fake, max_retries=3)
    try:
        with pytest.raises(EmbeddingError) as caught:
            await embedder.embed(["a", "b"])
    finally:
        await embedder.aclose()
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)
    assert len(fake.embeddings_requests) == 1  # an unusable answer is not retried


async def test_remote_nan_from_base64(fake: FakeOpenAI) -> None:
    def handler(request: dict[str, Any]) -> list[list[float]]:
        return [[float("nan"), 1.0] for _ in request["input"]]

    fake.embeddings_handler = handler
    embedder = remote(fake)
    try:
        with pytest.raises(EmbeddingError, match="NaN or infinite"):
            await embedder.embed(["a"])
    finally:
        await embedder.aclose()


async def test_remote_wrong_dimensions(fake: FakeOpenAI) -> None:
    """A server ignoring ``dimensions`` (or changing its vector size) is caught."""
    fake.embeddings_handler = lambda request: [[1.0] * 10 for _ in request["input"]]
    embedder = remote(fake, dimensions=64)
    try:
        with pytest.raises(EmbeddingError, match="10 dimensions, expected 64"):
            await embedder.embed(["a"])
    finally:
        await embedder.aclose()


@pytest.mark.slow
async def test_remote_connection_refused_is_one_line() -> None:
    from tests.fake_openai import unused_port

    embedder = OpenAIEmbedder(
        MODEL,
        base_url=f"http://127.0.0.1:{unused_port()}/v1",
        api_key="k",
        max_retries=1,
    )
    try:
        with pytest.raises(EmbeddingError, match="connection refused"):
            await embedder.embed(["a"])
    finally:
        await embedder.aclose()


def test_remote_rejects_bad_options() -> None:
    with pytest.raises(ConfigError):
        OpenAIEmbedder("")
    with pytest.raises(ConfigError):
        OpenAIEmbedder(MODEL, batch_size=0)


# --- choosing an embedder -----------------------------------------------------------------


async def test_build_embedder_local_by_default() -> None:
    embedder = build_embedder(load_settings())
    assert isinstance(embedder, LocalEmbedder)
    assert embedder.model_key == LOCAL_MODEL_KEY
    with pytest.raises(ConfigError, match="256 dimensions"):
        build_embedder(load_settings(embedding_dimensions=512))


async def test_build_embedder_remote_uses_llm_settings(fake: FakeOpenAI) -> None:
    settings = load_settings(
        embedding_model=MODEL,
        embedding_dimensions=32,
        llm_base_url=fake.base_url,
        llm_api_key="test-key",
        llm_timeout=5,
        llm_max_retries=0,
    )
    embedder = build_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.model_key == f"{MODEL}@32"
    assert embedder.timeout == 5
    assert embedder.max_retries == 0
    try:
        (blob,) = await embedder.embed(["hello"])
    finally:
        await embedder.aclose()
    assert len(blob) == 32 * 4
    assert fake.embeddings_requests[0].header("authorization") == "Bearer test-key"


# --- the database -------------------------------------------------------------------------


@pytest.fixture
async def conn(data_dir: Path) -> AsyncIterator[Any]:
    """A sync connection to a database the real Store created (migrations applied)."""
    path = data_dir / "memory.db"
    store = await Store.open(path)
    await store.close()
    connection = connect_sync(path)
    try:
        yield connection
    finally:
        connection.close()


def add_fact(
    conn: Any,
    guild_id: str,
    fact: str,
    *,
    fact_type: str = "profile",
    evidence: str = "",
    subject: str = "300000000000000001",
    active: bool = True,
) -> int:
    row = conn.execute(
        "INSERT INTO memory_facts (guild_id, subject, fact, fact_type, evidence_text, "
        "confidence, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0.9, ?, ?, ?) "
        "RETURNING id",
        (guild_id, subject, fact, fact_type, evidence, int(active), NOW, NOW),
    ).fetchone()
    return int(row[0])


def vec(*values: float) -> bytes:
    return to_blob(np.array(values))


def test_fact_embedding_text() -> None:
    text = vectors_sql.fact_embedding_text
    assert text("profile", "Sarah works as a nurse.", "I work nights as a nurse") == (
        "profile: Sarah works as a nurse. (evidence: I work nights as a nurse)"
    )
    assert text("project", "Mike trains for Berlin.", "") == "project: Mike trains for Berlin."
    assert text("other", "Sarah likes tea.", "sarah likes tea") == "other: Sarah likes tea."


def test_missing_vectors_store_and_read_back(conn: Any) -> None:
    nurse = add_fact(conn, GUILD_A, "Sarah works as a nurse.", evidence="I work as a nurse")
    tea = add_fact(conn, GUILD_A, "Sarah likes tea.", fact_type="preference")
    add_fact(conn, GUILD_A, "Sarah lived in Rome.", active=False)

    assert vectors_sql.count_missing(conn, GUILD_A, "m") == 2
    assert vectors_sql.facts_missing_vectors(conn, GUILD_A, "m", 10) == [
        (nurse, "profile: Sarah works as a nurse. (evidence: I work as a nurse)"),
        (tea, "preference: Sarah likes tea."),
    ]
    assert vectors_sql.facts_missing_vectors(conn, GUILD_A, "m", 1) == [
        (nurse, "profile: Sarah works as a nurse. (evidence: I work as a nurse)")
    ]

    assert vectors_sql.store_fact_vectors(conn, GUILD_A, "m", [(nurse, 2, vec(1, 0))]) == 1
    assert vectors_sql.count_missing(conn, GUILD_A, "m") == 1
    assert [f for f, _ in vectors_sql.facts_missing_vectors(conn, GUILD_A, "m", 10)] == [tea]
    # upsert: a second vector for the same (fact, model) replaces the first
    stored = vectors_sql.store_fact_vectors(
        conn, GUILD_A, "m", [(nurse, 2, vec(0, 1)), (tea, 2, vec(1, 1))]
    )
    assert stored == 2
    assert vectors_sql.fact_vectors(conn, GUILD_A, "m") == [
        (nurse, vec(0, 1)),
        (tea, vec(1, 1)),
    ]
    assert vectors_sql.count_missing(conn, GUILD_A, "m") == 0
    table = vectors_sql.vector_table(conn, "m")
    assert table is not None and table.dims == 2
    (rows,) = conn.execute(f"SELECT count(*) FROM {table.name}").fetchone()
    assert rows == 2

    # archived facts drop out of the vectors read back
    conn.execute("UPDATE memory_facts SET is_active = 0 WHERE id = ?", (tea,))
    assert vectors_sql.fact_vectors(conn, GUILD_A, "m") == [(nurse, vec(0, 1))]

    # a changed fact's vectors are dropped so that it is embedded again
    assert vectors_sql.drop_fact_vectors(conn, GUILD_A, [nurse]) == 1
    assert [f for f, _ in vectors_sql.facts_missing_vectors(conn, GUILD_A, "m", 10)] == [nurse]


def test_store_fact_vectors_checks_dims_and_skips_gone_facts(conn: Any) -> None:
    fact = add_fact(conn, GUILD_A, "Sarah works as a nurse.")
    with pytest.raises(ValueError, match="not 3 float32s"):
        vectors_sql.store_fact_vectors(conn, GUILD_A, "m", [(fact, 3, vec(1, 0))])
    assert vectors_sql.fact_vectors(conn, GUILD_A, "m") == []
    gone = add_fact(conn, GUILD_A, "Sarah had a cat.")
    conn.execute("DELETE FROM memory_facts WHERE id = ?", (gone,))
    assert vectors_sql.store_fact_vectors(conn, GUILD_A, "m", [(gone, 2, vec(1, 0))]) == 0
    assert vectors_sql.store_fact_vectors(conn, GUILD_A, "m", []) == 0


def test_vectors_are_guild_scoped(conn: Any) -> None:
    a = add_fact(conn, GUILD_A, "Sarah works as a nurse.")
    b = add_fact(conn, GUILD_B, "Sarah works as a nurse.")
    assert vectors_sql.facts_missing_vectors(conn, GUILD_A, "m", 10) == [
        (a, "profile: Sarah works as a nurse.")
    ]
    assert [f for f, _ in vectors_sql.facts_missing_vectors(conn, GUILD_B, "m", 10)] == [b]

    # a fact of guild B offered under guild A is not stored
    assert vectors_sql.store_fact_vectors(conn, GUILD_A, "m", [(b, 2, vec(1, 0))]) == 0
    assert vectors_sql.store_fact_vectors(conn, GUILD_A, "m", [(a, 2, vec(1, 0))]) == 1
    assert vectors_sql.fact_vectors(conn, GUILD_A, "m") == [(a, vec(1, 0))]
    assert vectors_sql.fact_vectors(conn, GUILD_B, "m") == []
    assert vectors_sql.count_missing(conn, GUILD_A, "m") == 0
    assert vectors_sql.count_missing(conn, GUILD_B, "m") == 1
    # dropping under guild B leaves guild A's vector alone
    assert vectors_sql.drop_fact_vectors(conn, GUILD_B, [a, b]) == 0
    assert vectors_sql.fact_vectors(conn, GUILD_A, "m") == [(a, vec(1, 0))]


def test_switching_models_keeps_vectors_apart(conn: Any) -> None:
    facts = [add_fact(conn, GUILD_A, f"Sarah fact {i}.") for i in range(3)]
    vectors_sql.store_fact_vectors(conn, GUILD_A, "model-a", [(f, 2, vec(1, 0)) for f in facts])
    assert vectors_sql.count_missing(conn, GUILD_A, "model-a") == 0
    assert vectors_sql.fact_vectors(conn, GUILD_A, "model-b") == []
    assert vectors_sql.count_missing(conn, GUILD_A, "model-b") == 3
    assert [f for f, _ in vectors_sql.facts_missing_vectors(conn, GUILD_A, "model-b", 10)] == facts
    vectors_sql.store_fact_vectors(conn, GUILD_A, "model-b", [(facts[0], 3, vec(0, 0, 1))])
    assert vectors_sql.fact_vectors(conn, GUILD_A, "model-a") == [(f, vec(1, 0)) for f in facts]
    assert vectors_sql.fact_vectors(conn, GUILD_A, "model-b") == [(facts[0], vec(0, 0, 1))]
    # a table per model: another width of the same model is refused
    tables = vectors_sql.vector_tables(conn)
    assert {m: t.dims for m, t in tables.items()} == {"model-a": 2, "model-b": 3}
    with pytest.raises(ValueError, match="model-b has 3 dims"):
        vectors_sql.store_fact_vectors(conn, GUILD_A, "model-b", [(facts[1], 2, vec(1, 0))])
    # deleting a fact takes all its vectors with it
    conn.execute("DELETE FROM memory_facts WHERE id = ?", (facts[0],))
    for table in tables.values():
        (left,) = conn.execute(
            f"SELECT count(*) FROM {table.name} WHERE rowid = ?", (facts[0],)
        ).fetchone()
        assert left == 0


def test_embedding_cache_round_trip(conn: Any) -> None:
    assert vectors_sql.cached_vectors(conn, "m", ["h1", "h2"]) == {}
    vectors_sql.cache_vectors(conn, "m", [("h1", vec(1, 0)), ("h2", vec(0, 1))])
    vectors_sql.cache_vectors(conn, "m", [])
    assert vectors_sql.cached_vectors(conn, "m", ["h1", "h2", "h3", "h1"]) == {
        "h1": vec(1, 0),
        "h2": vec(0, 1),
    }
    assert vectors_sql.cached_vectors(conn, "other", ["h1"]) == {}
    (dims,) = conn.execute("SELECT dims FROM embedding_cache WHERE sha256 = 'h1'").fetchone()
    assert dims == 2
    many = [(f"h{i}", vec(float(i))) for i in range(1200)]  # more than one IN (...) chunk
    vectors_sql.cache_vectors(conn, "big", many)
    assert vectors_sql.cached_vectors(conn, "big", [h for h, _ in many]) == dict(many)


# --- the cache in front of an embedder ----------------------------------------------------


class Counting:
    """Lookup and store callables backed by the real tables, counting their calls."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.lookups = 0
        self.stores: list[int] = []

    async def lookup(self, model: str, hashes: list[str]) -> dict[str, bytes]:
        self.lookups += 1
        return await asyncio.to_thread(vectors_sql.cached_vectors, self.conn, model, hashes)

    async def store(self, model: str, rows: list[tuple[str, bytes]]) -> None:
        self.stores.append(len(rows))
        await asyncio.to_thread(vectors_sql.cache_vectors, self.conn, model, rows)


async def test_cache_hits_skip_the_request(conn: Any, fake: FakeOpenAI) -> None:
    cache = Counting(conn)
    embedder = remote(fake, dimensions=16)
    texts = ["Sarah works as a nurse", "Mike likes tea", "Sarah works as a nurse"]
    try:
        first = await embed_cached(embedder, texts, cache.lookup, cache.store)
        assert len(fake.embeddings_requests) == 1
        assert fake.embeddings_requests[0].json["input"] == texts[:2]  # each text once
        assert first[0] == first[2] != first[1]

        second = await embed_cached(embedder, texts, cache.lookup, cache.store)
        assert second == first
        assert len(fake.embeddings_requests) == 1  # all from the cache

        third = await embed_cached(embedder, ["Mike likes tea", "new"], cache.lookup, cache.store)
        assert third[0] == first[1]
        assert fake.embeddings_requests[1].json["input"] == ["new"]
        assert await embed_cached(embedder, [], cache.lookup, cache.store) == []
    finally:
        await embedder.aclose()
    assert cache.stores == [2, 1]
    key = content_hash(f"{MODEL}@16", "Sarah works as a nurse")
    assert vectors_sql.cached_vectors(conn, f"{MODEL}@16", [key]) == {key: first[0]}


async def test_cache_is_per_model(conn: Any, fake: FakeOpenAI) -> None:
    cache = Counting(conn)
    small = remote(fake, dimensions=16)
    large = remote(fake, dimensions=32)
    try:
        (a,) = await embed_cached(small, ["tea"], cache.lookup, cache.store)
        (b,) = await embed_cached(large, ["tea"], cache.lookup, cache.store)
    finally:
        await small.aclose()
        await large.aclose()
    assert len(fake.embeddings_requests) == 2
    assert (len(a), len(b)) == (64, 128)


async def test_cache_ignores_blobs_of_the_wrong_length(conn: Any, fake: FakeOpenAI) -> None:
    cache = Counting(conn)
    embedder = remote(fake, dimensions=16)
    key = content_hash(embedder.model_key, "tea")
    vectors_sql.cache_vectors(conn, embedder.model_key, [(key, vec(1, 0))])
    try:
        (blob,) = await embed_cached(embedder, ["tea"], cache.lookup, cache.store)
    finally:
        await embedder.aclose()
    assert len(blob) == 64
    assert len(fake.embeddings_requests) == 1
    assert vectors_sql.cached_vectors(conn, embedder.model_key, [key]) == {key: blob}


async def test_cache_with_the_local_model(conn: Any, local_blobs: dict[str, bytes]) -> None:
    cache = Counting(conn)
    embedder = LocalEmbedder()
    texts = ["Sarah works as a nurse", "what is Sarah's job"]
    first = await embed_cached(embedder, texts, cache.lookup, cache.store)
    assert first == [local_blobs[t] for t in texts]
    assert await embed_cached(embedder, texts, cache.lookup, cache.store) == first
    assert cache.stores == [2]
