"""Scale benchmark: search and slice latency on a large guild, in-process, local embedder.

    python bench/scale.py [--facts 100000] [--messages 1000000] [--small-guilds 20]
                          [--queries 200] [--db PATH] [--json]
    python bench/scale.py --many-guilds 1000 [--many-facts 1000] [--db PATH] [--json]
    python bench/scale.py --backend postgres [--database-url URL] [--db PATH] [--json]

Builds (or reuses, with ``--db``) a store with one generated guild of ``--facts`` active facts
(each with a bundled-model vector) and ``--messages`` messages (full-text indexed), plus
``--small-guilds`` small guilds; then times ``Retriever.search`` and ``Retriever.slice`` for
``--queries`` generated questions after one warm-up query. Reports p50 / p95 latency, the
peak RSS of the process, and how many of the exact nearest facts by meaning (every vector
scored, after the peak RSS was read) the search's k-NN finds (``nearest_overlap``).

``--backend postgres``: the same store moved into PostgreSQL (as ``memorybot migrate``
does; a database it was moved into before is reused) and measured there.

``--many-guilds N``: instead, a store of N guilds of ``--many-facts`` facts each (texts drawn
from a pool of 20,000, embedded once) and 20 messages each; one slice per guild, then the
RSS of the process (``rss_mb``: what stays with it after every guild was queried once).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

BIG_GUILD = "700000000000000001"
BIG_CHANNELS = [str(700000000000000100 + n) for n in range(20)]
NAMES = [
    "Sarah",
    "Mike",
    "Priya",
    "Tomas",
    "Jay",
    "Lena",
    "Kofi",
    "Yuki",
    "Ben",
    "Aisha",
    "Marco",
    "Zoe",
    "Hana",
    "Diego",
    "Olu",
    "Freya",
    "Ravi",
    "Maya",
    "Sven",
    "Ines",
]
THINGS = [
    "pizza",
    "sushi",
    "hiking",
    "chess",
    "guitar",
    "painting",
    "running",
    "coffee",
    "tea",
    "rust",
    "python",
    "dnd",
    "pottery",
    "cycling",
    "climbing",
    "baking",
    "jazz",
    "anime",
    "gardening",
    "photography",
    "knitting",
    "skating",
    "surfing",
    "poetry",
    "birding",
]
PLACES = ["Berlin", "Lisbon", "Leeds", "Osaka", "Toronto", "Lagos", "Pune", "Oslo", "Quito",
          "Austin", "Hobart", "Porto", "Kyoto", "Accra", "Dublin"]  # fmt: skip
JOBS = ["nurse", "teacher", "developer", "chef", "pilot", "designer", "plumber", "lawyer",
        "baker", "mechanic", "farmer", "librarian", "architect", "barista"]  # fmt: skip


def _member_id(n: int) -> str:
    return str(800000000000000000 + n)


def _fact_text(rng: random.Random, n: int) -> tuple[str, str]:
    name = f"{rng.choice(NAMES)}{n % 5000}"
    kind = n % 4
    if kind == 0:
        return name, f"{name} likes {rng.choice(THINGS)} and {rng.choice(THINGS)}."
    if kind == 1:
        return name, f"{name} works as a {rng.choice(JOBS)} in {rng.choice(PLACES)}."
    if kind == 2:
        return name, f"{name} is learning {rng.choice(THINGS)} this year."
    return name, f"{name} lives in {rng.choice(PLACES)} with a cat named {rng.choice(NAMES)}."


def _message_text(rng: random.Random) -> str:
    return (
        f"{rng.choice(['honestly', 'lol', 'ok so', 'ngl', 'btw', ''])} "
        f"{rng.choice(['i love', 'anyone into', 'just tried', 'thinking about', 'who likes'])} "
        f"{rng.choice(THINGS)} {rng.choice(['in', 'near', 'after', 'before'])} "
        f"{rng.choice(PLACES)} {rng.choice(['tonight', 'this weekend', 'again', 'today'])}"
    ).strip()


async def _indexed(conn: Any, db: Path) -> Any:
    """Index every message for full text in one statement (as the journal cursor would have),
    close the build connection and open the store on the result."""
    from memory.storage.fts_tables import INDEX_MESSAGES
    from memory.storage.store import Store

    conn.execute("BEGIN")
    conn.execute(INDEX_MESSAGES, (0, conn.execute("SELECT max(id) FROM messages").fetchone()[0]))
    conn.execute("UPDATE journal_cursor SET journaled_through = (SELECT max(id) FROM messages)")
    conn.execute("COMMIT")
    conn.close()
    return await Store.open(db)


async def build(db: Path, facts: int, messages: int, small: int) -> None:
    """Write the generated guilds straight into a fresh store (bulk SQL, then vectors)."""
    from memory.search.embeddings import LocalEmbedder
    from memory.search.semantic import Semantic
    from memory.storage.db import connect_sync
    from memory.storage.store import Store

    rng = random.Random(7)
    store = await Store.open(db)
    await store.close()
    conn = connect_sync(db)
    conn.isolation_level = None
    guilds = [(BIG_GUILD, facts, messages)] + [
        (str(710000000000000000 + g), max(1, facts // 500), max(1, messages // 500))
        for g in range(small)
    ]
    now = "2026-11-01T12:00:00.000+00:00"
    next_message = 1_300_000_000_000_000_000
    for guild, fact_count, message_count in guilds:
        started = time.perf_counter()
        conn.execute("BEGIN")
        conn.execute("INSERT INTO guilds (guild_id, name, updated_at) VALUES (?, ?, ?)",
                     (guild, f"guild {guild[-3:]}", now))  # fmt: skip
        conn.executemany(
            "INSERT OR IGNORE INTO members (guild_id, user_id, display_name, username, "
            "updated_at) VALUES (?, ?, ?, ?, ?)",
            [(guild, _member_id(n), f"{NAMES[n % 20]}{n}", f"user{n}", now) for n in range(5000)],
        )
        rows = []
        for n in range(message_count):
            next_message += 1
            author = rng.randrange(5000)
            day = 1 + n * 300 // max(message_count, 1)
            created = f"2025-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T12:00:00.000+00:00"
            rows.append((guild, rng.choice(BIG_CHANNELS), str(next_message), _member_id(author),
                         f"{NAMES[author % 20]}{author}", _message_text(rng), "import",
                         created))  # fmt: skip
            if len(rows) == 50_000:
                _insert_messages(conn, rows)
                rows = []
        _insert_messages(conn, rows)
        fact_rows = []
        for n in range(fact_count):
            _name, text = _fact_text(rng, n)
            fact_rows.append((guild, rng.choice(BIG_CHANNELS), _member_id(n % 5000), text,
                              "other", text, str(n), 0.9, now, now))  # fmt: skip
        conn.executemany(
            "INSERT OR IGNORE INTO memory_facts (guild_id, channel_id, subject, fact, fact_type, "
            "evidence_text, source_message_id, confidence, is_active, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
            fact_rows,
        )
        conn.execute("COMMIT")
        print(f"  guild {guild}: {message_count} messages, {fact_count} facts "
              f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)  # fmt: skip
    store = await _indexed(conn, db)
    await store.optimize_search()  # one segment: the index built above in a single statement
    semantic = Semantic(store, LocalEmbedder())
    for guild, _, _ in guilds:
        started = time.perf_counter()
        count = await semantic.facts.backfill(guild)
        print(f"  embedded {count} facts of {guild} ({time.perf_counter() - started:.1f} s)",
              file=sys.stderr)  # fmt: skip
    await store.close()


def _insert_messages(conn: Any, rows: list[tuple[Any, ...]]) -> None:
    conn.executemany(
        "INSERT INTO messages (guild_id, channel_id, message_id, author_id, author_name, "
        "content, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def _queries(count: int) -> list[str]:
    rng = random.Random(11)
    shapes = [
        "who likes {thing}?", "what does {name} do for work?", "anyone in {place} into {thing}?",
        "where does {name} live", "who is learning {thing}", "which {job} lives in {place}?",
        "tell me about {name}", "does anyone have a cat named {name2}?",
    ]  # fmt: skip
    return [
        rng.choice(shapes).format(
            thing=rng.choice(THINGS),
            name=f"{rng.choice(NAMES)}{rng.randrange(5000)}",
            place=rng.choice(PLACES),
            job=rng.choice(JOBS),
            name2=rng.choice(NAMES),
        )
        for _ in range(count)
    ]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _open(db: Path, url: str | None) -> Any:
    """The SQLite store at ``db``, or (``url``) the PostgreSQL one it was moved into."""
    from memory.storage.store import Store

    if url is None:
        return await Store.open(db)
    from memory.storage.postgres.store import PostgresStore

    return await PostgresStore.open(url)


async def move(db: Path, url: str) -> None:
    """The SQLite store copied into PostgreSQL (``memorybot migrate``'s way), unless it was."""
    from memory.storage.postgres.moving import Mover
    from memory.storage.postgres.store import PostgresStore

    target = await PostgresStore.open(url)
    try:
        if await target.pool.fetchval("SELECT count(*) FROM moved_from WHERE finished_at "
                                      "IS NOT NULL"):  # fmt: skip
            return
        started = time.perf_counter()
        tally = await Mover(db, target).run()
        if not tally.complete:
            raise SystemExit(f"moving {db} into PostgreSQL left rows behind: {tally.counts}")
        print(f"moved {db} into PostgreSQL in {time.perf_counter() - started:.0f} s",
              file=sys.stderr)  # fmt: skip
        async with target.pool.acquire() as conn:
            await conn.execute("VACUUM ANALYZE")
    finally:
        await target.close()


async def measure(db: Path, queries: int, url: str | None = None) -> dict[str, Any]:
    from memory.search.embeddings import LocalEmbedder
    from memory.search.retriever import Retriever
    from memory.search.semantic import Semantic

    store = await _open(db, url)
    retriever = Retriever(store, Semantic(store, LocalEmbedder()))
    started = time.perf_counter()
    await retriever.slice(BIG_GUILD, "warm up: who likes pizza?", channel_id=BIG_CHANNELS[0])
    warm = time.perf_counter() - started
    search_ms: list[float] = []
    slice_ms: list[float] = []
    found: list[tuple[bytes, set[int]]] = []
    semantic = retriever.semantic
    assert semantic is not None
    model = semantic.embedder.model_key
    for n, query in enumerate(_queries(queries)):
        channel = BIG_CHANNELS[n % len(BIG_CHANNELS)]
        t0 = time.perf_counter()
        await retriever.search(BIG_GUILD, query, channel_id=channel)
        t1 = time.perf_counter()
        await retriever.slice(BIG_GUILD, query, channel_id=channel, user_id=_member_id(n))
        t2 = time.perf_counter()
        search_ms.append(1000 * (t1 - t0))
        slice_ms.append(1000 * (t2 - t1))
        (blob,) = await semantic.embedder.embed([query])
        nearest = await semantic.index.similarities(BIG_GUILD, model, blob)
        found.append((blob, set(nearest.nearest)))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    overlap = await _nearest_overlap(store, model, found)
    big = await store.stats(BIG_GUILD)
    await store.close()
    return {
        "queries": queries,
        "warmup_s": round(warm, 2),
        "search_ms": {"p50": round(statistics.median(search_ms), 1),
                      "p95": round(_pct(search_ms, 0.95), 1)},
        "slice_ms": {"p50": round(statistics.median(slice_ms), 1),
                     "p95": round(_pct(slice_ms, 0.95), 1)},
        "nearest_overlap": round(overlap, 3),
        "peak_rss_mb": round(peak_mb, 1),
        "big_guild": {"facts": big.active_facts, "messages": big.messages},
        "backend": "sqlite" if url is None else "postgres",
    }  # fmt: skip


async def _nearest_overlap(store: Any, model: str, found: list[tuple[bytes, set[int]]]) -> float:
    """Mean share of the exact nearest facts (every vector scored, here, after the peak RSS
    was read) that the k-NN found, over the queries."""
    import numpy as np

    from memory.search.embeddings import from_blob, matrix_from_blobs

    rows = await store.fact_vectors(BIG_GUILD, model)
    ids = np.array([fact_id for fact_id, _ in rows])
    matrix = matrix_from_blobs([blob for _, blob in rows])
    shares = []
    for blob, nearest in found:
        exact = set(ids[np.argsort(matrix @ from_blob(blob))[-len(nearest) :]].tolist())
        shares.append(len(exact & nearest) / max(len(exact), 1))
    return float(np.mean(shares))


MANY_GUILD = 720000000000000000
MESSAGES_EACH = 20


async def build_many(db: Path, guilds: int, facts: int) -> None:
    """``guilds`` guilds of ``facts`` facts each (their texts drawn from one pool of 20,000,
    embedded once; every fact with a bundled-model vector) and 20 messages each."""
    from memory.search.embeddings import LocalEmbedder
    from memory.storage.db import connect_sync
    from memory.storage.store import Store

    rng = random.Random(13)
    pool = sorted({text for text in (_fact_text(rng, n)[1] for n in range(20_000))})
    embedder = LocalEmbedder()
    started = time.perf_counter()
    blobs = await embedder.embed([f"other: {text}" for text in pool])
    vector_of = dict(zip(pool, blobs, strict=True))
    print(f"  embedded {len(pool)} texts ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    store = await Store.open(db)
    await store.close()
    conn = connect_sync(db)
    conn.isolation_level = None
    now = "2026-11-01T12:00:00.000+00:00"
    next_message = 1_400_000_000_000_000_000
    for g in range(guilds):
        guild = str(MANY_GUILD + g)
        conn.execute("BEGIN")
        conn.execute("INSERT INTO guilds (guild_id, name, updated_at) VALUES (?, ?, ?)",
                     (guild, f"guild {g}", now))  # fmt: skip
        rows = []
        for _ in range(MESSAGES_EACH):
            next_message += 1
            author = rng.randrange(facts)
            name = f"{NAMES[author % 20]}{author}"
            rows.append((guild, BIG_CHANNELS[0], str(next_message), _member_id(author), name,
                         _message_text(rng), "import", now))  # fmt: skip
        _insert_messages(conn, rows)
        conn.executemany(
            "INSERT OR IGNORE INTO memory_facts (guild_id, channel_id, subject, fact, fact_type, "
            "evidence_text, source_message_id, confidence, is_active, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, 'other', ?, ?, 0.9, 1, ?, ?)",
            [(guild, BIG_CHANNELS[0], _member_id(n % 100), text, text, str(n), now, now)
             for n, text in enumerate(rng.sample(pool, facts))],
        )  # fmt: skip
        conn.execute("COMMIT")
    store = await _indexed(conn, db)
    started = time.perf_counter()
    for g in range(guilds):
        guild = str(MANY_GUILD + g)
        rows = [(f.id, len(vector_of[f.fact]) // 4, vector_of[f.fact])
                for f in await store.active_facts(guild)]  # fmt: skip
        await store.store_fact_vectors(guild, embedder.model_key, rows)
    print(f"  stored the vectors of {guilds} guilds ({time.perf_counter() - started:.1f} s)",
          file=sys.stderr)  # fmt: skip
    await store.close()


async def measure_many(db: Path, guilds: int) -> dict[str, Any]:
    """One slice per guild (each a different question); then the RSS of the process."""
    from memory.search.embeddings import LocalEmbedder
    from memory.search.retriever import Retriever
    from memory.search.semantic import Semantic
    from memory.storage.store import Store

    store = await Store.open(db)
    retriever = Retriever(store, Semantic(store, LocalEmbedder()))
    questions = _queries(guilds)
    await retriever.slice(str(MANY_GUILD), "warm up: who likes pizza?")
    slice_ms = []
    for g, query in enumerate(questions):
        started = time.perf_counter()
        await retriever.slice(str(MANY_GUILD + g), query, user_id=_member_id(g % 100))
        slice_ms.append(1000 * (time.perf_counter() - started))
    facts = (await store.stats(str(MANY_GUILD))).active_facts
    rss_mb = _rss_mb()
    await store.close()
    return {
        "guilds": guilds,
        "facts_per_guild": facts,
        "slice_ms": {"p50": round(statistics.median(slice_ms), 1),
                     "p95": round(_pct(slice_ms, 0.95), 1)},
        "rss_mb": round(rss_mb, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }  # fmt: skip


def _rss_mb() -> float:
    """The resident set size of this process now (Linux), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _build_many(db: Path, guilds: int, facts: int) -> None:
    asyncio.run(build_many(db, guilds, facts))


def _build(db: Path, facts: int, messages: int, small: int) -> None:
    asyncio.run(build(db, facts, messages, small))


def ensure_store(data_dir: Path) -> None:
    """``data_dir/memory.db`` with this benchmark's default guilds, built (in a child
    process) when missing: the store the API load and reply benchmarks run on."""
    db = data_dir / "memory.db"
    if db.exists():
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    child = multiprocessing.get_context("spawn").Process(
        target=_build, args=(db, 100_000, 1_000_000, 20)
    )
    child.start()
    child.join()
    if child.exitcode != 0:
        raise SystemExit(f"building {db} failed (exit code {child.exitcode})")


SERVER_SETTINGS = {"shared_buffers": "2GB", "effective_cache_size": "8GB", "work_mem": "16MB"}
"""The throwaway server's memory, as an operator gives a database server (the defaults are
PostgreSQL's minimal ones: 128 MB of buffers)."""


@contextlib.contextmanager
def postgres_database(url: str | None) -> Iterator[str]:
    """``url``, or a throwaway server's new database (``tests.postgres_server``)."""
    if url is not None:
        yield url
        return
    from tests import postgres_server

    found = postgres_server.binaries()
    if found is None:
        raise SystemExit("no PostgreSQL: pass --database-url, or pip install -e '.[test]'")
    server = postgres_server.start(found, SERVER_SETTINGS)
    try:
        yield server.create_database("scale")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--small-guilds", type=int, default=20)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--many-guilds", type=int, help="N guilds instead (RSS after each)")
    parser.add_argument("--many-facts", type=int, default=1000)
    parser.add_argument("--db", type=Path, help="reuse (or build once) this database")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="postgres: the store moved into PostgreSQL (--database-url)",
    )
    parser.add_argument(
        "--database-url",
        help="postgres: an empty database, or one this "
        "benchmark moved its store into (default: a throwaway server from "
        "the test extra's binaries)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memorybot-scale-") as tmp:
        db = args.db or Path(tmp) / "memory.db"
        if not db.exists():  # in a child process: the peak RSS reported is the queries' own
            started = time.perf_counter()
            target, build_args = _build, (db, args.facts, args.messages, args.small_guilds)
            if args.many_guilds:
                target, build_args = _build_many, (db, args.many_guilds, args.many_facts)
            child = multiprocessing.get_context("spawn").Process(target=target, args=build_args)
            child.start()
            child.join()
            if child.exitcode != 0:
                raise SystemExit(f"building {db} failed (exit code {child.exitcode})")
            print(f"built {db} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        if args.many_guilds:
            result = asyncio.run(measure_many(db, args.many_guilds))
        elif args.backend == "postgres":
            with postgres_database(args.database_url) as url:
                asyncio.run(move(db, url))
                result = asyncio.run(measure(db, args.queries, url))
        else:
            result = asyncio.run(measure(db, args.queries))
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
