"""Vectors for facts: embedded in the background, searched with sqlite-vec.

``FactEmbedder`` embeds the facts that have no vector for the current model — after ingest
stores facts (woken per guild), per query (up to 8), or all of them (``backfill``). It never
blocks or fails ingest: an embedding error is logged and retried on the next wake, and until
then search is lexical. Vectors are keyed (fact, model), so switching the model never mixes
them; the facts simply lack vectors of the new model until they are embedded again.

``VectorIndex`` asks the store for a guild's ``TOP_K`` nearest active facts: a k-NN over
the guild's partition of the model's vec0 table, a coarse pass on the vectors' signs and
exact re-scoring of its candidates (``memory.storage.vectors_sql``); for a big guild the
coarse pass runs on its facts' sign bits held in memory (``memory.search.signs``). No
guild's float vectors are held in memory; only those signs and, per guild, where its next
SQLite coarse pass starts.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from memory.audit import MemoryEvent, error_detail
from memory.search.embeddings import Embedder, embed_cached
from memory.storage.protocol import Storage
from memory.tasks import SharedRuns, stop_task

if TYPE_CHECKING:
    from memory.search.signs import SignIndex

log = logging.getLogger(__name__)

BATCH = 64
PER_QUERY = 8  # DESIGN: up to 8 facts missing a vector are embedded per query
RETRY_SECONDS = 30.0
TOP_K = 120  # nearest facts by meaning that a query considers
QUERY_CACHE = 1024  # query vectors kept in memory
BOUNDS = 4096  # guilds whose coarse-pass bound is remembered
MISSING_LISTED = 4096  # facts without a vector that a query lists (more: mid-backfill)

Progress = Callable[[int], None]


class FactEmbedder:
    """Embeds facts without a vector of ``embedder``'s model, in the background."""

    def __init__(self, store: Storage, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder
        self._waiting: set[str] = set()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._last_error: dict[str, str] = {}  # guild -> the error its audit log last got

    @property
    def model(self) -> str:
        return self.embedder.model_key

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="memorybot-fact-embedder")

    async def close(self) -> None:
        await stop_task(self._task)
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
                    self._last_error.pop(guild_id, None)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # never reaches ingest: logged, retried later
                    log.warning(
                        "embedding facts of guild %s failed (%s); search stays lexical for "
                        "them until it succeeds", guild_id, exc,
                    )  # fmt: skip
                    await self._audit_failure(guild_id, exc)
                    asyncio.get_running_loop().call_later(RETRY_SECONDS, self.wake, guild_id)
            if not self._wake.is_set():
                self._idle.set()

    async def _audit_failure(self, guild_id: str, exc: Exception) -> None:
        """An ``embedding.error`` in the guild's audit log, once per distinct error in a row
        (a dead endpoint retried every 30 s does not fill the log)."""
        detail = f"{self.embedder.model_key}: " + error_detail(exc)
        if self._last_error.get(guild_id) == detail:
            return
        self._last_error[guild_id] = detail
        try:
            await self.store.record_events(
                [MemoryEvent(guild_id, "embedding.error", detail=detail)]
            )
        except Exception as failure:  # the store is what fails (a full disk): logged above
            log.debug("embedding.error not recorded: %s", failure)


class VectorIndex:
    """The nearest facts of a guild by sqlite-vec's k-NN (``vectors_sql.nearest_facts``).

    Nothing of a guild's vectors is held here: per (guild, model) only the Hamming bound its
    next coarse pass starts from, for the ``BOUNDS`` most recently searched; a big guild's
    coarse pass runs on its signs in memory (``signs``, made on the first query: it imports
    numpy, which commands that never query go without)."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._bounds: OrderedDict[tuple[str, str], int] = OrderedDict()
        self._signs: SignIndex | None = None

    @property
    def signs(self) -> SignIndex:
        if self._signs is None:
            from memory.search.signs import SignIndex

            self._signs = SignIndex(self.store)
        return self._signs

    async def similarities(
        self,
        guild_id: str,
        model: str,
        query: bytes,
        *,
        top: int = TOP_K,
        missing: AbstractSet[int] | None = frozenset(),
    ) -> Similarities:
        """Cosine similarity of the query vector to the guild's ``top`` nearest active facts;
        ``missing``: the guild's active facts without a vector (None: too many to list)."""
        held = await self.signs.nearest(guild_id, model, query, top)
        if held is not None:
            return Similarities(held, missing)
        key = (guild_id, model)
        bound = self._bounds.get(key)
        nearest = await self.store.nearest_facts(guild_id, model, query, top, bound)
        if nearest.bound is not None:
            self._bounds[key] = nearest.bound
            self._bounds.move_to_end(key)
            if len(self._bounds) > BOUNDS:
                self._bounds.popitem(last=False)
        return Similarities(nearest.similarities, missing)


class Similarities(Mapping[int, float]):
    """The nearest facts' similarities, asked about the guild's active facts: one with a
    vector that is not among them counts as 0 (far), one without a vector is absent (search
    is lexical for it). ``missing`` lists those without; None when there were too many to
    list (mid-backfill): then only the nearest count."""

    def __init__(self, nearest: dict[int, float], missing: AbstractSet[int] | None) -> None:
        self.nearest = nearest
        self.missing = missing

    def _has_vector(self, fact_id: object) -> bool:
        return self.missing is not None and fact_id not in self.missing

    def __getitem__(self, fact_id: int) -> float:
        if fact_id in self.nearest:
            return self.nearest[fact_id]
        if self._has_vector(fact_id):
            return 0.0
        raise KeyError(fact_id)

    def __iter__(self) -> Iterator[int]:
        return iter(self.nearest)

    def __len__(self) -> int:
        return len(self.nearest)

    def __contains__(self, fact_id: object) -> bool:
        return fact_id in self.nearest or self._has_vector(fact_id)


class Semantic:
    """What search needs for the semantic part: the embedder, its background fact embedder
    and the in-memory index."""

    def __init__(self, store: Storage, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder
        self.facts = FactEmbedder(store, embedder)
        self.index = VectorIndex(store)
        self._complete: dict[str, int] = {}  # guild -> vector_version with nothing missing
        self._checking: SharedRuns[frozenset[int] | None] = SharedRuns()  # guild, version
        # Query vectors, most recent last: in memory, not in the embedding cache table (a
        # write per new question would put a commit, and now and then a checkpoint, on the
        # read path). Fact vectors go through the table.
        self._queries: OrderedDict[str, bytes] = OrderedDict()

    async def similarities(self, guild_id: str, query: str) -> Similarities | None:
        """Cosine similarity of ``query`` to the guild's fact vectors (embedding up to 8
        facts that lack one first), or None when embedding fails: search is then lexical."""
        if len(query.strip()) < 3:
            return None
        model = self.embedder.model_key
        try:
            missing = await self._missing(guild_id)
            vector = await self._query_vector(query)
        except Exception as exc:
            log.warning("query embedding failed (%s): lexical search only", exc)
            return None
        return await self.index.similarities(guild_id, model, vector, missing=missing)

    async def _missing(self, guild_id: str) -> frozenset[int] | None:
        """Embed up to 8 facts lacking a vector; return the active facts still without one
        (None: more than ``MISSING_LISTED``). Once none lack one, nothing is asked again
        until facts change. Queries that come while a check runs share its answer."""
        if self._complete.get(guild_id) == self.store.vector_version:
            return frozenset()
        key = (guild_id, self.store.vector_version)
        return await self._checking.run(key, lambda: self._check_missing(guild_id))

    async def _check_missing(self, guild_id: str) -> frozenset[int] | None:
        model = self.embedder.model_key
        missing: frozenset[int] | None = frozenset()
        if await self.facts.embed_missing(guild_id, PER_QUERY):
            listed = await self.store.missing_vector_ids(guild_id, model, MISSING_LISTED + 1)
            missing = frozenset(listed) if len(listed) <= MISSING_LISTED else None
        if missing == frozenset():
            self._complete[guild_id] = self.store.vector_version
        return missing

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
