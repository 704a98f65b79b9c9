"""The real ``memorybot serve`` process against hostile clients: SIGTERM ends it within
``MEMORYBOT_DRAIN_TIMEOUT`` + 2 s whatever they hold (one worker or two), and hundreds of
stalled connections opened at once — more than the process may open files for — neither
stop it answering nor flood its log (read at the default level)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.api_helpers import TOKEN
from tests.helpers import cli_env, seed_store
from tests.hostile_clients import BOUND, HALF_HEADER, exchange, port_of, stalled, unfinished_body
from tests.test_api import seed

REPO = Path(__file__).resolve().parent.parent
DRAIN = 1.0  # MEMORYBOT_DRAIN_TIMEOUT of these servers
HEALTH = b"GET /api/health HTTP/1.1\r\nHost: memorybot\r\nConnection: close\r\n\r\n"


@dataclass
class Serving:
    process: asyncio.subprocess.Process
    port: int

    async def stop(self) -> tuple[float, str]:
        """SIGTERM; the seconds until the process ended, and its whole stderr (read while it
        stops, so a full pipe cannot hold it; a process still running after ``BOUND`` is
        aborted, and its log shown with where each thread was)."""
        assert self.process.stderr is not None
        log = asyncio.ensure_future(self.process.stderr.read())
        self.process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        try:
            await asyncio.wait_for(self.process.wait(), BOUND)
        except TimeoutError:  # SIGABRT: faulthandler writes where each thread is
            self.process.send_signal(signal.SIGABRT)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), BOUND)
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
            text = (await asyncio.wait_for(log, BOUND)).decode(errors="replace")
            pytest.fail(f"serve still ran {BOUND:.0f} s after SIGTERM; its log:\n{text[-3000:]}")
        elapsed = time.monotonic() - started
        return elapsed, (await asyncio.wait_for(log, BOUND)).decode(errors="replace")


Start = Callable[..., Awaitable[Serving]]


@pytest.fixture
async def serve(tmp_path: Path) -> AsyncIterator[Start]:
    """Starts ``memorybot serve`` over seeded data: ``await serve(workers, open_files)``."""
    data = tmp_path / "data"
    await seed_store(data / "memory.db", seed)
    started: list[asyncio.subprocess.Process] = []

    async def start(workers: int = 1, open_files: int | None = None) -> Serving:
        env = cli_env(
            MEMORYBOT_DATA_DIR=str(data), MEMORYBOT_API_TOKEN=TOKEN,
            MEMORYBOT_DRAIN_TIMEOUT=str(DRAIN), MEMORYBOT_API_HOST="127.0.0.1",
            MEMORYBOT_EXTRACTOR="none", PYTHONFAULTHANDLER="1",
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        )  # fmt: skip
        command = [sys.executable, "-c", "from bot.cli import main; main()", "serve",
                   "--port", "0", "--workers", str(workers)]  # fmt: skip
        if open_files is not None:  # the process may open that many files, no more
            command = ["sh", "-c", f'ulimit -n {open_files} && exec "$@"', "sh", *command]
        process = await asyncio.create_subprocess_exec(
            *command, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        started.append(process)
        assert process.stdout is not None
        while True:
            line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
            assert line, "memorybot serve ended before it listened"
            if found := re.search(r"page: (http://\S+/)", line):
                return Serving(process, port_of(found.group(1)))

    yield start
    for process in started:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
async def test_sigterm_ends_serve_in_time_whatever_clients_hold(serve: Start, workers: int
                                                                ) -> None:  # fmt: skip
    serving = await serve(workers)
    body = unfinished_body("/api/memory/refresh", TOKEN)
    async with stalled(serving.port, 8, body) as bodies, stalled(serving.port, 8, HALF_HEADER):
        assert (await exchange(serving.port, HEALTH)).status == 200
        await asyncio.sleep(0.3)  # (the bodies' headers are read: their requests are open)
        elapsed, log = await serving.stop()
        assert serving.process.returncode == 0, log
        assert elapsed <= DRAIN + 2, f"SIGTERM took {elapsed:.1f} s"
        for connection in bodies:  # cut off: 503, or closed
            answer = await connection.closed_by_server()
            assert answer == b"" or answer.startswith(b"HTTP/1.1 503"), answer
    assert "Traceback" not in log and TOKEN not in log


@pytest.mark.slow
async def test_stalled_connections_beyond_the_open_files_limit(serve: Start) -> None:
    serving = await serve(open_files=300)  # fewer than the stalled connections below
    async with stalled(serving.port, 500, HALF_HEADER, at_once=True):
        for _ in range(3):
            answer = await exchange(serving.port, HEALTH)
            assert answer.status == 200 and answer.json()["status"] == "ok"
    assert (await exchange(serving.port, HEALTH)).status == 200
    _, log = await serving.stop()
    assert serving.process.returncode == 0, log
    lines = log.strip().splitlines()
    assert len(lines) <= 4, log[:3000]  # the cap lowered, the cap reached: a line each
    assert "lowered to" in log and "socket.accept()" not in log
