"""A big guild's k-NN in memory: its facts' sign bits and int8 copies of their vectors, held
per guild.

sqlite-vec's coarse pass (``vectors_sql.nearest_facts``) reads every chunk of the guild's
partition and selects ``COARSE`` × k candidates in each: on 100k facts about 6 ms of the
database thread per query, most of a search's cost. The same pass over the signs held here
(32 bytes a fact for 256 dimensions: 3 MB for 100k facts) takes under 2 ms in numpy, off
the database thread. It keeps the ``COARSE`` × k nearest signs with no Hamming bound, so it
finds the candidates sqlite-vec's bounded pass finds, or nearer ones. The candidates are
re-scored here too, on each vector held as int8 with a scale of its own (256 bytes a fact:
26 MB for 100k): about 0.4 ms for 960 candidates, where reading their float vectors from
SQLite took 4–5 ms of the database thread (random seeks into a 100 MB table). The cosine
is within 0.002 of the float vectors' (``SCORE_ERROR``). The last ``RECENT`` answers per
guild are kept while its signs are current: a question asked as a search and as a slice (or
asked again) is answered once.

Only guilds with at least ``MIN_SIGNS`` vectors are held (a smaller guild's pass in SQLite
is as fast). The signs are read again when facts or their vectors changed
(``Storage.vector_version``), at most every ``RELOAD_SECONDS``: between, a query of a
guild whose signs are stale takes the SQLite pass, so it never misses a new fact. Vectors
already held are kept; only those of facts new since are read (``VECTOR_CHUNK`` a call,
so that other statements are not held up by the first read of a big guild).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memory.storage.protocol import Storage
from memory.storage.vectors_sql import COARSE, FLOAT32_BYTES
from memory.tasks import SharedRuns

log = logging.getLogger(__name__)

MIN_SIGNS = 4096  # fewer vectors: sqlite-vec's own pass is as fast
RELOAD_SECONDS = 30.0  # stale signs are read again at most this often (SQLite's pass between)
GUILDS = 8  # (guild, model) pairs held, most recently searched kept: 4 MB each at 100k facts
RECENT = 256  # answers kept per held guild (a search and a slice of one question ask twice)
VECTOR_CHUNK = 5000  # vectors read from the store a call
SCORE_ERROR = 0.002  # the held vectors' cosine is this close to the float vectors'


@dataclass(slots=True)
class _Held:
    """One guild's signs for one model: words of the signs, one row per word position."""

    version: int
    loaded_at: float
    ids: Any  # int64 array of fact ids, ascending
    words: Any  # (words per sign, facts) array: uint64 when the width allows, else uint8
    dims: int
    vectors: Any  # (facts, dims) int8: each vector over a scale of its own, rounded
    norms: Any  # float32 per fact: the length of its int8 vector
    # (query, k) -> the answer, while these signs are current (facts unchanged)
    recent: OrderedDict[tuple[bytes, int], dict[int, float]] = field(default_factory=OrderedDict)


def _words(bits: Any) -> Any:
    """``(facts, bytes)`` sign bytes as ``(words, facts)``, uint64 words when they fit."""
    if bits.shape[1] % 8 == 0:
        bits = bits.view(np.uint64)
    return np.ascontiguousarray(bits.T)


if hasattr(np, "bitwise_count"):  # numpy >= 2.0

    def _popcount(values: Any) -> Any:
        return np.bitwise_count(values)

else:  # pragma: no cover - numpy 1.x: a byte table
    _TABLE = np.array([bin(n).count("1") for n in range(256)], dtype=np.uint8)

    def _popcount(values: Any) -> Any:
        as_bytes = values.view(np.uint8).reshape(*values.shape, values.itemsize)
        return _TABLE[as_bytes].sum(axis=-1, dtype=np.uint16)


def hamming(words: Any, query: Any) -> Any:
    """Hamming distance of each held sign (``words``, as ``_words`` lays them out) to the
    query's (``query``: its words)."""
    distance = np.zeros(words.shape[1], dtype=np.uint16)
    for row, word in zip(words, query, strict=True):
        distance += _popcount(row ^ word)
    return distance


class SignIndex:
    """The ``COARSE`` × k candidates of a big guild's nearest facts, from signs in memory."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._held: OrderedDict[tuple[str, str], _Held | None] = OrderedDict()
        self._checked: dict[tuple[str, str], tuple[int, float]] = {}  # small: when last read
        self._loading: SharedRuns[_Held | None] = SharedRuns()  # one read per guild and version

    async def nearest(self, guild_id: str, model: str, query: bytes, k: int
                      ) -> dict[int, float] | None:  # fmt: skip
        """The guild's ``k`` nearest active facts by cosine similarity, or None when this
        guild's pass is SQLite's (small, no coarse column, or signs stale)."""
        held = await self._signs(guild_id, model)
        if held is None:
            return None
        if len(query) != held.dims * FLOAT32_BYTES or k <= 0:
            return {}
        known = held.recent.get((query, k))
        if known is not None:
            held.recent.move_to_end((query, k))
            return dict(known)
        found = _nearest(held, np.frombuffer(query, dtype=np.float32), k)
        held.recent[(query, k)] = found
        if len(held.recent) > RECENT:
            held.recent.popitem(last=False)
        return dict(found)

    async def _signs(self, guild_id: str, model: str) -> _Held | None:
        key = (guild_id, model)
        version = self.store.vector_version
        now = time.monotonic()
        held = self._held.get(key)
        if held is not None:
            self._held.move_to_end(key)
            if held.version == version:
                return held
            if now - held.loaded_at < RELOAD_SECONDS:
                return None  # stale: SQLite's pass until the next read
        checked = self._checked.get(key) if held is None else None
        if checked is not None and (checked[0] == version or now - checked[1] < RELOAD_SECONDS):
            return None  # a small guild (or no coarse column) when last read
        return await self._loading.run((key, version), lambda: self._load(key, version, now))

    async def _load(self, key: tuple[str, str], version: int, now: float) -> _Held | None:
        started = time.perf_counter()
        signs = await self.store.fact_signs(*key)
        if signs is None or len(signs.ids) < MIN_SIGNS:
            self._held.pop(key, None)
            self._checked[key] = (version, now)
            return None
        self._checked.pop(key, None)
        ids = np.array(signs.ids, dtype=np.int64)
        order = np.argsort(ids, kind="stable")
        bits = np.frombuffer(signs.bits, dtype=np.uint8).reshape(len(ids), -1)[order]
        ids = ids[order]
        vectors, norms = await self._vectors(key, ids, signs.dims)
        held = _Held(version, now, ids, _words(bits), signs.dims, vectors, norms)
        self._held[key] = held
        self._held.move_to_end(key)
        while len(self._held) > GUILDS:
            self._held.popitem(last=False)
        log.debug("signs of %d facts of guild %s read in %.2f s", len(signs.ids), key[0],
                  time.perf_counter() - started)  # fmt: skip
        return held

    async def _vectors(self, key: tuple[str, str], ids: Any, dims: int) -> tuple[Any, Any]:
        """The int8 vectors and norms of ``ids``: those held before kept, the rest read."""
        vectors = np.zeros((len(ids), dims), dtype=np.int8)
        norms = np.zeros(len(ids), dtype=np.float32)
        missing = np.ones(len(ids), dtype=bool)
        before = self._held.get(key)
        if before is not None and before.dims == dims and len(before.ids):
            at = np.minimum(np.searchsorted(before.ids, ids), len(before.ids) - 1)
            kept = before.ids[at] == ids
            vectors[kept], norms[kept] = before.vectors[at[kept]], before.norms[at[kept]]
            missing = ~kept
        wanted = ids[missing]
        for start in range(0, len(wanted), VECTOR_CHUNK):
            rows = await self.store.fact_vectors_of(
                *key, wanted[start : start + VECTOR_CHUNK].tolist()
            )
            if not rows:
                continue
            at = np.searchsorted(ids, np.array([fact_id for fact_id, _ in rows], dtype=np.int64))
            floats = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
            vectors[at], norms[at] = quantised(floats.reshape(len(rows), dims))
        return vectors, norms


def closest(distance: Any, want: int) -> Any:
    """The positions of the ``want`` smallest of ``distance`` (small integers: Hamming
    distances), ties at the last one kept taken lowest position first. Counting how many
    there are of each distance is five times as fast as ``argpartition`` on 100k."""
    if len(distance) <= want:
        return np.arange(len(distance))
    cut = int(np.searchsorted(np.cumsum(np.bincount(distance)), want))  # the want-th's
    nearer = np.flatnonzero(distance < cut)
    return np.concatenate((nearer, np.flatnonzero(distance == cut)[: want - len(nearer)]))


def quantised(floats: Any) -> tuple[Any, Any]:
    """Each row as int8 over a scale of its own (its largest magnitude / 127: ``row ≈ int8 *
    scale``), and the int8 rows' lengths. A cosine needs no scale: it cancels."""
    largest = np.abs(floats).max(axis=1)
    scales = np.where(largest > 0, largest / 127, 1.0).astype(np.float32)
    rows = np.round(floats / scales[:, None]).astype(np.int8)
    return rows, np.linalg.norm(rows.astype(np.float32), axis=1)


def _nearest(held: _Held, query: Any, k: int) -> dict[int, float]:
    """The ``k`` held facts nearest to ``query`` by cosine: the ``COARSE`` × k nearest signs,
    re-scored on the int8 vectors (ties: the lower id first)."""
    signs = np.packbits(query > 0, bitorder="little")
    at = closest(hamming(held.words, _words(signs.reshape(1, -1))[:, 0]), COARSE * k)
    norms = held.norms[at] * float(np.linalg.norm(query))
    cosines = (held.vectors[at] @ query) / np.where(norms > 0, norms, 1.0)
    ids = held.ids[at]
    best = np.lexsort((ids, -cosines))[:k]
    return {int(ids[i]): float(cosines[i]) for i in best}
