"""Several processes serving the API: ``memorybot serve --workers N`` (``MEMORYBOT_API_WORKERS``).

This process opens memory as ``serve`` does (the data directory's lock, the ingest queue,
the journals) and serves as worker 0. It starts N - 1 more (``dashboard_api.worker``) that
listen on the same address and port (``SO_REUSEPORT``: the kernel spreads new connections
over the workers evenly; one shared socket would not — asyncio accepts every waiting
connection at once, so whichever worker woke first took a whole burst) and answer reads
from database connections of their own. Writes, and what only the
lock's holder may answer, they send on to worker 0 over a private Unix socket (served by an
app without the rate limit: the worker that took the request applied it). So worker 0
makes every change, and its caches follow them as a single ``serve``'s do; the others'
caches follow worker 0's commits (``Memory.watch_outside_commits``): a change made through
any worker is never answered from an older cached answer by another. (A worker may still
embed a fact that has no vector yet as it searches, as any reader does; worker 0 notices
when its own embedder, woken by the change that left the fact without one, stores it.)

A worker that ends is logged and started again ``RESTART_PAUSE`` seconds later. SIGTERM or
SIGINT stops the other workers first (SIGTERM, SIGKILL after ``STOP_SECONDS``), then this
one as ``serve`` stops: the ingest queue drains and the database closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import pickle
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from aiohttp import web
from pydantic import SecretStr

from dashboard_api.auth import check_bind, load_or_create_token
from dashboard_api.connections import GuardedSite, api_runner
from dashboard_api.ratelimit import RateLimiter
from dashboard_api.server import (
    Serving,
    api_config,
    api_url,
    connection_guard,
    listen_error,
    numbered,
)
from dashboard_api.worker import READY
from memory.errors import MemorybotError
from memory.runtime import open_memory
from memory.settings import Settings

log = logging.getLogger(__name__)

READY_SECONDS = 120.0  # a worker's start: imports, the store, the embedding model
RESTART_PAUSE = 1.0  # before a worker that ended is started again
STOP_SECONDS = 1.5  # a worker's own shutdown after SIGTERM, before SIGKILL


def listening_socket(settings: Settings, port: int | None) -> socket.socket:
    """A worker's socket on the API's address (port 0: any free one; the first worker's
    port for the others)."""
    port = settings.api_port if port is None else port
    family = socket.AF_INET6 if ":" in settings.api_host else socket.AF_INET
    try:
        return socket.create_server(
            (settings.api_host, port), family=family, backlog=1024, reuse_port=True
        )
    except OSError as exc:
        raise listen_error(settings, exc) from exc


PRIVATE_PREFIX = "memorybot-api-"
"""The folder of worker 0's private socket, in the system's temporary folder."""
PRIMARY_SOCKET = "primary.sock"
"""Worker 0's private socket in that folder."""
STALE_SECONDS = 300.0


def sweep_stale_sockets() -> None:
    """Remove the private socket folders of servers that were killed (SIGKILL leaves them):
    ours, older than ``STALE_SECONDS``, whose socket nobody listens on any more."""
    now = time.time()
    for folder in Path(tempfile.gettempdir()).glob(f"{PRIVATE_PREFIX}*"):
        try:
            info = folder.stat()
            if info.st_uid != os.getuid() or now - info.st_mtime < STALE_SECONDS:
                continue
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(str(folder / PRIMARY_SOCKET))
                continue  # a live server's
            except (ConnectionRefusedError, FileNotFoundError):
                pass
            finally:
                probe.close()
            shutil.rmtree(folder)
            log.info("removed %s, left by an API server that was killed", folder)
        except OSError as exc:
            log.debug("left %s alone (%s)", folder, exc)


async def serve_workers(
    settings: Settings, count: int, stop: asyncio.Event, *,
    announce: Callable[[Serving], None], port: int | None = None,
) -> None:  # fmt: skip
    """Worker 0 and ``count`` - 1 others, until ``stop`` is set."""
    check_bind(settings)
    token, token_file, created = load_or_create_token(settings)
    config = api_config(settings, token, share=count)
    listen = listening_socket(settings, port)
    sweep_stale_sockets()
    with listen, tempfile.TemporaryDirectory(prefix=PRIVATE_PREFIX) as private:
        primary = str(Path(private) / PRIMARY_SOCKET)
        async with open_memory(settings) as memory:
            public = api_runner(numbered(memory, config, 0))
            unlimited = dataclasses.replace(
                config, limiter=RateLimiter(0.0, 1), failures=RateLimiter(0.0, 1)
            )
            internal = api_runner(numbered(memory, unlimited, 0))
            await public.setup()
            await internal.setup()
            stopped = False
            try:
                await web.UnixSite(internal, primary).start()
                await GuardedSite(public, connection_guard(settings), sock=listen).start()
                theirs = settings.model_copy(
                    update={"api_token": SecretStr(token), "api_workers": count}
                )
                async with Workers(theirs, count - 1, listen, primary) as workers:
                    url = api_url(settings.api_host, listen.getsockname()[1])
                    announce(Serving(url, token, created, str(token_file or "") or None))
                    await stop.wait()
                    log.info("stopping: the other API workers, then the ingest queue drains")
                    stopped = True  # the workers and this one's connections stop together
                    await asyncio.gather(workers.stop(), public.cleanup())
            finally:
                if not stopped:
                    await public.cleanup()
                await internal.cleanup()


class Workers:
    """Workers 1 to ``count`` (``dashboard_api.worker``), each started again if it ends,
    all stopped when the block ends."""

    def __init__(self, settings: Settings, count: int, listen: socket.socket, primary: str
                 ) -> None:  # fmt: skip
        self._settings = pickle.dumps(settings)
        self.count = count
        self.listen = listen
        self.primary = primary
        self._procs: dict[int, asyncio.subprocess.Process] = {}
        self._keepers: list[asyncio.Task[None]] = []

    async def __aenter__(self) -> Workers:
        try:
            for number in range(1, self.count + 1):
                await self._start(number)
        except BaseException:
            await self._stop()
            raise
        self._keepers = [asyncio.create_task(self._keep(n)) for n in self._procs]
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:  # fmt: skip
        await self.stop()

    async def stop(self) -> None:
        """Stop every worker (and start none again); again: nothing more to do."""
        for task in self._keepers:
            task.cancel()
        await asyncio.gather(*self._keepers, return_exceptions=True)
        await self._stop()

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self._procs.values()]

    async def _start(self, number: int) -> None:
        port = str(self.listen.getsockname()[1])
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "dashboard_api.worker", str(number), port, self.primary,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            start_new_session=True,  # Ctrl-C reaches this process only: it stops the others
        )  # fmt: skip
        self._procs[number] = proc
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(self._settings)  # stdin stays open: its end tells the worker to stop
        await proc.stdin.drain()
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), READY_SECONDS)
        except TimeoutError:
            line = b""
        if line != READY:
            raise MemorybotError(f"API worker {number} did not start (its log is above)")
        log.info("API worker %d listening (pid %d)", number, proc.pid)

    async def _keep(self, number: int) -> None:
        while True:
            proc = self._procs[number]
            code = await proc.wait()
            log.warning("API worker %d (pid %d) ended (exit code %s): starting it again",
                        number, proc.pid, code)  # fmt: skip
            await asyncio.sleep(RESTART_PAUSE)
            try:
                await self._start(number)
            except (MemorybotError, OSError) as exc:
                log.error("%s", exc)

    async def _stop(self) -> None:
        running = [p for p in self._procs.values() if p.returncode is None]
        for proc in running:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
        if running:
            await asyncio.wait([asyncio.create_task(p.wait()) for p in running],
                               timeout=STOP_SECONDS)  # fmt: skip
        for proc in running:
            if proc.returncode is None:
                log.warning("API worker (pid %d) did not stop: killed", proc.pid)
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
