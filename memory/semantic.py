"""Vectors for facts: embedded in the background, searched in memory.

``FactEmbedder`` embeds the facts that have no vector for the current model — after ingest
stores facts (woken per guild), per query (up to 8), or all of them (``backfill``). It never
blocks or fails ingest: an embedding error is logged and retried on the next wake, and until
then search is lexical. Vectors are keyed (fact, model), so switching the model never mixes
them; the facts simply lack vectors of the new model until they are embedded again.

``VectorIndex`` keeps one unit-vector matrix per (guild, model) in memory, rebuilt when the
store's ``vector_version`` moves, so a query's cosine similarities are one matrix product.
A big guild's product is cut down: its first quarter of dimensions (renormalised) ranks
every fact, and only the best ``PREFILTER`` × top are scored on all dimensions. Embedding
models trained Matryoshka-style (the bundled WordLlama, OpenAI's text-embedding-3) put the
most information first, and the exact re-scoring makes the final order exact among those.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from memory.embeddings import Embedder, embed_cached, from_blob
from memory.store import Store
from memory.vectors_sql import VectorRows

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

BATCH = 64
PER_QUERY = 8  # DESIGN: up to 8 facts missing a vector are embedded per query
RETRY_SECONDS = 30.0
TOP_K = 120  # nearest facts by meaning that a query considers
QUERY_CACHE = 1024  # query vectors kept in memory
PREFILTER_FROM = 20_000  # facts with vectors from which a guild's scan is cut down
PREFILTER = 8  # the cut keeps this many times the wanted nearest facts

Progress = Callable[[int], None]


class FactEmbedder:
    """Embeds facts without a vector of ``embedder``'s model, in the background."""

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder
        self._waiting: set[str] = set()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None

    @property
    def model(self) -> str:
        return self.embedder.model_key

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="memorybot-fact-embedder")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self, guild_id: str) -> None:
        """Facts of this guild changed: embed what lacks a vector, soon."""
        self._waiting.add(guild_id)
        self._idle.clear()
        self._wake.set()

    async def join(self) -> None:
        """Wait until every woken guild is embedded (or its attempt failed)."""
        await self._idle.wait()

    async def embed_missing(self, guild_id: str, limit: int) -> int:
        """Embed up to ``limit`` facts of the guild that lack a vector; return how many."""
        missing = await self.store.facts_missing_vectors(guild_id, self.model, limit)
        if not missing:
            return 0
        blobs = await embed_cached(
            self.embedder,
            [text for _, text in missing],
            self.store.cached_vectors,
            self.store.cache_vectors,
        )
        pairs = zip(missing, blobs, strict=True)
        rows = [(fact_id, len(blob) // 4, blob) for (fact_id, _), blob in pairs]
        await self.store.store_fact_vectors(guild_id, self.model, rows)
        return len(rows)

    async def backfill(self, guild_id: str, progress: Progress | None = None) -> int:
        """Embed every fact of the guild that lacks a vector; return how many."""
        total = 0
        while done := await self.embed_missing(guild_id, BATCH):
            total += done
            if progress is not None:
                progress(done)
        return total

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._waiting:
                guild_id = self._waiting.pop()
                try:
                    await self.backfill(guild_id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # never reaches ingest: logged, retried later
                    log.warning(
                        "embedding facts of guild %s failed (%s); search stays lexical for "
                        "them until it succeeds", guild_id, exc,
                    )  # fmt: skip
                    asyncio.get_running_loop().call_later(RETRY_SECONDS, self.wake, guild_id)
            if not self._wake.is_set():
                self._idle.set()


class _Loaded:
    """One (guild, model)'s vectors in memory, with room to grow in place."""

    def __init__(self, rows: VectorRows, version: int) -> None:
        self.version = version
        self.last_row = rows.last_row
        self.size = len(rows.ids)
        self.ids = rows.ids  # no spare room yet: a big guild's matrix is never held twice
        self.rows = rows.matrix
        self.id_set = set(rows.ids.tolist())
        self.head: NDArray[np.float32] | None = None
        if self.size >= PREFILTER_FROM and self.rows.shape[1] >= 64:
            self.head = _unit_rows(self.rows[:, : self.rows.shape[1] // 4])

    def append(self, rows: VectorRows) -> bool:
        """Add newly stored vectors; False when they do not fit this index (other width)."""
        added = len(rows.ids)
        if added and rows.matrix.shape[1] != self.rows.shape[1]:
            return False
        if self.size + added > len(self.ids):  # grow by a quarter: appends stay amortised
            import numpy as np

            capacity = (self.size + added) * 5 // 4 + 64
            self.ids = np.resize(self.ids, capacity)
            self.rows = _grown(self.rows, self.size, capacity)
            if self.head is not None:
                self.head = _grown(self.head, self.size, capacity)
        end = self.size + added
        self.ids[self.size : end] = rows.ids
        self.rows[self.size : end] = rows.matrix
        if self.head is not None and added:
            self.head[self.size : end] = _unit_rows(rows.matrix[:, : self.head.shape[1]])
        self.size = end
        self.id_set.update(rows.ids.tolist())
        self.last_row = max(self.last_row, rows.last_row)
        return True


class VectorIndex:
    """Per (guild, model): fact ids and their unit vectors as one matrix in memory.

    When the store's ``vector_version`` moves, only the vectors stored since are read and
    appended; the whole matrix is read again only when facts with vectors went away
    (forgotten, archived) — then the guild's count of active vectors no longer adds up."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._loaded: dict[tuple[str, str], _Loaded] = {}

    async def _index(self, guild_id: str, model: str) -> _Loaded:
        key = (guild_id, model)
        version = self.store.vector_version
        loaded = self._loaded.get(key)
        if loaded is not None and loaded.version == version:
            return loaded
        if loaded is not None:
            fresh = await self.store.fact_vectors_since(guild_id, model, loaded.last_row)
            if fresh.active == loaded.size + len(fresh.ids) and loaded.append(fresh):
                loaded.version = version
                return loaded
        self._loaded.pop(key, None)  # the old matrix goes before the new one is read
        loaded = self._loaded[key] = _Loaded(
            await self.store.fact_vectors_since(guild_id, model, 0), version
        )
        return loaded

    async def matrix(
        self, guild_id: str, model: str
    ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        """The guild's fact ids and their vectors (views of the index: do not modify)."""
        loaded = await self._index(guild_id, model)
        return loaded.ids[: loaded.size], loaded.rows[: loaded.size]

    async def similarities(
        self, guild_id: str, model: str, query: bytes, *, top: int = TOP_K
    ) -> Similarities:
        """Cosine similarity of the query vector to the guild's ``top`` nearest facts."""
        import numpy as np

        loaded = await self._index(guild_id, model)
        ids, matrix = loaded.ids[: loaded.size], loaded.rows[: loaded.size]
        vector = from_blob(query)
        if not len(ids) or matrix.shape[1] != vector.shape[0]:
            return Similarities({}, frozenset())
        head = loaded.head[: loaded.size] if loaded.head is not None else None
        if head is not None and len(ids) > PREFILTER * top:
            rough = head @ _unit_rows(vector[None, : head.shape[1]])[0]
            keep = np.argpartition(rough, -PREFILTER * top)[-PREFILTER * top :]
            ids, scores = ids[keep], matrix[keep] @ vector
        else:
            scores = matrix @ vector
        if len(scores) > top:
            best = np.argpartition(scores, -top)[-top:]
            nearest = dict(zip(ids[best].tolist(), scores[best].tolist(), strict=True))
        else:
            nearest = dict(zip(ids.tolist(), scores.tolist(), strict=True))
        return Similarities(nearest, loaded.id_set)


def _grown(matrix: NDArray[np.float32], used: int, capacity: int) -> NDArray[np.float32]:
    import numpy as np

    grown = np.zeros((capacity, matrix.shape[1]), dtype=np.float32)
    grown[:used] = matrix[:used]
    return grown


def _unit_rows(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    """A contiguous copy of ``matrix`` with unit rows (zero rows stay zero)."""
    import numpy as np

    rows = np.array(matrix, dtype=np.float32, order="C")
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    rows /= norms
    return rows


class Similarities(Mapping[int, float]):
    """The nearest facts' similarities; a fact with a vector that is not among them counts as
    0 (far), a fact without a vector is absent (search is lexical for it)."""

    def __init__(self, nearest: dict[int, float], with_vector: AbstractSet[int]) -> None:
        self.nearest = nearest
        self.with_vector = with_vector

    def __getitem__(self, fact_id: int) -> float:
        if fact_id in self.nearest:
            return self.nearest[fact_id]
        if fact_id in self.with_vector:
            return 0.0
        raise KeyError(fact_id)

    def __iter__(self) -> Iterator[int]:
        return iter(self.nearest)

    def __len__(self) -> int:
        return len(self.nearest)

    def __contains__(self, fact_id: object) -> bool:
        return fact_id in self.nearest or fact_id in self.with_vector


class Semantic:
    """What search needs for the semantic part: the embedder, its background fact embedder
    and the in-memory index."""

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder
        self.facts = FactEmbedder(store, embedder)
        self.index = VectorIndex(store)
        self._complete: dict[str, int] = {}  # guild -> vector_version with nothing missing
        # Query vectors, most recent last: in memory, not in the embedding cache table (a
        # write per new question would put a commit, and now and then a checkpoint, on the
        # read path). Fact vectors go through the table.
        self._queries: OrderedDict[str, bytes] = OrderedDict()

    async def similarities(self, guild_id: str, query: str) -> Similarities | None:
        """Cosine similarity of ``query`` to the guild's fact vectors (embedding up to 8
        facts that lack one first), or None when embedding fails: search is then lexical."""
        if len(query.strip()) < 3:
            return None
        try:
            known_complete = self._complete.get(guild_id) == self.store.vector_version
            if not known_complete and not await self.facts.embed_missing(guild_id, PER_QUERY):
                # every fact has a vector: no need to look again until facts change
                self._complete[guild_id] = self.store.vector_version
            vector = await self._query_vector(query)
        except Exception as exc:
            log.warning("query embedding failed (%s): lexical search only", exc)
            return None
        return await self.index.similarities(guild_id, self.embedder.model_key, vector)

    async def _query_vector(self, query: str) -> bytes:
        vector = self._queries.get(query)
        if vector is None:
            (vector,) = await self.embedder.embed([query])
            self._queries[query] = vector
            if len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        else:
            self._queries.move_to_end(query)
        return vector
