"""``memorybot serve --workers 2`` over the real API on loopback: every worker answers; a
change made through one is what the others answer next (never their older cached answer);
a worker that dies is started again; SIGTERM stops them all."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dashboard_api.server import WORKER_HEADER
from tests.api_helpers import TOKEN
from tests.helpers import GUILD_A, cli_env, seed_store
from tests.test_api import seed

REPO = Path(__file__).resolve().parent.parent
ADMIN = "admin-token-0123456789abcdef"
PATIENCE = 60.0  # seconds of fresh connections until each worker answered (a bound only)


@dataclass
class Served:
    process: asyncio.subprocess.Process
    url: str


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async with serving(tmp_path) as server:
        yield server


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, **settings: str) -> AsyncIterator[Served]:
    """``memorybot serve --workers 2`` over the seeded store (rate limit off unless
    ``settings`` say otherwise)."""
    data = tmp_path / "data"
    await seed_store(data / "memory.db", seed)
    env = cli_env(**{
        "MEMORYBOT_DATA_DIR": str(data), "MEMORYBOT_API_TOKEN": TOKEN,
        "MEMORYBOT_API_ADMIN_TOKEN": ADMIN, "MEMORYBOT_API_RATE_LIMIT": "0",
        "MEMORYBOT_API_HOST": "127.0.0.1", "MEMORYBOT_EXTRACTOR": "none",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        **settings,
    })  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from bot.cli import main; main()", "serve", "--port", "0",
        "--workers", "2", env=env, stdout=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None
    url = None
    while url is None:
        line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
        assert line, "memorybot serve ended before it listened"
        found = re.search(r"page: (http://\S+/)", line)
        url = found.group(1) if found else None
    try:
        yield Served(process, url)
    finally:
        if process.returncode is None:  # stopped as an operator would: nothing left behind
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
                await process.wait()


async def until(condition: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait for ``condition`` (a bound for a broken server, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.05)


def ended(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie nobody reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (the workers it started)."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1]
                                            .split()[1]) == pid:  # fmt: skip
                found.add(int(entry.name))
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


async def through_each(
    served: Served, method: str, path: str, *, token: str = TOKEN, json: Any = None,
    **query: str,
) -> dict[str, tuple[int, Any, str]]:  # fmt: skip
    """The request sent on fresh connections until each worker has answered it (one that
    is starting answers once it listens): worker -> (status, body, cache header)."""
    answers: dict[str, tuple[int, Any, str]] = {}
    connector = aiohttp.TCPConnector(force_close=True)
    deadline = time.monotonic() + PATIENCE
    async with aiohttp.ClientSession(connector=connector) as http:
        while time.monotonic() < deadline:
            async with http.request(
                method, served.url + path, params=query, json=json,
                headers={"Authorization": f"Bearer {token}"},
            ) as response:  # fmt: skip
                worker = response.headers[WORKER_HEADER]
                if worker not in answers:
                    answers[worker] = (response.status, await response.json(),
                                       response.headers.get("X-Memorybot-Cache", ""))  # fmt: skip
            if len(answers) == 2:
                return answers
    raise AssertionError(f"only workers {sorted(answers)} answered")


def facts(answer: tuple[int, Any, str]) -> list[str]:
    status, body, _ = answer
    assert status == 200, body
    return [r["fact"] for r in body["results"]]


async def test_a_change_through_one_worker_is_what_every_worker_answers(served: Served) -> None:
    before = await through_each(served, "GET", "api/memory/search", guildId=GUILD_A, q="nurse")
    assert {w: facts(a) for w, a in before.items()} == {
        "0": ["Sarah works as a nurse."], "1": ["Sarah works as a nurse."]
    }  # fmt: skip
    # cached in each now (unless something committed meanwhile, as the embedder may)
    await through_each(served, "GET", "api/memory/search", guildId=GUILD_A, q="nurse")
    status, body, _ = (await through_each(served, "GET", "api/memory/facts", token=ADMIN,
                                          guildId=GUILD_A))["1"]  # fmt: skip
    assert status == 200, body
    (nurse,) = body["facts"]
    # an edit sent to worker 1 (and a second, the same, to worker 0): worker 0 makes both
    edit = {"fact": "Sarah works as a midwife."}
    path = f"api/memory/facts/{nurse['id']}"
    edited = await through_each(served, "PATCH", path, token=ADMIN, json=edit, guildId=GUILD_A)
    assert {w: a[0] for w, a in edited.items()} == {"0": 200, "1": 200}
    after = await through_each(served, "GET", "api/memory/search", guildId=GUILD_A, q="nurse")
    # the edited text (its evidence still says "nurse"), not the answer each cached before
    assert {w: facts(a) for w, a in after.items()} == {
        "0": ["Sarah works as a midwife."], "1": ["Sarah works as a midwife."]
    }  # fmt: skip
    found = await through_each(served, "GET", "api/memory/search", guildId=GUILD_A, q="midwife")
    assert {w: facts(a) for w, a in found.items()} == {
        "0": ["Sarah works as a midwife."], "1": ["Sarah works as a midwife."]
    }  # fmt: skip


async def test_a_worker_that_dies_is_started_again(served: Served) -> None:
    (first,) = children(served.process.pid)
    os.kill(first, signal.SIGKILL)
    await until(lambda: bool(children(served.process.pid) - {first}))
    assert len(children(served.process.pid) - {first}) == 1
    answers = await through_each(served, "GET", "api/memory/search", guildId=GUILD_A, q="nurse")
    assert {w: facts(a) for w, a in answers.items()} == {
        "0": ["Sarah works as a nurse."], "1": ["Sarah works as a nurse."]
    }  # fmt: skip


async def test_sigterm_stops_every_worker(served: Served) -> None:
    await through_each(served, "GET", "api/memory/guilds")
    (worker,) = children(served.process.pid)
    served.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(served.process.wait(), 60) == 0
    assert ended(worker)  # stopped by worker 0 before it ended itself


async def test_a_client_spread_over_the_workers_gets_the_rate_limit_once(tmp_path: Path) -> None:
    """Each worker keeps its own allowance, so each allows its share: a burst of 60
    requests on fresh connections (spread over both workers) gets the burst of 10, not 20."""
    async with serving(tmp_path, MEMORYBOT_API_RATE_LIMIT="0.001",
                       MEMORYBOT_API_RATE_BURST="10") as served:  # fmt: skip
        statuses: list[int] = []
        workers: set[str] = set()
        connector = aiohttp.TCPConnector(force_close=True)
        async with aiohttp.ClientSession(connector=connector) as http:
            for _ in range(60):
                async with http.get(
                    served.url + "api/memory/search", params={"guildId": GUILD_A, "q": "nurse"},
                    headers={"Authorization": f"Bearer {TOKEN}"},
                ) as response:  # fmt: skip
                    statuses.append(response.status)
                    workers.add(response.headers[WORKER_HEADER])
    assert workers == {"0", "1"}  # both answered: the burst was spread over them
    assert statuses.count(200) == 10 and statuses.count(429) == 50


async def test_a_killed_servers_socket_folder_is_swept_and_a_live_ones_kept(
    tmp_path: Path,
) -> None:
    """SIGKILL leaves worker 0's private socket folder behind; the next server removes it
    (once it is old enough), and never a folder whose socket someone listens on."""
    import socket
    import tempfile

    long_ago = time.time() - 3600
    killed, live = (Path(tempfile.mkdtemp(prefix="memorybot-api-")) for _ in range(2))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        dead.bind(str(killed / "primary.sock"))  # bound, then gone: as a killed server left it
        dead.close()
        listener.bind(str(live / "primary.sock"))
        listener.listen()
        for folder in (killed, live):
            os.utime(folder, (long_ago, long_ago))
        async with serving(tmp_path):
            assert not killed.exists()
            assert (live / "primary.sock").exists()
    finally:
        listener.close()
        for folder in (killed, live):
            if folder.exists():
                for child in folder.iterdir():
                    child.unlink()
                folder.rmdir()
