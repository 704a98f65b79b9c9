"""The retry policy of requests to an OpenAI-compatible endpoint (chat, later embeddings).

The openai client is built with ``max_retries=0``; :func:`with_retries` decides instead:

* retried: HTTP 429 and 408/409, every 5xx, timeouts (``openai.APITimeoutError``) and
  connection errors (``openai.APIConnectionError``);
* not retried: every other status (400, 401, 403, 404, 422, ...) and every exception that is
  not an ``openai.APIError`` (an unparseable answer is the caller's business: it raises its
  own error, which passes through untouched).

Waits: the server's ``retry-after-ms`` / ``Retry-After`` (seconds or an HTTP date) when it
sends one, up to ``max_server_wait`` (60 s); a server asking for longer is not retried at all
(a quota that resets in an hour is not worth holding a worker for). Otherwise exponential
backoff with jitter: ``backoff_base * 2**n``, at most ``backoff_cap``, times 0.5..1.

A request that fails for good raises :class:`LLMRequestError` with a one-line reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import json
import logging
import math
import os
import random
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

from memory.errors import ConfigError, MemorybotError
from memory.llm.answers import read_answer, reply_as
from memory.settings import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_SERVER_WAIT = 60.0
"""Longest ``Retry-After`` (seconds) honoured; a server asking for more is not retried."""

RETRYABLE_STATUSES = frozenset({408, 409, 429})
_DETAIL_LIMIT = 200


class LLMRequestError(MemorybotError):
    """A request to the LLM endpoint failed for good (not retryable, or out of retries).

    ``status`` is the last HTTP status (None: timeout / connection error); ``attempts`` is
    how many requests were made.
    """

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


@dataclass(frozen=True, slots=True)
class Failure:
    """What went wrong with one attempt: a one-line ``reason``, whether another attempt may
    help, and the wait the server asked for (seconds, None when it did not say)."""

    reason: str
    retryable: bool
    status: int | None = None
    retry_after: float | None = None


def classify(exc: BaseException, *, timeout: float | None = None) -> Failure | None:
    """The :class:`Failure` an openai exception stands for; None for any other exception.

    ``timeout`` (the client's per-request timeout) only makes the timeout reason precise.
    """
    if isinstance(exc, openai.APITimeoutError):
        shown = f" after {timeout:g} s" if timeout is not None else ""
        return Failure(f"timed out{shown}", retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        return Failure(_connection_reason(exc), retryable=True)
    if isinstance(exc, openai.APIStatusError):
        code = exc.status_code
        reason = f"HTTP {code}"
        detail = _status_detail(exc.body)
        if detail:
            reason += f": {detail}"
        retryable = code in RETRYABLE_STATUSES or code >= 500
        retry_after = parse_retry_after(exc.response.headers) if retryable else None
        return Failure(reason, retryable=retryable, status=code, retry_after=retry_after)
    if isinstance(exc, openai.APIError):
        return Failure(_one_line(str(exc)) or type(exc).__name__, retryable=False)
    return None


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Seconds the server asks to wait: ``retry-after-ms``, else ``Retry-After`` as seconds
    or as an HTTP date. None when absent or unreadable; never negative."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value.strip()) * scale
        except ValueError:
            continue
        if math.isnan(seconds):
            continue
        return max(0.0, seconds)
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        moment = email.utils.parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment.tzinfo is None:  # an HTTP date is always GMT
        return None
    current = time.time() if now is None else now
    return max(0.0, moment.timestamp() - current)


def backoff_delay(retry: int, *, base: float, cap: float) -> float:
    """The wait before retry number ``retry`` (0-based): exponential, capped, jittered."""
    exponent = min(retry, 60)
    return min(cap, base * 2.0**exponent) * random.uniform(0.5, 1.0)


async def with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    max_retries: int,
    backoff_base: float,
    backoff_cap: float,
    what: str,
    request_timeout: float | None = None,
    max_server_wait: float = MAX_SERVER_WAIT,
) -> T:
    """Await ``call()`` until it succeeds, retrying as the module docstring describes.

    ``what`` names the request in logs and errors ("LLM extraction (gpt-4o-mini)");
    ``request_timeout`` (the client's per-request timeout) only words timeout errors. Raises
    :class:`LLMRequestError` when the request fails for good; exceptions that are not
    openai API errors (and cancellation) propagate at once.
    """
    attempts = max(0, max_retries) + 1
    for attempt in range(1, attempts + 1):
        try:
            return await call()
        except openai.APIError as exc:
            failure = classify(exc, timeout=request_timeout)
            assert failure is not None
            if not failure.retryable:
                raise LLMRequestError(
                    f"{what} failed: {failure.reason}", status=failure.status, attempts=attempt
                ) from exc
            if attempt == attempts:
                raise LLMRequestError(
                    f"{what} failed after {_attempts(attempt)}: {failure.reason}",
                    status=failure.status,
                    attempts=attempt,
                ) from exc
            if failure.retry_after is not None:
                if failure.retry_after > max_server_wait:
                    raise LLMRequestError(
                        f"{what} failed: {failure.reason} "
                        f"(server asks to retry after {failure.retry_after:.0f} s, "
                        f"more than {max_server_wait:g} s)",
                        status=failure.status,
                        attempts=attempt,
                    ) from exc
                wait = failure.retry_after
            else:
                wait = backoff_delay(attempt - 1, base=backoff_base, cap=backoff_cap)
            log.warning(
                "%s: %s (attempt %d of %d), retrying in %.2f s",
                what,
                failure.reason,
                attempt,
                attempts,
                wait,
            )
            await asyncio.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def display_url(url: str) -> str:
    """``url`` fit for logs and errors: without user info, query or fragment."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return "<unreadable URL>"
    host = parts.hostname or ""
    if ":" in host:  # IPv6
        host = f"[{host}]"
    with contextlib.suppress(ValueError):
        if parts.port is not None:
            host += f":{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def _attempts(count: int) -> str:
    return f"{count} attempt" if count == 1 else f"{count} attempts"


def _one_line(text: str, limit: int = _DETAIL_LIMIT) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _status_detail(body: object) -> str:
    """The server's own explanation: ``error.message`` of an OpenAI-style body, else the
    body's text (shortened, on one line)."""
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            message = error.get("message")
            if isinstance(message, str):
                return _one_line(message)
        elif isinstance(error, str):
            return _one_line(error)
        message = body.get("message") or body.get("detail")
        if isinstance(message, str):
            return _one_line(message)
        return _one_line(str(body))
    if isinstance(body, str | bytes):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        return _one_line(text)
    return ""


def _connection_reason(exc: openai.APIConnectionError) -> str:
    url = ""
    with contextlib.suppress(AttributeError, RuntimeError):  # no request attached
        url = f" ({display_url(str(exc.request.url))})"
    causes: list[BaseException] = []
    current: BaseException | None = exc.__cause__ or exc.__context__
    while current is not None and current not in causes and len(causes) < 20:
        causes.append(current)
        current = current.__cause__ or current.__context__
    if any(isinstance(cause, ConnectionRefusedError) for cause in causes):
        return f"connection refused{url}"
    detail = next((_one_line(str(c)) for c in reversed(causes) if str(c)), "")
    return f"connection failed{url}: {detail}" if detail else f"connection failed{url}"


PLACEHOLDER_API_KEY = "unused"
"""Sent when no key is configured anywhere: local servers without auth ignore it."""


def openai_client(
    client: openai.AsyncOpenAI | None, base_url: str | None, api_key: str | None, timeout: float
) -> openai.AsyncOpenAI:
    """The client our retry policy drives: the given one (its own retries off) or a new one
    for ``base_url`` / ``api_key`` (falling back to ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``,
    then a placeholder key, so a local server without auth works)."""
    if client is not None:
        return client.with_options(max_retries=0, timeout=timeout)
    key = api_key or None
    if key is None and not os.environ.get("OPENAI_API_KEY"):
        key = PLACEHOLDER_API_KEY
    return openai.AsyncOpenAI(
        api_key=key, base_url=base_url or None, max_retries=0, timeout=timeout
    )


def llm_options(settings: Settings, needs: str) -> dict[str, Any]:
    """The ``MEMORYBOT_LLM_*`` endpoint options (model, base_url, api_key, timeout,
    max_retries) for a constructor; ``ConfigError`` naming ``needs`` when no model is set."""
    if not settings.llm_model:
        raise ConfigError(f"MEMORYBOT_LLM_MODEL is not set: {needs} a model")
    return {
        "model": settings.llm_model,
        "base_url": settings.endpoint_url,
        "api_key": settings.endpoint_key,
        "timeout": settings.llm_timeout,
        "max_retries": settings.llm_max_retries,
    }


class OpenAIEndpoint:
    """The part an extractor and an embedder share: a client driven by our retry policy,
    the endpoint it talks to, a one-line name for errors and logs, and closing the client
    when this object built it (a client passed in stays the caller's)."""

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
        backoff_base: float,
        backoff_cap: float,
    ) -> None:
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_cap = backoff_cap
        self._owns_client = client is None
        self._client = openai_client(client, base_url, api_key, timeout)
        self._closed = False
        self.model = model  # what requests ask for
        self._what = f"{purpose} ({model} at {display_url(self.base_url)})"

    @property
    def base_url(self) -> str:
        """The endpoint requests go to (``.../v1/``)."""
        return str(self._client.base_url)

    async def _retried(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call`` under the retry policy; ``LLMRequestError`` once it gives up."""
        return await with_retries(
            call,
            max_retries=self.max_retries,
            backoff_base=self.backoff_base,
            backoff_cap=self.backoff_cap,
            what=self._what,
            request_timeout=self.timeout,
        )

    async def _chat_answer(
        self,
        chat: list[ChatCompletionMessageParam],
        *,
        temperature: float,
        response_format: Any,
        parse: Callable[[str], T],
        error: type[MemorybotError],
    ) -> T:
        """One chat completion under the retry policy, its answer text parsed by ``parse``
        (which raises ``ValueError`` with the reason). Every failure — out of retries, no
        chat completion, no answer, a refusal, an unusable answer — raises ``error`` with
        one line."""
        try:
            completion = await self._retried(
                lambda: self._create_chat(chat, temperature, response_format, error)
            )
        except LLMRequestError as exc:
            raise error(str(exc)) from exc
        try:
            return read_answer(completion, parse)
        except ValueError as exc:
            raise error(f"{self._what}: {exc}") from None

    async def _create_chat(
        self,
        chat: list[ChatCompletionMessageParam],
        temperature: float,
        response_format: Any,
        error: type[MemorybotError],
    ) -> ChatCompletion:
        """One request, no retries; a reply that is no chat completion raises ``error``."""
        try:
            completion: object = await self._client.chat.completions.create(
                model=self.model,
                messages=chat,
                temperature=temperature,
                response_format=response_format,
            )
        except json.JSONDecodeError as exc:
            raise error(
                f"{self._what}: the server's reply was malformed JSON ({exc.msg})"
            ) from None
        try:
            return reply_as(completion, ChatCompletion, "a chat completion")
        except ValueError as exc:
            raise error(f"{self._what}: {exc}") from None

    async def aclose(self) -> None:
        """Close the HTTP client (when this object built it)."""
        if self._closed:
            return
        self._closed = True
        if self._owns_client:
            await self._client.close()
