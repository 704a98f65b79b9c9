"""One more process serving the API beside ``memorybot serve --workers N``'s own.

Started by ``dashboard_api.workers`` as ``python -m dashboard_api.worker NUMBER PORT PRIMARY``:
it listens on the API's address and ``PORT`` beside the other workers (``SO_REUSEPORT``:
the kernel gives each a share of the new connections) and answers from a Memory of its own
opened for reading (``reading_memory``: its own database connection, no lock, nothing started), and
sends every request that writes — or that the worker holding the data directory's lock must
answer: ``GET /api/memory`` (it may write MEMORY.md) and ``/api/health`` (its queue) — to
that worker over the Unix socket ``PRIMARY``. Its settings come pickled on stdin; the end
of stdin (the serving process is gone) stops it, as SIGTERM and SIGINT do. It prints
``ready`` once it listens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import socket
import sys

import aiohttp
from aiohttp import web

from dashboard_api.connections import GuardedSite, api_runner
from dashboard_api.errors import ApiError, Handler
from dashboard_api.server import api_config, connection_guard, numbered
from memory.runtime import reading_memory
from memory.settings import Settings

log = logging.getLogger(__name__)

READY = b"ready\n"
PRIMARY_PATHS = frozenset({"/api/memory", "/api/health"})  # answered by the lock's holder
FORWARDED_HEADERS = ("Authorization", "Content-Type", "Accept")
# not copied from the primary's answer: this server sets its own
HOP_HEADERS = frozenset({"content-length", "transfer-encoding", "connection", "keep-alive",
                         "date", "server", "content-encoding"})  # fmt: skip


def forwarded(request: web.Request) -> bool:
    """Whether the worker holding the lock must answer ``request``."""
    return request.method not in ("GET", "HEAD") or request.path in PRIMARY_PATHS


class Forwarder:
    """Sends requests on to the primary worker over its Unix socket (``middleware``, after
    the rate limit and the token check)."""

    def __init__(self, primary: str) -> None:
        self.primary = primary
        self._session: aiohttp.ClientSession | None = None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not forwarded(request):
            return await handler(request)
        if self._session is None:
            self._session = aiohttp.ClientSession(connector=aiohttp.UnixConnector(self.primary))
        headers = {k: v for k in FORWARDED_HEADERS if (v := request.headers.get(k)) is not None}
        body = await request.read()
        try:
            async with self._session.request(
                request.method, "http://memorybot" + request.raw_path, headers=headers,
                data=body or None,
            ) as answer:  # fmt: skip
                payload = await answer.read()
        except aiohttp.ClientError as exc:
            log.warning("the primary API worker did not answer: %s", exc)
            raise ApiError(503, "unavailable", "the server is restarting: try again") from exc
        kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
        return web.Response(status=answer.status, body=payload, headers=kept)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()


async def run_worker(settings: Settings, number: int, listen: socket.socket, primary: str
                     ) -> None:  # fmt: skip
    """Serve on ``listen`` until SIGTERM, SIGINT or the end of stdin."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    stdin = sys.stdin.fileno()

    def parent_gone() -> None:  # stdin readable: its end, the serving process is gone
        if not os.read(stdin, 4096):
            stop.set()

    loop.add_reader(stdin, parent_gone)
    token = settings.api_token.get_secret_value() if settings.api_token else ""
    forwarder = Forwarder(primary)
    async with reading_memory(settings) as memory:
        memory.watch_outside_commits()
        app = numbered(memory, api_config(settings, token, share=settings.api_workers), number)
        app.middlewares.append(forwarder.middleware)
        runner = api_runner(app)
        await runner.setup()
        try:
            await GuardedSite(runner, connection_guard(settings), sock=listen).start()
            sys.stdout.buffer.write(READY)
            sys.stdout.flush()
            await stop.wait()
        finally:
            await runner.cleanup()
            await forwarder.close()


def main() -> None:
    from dashboard_api.workers import listening_socket

    number, port, primary = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    logging.basicConfig(
        level=logging.INFO, format=f"%(asctime)s %(levelname)s API worker {number}: %(message)s"
    )
    settings = pickle.load(sys.stdin.buffer)  # from the process that started this one
    if not isinstance(settings, Settings):
        raise SystemExit("API worker: no settings on stdin")
    listen = listening_socket(settings, port)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_worker(settings, number, listen, primary))


if __name__ == "__main__":
    main()
