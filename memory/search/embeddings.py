"""Text embedders: the bundled wordllama model (offline, the default) or a remote model.

Every embedder turns texts into L2-normalised float32 vectors, returned as little-endian
blobs (:func:`to_blob` / :func:`from_blob`), one per text and in the order given: cosine
similarity is then a plain dot product. Vectors are stored keyed by ``(fact, model_key)``;
``model_key`` differs whenever the vectors would (another model, or other dimensions), so
switching models never mixes vectors of different spaces.

* :class:`LocalEmbedder`: wordllama's ``l2_supercat`` weights bundled with the package,
  256 dimensions, model key ``local:wordllama-256``. The weights load once per process, in a
  worker thread, from the package directory with downloads disabled: nothing is fetched at
  run time.
* :class:`OpenAIEmbedder`: any OpenAI-compatible ``/embeddings`` endpoint. Inputs go in
  batches of ``batch_size``; retries (429, 5xx, timeouts, connection errors) are the openai
  client's (``memory.llm.endpoint``); every answer is checked (count, ``index`` order, equal
  lengths, finite numbers) and a bad one raises :class:`EmbeddingError`.

Blank texts (empty or only whitespace) are embedded as a single space by both embedders, so
every input gets a real vector and positions always line up. A vector of length zero (which
neither model is expected to produce) is returned as zeros: it matches nothing.

:func:`embed_cached` puts a content cache in front of any embedder: each text is hashed
(:func:`content_hash`, sha256 of ``model_key + "\\0" + text``) and only texts not cached yet
are embedded.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import logging
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from memory.errors import ConfigError, MemorybotError
from memory.settings import Settings

if TYPE_CHECKING:  # numpy is imported where vectors are made: every CLI command starts
    import numpy as np  # ~0.1 s sooner, and most never touch a vector
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

LOCAL_MODEL = "local"
"""The ``MEMORYBOT_EMBEDDING_MODEL`` value that selects the bundled model."""

LOCAL_DIMS = 256
LOCAL_MODEL_KEY = f"local:wordllama-{LOCAL_DIMS}"
WORDLLAMA_CONFIG = "l2_supercat"


BLANK_SUBSTITUTE = " "
"""What a blank text is embedded as (endpoints reject empty inputs)."""

DEFAULT_BATCH_SIZE = 128
MAX_BATCH_SIZE = 2048  # OpenAI's limit of inputs per request

BLOB_DTYPE = "<f4"  # float32, little-endian


class EmbeddingError(MemorybotError):
    """Texts could not be embedded: the request failed for good or the answer is unusable."""


class Embedder(Protocol):
    """What the store and the retrieval code need of an embedding model."""

    @property
    def model_key(self) -> str:
        """Identifies the vector space: equal keys, comparable vectors."""
        ...

    @property
    def dims(self) -> int | None:
        """Vector length; None until known (a remote model without configured dimensions)."""
        ...

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        """One float32 little-endian blob of a unit vector per text, in order."""
        ...

    async def aclose(self) -> None:
        """Release what the embedder holds (HTTP clients)."""
        ...


# --- vectors and blobs --------------------------------------------------------------------


def to_blob(vec: NDArray[Any]) -> bytes:
    """``vec`` (1-D) as float32 little-endian bytes."""
    import numpy as np

    array = np.asarray(vec)
    if array.ndim != 1:
        raise ValueError(f"expected a 1-D vector, got shape {array.shape}")
    return array.astype(BLOB_DTYPE, copy=False).tobytes()


def from_blob(blob: bytes) -> NDArray[np.float32]:
    """The float32 vector stored in ``blob`` (a read-only view when the byte order allows)."""
    if len(blob) % 4:
        raise ValueError(f"a float32 blob has a multiple of 4 bytes, not {len(blob)}")
    import numpy as np

    return np.frombuffer(blob, dtype=BLOB_DTYPE).astype(np.float32, copy=False)


def matrix_from_blobs(blobs: Sequence[bytes], dims: int | None = None) -> NDArray[np.float32]:
    """The blobs as the rows of one ``(len(blobs), dims)`` float32 matrix.

    ``dims`` defaults to the first blob's length; a blob of another length raises
    ``ValueError``. No blobs: a ``(0, dims or 0)`` matrix.
    """
    import numpy as np

    if not blobs:
        return np.zeros((0, dims or 0), dtype=np.float32)
    width = dims if dims is not None else len(blobs[0]) // 4
    for blob in blobs:
        if len(blob) != width * 4:
            raise ValueError(f"expected {width * 4}-byte vectors, got one of {len(blob)} bytes")
    flat = np.frombuffer(b"".join(blobs), dtype=BLOB_DTYPE)
    return flat.astype(np.float32, copy=False).reshape(len(blobs), width)


def normalise(matrix: NDArray[Any]) -> NDArray[np.float32]:
    """The rows of ``matrix`` (2-D) scaled to unit L2 length, as float32; zero rows stay zero."""
    import numpy as np

    array = np.asarray(matrix, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"expected a 2-D matrix, got shape {array.shape}")
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    safe = np.where(norms > 0.0, norms, 1.0)
    return (array / safe).astype(np.float32)


def content_hash(model_key: str, text: str) -> str:
    """The cache key of ``text`` embedded by ``model_key``: hex sha256 of key, NUL, text."""
    return hashlib.sha256(f"{model_key}\0{text}".encode()).hexdigest()


def prepared_texts(texts: Sequence[str]) -> list[str]:
    return [text if text.strip() else BLANK_SUBSTITUTE for text in texts]


def vector_blobs(matrix: NDArray[Any]) -> list[bytes]:
    return [to_blob(row) for row in normalise(matrix)]


# --- the bundled model --------------------------------------------------------------------

_wordllama_lock = threading.Lock()
_wordllama: Any = None
_wordllama_embed_lock = threading.Lock()  # one embed at a time on the shared tokenizer


def load_wordllama() -> Any:
    """Load the bundled wordllama model from the package directory, never downloading.

    (Plain ``WordLlama.load()`` looks in ``~/.cache`` and downloads what it misses.) Takes
    about a second; blocking: call it in a worker thread.
    """
    try:
        # imported by name: wordllama ships no type information (and takes ~0.5 s to import)
        wordllama: Any = importlib.import_module("wordllama")
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise EmbeddingError(f"the local embedding model needs wordllama: {exc}") from None
    package_dir = Path(wordllama.__file__).parent
    try:
        return wordllama.WordLlama.load(
            config=WORDLLAMA_CONFIG,
            dim=LOCAL_DIMS,
            cache_dir=package_dir,
            disable_download=True,
        )
    except (OSError, ValueError) as exc:
        raise EmbeddingError(
            f"cannot load the bundled wordllama model from {package_dir}: {exc}"
        ) from None


def _shared_wordllama() -> Any:
    """The process's one loaded wordllama model (loaded on first use; thread-safe)."""
    global _wordllama
    with _wordllama_lock:
        if _wordllama is None:
            _wordllama = load_wordllama()
            log.debug("loaded the bundled wordllama model (%d dims)", LOCAL_DIMS)
        return _wordllama


class LocalEmbedder:
    """The bundled wordllama model: 256 dimensions, offline, model key ``local:wordllama-256``.

    The model is loaded on the first :meth:`embed` (or :meth:`load`) in a worker thread and
    shared by every instance in the process; embedding runs in a worker thread too, so the
    event loop never blocks. :meth:`embed_sync` is the same call for code already running in
    a thread of its own (the database thread): it blocks, and needs no event loop.
    """

    model_key = LOCAL_MODEL_KEY
    dims: int | None = LOCAL_DIMS

    async def load(self) -> None:
        """Load the model now (otherwise the first :meth:`embed` does)."""
        await asyncio.to_thread(_shared_wordllama)

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        if not texts:
            return []
        return await asyncio.to_thread(self.embed_sync, texts)

    def embed_sync(self, texts: Sequence[str]) -> list[bytes]:
        """:meth:`embed`, blocking the calling thread (loads the model on first use)."""
        if not texts:
            return []
        import numpy as np

        prepared = prepared_texts(texts)
        model = _shared_wordllama()
        with _wordllama_embed_lock:
            matrix = np.asarray(model.embed(prepared, norm=False), dtype=np.float32)
        if matrix.shape != (len(prepared), LOCAL_DIMS):
            raise EmbeddingError(
                f"the local embedding model returned shape {matrix.shape} for {len(texts)} text(s)"
            )
        return vector_blobs(matrix)

    async def aclose(self) -> None:
        """Nothing to release: the model stays loaded for the process."""


# --- a remote model -----------------------------------------------------------------------


def build_embedder(settings: Settings) -> Embedder:
    """The embedder ``MEMORYBOT_EMBEDDING_MODEL`` names: ``local`` (the bundled model) or a
    model of the ``MEMORYBOT_LLM_BASE_URL`` endpoint (with the LLM key, timeout, retries)."""
    name = settings.embedding_model.strip()
    if name.lower() == LOCAL_MODEL:
        wanted = settings.embedding_dimensions
        if wanted is not None and wanted != LOCAL_DIMS:
            raise ConfigError(
                f"MEMORYBOT_EMBEDDING_DIMENSIONS={wanted}: the local embedding model has "
                f"{LOCAL_DIMS} dimensions (the setting is for remote models)"
            )
        return LocalEmbedder()
    from memory.search.embeddings_openai import OpenAIEmbedder  # imports openai: only when used

    return OpenAIEmbedder(
        name,
        base_url=settings.endpoint_url,
        api_key=settings.endpoint_key,
        dimensions=settings.embedding_dimensions,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        cooldown=settings.llm_cooldown,
    )


CacheLookup = Callable[[str, list[str]], Awaitable[dict[str, bytes]]]
"""``(model_key, hashes) -> {hash: blob}`` of the cached ones (e.g. ``vectors_sql.cached_vectors``
run on the store's thread)."""
CacheStore = Callable[[str, list[tuple[str, bytes]]], Awaitable[object]]
"""``(model_key, [(hash, blob)])``: remember fresh vectors (e.g. ``vectors_sql.cache_vectors``)."""


async def embed_cached(
    embedder: Embedder,
    texts: Sequence[str],
    lookup: CacheLookup,
    store_rows: CacheStore,
) -> list[bytes]:
    """``embedder.embed(texts)`` with a content cache in front: only texts whose
    :func:`content_hash` is not cached are embedded (each distinct text once), and their
    vectors are stored before returning. A cached blob of the wrong length (when the
    embedder's ``dims`` is known) counts as missing."""
    if not texts:
        return []
    model_key = embedder.model_key
    hashes = [content_hash(model_key, text) for text in texts]
    distinct = list(dict.fromkeys(hashes))
    found = await lookup(model_key, distinct)
    width = embedder.dims
    known = {
        digest: blob for digest, blob in found.items() if width is None or len(blob) == width * 4
    }
    text_of = dict(zip(hashes, texts, strict=True))
    missing = [digest for digest in distinct if digest not in known]
    if missing:
        fresh = await embedder.embed([text_of[digest] for digest in missing])
        rows = list(zip(missing, fresh, strict=True))
        await store_rows(model_key, rows)
        known.update(rows)
    return [known[digest] for digest in hashes]
