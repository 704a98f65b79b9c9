"""API load benchmark: concurrent clients against search and slice on the big scale guild.

    python bench/api_load.py [--data-dir DIR] [--clients 50] [--seconds 20] [--workers 1]
                             [--max-requests 200000] [--queries 200] [--json]

Serves ``memorybot serve`` (a real server in its own process, loopback only, the rate limit
lifted; ``--workers`` processes) over the store of ``bench/scale.py`` in ``DIR/memory.db``
(built there once if missing: about 4 minutes) and warms it with a few slices at once (one
reaches each worker, most likely). The workload: ``--queries`` generated
questions, each asked as a search and as a slice (from a channel, by a member) — moderators
re-running their searches. ``--clients`` concurrent clients first send each distinct request
once (``first_pass``: nothing cached), then repeat them for ``--seconds`` (or
``--max-requests`` in all; ``repeated``: answers come from the API's response cache while
the data does not change). Each phase reports throughput, p50 / p95 / p99 latency, errors,
the share of answers served from the cache, and per worker (the ``X-Memorybot-Worker``
header of its answers) and per endpoint how many requests and their p50 and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from scale import BIG_CHANNELS, BIG_GUILD, _member_id, _pct, _queries, ensure_store  # noqa: E402

TOKEN = "bench-token-0123456789abcdef"
WORKER_HEADER = "X-Memorybot-Worker"  # dashboard_api.server's: which worker answered


async def _start_server(data_dir: Path, workers: int = 1
                        ) -> tuple[asyncio.subprocess.Process, str]:  # fmt: skip
    # the CLI of this checkout (not whichever ``memorybot`` is installed): what is measured
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "MEMORYBOT_API_TOKEN": TOKEN, "MEMORYBOT_API_RATE_LIMIT": "0",
           "MEMORYBOT_API_HOST": "127.0.0.1", "MEMORYBOT_DATA_DIR": str(data_dir),
           "PYTHONPATH": path}  # fmt: skip
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from bot.cli import main; main()", "serve", "--port", "0",
        "--workers", str(workers), env=env,
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert server.stdout is not None
    while True:
        line = (await asyncio.wait_for(server.stdout.readline(), timeout=300)).decode()
        if not line:
            raise SystemExit("memorybot serve ended before it listened")
        found = re.search(r"page: (http://\S+/)", line)
        if found:
            return server, found.group(1)


async def _warm(session: aiohttp.ClientSession, url: str, n: int) -> None:
    async with session.get(
        url + "api/memory/slice", params={"q": f"warm up {n}", "guildId": BIG_GUILD},
        headers={"Authorization": f"Bearer {TOKEN}"},
    ) as response:  # fmt: skip
        await response.read()


def _requests(count: int) -> list[tuple[str, dict[str, str]]]:
    """``count`` distinct requests: generated questions, each asked as a search and as a slice
    from a channel (and, for the slice, a member)."""
    out = []
    for n, query in enumerate(_queries(count)):
        channel = BIG_CHANNELS[n % len(BIG_CHANNELS)]
        base = {"q": query, "guildId": BIG_GUILD, "channelId": channel}
        out.append(("api/memory/search", base))
        out.append(("api/memory/slice", {**base, "userId": _member_id(n)}))
    return out


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.hits = 0
        self.by_worker: dict[str, list[float]] = {}  # the worker that answered (its header)
        self.by_path: dict[str, list[float]] = {}  # search or slice

    def summary(self, elapsed: float) -> dict[str, Any]:
        ms = [1000 * x for x in self.latencies]
        return {
            "seconds": round(elapsed, 1),
            "requests": len(ms),
            "throughput_rps": round(len(ms) / elapsed, 1),
            "latency_ms": {
                "p50": round(statistics.median(ms), 1),
                "p95": round(_pct(ms, 0.95), 1),
                "p99": round(_pct(ms, 0.99), 1),
            },
            "errors": len(self.errors),
            "error_kinds": sorted(set(self.errors)),
            "cache_hit_rate": round(self.hits / max(len(ms), 1), 3),
            "per_worker": _tails(self.by_worker),
            "per_endpoint": _tails(self.by_path),
        }


def _tails(groups: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        name: {"requests": len(times), "p50_ms": round(1000 * statistics.median(times), 1),
               "p99_ms": round(1000 * _pct(times, 0.99), 1)}
        for name, times in sorted(groups.items())
    }  # fmt: skip


async def _client(
    session: aiohttp.ClientSession, url: str, work: list[tuple[str, dict[str, str]]],
    start: int, deadline: float, budget: list[int], tally: Tally, *, once: bool = False,
) -> None:  # fmt: skip
    headers = {"Authorization": f"Bearer {TOKEN}"}
    step = start
    while time.perf_counter() < deadline and budget[0] > 0:
        if once and not work:
            return
        path, params = work.pop() if once else work[step % len(work)]
        budget[0] -= 1
        started = time.perf_counter()
        try:
            async with session.get(url + path, params=params, headers=headers) as response:
                await response.read()
                if response.status != 200:
                    tally.errors.append(f"HTTP {response.status}")
                tally.hits += response.headers.get("X-Memorybot-Cache") == "hit"
                worker = response.headers.get(WORKER_HEADER, "0")
        except aiohttp.ClientError as exc:
            tally.errors.append(type(exc).__name__)
            worker = "?"
        tally.latencies.append(time.perf_counter() - started)
        tally.by_worker.setdefault(worker, []).append(tally.latencies[-1])
        tally.by_path.setdefault(path.rsplit("/", 1)[-1], []).append(tally.latencies[-1])
        step += 1


async def _phase(
    session: aiohttp.ClientSession, url: str, work: list[tuple[str, dict[str, str]]],
    clients: int, seconds: float, max_requests: int, *, once: bool,
) -> dict[str, Any]:  # fmt: skip
    tally = Tally()
    started = time.perf_counter()
    deadline = started + seconds
    budget = [max_requests]
    spread = max(1, len(work) // clients)
    await asyncio.gather(*(
        _client(session, url, work, n * spread, deadline, budget, tally, once=once)
        for n in range(clients)
    ))  # fmt: skip
    return tally.summary(time.perf_counter() - started)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    server, url = await _start_server(args.data_dir, args.workers)
    try:
        connector = aiohttp.TCPConnector(limit=args.clients)
        async with aiohttp.ClientSession(connector=connector) as session:
            await asyncio.gather(*(_warm(session, url, n) for n in range(4 * args.workers)))
            work = _requests(args.queries)
            cold = await _phase(session, url, list(work), args.clients, 600, len(work),
                                once=True)  # fmt: skip
            steady = await _phase(session, url, work, args.clients, args.seconds,
                                  args.max_requests, once=False)  # fmt: skip
    finally:
        server.send_signal(signal.SIGTERM)
        await asyncio.wait_for(server.wait(), timeout=60)
    return {"clients": args.clients, "workers": args.workers, "distinct_requests": len(work),
            "first_pass": cold, "repeated": steady}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=Path("bench/out/scale"))
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=1, help="memorybot serve --workers")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=200, help="distinct questions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ensure_store(args.data_dir)
    result = asyncio.run(run(args))
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
