"""Running the API: ``memorybot serve`` and ``memorybot demo`` (and, later, beside the bot)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from aiohttp import web

from dashboard_api.app import create_app
from dashboard_api.auth import check_bind, load_or_create_token
from dashboard_api.cache import ResponseCache
from dashboard_api.clients import parse_networks
from dashboard_api.config import ApiConfig
from dashboard_api.connections import ConnectionGuard, GuardedSite, api_runner, connection_cap
from dashboard_api.ratelimit import RateLimiter, failure_limiter
from memory.runtime import Memory, open_memory
from memory.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Serving:
    """Where the API listens and with which token."""

    url: str
    token: str
    token_created: bool
    token_file: str | None


def api_config(settings: Settings, token: str, *, share: int = 1) -> ApiConfig:
    """The API's configuration from ``settings``; ``share``: how many processes serve the
    API, each keeping its own rate limits, so each allows that share of the limit (a client
    spread over them all gets the limit, never that many times it)."""
    return ApiConfig(
        token=token,
        guilds=settings.api_guilds,
        admin_token=(
            settings.api_admin_token.get_secret_value() if settings.api_admin_token else None
        ),
        limiter=RateLimiter(
            settings.api_rate_limit / share, max(1, settings.api_rate_burst // share)
        ),
        failures=failure_limiter(share),
        cache=ResponseCache(settings.api_cache_size),
        trusted_proxies=parse_networks(sorted(settings.api_trusted_proxies)),
        client_timeout=settings.api_client_timeout,
    )


def connection_guard(settings: Settings) -> ConnectionGuard:
    """The connection cap and deadline of one process serving the API (``connections``)."""
    return ConnectionGuard(
        connection_cap(settings.api_max_connections), settings.api_client_timeout
    )


WORKER_HEADER = "X-Memorybot-Worker"


def api_url(host: str, port: int) -> str:
    return f"http://{host if ':' not in host else f'[{host}]'}:{port}/"


def listen_error(settings: Settings, exc: OSError) -> OSError:
    return OSError(
        f"cannot listen on {settings.api_host}:{settings.api_port}: {exc.strerror or exc}"
        " (set MEMORYBOT_API_PORT or stop what uses it)"
    )


def numbered(memory: Memory, config: ApiConfig, number: int) -> web.Application:
    """The API of one of several serving processes (``serve --workers``): each answer says
    which took it (0: the one holding the data directory's lock, which makes every change)."""
    app = create_app(memory, config)

    async def sign(request: web.Request, response: web.StreamResponse) -> None:
        response.headers[WORKER_HEADER] = str(number)

    app.on_response_prepare.append(sign)
    return app


@contextlib.asynccontextmanager
async def running_api(
    memory: Memory, settings: Settings, *, port: int | None = None
) -> AsyncIterator[Serving]:
    """The API and page of ``memory``, listening until the block ends."""
    check_bind(settings)
    token, token_file, created = load_or_create_token(settings)
    app = create_app(memory, api_config(settings, token))
    runner = api_runner(app)
    await runner.setup()
    try:
        site = GuardedSite(
            runner, connection_guard(settings), host=settings.api_host,
            port=settings.api_port if port is None else port,
        )  # fmt: skip
        try:
            await site.start()
        except OSError as exc:
            raise listen_error(settings, exc) from exc
        url = api_url(settings.api_host, site.port)  # port 0: the one the system chose
        yield Serving(url, token, created, str(token_file or "") or None)
    finally:
        await runner.cleanup()


async def serve_forever(
    settings: Settings, *, announce: Callable[[Serving], None], port: int | None = None,
    workers: int = 1,
) -> None:  # fmt: skip
    """``memorybot serve``: memory (queue and journals running) and the API, until
    SIGINT or SIGTERM; then the queue drains and the database closes. ``workers`` > 1:
    that many processes serve (``dashboard_api.workers``)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    if workers > 1:
        from dashboard_api.workers import serve_workers

        await serve_workers(settings, workers, stop, announce=announce, port=port)
        return
    async with open_memory(settings) as memory, running_api(memory, settings, port=port) as s:
        announce(s)
        await stop.wait()
        log.info("stopping: draining the ingest queue")
