"""The openai client as memorybot builds it, and :class:`OpenAIEndpoint`: what the LLM
extractor, the LLM replier, the LLM fact check, the profile writer and the remote embedder
share.

Every request has one deadline, ``timeout`` (``MEMORYBOT_LLM_TIMEOUT``): the whole request
— every attempt, every retry and the waits between them, however slowly the server sends
its answer — ends by then. (The client's own ``timeout`` only bounds each read, so a server
sending a byte a second would hold a request forever.) Within it, retries are the client's:
``max_retries`` (``MEMORYBOT_LLM_MAX_RETRIES``). The client (as of openai 3.57) retries
HTTP 408, 409, 429 and 5xx answers, timeouts and connection errors (a server's
``x-should-retry`` header overrides that), waiting as long as ``retry-after-ms`` /
``Retry-After`` ask, up to two minutes (a server asking for longer is not retried), else
backing off exponentially with jitter. Every other status (400, 401, 403, 404, 422, ...)
fails at once.

What this module adds: a request the client gives up on, or that runs out of time, raises
:class:`LLMRequestError` with one line (:func:`memory.llm.errors.request_error`); an answer
that is no answer (malformed JSON, not the object asked for, no usable text) fails at once:
asking again would only pay for the same answer. A request that finds the endpoint down
opens the endpoint's breaker (``memory.llm.breaker``, ``MEMORYBOT_LLM_COOLDOWN``): the
requests after it fail at once with :class:`LLMDownError` until a trial finds it up again.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

from memory.errors import ConfigError, MemorybotError
from memory.llm.answers import read_answer, reply_as
from memory.llm.breaker import Breaker
from memory.llm.errors import LLMDownError, LLMRequestError, display_url, request_error
from memory.settings import LLM_COOLDOWN, Settings

T = TypeVar("T")

PLACEHOLDER_API_KEY = "unused"
"""Sent when no key is configured anywhere: local servers without auth ignore it."""


def openai_client(
    base_url: str | None,
    api_key: str | None,
    *,
    timeout: float,
    max_retries: int,
    client: openai.AsyncOpenAI | None = None,
) -> openai.AsyncOpenAI:
    """A client that gives each request ``timeout`` seconds and retries it ``max_retries``
    times: ``client`` with those options (sharing its connections), else a new one for
    ``base_url`` / ``api_key`` (falling back to ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``,
    then a placeholder key, so a local server without auth works)."""
    if client is not None:
        return client.with_options(max_retries=max_retries, timeout=timeout)
    key = api_key or None
    if key is None and not os.environ.get("OPENAI_API_KEY"):
        key = PLACEHOLDER_API_KEY
    return openai.AsyncOpenAI(
        api_key=key, base_url=base_url or None, max_retries=max_retries, timeout=timeout
    )


def llm_options(settings: Settings, needs: str) -> dict[str, Any]:
    """The ``MEMORYBOT_LLM_*`` endpoint options (model, base_url, api_key, timeout,
    max_retries, cooldown) for a constructor; ``ConfigError`` naming ``needs`` when no model
    is set."""
    if not settings.llm_model:
        raise ConfigError(f"MEMORYBOT_LLM_MODEL is not set: {needs} a model")
    return {
        "model": settings.llm_model,
        "base_url": settings.endpoint_url,
        "api_key": settings.endpoint_key,
        "timeout": settings.llm_timeout,
        "max_retries": settings.llm_max_retries,
        "cooldown": settings.llm_cooldown,
    }


class OpenAIEndpoint:
    """A client with this endpoint's timeout and retries, the endpoint it talks to, a
    one-line name for errors and logs, the deadline and breaker every request goes through,
    and closing the client when this object built it (a client passed in stays the
    caller's)."""

    def __init__(
        self,
        purpose: str,
        model: str,
        *,
        client: openai.AsyncOpenAI | None,
        base_url: str | None,
        api_key: str | None,
        timeout: float,
        max_retries: int,
        cooldown: float = LLM_COOLDOWN,
    ) -> None:
        self.timeout = timeout  # each request's deadline, retries included
        self.max_retries = max_retries
        self._owns_client = client is None
        self._client = openai_client(
            base_url, api_key, timeout=timeout, max_retries=max_retries, client=client
        )
        self._closed = False
        self.model = model  # what requests ask for
        self._what = f"{purpose} ({model} at {display_url(self.base_url)})"
        self.breaker = Breaker(self._what, cooldown)

    @property
    def client(self) -> openai.AsyncOpenAI:
        """The openai client requests go through (closed by ``aclose`` when built here)."""
        return self._client

    @property
    def base_url(self) -> str:
        """The endpoint requests go to (``.../v1/``)."""
        return str(self._client.base_url)

    async def _send(self, call: Callable[[], Awaitable[object]], expected: type[T], kind: str) -> T:
        """What ``call()`` (one request of the client, which retries it) answers, as an
        ``expected`` (``kind`` names it: "a chat completion"), within the deadline. Raises
        :class:`LLMRequestError` once the client gives up or the deadline passes (then
        :class:`LLMDownError`, also at once while the breaker is open), and at once for a
        body that is malformed JSON or not ``kind``."""
        breaker = self.breaker
        if not breaker.admit():
            raise LLMDownError(breaker.refusal(), attempts=0)
        try:
            async with asyncio.timeout(self.timeout):
                answer = await call()
        except TimeoutError:
            reason = f"timed out after {self.timeout:g} s"  # the client's own words
            error: LLMRequestError = LLMDownError(f"{self._what} failed: {reason}", reason=reason)
        except openai.APIError as exc:
            error = request_error(exc, self._what, timeout=self.timeout)
            error.__cause__ = exc
        except json.JSONDecodeError as exc:
            error = LLMRequestError(
                f"{self._what}: the server's reply was malformed JSON ({exc.msg})"
            )
        except BaseException:  # cancelled: no outcome
            breaker.abandoned()
            raise
        else:
            breaker.answered()
            try:
                return reply_as(answer, expected, kind)
            except ValueError as exc:
                raise LLMRequestError(f"{self._what}: {exc}") from None
        if isinstance(error, LLMDownError):
            breaker.failed(error.reason)
        else:
            breaker.answered()
        raise error

    async def _chat_answer(
        self,
        chat: list[ChatCompletionMessageParam],
        *,
        temperature: float,
        response_format: Any,
        parse: Callable[[str], T],
        error: type[MemorybotError],
    ) -> T:
        """One chat completion, its answer text parsed by ``parse`` (which raises
        ``ValueError`` with the reason). Every failure — out of retries, no chat completion,
        no answer, a refusal, an unusable answer — raises ``error`` with one line."""
        try:
            completion = await self._send(
                lambda: self._client.chat.completions.create(
                    model=self.model,
                    messages=chat,
                    temperature=temperature,
                    response_format=response_format,
                ),
                ChatCompletion,
                "a chat completion",
            )
        except LLMRequestError as exc:
            raise error(str(exc)) from exc
        try:
            return read_answer(completion, parse)
        except ValueError as exc:
            raise error(f"{self._what}: {exc}") from None

    async def aclose(self) -> None:
        """Close the HTTP client (when this object built it)."""
        if self._closed:
            return
        self._closed = True
        if self._owns_client:
            await self._client.close()
