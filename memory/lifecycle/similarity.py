"""Cosine similarity of fact texts with the bundled local embedder, synchronously.

:class:`FactSimilarity` is meant for code that already runs off the event loop (the
database thread that decides whether a new fact merges with, supersedes or stands beside
the member's active facts): every call blocks and no event loop is needed. Vectors are
kept in a small LRU cache keyed by the text, so comparing one new fact with a member's
few dozen active facts embeds each old fact once per process, not once per comparison.

The embedding function is injectable (``embed``: texts → one float32 little-endian blob
of a unit vector per text, the :class:`~memory.search.embeddings.Embedder` contract);
the default is the bundled wordllama model's :meth:`LocalEmbedder.embed_sync`, loaded
from the package directory with downloads disabled. Cosine similarity of two unit
vectors is their dot product; it is clipped to [-1, 1].
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.search.embeddings import LocalEmbedder, from_blob

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

EmbedFunction = Callable[[Sequence[str]], list[bytes]]
"""Texts → one float32 little-endian blob of a unit vector per text, in order."""

DEFAULT_CACHE_SIZE = 4096
"""Vectors kept (256 float32 each: about 4 MB at the default)."""


@dataclass(frozen=True)
class CacheInfo:
    """How the vector cache has done so far."""

    hits: int
    misses: int
    size: int
    capacity: int


class FactSimilarity:
    """Cosine similarities of fact texts, with an LRU cache of their vectors (thread-safe)."""

    def __init__(
        self, embed: EmbedFunction | None = None, *, cache_size: int = DEFAULT_CACHE_SIZE
    ) -> None:
        if cache_size < 1:
            raise ValueError(f"cache_size must be at least 1, not {cache_size}")
        self._embed = embed if embed is not None else LocalEmbedder().embed_sync
        self._capacity = cache_size
        self._vectors: OrderedDict[str, NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0

    def score(self, first: str, second: str) -> float:
        """The cosine similarity of two texts' embeddings."""
        return self.scores(first, [second])[0]

    def scores(self, new: str, olds: Sequence[str]) -> list[float]:
        """The cosine similarity of ``new`` with each of ``olds``, in order; the texts not
        cached yet are embedded in one batch."""
        if not olds:
            return []
        vectors = self.vectors([new, *olds])
        target = vectors[0]
        return [max(-1.0, min(1.0, float(target @ vector))) for vector in vectors[1:]]

    def vectors(self, texts: Sequence[str]) -> list[NDArray[np.float32]]:
        """One unit vector per text, in order, from the cache or embedded in one batch."""
        found = self._cached(texts)
        missing = [text for text in dict.fromkeys(texts) if text not in found]
        if missing:
            fresh = [from_blob(blob) for blob in self._embed(missing)]
            if len(fresh) != len(missing):
                raise ValueError(f"embedded {len(fresh)} vectors for {len(missing)} texts")
            pairs = list(zip(missing, fresh, strict=True))
            found.update(pairs)
            self._remember(pairs)
        return [found[text] for text in texts]

    def cache_info(self) -> CacheInfo:
        """Hits and misses counted per distinct text asked for, and the cache's fill."""
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._vectors), self._capacity)

    def clear(self) -> None:
        """Forget every cached vector (the counters stay)."""
        with self._lock:
            self._vectors.clear()

    def _cached(self, texts: Sequence[str]) -> dict[str, NDArray[np.float32]]:
        found: dict[str, NDArray[np.float32]] = {}
        with self._lock:
            for text in dict.fromkeys(texts):
                vector = self._vectors.get(text)
                if vector is None:
                    self._misses += 1
                    continue
                self._vectors.move_to_end(text)
                self._hits += 1
                found[text] = vector
        return found

    def _remember(self, pairs: Iterable[tuple[str, NDArray[np.float32]]]) -> None:
        with self._lock:
            for text, vector in pairs:
                self._vectors[text] = vector
                self._vectors.move_to_end(text)
            while len(self._vectors) > self._capacity:
                self._vectors.popitem(last=False)
