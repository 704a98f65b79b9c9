"""``OpenAIEmbedder``: vectors from an OpenAI-compatible ``/embeddings`` endpoint.

Its own module because importing ``openai`` costs over a second: only a configuration that
names a remote embedding model pays for it (``memory.search.embeddings.build_embedder``).
"""

from __future__ import annotations

import base64
import binascii
import functools
import logging
import math
from collections.abc import Sequence

import numpy as np
import openai
from numpy.typing import NDArray
from openai.types import CreateEmbeddingResponse

from memory.errors import ConfigError
from memory.llm.endpoint import OpenAIEndpoint
from memory.llm.errors import LLMRequestError
from memory.search.embeddings import (
    BLOB_DTYPE,
    DEFAULT_BATCH_SIZE,
    MAX_BATCH_SIZE,
    EmbeddingError,
    prepared_texts,
    vector_blobs,
)
from memory.settings import LLM_COOLDOWN

log = logging.getLogger(__name__)


class OpenAIEmbedder(OpenAIEndpoint):
    """A model of an OpenAI-compatible ``/embeddings`` endpoint.

    ``base_url`` / ``api_key`` unset: the openai client's ``OPENAI_BASE_URL`` /
    ``OPENAI_API_KEY``; no key anywhere: a placeholder, for local servers without auth.
    ``dimensions`` is sent with every request (models that can shorten their vectors) and
    required of the answer. The model key is the model name, plus ``@<dimensions>`` when
    set. ``timeout`` is per request; ``max_retries`` counts the client's retries after the
    first request (see ``memory.llm.endpoint``). A ``client`` passed in is used with this
    embedder's timeout and retries, and stays the caller's to close.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        dimensions: int | None = None,
        timeout: float = 30.0,
        max_retries: int = 4,
        cooldown: float = LLM_COOLDOWN,
        batch_size: int = DEFAULT_BATCH_SIZE,
        client: openai.AsyncOpenAI | None = None,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError("a remote embedding model needs a name (MEMORYBOT_EMBEDDING_MODEL)")
        if dimensions is not None and dimensions < 1:
            raise ConfigError(f"embedding dimensions must be at least 1, not {dimensions}")
        if not 1 <= batch_size <= MAX_BATCH_SIZE:
            raise ConfigError(f"embedding batch size must be 1..{MAX_BATCH_SIZE}, not {batch_size}")
        self.dimensions = dimensions
        self.model_key = f"{model}@{dimensions}" if dimensions is not None else model
        self.dims: int | None = dimensions
        super().__init__(
            "embedding",
            model,
            client=client,
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            cooldown=cooldown,
        )
        self.batch_size = batch_size

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        """Blobs of ``texts``, one request per batch; raises :class:`EmbeddingError`."""
        prepared = prepared_texts(texts)
        blobs: list[bytes] = []
        for start in range(0, len(prepared), self.batch_size):
            batch = prepared[start : start + self.batch_size]
            try:
                response = await self._send(
                    functools.partial(self._request, batch),
                    CreateEmbeddingResponse,
                    "an embeddings list",
                )
            except LLMRequestError as exc:
                raise EmbeddingError(str(exc)) from exc
            matrix = self._vectors(response, len(batch))
            if self.dims is None:
                self.dims = int(matrix.shape[1])
            blobs += vector_blobs(matrix)
        return blobs

    async def _request(self, batch: list[str]) -> object:
        """One request (the client retries it); what the client made of the answer."""
        if self.dimensions is None:
            return await self._client.embeddings.create(
                model=self.model, input=batch, encoding_format="base64"
            )
        return await self._client.embeddings.create(
            model=self.model, input=batch, encoding_format="base64", dimensions=self.dimensions
        )

    def _vectors(self, response: CreateEmbeddingResponse, count: int) -> NDArray[np.float64]:
        """The answer's vectors as a ``(count, dims)`` matrix in input order, or raise."""
        data: object = getattr(response, "data", None)
        if not isinstance(data, list):
            raise self._bad("the reply has no data list")
        if len(data) != count:
            raise self._bad(f"{len(data)} vector(s) for {count} input(s)")
        rows: list[NDArray[np.float64] | None] = [None] * count
        for position, item in enumerate(data):
            index: object = getattr(item, "index", None)
            if isinstance(index, bool) or not isinstance(index, int):
                raise self._bad(f"item {position} has no integer index")
            if not 0 <= index < count or rows[index] is not None:
                raise self._bad(f"index {index} is out of range or repeated")
            rows[index] = self._vector(getattr(item, "embedding", None), index)
        vectors = [row for row in rows if row is not None]
        lengths = {len(row) for row in vectors}
        if len(lengths) != 1:
            raise self._bad(f"vectors of different lengths {sorted(lengths)}")
        (length,) = lengths
        if length == 0:
            raise self._bad("empty vectors")
        if self.dims is not None and length != self.dims:
            raise self._bad(f"vectors of {length} dimensions, expected {self.dims}")
        return np.stack(vectors)

    def _vector(self, embedding: object, index: int) -> NDArray[np.float64]:
        if isinstance(embedding, str):  # base64 of little-endian float32
            try:
                raw = base64.b64decode(embedding, validate=True)
            except (binascii.Error, ValueError):
                raise self._bad(f"vector {index} is not valid base64") from None
            if len(raw) % 4:
                raise self._bad(f"vector {index} is {len(raw)} bytes, not float32s")
            vector = np.frombuffer(raw, dtype=BLOB_DTYPE).astype(np.float64)
        elif isinstance(embedding, list):  # a server that ignores encoding_format
            if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in embedding):
                raise self._bad(f"vector {index} holds something other than numbers")
            vector = np.asarray(embedding, dtype=np.float64)
        else:
            raise self._bad(f"vector {index} is missing")
        if not np.isfinite(vector).all():
            raise self._bad(f"vector {index} holds NaN or infinite numbers")
        with np.errstate(over="ignore"):
            norm = float(np.linalg.norm(vector))
        if not math.isfinite(norm):
            raise self._bad(f"vector {index} holds numbers too large to normalise")
        return vector

    def _bad(self, reason: str) -> EmbeddingError:
        return EmbeddingError(f"{self._what}: unusable answer: {reason}")


# --- choosing and caching -----------------------------------------------------------------
