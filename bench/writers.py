"""Live ingest with several writer processes: the messages/s that 1, 2 and 4 ``memorybot``
processes sharing one store take in together (as bot shards do, each its own guilds).

    python bench/writers.py [--writers 1,2,4] [--messages 4000] [--producers 16]
                            [--backend postgres|sqlite] [--database-url URL] [--json]

Each writer process opens memory on the store (PostgreSQL: a fresh database per row, on
``--database-url``'s server or a throwaway one; SQLite: one writer only) with the default
extractor (offline) and one data directory shared by all, waits until every writer is
ready, then submits ``--messages`` live messages of its own guild from ``--producers``
concurrent producers and waits until all are stored, extracted and journaled (its queue
holds them all: none is dropped). The rate is every writer's messages over the time from
the first start to the last finish.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.scale import postgres_database  # noqa: E402

TEXTS = [
    "I work as a nurse at the children's hospital",
    "anyone up for dnd on friday? I'll bring pizza",
    "my corgi keeps stealing my socks lol",
    "just moved to Lisbon last month, still learning portuguese",
    "lmao the dragon rolled a 1 again",
    "I prefer tea over coffee any day",
]


async def _write(data_dir: Path, url: str | None, guild: str, count: int, producers: int
                 ) -> dict[str, float]:  # fmt: skip
    from memory.models import Author, IngestItem
    from memory.runtime import open_memory
    from memory.settings import load_settings

    authors = [Author(str(800000000000000000 + n), f"Member {n}") for n in range(40)]
    items = [
        IngestItem(guild, str(int(guild) + 1 + n % 8), str(1300000000000000000 + n),
                   authors[n % 40], f"{TEXTS[n % len(TEXTS)]} ({n})",
                   "2026-11-01T12:00:00.000+00:00", "text")
        for n in range(count)
    ]  # fmt: skip
    # A queue that holds them all: every message is extracted (none dropped as overflow).
    settings = load_settings(data_dir=data_dir, database_url=url, notice=False,
                             max_queue=max(400, count))  # fmt: skip
    async with open_memory(settings) as memory:
        print("ready", flush=True)
        sys.stdin.readline()  # every writer is ready: go
        started = time.time()
        per = count // producers

        async def produce(part: list[IngestItem]) -> None:
            for item in part:
                await memory.ingest(item)

        await asyncio.gather(*(produce(items[p * per : (p + 1) * per]) for p in range(producers)))
        await memory.join()
        return {"started": started, "finished": time.time(), "messages": per * producers,
                "dropped": memory.dropped}  # fmt: skip


def run_row(writers: int, count: int, producers: int, url: str | None) -> dict[str, Any]:
    """One row: ``writers`` processes at once, each its own guild."""
    with tempfile.TemporaryDirectory(prefix="memorybot-writers-") as tmp:
        children = [
            subprocess.Popen(
                [sys.executable, __file__, "--child", tmp, "--guild", str(700000000000000100
                 + 100 * n), "--messages", str(count), "--producers", str(producers),
                 *(["--database-url", url] if url else [])],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            for n in range(writers)
        ]  # fmt: skip
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        results = []
        for child in children:
            out, _ = child.communicate(timeout=1800)
            if child.returncode != 0:
                raise SystemExit(f"a writer failed (exit code {child.returncode})")
            results.append(json.loads(out.strip().splitlines()[-1]))
    wall = max(r["finished"] for r in results) - min(r["started"] for r in results)
    total = sum(r["messages"] for r in results)
    dropped = sum(r["dropped"] for r in results)
    return {"writers": writers, "messages": total, "seconds": round(wall, 2),
            "msgPerSec": round(total / wall), "dropped": dropped}  # fmt: skip


def _fresh_database(url: str, name: str) -> str:
    """A new empty database on ``url``'s server; its URL."""
    import asyncpg

    async def make() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(make())
    path, _, query = url.partition("?")
    return f"{path.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", default="1,2,4", help="rows: writer processes")
    parser.add_argument("--messages", type=int, default=4000, help="per writer")
    parser.add_argument("--producers", type=int, default=16, help="per writer")
    parser.add_argument("--backend", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--database-url", help="postgres: a database on the server to use")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--guild", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        result = asyncio.run(_write(args.child, args.database_url, args.guild, args.messages,
                                    args.producers))  # fmt: skip
        print(json.dumps(result))
        return
    counts = [int(n) for n in args.writers.split(",")]
    rows = []
    if args.backend == "sqlite":
        if counts != [1]:
            raise SystemExit("SQLite has one writing process per data directory: --writers 1")
        rows.append({"backend": "sqlite", **run_row(1, args.messages, args.producers, None)})
    else:
        with postgres_database(args.database_url) as server:
            for n in counts:
                url = _fresh_database(server, f"writers_{n}_{os.getpid()}")
                rows.append({"backend": "postgres",
                             **run_row(n, args.messages, args.producers, url)})  # fmt: skip
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        print(
            f"{row['backend']:>8}  {row['writers']} writer(s)  {row['messages']:>6} msgs  "
            f"{row['msgPerSec']:>6} msg/s  {row['seconds']} s  dropped {row['dropped']}"
        )


if __name__ == "__main__":
    main()
