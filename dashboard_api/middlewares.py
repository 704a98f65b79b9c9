"""The API's middlewares after the JSON error one, in order: who the client is, the token,
the rate limit, and the request's body read within its deadline."""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import web

from dashboard_api import moderation
from dashboard_api.auth import bearer_matches
from dashboard_api.clients import CLIENT, client_address
from dashboard_api.config import CONFIG
from dashboard_api.connections import GuardedConnection
from dashboard_api.errors import ApiError, Handler
from dashboard_api.ratelimit import retry_after

STOPPING = web.AppKey("stopping", asyncio.Event)  # set when the server begins to stop


@web.middleware
async def identify(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The client's address (``clients``); the connection counts as being answered (it is
    not closed to make room for a new one) until the answer is sent."""
    config = request.app[CONFIG]
    forwarded = request.headers.getall("X-Forwarded-For", [])
    request[CLIENT] = client_address(request.remote, forwarded, config.trusted_proxies)
    connection = request.protocol
    if not isinstance(connection, GuardedConnection):
        return await handler(request)
    connection.answering += 1
    try:
        return await handler(request)
    finally:
        connection.answering -= 1


@web.middleware
async def auth(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every memory endpoint needs the bearer token (or the admin token, which may also
    moderate facts). Requests without either count against the client's own limit of
    failures, never the rate limit of requests with a token."""
    config, given = request.app[CONFIG], request.headers.get("Authorization")
    admin = config.admin_token is not None and bearer_matches(given, config.admin_token)
    request[moderation.ADMIN] = admin
    if request.path.startswith("/api/memory") and not (
        admin or bearer_matches(given, config.token)
    ):
        wait = config.failures.check(request[CLIENT])
        if wait > 0:
            raise ApiError(
                429, "rate_limited", "too many requests without the right token: slow down",
                headers={"Retry-After": retry_after(wait)},
            )  # fmt: skip
        raise ApiError(
            401, "unauthorized", "send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": 'Bearer realm="memorybot"'},
        )  # fmt: skip
    return await handler(request)


@web.middleware
async def rate_limit(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Per client; the page's own files are not counted."""
    if request.path.startswith("/api/"):
        wait = request.app[CONFIG].limiter.check(request[CLIENT])
        if wait > 0:
            raise ApiError(
                429, "rate_limited", "too many requests: slow down",
                headers={"Retry-After": retry_after(wait)},
            )  # fmt: skip
    return await handler(request)


@web.middleware
async def read_body(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request's body, read whole (``client_max_size`` at most) before the handler runs,
    within ``client_timeout`` seconds, and given up on when the server stops: a client that
    sends it slowly holds neither a handler nor the server's shutdown."""
    if request.body_exists:
        seconds = request.app[CONFIG].client_timeout
        reading = asyncio.ensure_future(request.read())
        stopping = asyncio.ensure_future(request.app[STOPPING].wait())
        try:
            await asyncio.wait((reading, stopping), timeout=seconds,
                               return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
        finally:
            stopping.cancel()
            if not reading.done():
                reading.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await reading
        if reading.cancelled():
            if request.app[STOPPING].is_set():
                raise ApiError(503, "unavailable", "the server is stopping: try again")
            raise ApiError(408, "timeout", f"send the body within {seconds:g} s",
                           headers={"Connection": "close"})  # fmt: skip
        try:
            reading.result()
        except web.RequestPayloadError:
            raise ApiError(400, "bad_request", "the body's framing is not valid HTTP") from None
        except ConnectionError:  # the client went away: nobody reads the answer
            raise ApiError(400, "bad_request", "the body did not arrive") from None
    return await handler(request)


async def stopping(app: web.Application) -> None:
    """``on_shutdown``: bodies still being sent are given up on."""
    app[STOPPING].set()
