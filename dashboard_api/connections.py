"""The API's connections: each one's deadline, how many may be open, and what the parser
rejects answered as JSON.

A client has ``MEMORYBOT_API_CLIENT_TIMEOUT`` seconds to send a request's headers (from
connecting, or from its previous answer: an idle kept-alive connection closes after as long);
its body has as long again (``middlewares.read_body``). At most
``MEMORYBOT_API_MAX_CONNECTIONS`` connections are open at once (fewer when the process may not
open that many files): a new one beyond closes the oldest that is not being answered (one
still sending its headers, or idle), or, when every one is, is answered 503 and closed. So
clients that connect and stall can neither hold the server's file descriptors nor stop it
answering others, and the event loop never runs out of descriptors (asyncio logs each accept
that fails for want of one).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import socket
import time

from aiohttp import web
from aiohttp.web import BaseRequest, StreamResponse

from dashboard_api import malformed

log = logging.getLogger(__name__)

SPARE_FILES = 128  # descriptors kept for the database, journals, model and workers' pipes
# and for connections accepted but not yet placed under the cap: ACCEPT_BATCH at a time, a
# few batches before the oldest ones it closes have let go of theirs
ACCEPT_BATCH = 16
LINGER_SECONDS = 1.0  # reading what is left of a body the answer did not need
SHUTDOWN_GRACE = 1.0  # seconds a request being answered may finish when the server stops
WARN_EVERY = 60.0  # seconds between two lines about a full server
_BUSY = json.dumps({"error": {"code": "unavailable", "message": "too many connections: retry"}})
REFUSED = (
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
    f"Content-Length: {len(_BUSY)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{_BUSY}"
).encode()


class GuardedConnection(web.RequestHandler):
    """aiohttp's connection handler with a header deadline, a place under ``guard``'s cap,
    and JSON answers to what its parser rejects."""

    def __init__(self, manager: web.Server, guard: ConnectionGuard, *,
                 loop: asyncio.AbstractEventLoop) -> None:  # fmt: skip
        super().__init__(
            manager, loop=loop, keepalive_timeout=guard.client_timeout,
            lingering_time=min(LINGER_SECONDS, guard.client_timeout),
            access_log=None,  # type: ignore[arg-type]  # None: no access log (as AppRunner)
        )  # fmt: skip
        self.guard = guard
        self.answering = 0  # requests of this connection in the app now

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if not self.guard.admit(self):
            transport.write(REFUSED)  # type: ignore[attr-defined]
            self.force_close()

    def connection_lost(self, exc: BaseException | None) -> None:
        self.guard.release(self)
        super().connection_lost(exc)

    def handle_error(
        self, request: BaseRequest, status: int = 500, exc: BaseException | None = None,
        message: str | None = None,
    ) -> StreamResponse:  # fmt: skip
        if request.writer.output_size > 0:  # an answer has begun: the connection is broken
            raise ConnectionError("cannot answer with an error: the answer has begun")
        return malformed.answer(status, exc, request.remote)


class ConnectionGuard:
    """The open connections of one listening site, oldest first, at most ``cap``."""

    def __init__(self, cap: int, client_timeout: float) -> None:
        self.cap = cap
        self.client_timeout = client_timeout
        self._open: dict[GuardedConnection, None] = {}
        self._warned_at: float | None = None

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, connection: GuardedConnection) -> bool:
        """Whether ``connection`` may stay (closing the oldest idle one to make room)."""
        if len(self._open) >= self.cap:
            idle = next((c for c in self._open if not c.answering), None)
            self._warn(evicted=idle is not None)
            if idle is None:
                return False
            del self._open[idle]
            idle.force_close()
        self._open[connection] = None
        return True

    def release(self, connection: GuardedConnection) -> None:
        self._open.pop(connection, None)

    def _warn(self, *, evicted: bool) -> None:
        now = time.monotonic()
        if self._warned_at is not None and now - self._warned_at < WARN_EVERY:
            return
        self._warned_at = now
        log.warning(
            "the API has %d connections open (MEMORYBOT_API_MAX_CONNECTIONS): %s; "
            "said once a minute at most",
            self.cap,
            "closing the oldest idle one for each new one" if evicted
            else "every one is being answered, new ones get 503",
        )  # fmt: skip


class GuardedSite(web.BaseSite):
    """A TCP site whose connections are ``GuardedConnection``s under one ``ConnectionGuard``:
    on ``host``/``port``, or on the listening socket ``sock``."""

    def __init__(
        self, runner: web.BaseRunner, guard: ConnectionGuard, *, host: str | None = None,
        port: int = 0, sock: socket.socket | None = None, backlog: int = 128,
    ) -> None:  # fmt: skip
        super().__init__(runner, backlog=backlog)
        self.api_runner = runner
        self.guard = guard
        self.host, self.requested_port, self.sock = host, port, sock
        self.backlog = backlog
        self.listening: asyncio.AbstractServer | None = None

    @property
    def name(self) -> str:
        return f"http://{self.host or '0.0.0.0'}:{self.port}"

    @property
    def port(self) -> int:
        sockets = getattr(self.listening, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else self.requested_port

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        manager = self.api_runner.server
        assert manager is not None

        def connection() -> GuardedConnection:
            return GuardedConnection(manager, self.guard, loop=loop)

        # asyncio accepts as many connections at once as the backlog it is given, each
        # holding a descriptor before the guard can place it: it gets ACCEPT_BATCH, and the
        # sockets then get their whole backlog (listen() again only resizes the queue).
        if self.sock is not None:
            self.listening = await loop.create_server(
                connection, sock=self.sock, backlog=ACCEPT_BATCH
            )
        else:
            self.listening = await loop.create_server(
                connection, self.host, self.requested_port, backlog=ACCEPT_BATCH
            )
        for listening in self.listening.sockets:
            with listening.dup() as same:  # the same socket, by a descriptor of its own
                same.listen(self.backlog)

    async def stop(self) -> None:
        if self.listening is not None:
            self.listening.close()
        await super().stop()


def connection_cap(wanted: int) -> int:
    """``wanted`` connections, or as many as this process may open files for beside
    ``SPARE_FILES`` (the soft limit is first raised towards the hard one), with a warning."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(hard, needed)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return wanted
    cap = max(1, soft - SPARE_FILES)
    log.warning(
        "MEMORYBOT_API_MAX_CONNECTIONS=%d lowered to %d: this process may open %d files "
        "(ulimit -n)", wanted, cap, soft,
    )  # fmt: skip
    return cap


def api_runner(app: web.Application) -> web.AppRunner:
    """The runner of an API app: no access log, and a stop that waits ``SHUTDOWN_GRACE``
    seconds at most for the requests being answered."""
    return web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_GRACE)
