"""The API's one error shape, ``{"error": {"code", "message"}}``, for every failure."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from dashboard_api.clients import CLIENT

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}


class ApiError(Exception):
    """A failure the client caused or must know about, with its HTTP status."""

    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> web.Response:
    return web.json_response(
        {"error": {"code": code, "message": message}}, status=status, headers=headers
    )


@web.middleware
async def error_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn every failure into the JSON error shape; unexpected ones are logged, not shown."""
    try:
        return await handler(request)
    except ApiError as exc:
        return error_response(exc.status, exc.code, exc.message, exc.headers)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        headers = {k: v for k, v in exc.headers.items() if k.lower() == "allow"}
        code = _CODES.get(exc.status, "http_error")
        return error_response(exc.status, code, exc.reason, headers)
    except Exception:
        client = request.get(CLIENT, request.remote)
        log.exception("API request %s %s failed (from %s)", request.method, request.path, client)
        return error_response(500, "internal", "internal error (see the server log)")
