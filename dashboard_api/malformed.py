"""Requests the app never sees: what aiohttp's HTTP parser rejects (a bad request line, a URL
or header line too long, too many headers, a header with a control character) is answered in
the API's JSON error shape with a message of our own — never the parser's, which quotes the
request (a token included) — and logged as one line a minute at most, without its text."""

from __future__ import annotations

import logging
import time

from aiohttp import http_exceptions
from aiohttp.web import Response

from dashboard_api.errors import error_response

log = logging.getLogger(__name__)

LOG_EVERY = 60.0  # seconds between two lines about malformed requests


def describe(exc: BaseException | None) -> tuple[str, str]:
    """``(code, message)`` for a request the parser rejected; nothing of the request in it."""
    if isinstance(exc, http_exceptions.LineTooLong):
        return "too_large", "the URL or a header line is too long (8190 bytes at most)"
    if isinstance(exc, http_exceptions.BadStatusLine):
        return "bad_request", "not an HTTP request line"
    if isinstance(exc, http_exceptions.PayloadEncodingError):
        return "bad_request", "the body's framing is not valid HTTP"
    return "bad_request", "malformed HTTP request (its headers are not valid HTTP, or too many)"


class Rejections:
    """Counts malformed requests and logs one line per ``LOG_EVERY`` seconds at most."""

    def __init__(self) -> None:
        self._unlogged = 0
        self._logged_at: float | None = None

    def note(self, peer: str | None, code: str) -> None:
        self._unlogged += 1
        now = time.monotonic()
        if self._logged_at is not None and now - self._logged_at < LOG_EVERY:
            return
        log.info(
            "answered %d malformed HTTP request(s) with 400 (the latest: %s from %s); "
            "their text is not logged, the next line comes in %d s at the earliest",
            self._unlogged, code, peer or "?", LOG_EVERY,
        )  # fmt: skip
        self._unlogged = 0
        self._logged_at = now


REJECTIONS = Rejections()  # one count per process: the log is bounded however many servers


def answer(status: int, exc: BaseException | None, peer: str | None) -> Response:
    """The JSON answer to a request the app never saw (the connection closes after it)."""
    if status >= 500:
        if exc is not None:  # our own failure outside the app's error middleware
            log.error("API request failed", exc_info=exc)
        response = error_response(status, "internal", "internal error (see the server log)")
    else:
        code, message = describe(exc)
        REJECTIONS.note(peer, code)
        response = error_response(status, code, message)
    response.force_close()
    return response
