"""Ingest benchmark: bulk import and live submits, in messages/s, with peak RSS.

    python bench/ingest.py [--messages 100000] [--live 20000] [--producers 16] [--json]

Bulk: ``memorybot import`` of a generated DiscordChatExporter export, timed as a whole
command, from start to exit (extracted, embedded, journaled, searchable), with the project's
modules byte-compiled beforehand as an installed package has them. The headline runs the
default extractor (offline, as a user's import does); a second row runs none, the ingest path
alone (``--no-extraction-row`` skips it).
Live: ``Memory.ingest`` (the queue's submit) of generated messages, one producer awaiting
each submit, and ``--producers`` concurrent producers (many channels at once); the worker
and journals run.
Peak RSS is sampled every 20 ms over the whole process tree (the import's reader child
included) and reported as the largest sum seen.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.gen_export import write_export  # noqa: E402


def _tree_rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, in KiB (0 once it is gone)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as kids:
                    todo += [int(k) for k in kids.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def run_measured(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str]:
    """Run ``cmd``; return (wall seconds, peak tree RSS in KiB, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kib(proc.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err.decode()}")
    return wall, peak, out.decode()


def byte_compile() -> None:
    """Byte-compile the project's modules first, as an installed package has them: an
    editable install under PYTHONDONTWRITEBYTECODE=1 would compile them again on every
    start, inside the timing."""
    for package in ("bot", "memory", "memory_journals", "dashboard_api", "voice"):
        compileall.compile_dir(REPO / package, quiet=1)


def bench_bulk(workdir: Path, count: int, extractor: str) -> dict[str, Any]:
    """``memorybot import`` of ``count`` generated messages with ``extractor``."""
    export = workdir / "bench-export.json"
    if not export.exists():
        write_export(export, count)
    byte_compile()
    memorybot = Path(sys.executable).parent / "memorybot"
    data = workdir / f"bulk-{extractor}"
    cmd = [str(memorybot), "--data-dir", str(data), "import", "--json", str(export)]
    env = {**os.environ, "MEMORYBOT_EXTRACTOR": extractor}
    wall, peak, out = run_measured(cmd, env)
    summary = json.loads(out)
    assert summary["new"] == count, summary
    return {
        "extractor": extractor,
        "messages": count,
        "exportMB": round(export.stat().st_size / 1e6, 1),
        "seconds": round(wall, 2),
        "msgPerSec": round(count / wall),
        "peakRssMB": round(peak / 1024, 1),
    }


async def _live(data_dir: Path, count: int, producers: int) -> dict[str, Any]:
    from memory.models import Author, IngestItem
    from memory.runtime import open_memory
    from memory.settings import load_settings

    authors = [Author(str(800000000000000000 + n), f"Member {n}") for n in range(40)]

    def make(n: int, guild: str) -> IngestItem:
        return IngestItem(
            guild,
            str(int(guild) + 1 + n % 8),
            str(1300000000000000000 + n),
            authors[n % 40],
            f"live message {n}: I think the dice hate me, pizza on friday?",
            "2026-11-01T12:00:00.000+00:00",
            "text",
        )

    results: dict[str, Any] = {}
    async with open_memory(load_settings(data_dir=data_dir, extractor="none")) as rt:
        items = [make(n, "700000000000000101") for n in range(count)]
        start = time.perf_counter()
        for it in items:
            await rt.ingest(it)
        seq = time.perf_counter() - start
        await rt.join()
        results["sequential"] = {"msgPerSec": round(count / seq), "dropped": rt.dropped}

        items = [make(n, "700000000000000201") for n in range(count)]
        per = len(items) // producers

        async def produce(part: list[IngestItem]) -> None:
            for it in part:
                await rt.ingest(it)

        start = time.perf_counter()
        await asyncio.gather(*(produce(items[p * per : (p + 1) * per]) for p in range(producers)))
        conc = time.perf_counter() - start
        await rt.join()
        results["concurrent"] = {
            "producers": producers,
            "msgPerSec": round(per * producers / conc),
            "dropped": rt.dropped - results["sequential"]["dropped"],
        }
    return results


def bench_live(workdir: Path, count: int, producers: int) -> dict[str, Any]:
    cmd = [
        sys.executable,
        __file__,
        "--live-child",
        str(workdir / "live"),
        "--live",
        str(count),
        "--producers",
        str(producers),
    ]
    _wall, peak, out = run_measured(cmd)
    result: dict[str, Any] = json.loads(out)
    result["messages"] = count
    result["peakRssMB"] = round(peak / 1024, 1)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000, help="bulk export size")
    parser.add_argument("--live", type=int, default=20_000, help="live messages per mode")
    parser.add_argument("--producers", type=int, default=16)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-extraction-row", action="store_true",
                        help="skip the second bulk row (no extractor)")  # fmt: skip
    parser.add_argument("--live-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.live_child:
        args.live_child.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix="live-", dir=args.live_child))
        print(json.dumps(asyncio.run(_live(fresh, args.live, args.producers))))
        return
    with tempfile.TemporaryDirectory(prefix="memorybot-bench-") as tmp:
        workdir = Path(tmp)
        report: dict[str, Any] = {"bulk": bench_bulk(workdir, args.messages, "auto")}
        if not args.no_extraction_row:
            report["bulkNoExtractor"] = bench_bulk(workdir, args.messages, "none")
        report["live"] = bench_live(workdir, args.live, args.producers)
    if args.json:
        print(json.dumps(report))
        return
    for key in ("bulk", "bulkNoExtractor"):
        if key in report:
            bulk = report[key]
            print(
                f"bulk import ({bulk['extractor']:>4})  {bulk['messages']:>7} msgs "
                f"({bulk['exportMB']} MB)  {bulk['msgPerSec']:>7} msg/s  {bulk['seconds']} s  "
                f"peak RSS {bulk['peakRssMB']} MB"
            )
    live = report["live"]
    print(
        f"live submit   {live['messages']:>7} msgs  sequential "
        f"{live['sequential']['msgPerSec']:>6} msg/s  {live['concurrent']['producers']} "
        f"producers {live['concurrent']['msgPerSec']:>6} msg/s  peak RSS {live['peakRssMB']} MB"
    )


if __name__ == "__main__":
    main()
