"""What a request that failed for good reads as: :class:`LLMRequestError`, one line.

The openai client has already retried by then (429, 408, 409, 5xx, timeouts and connection
errors, as many times as ``max_retries`` and the request's deadline allow, waiting as the
server's ``Retry-After`` asks or backing off); :func:`request_error` only words its last
exception for people: the endpoint, the HTTP status and the server's own explanation, or
the timeout or connection failure, and how many requests were made. A request that found
the endpoint not answering at all raises :class:`LLMDownError`, which its breaker counts
(``memory.llm.breaker``).
"""

from __future__ import annotations

import contextlib
import urllib.parse

import openai

from memory.errors import EndpointDownError, MemorybotError

DETAIL_LIMIT = 200
"""Longest server explanation quoted in an error."""

RETRY_AFTER_HEADERS = ("retry-after-ms", "retry-after")


class LLMRequestError(MemorybotError):
    """A request to the LLM endpoint failed for good (not retryable, out of retries, or an
    answer that is no answer).

    ``status`` is the last HTTP status (None: timeout / connection error); ``attempts`` is
    how many requests were made; ``reason`` is the message without the endpoint's name.
    """

    def __init__(
        self, message: str, *, status: int | None = None, attempts: int = 1, reason: str = ""
    ) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts
        self.reason = reason or message


class LLMDownError(LLMRequestError, EndpointDownError):
    """The endpoint did not answer (no answer within the deadline, a refused or dropped
    connection), or its breaker is open and the request was not sent (``attempts`` 0)."""


def finds_down(exc: openai.APIError) -> bool:
    """Whether the client's last exception says the endpoint is not answering at all (a
    timeout or a connection failure), not that it answered with an error."""
    return isinstance(exc, openai.APITimeoutError | openai.APIConnectionError)


def request_error(exc: openai.APIError, what: str, *, timeout: float) -> LLMRequestError:
    """The :class:`LLMRequestError` of the openai client's last exception for a request
    (:class:`LLMDownError` when it :func:`finds_down` the endpoint).

    ``what`` names the request ("LLM extraction (gpt-4o-mini at https://...)"); ``timeout``
    (the request's deadline) words timeouts.
    """
    attempts = attempts_made(exc)
    status: int | None = None
    if isinstance(exc, openai.APITimeoutError):
        reason = f"timed out after {timeout:g} s"
    elif isinstance(exc, openai.APIConnectionError):
        reason = connection_reason(exc)
    elif isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        reason = status_reason(exc)
    else:
        reason = one_line(str(exc)) or type(exc).__name__
    after = f" after {attempts} attempts" if attempts > 1 else ""
    kind = LLMDownError if finds_down(exc) else LLMRequestError
    return kind(f"{what} failed{after}: {reason}", status=status, attempts=attempts, reason=reason)


def attempts_made(exc: openai.APIError) -> int:
    """How many requests the client made: one more than the retry count it sent with the
    last (``x-stainless-retry-count``); 1 when that is unknown."""
    try:
        return int(exc.request.headers.get("x-stainless-retry-count", "0")) + 1
    except (AttributeError, RuntimeError, ValueError):  # no request attached, or no number
        return 1


def status_reason(exc: openai.APIStatusError) -> str:
    """``HTTP <status>: <the server's explanation>``, and the wait it asked for if any (a
    wait over the client's limit is why a 429 was not retried)."""
    reason = f"HTTP {exc.status_code}"
    detail = status_detail(exc.body)
    if detail:
        reason += f": {detail}"
    headers = exc.response.headers
    asked = next(((name, headers[name]) for name in RETRY_AFTER_HEADERS if name in headers), None)
    if asked is not None:
        name, value = asked
        shown = "Retry-After" if name == "retry-after" else name
        reason += f" ({shown}: {one_line(value, 40)})"
    return reason


def status_detail(body: object) -> str:
    """The server's own explanation: ``error.message`` of an OpenAI-style body, else the
    body's text (shortened, on one line)."""
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            message = error.get("message")
            if isinstance(message, str):
                return one_line(message)
        elif isinstance(error, str):
            return one_line(error)
        message = body.get("message") or body.get("detail")
        if isinstance(message, str):
            return one_line(message)
        return one_line(str(body))
    if isinstance(body, str | bytes):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        return one_line(text)
    return ""


def connection_reason(exc: openai.APIConnectionError) -> str:
    """``connection refused (<url>)``, else ``connection failed (<url>): <innermost cause>``
    (a reset, a server that hung up without answering, a name that does not resolve)."""
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
    detail = next((one_line(str(c)) for c in reversed(causes) if str(c)), "")
    return f"connection failed{url}: {detail}" if detail else f"connection failed{url}"


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


def one_line(text: str, limit: int = DETAIL_LIMIT) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
