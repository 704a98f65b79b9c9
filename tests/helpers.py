"""Test doubles and builders shared by the test modules (real SQLite, no mocks)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from memory.extraction import BaseExtractor, ContextTurn, SourceMessage
from memory.models import Author, CandidateFact, IngestItem

T = TypeVar("T")

GUILD_A = "111111111111111111"
GUILD_B = "222222222222222222"
CHANNEL_A = "111111111111111112"
CHANNEL_B = "222222222222222223"
SARAH = Author("300000000000000001", "Sarah", "sarahb")
MIKE = Author("300000000000000002", "Mike", "bigmike")


def item(
    message_id: int | str,
    content: str = "hello there, this is a message",
    *,
    guild_id: str = GUILD_A,
    channel_id: str = CHANNEL_A,
    author: Author = SARAH,
    created_at: str = "2026-10-12T18:03:11.123+00:00",
    source: str = "text",
) -> IngestItem:
    return IngestItem(
        guild_id,
        channel_id,
        str(message_id),
        author,
        content,
        created_at,
        source,  # type: ignore[arg-type]
    )


async def add_fact(
    store: Any,
    subject: str,
    text: str,
    *,
    guild: str = GUILD_A,
    channel: str = CHANNEL_A,
    evidence: str = "",
    confidence: float = 0.9,
    source: str = "1",
    fact_type: str = "other",
    said_at: str = "",
) -> None:
    """Store one fact as extraction would (``Store.finish_jobs``), with its provenance: said
    at ``said_at`` (now when empty)."""
    from memory.extraction.lore import Origin

    fact = CandidateFact(subject, text, fact_type, confidence, evidence, source)
    await store.finish_jobs([], [], [(Origin(guild, channel, said_at), fact)])


def sql(db: Path | str, query: str, params: Sequence[Any] = ()) -> list[Any]:
    """Run one statement on a connection of its own to the database file (autocommit): what
    a test looks at, or changes behind the store's back, without reaching into the store."""
    from memory.storage.db import connect_sync

    conn = connect_sync(db)
    try:
        return list(conn.execute(query, params).fetchall())
    finally:
        conn.close()


Seed = Callable[[Any], Awaitable[None]]
"""Writes a test's starting data through the storage layer (``Storage``)."""


async def seed_store(db_path: Path, seed: Seed) -> None:
    """Run ``seed`` on the store of the data directory holding ``db_path`` (on PostgreSQL,
    when the test runs there: ``conftest.each_backend``) before memory opens on it (memory's
    own parts are never reached into)."""
    from memory.settings import load_settings
    from memory.storage.opening import open_storage

    db_path.parent.mkdir(parents=True, exist_ok=True)
    store = await open_storage(load_settings(data_dir=db_path.parent))
    try:
        await seed(store)
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def side_store(settings: Any) -> AsyncIterator[Any]:
    """A second connection to the database that memory runs on (each sees the other's
    commits), to set up what no memory operation makes, such as a fact with a given text."""
    from memory.storage.opening import open_storage

    store = await open_storage(settings)
    try:
        yield store
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def repliers(base_url: str, api_key: str, *, max_retries: int) -> AsyncIterator[Any]:
    """A factory of LLM repliers on a (fake) endpoint; each is closed when the block ends."""
    from bot.llm_reply import LLMReplier

    built: list[LLMReplier] = []

    def make(**overrides: Any) -> LLMReplier:
        options: dict[str, Any] = {
            "model": "fake-model",
            "base_url": base_url,
            "api_key": api_key,
            "max_retries": max_retries,
            **overrides,
        }
        built.append(replier := LLMReplier(**options))
        return replier

    try:
        yield make
    finally:
        for replier in built:
            await replier.aclose()


async def dpytest_bot(runtime: Any, members: Sequence[str] = ("Sarah", "Mike")) -> Any:
    """The bot with its cogs over ``runtime``, under dpytest (one guild, one text channel,
    ``members``): what logging in would set up, without Discord."""
    import discord.ext.test as dpytest

    from bot.client import MemoryBot

    bot = MemoryBot(runtime.settings, runtime)
    await bot._async_setup_hook()
    await bot.setup_hook()
    dpytest.configure(bot, members=list(members))
    return bot


class RecordingExtractor(BaseExtractor):
    """Extracts one fact per message ("<name> said: <text>") and records what it saw.

    ``gate`` (when set) must be opened before each batch finishes: tests use it to hold
    the worker while they look at the queue from outside.
    """

    name = "recording"

    def __init__(
        self,
        *,
        gate: asyncio.Event | None = None,
        fail: bool = False,
        batch_size: int = 512,
        batch_gap: float = 0.0,
    ) -> None:
        self.batch_size = batch_size
        self.batch_gap = batch_gap
        self.batches: list[list[str]] = []
        self.messages: list[SourceMessage] = []
        self.gate = gate
        self.fail = fail
        self.started = asyncio.Event()

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        self.batches.append([m.message_id for m in messages])
        self.messages += messages
        self.started.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise RuntimeError("the model answered nonsense")
        return [
            CandidateFact(
                subject=m.author_id,
                fact=f"{m.author_name} said: {m.text[:60]}",
                fact_type="other",
                confidence=0.8,
                evidence=m.text[:60],
                source_message_id=m.message_id,
            )
            for m in messages
        ]

    @property
    def seen(self) -> list[str]:
        return [message_id for batch in self.batches for message_id in batch]


def write_export(
    path: Path,
    messages: list[dict[str, Any]],
    *,
    guild_id: str = GUILD_A,
    channel_id: str = CHANNEL_A,
    guild_name: str = "Test Guild",
) -> Path:
    """A DiscordChatExporter-shaped JSON export with the given message objects."""
    doc = {
        "guild": {"id": guild_id, "name": guild_name, "iconUrl": ""},
        "channel": {"id": channel_id, "type": "GuildTextChat", "name": "general"},
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2026-11-01T12:00:00.000+00:00",
        "messages": messages,
        "messageCount": len(messages),
    }
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


EXPORT_IDS = 1_300_000_000_000_000_000
"""Message ``n`` of a test export has Discord id ``EXPORT_IDS + n`` (``export_id``)."""


def export_id(n: int) -> str:
    return str(EXPORT_IDS + n)


def export_message(
    message_id: int,
    content: str,
    *,
    author: Author = SARAH,
    is_bot: bool = False,
    kind: str = "Default",
    timestamp: str = "2026-10-12T18:03:11.123+00:00",
    mentions: list[Author] | None = None,
) -> dict[str, Any]:
    def person(a: Author, bot: bool = False) -> dict[str, Any]:
        return {"id": a.id, "name": a.username, "nickname": a.name, "isBot": bot}

    return {
        "id": export_id(message_id),
        "type": kind,
        "timestamp": timestamp,
        "content": content,
        "author": person(author, is_bot),
        "mentions": [person(m) for m in mentions or []],
    }


# --- the command line, run as a real subprocess ----------------------------------------

MEMORYBOT = Path(sys.executable).parent / "memorybot"


SHELL_SETTINGS = ("DISCORD_TOKEN", "OPENAI_API_KEY", "OPENAI_BASE_URL")
"""What memorybot reads from the environment besides ``MEMORYBOT_*``."""


def isolate(patch: pytest.MonkeyPatch, workdir: Path) -> None:
    """No setting leaks in from the developer's shell or a .env in the working dir (which
    becomes ``workdir``, an empty folder): for each test (``conftest._isolated_env``) and
    for what a module's tests share (``built_once``)."""
    for name in list(os.environ):
        if name.startswith("MEMORYBOT_") or name in SHELL_SETTINGS:
            patch.delenv(name, raising=False)
    patch.chdir(workdir)


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """A directory that ``build`` fills once for the whole run, not once per xdist worker
    (the scheduler spreads a module's tests over the workers): the first worker to ask
    builds it in the run's temporary directory under a file lock, the others wait for it.
    It is shared: a test reads it, or works on a copy of its own. ``build`` runs isolated as
    a test does (``isolate``): it is set up before the test's own isolation."""
    base = factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    built, done = root / f"built-{name}", root / f"built-{name}.done"
    with open(root / f"built-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(built, ignore_errors=True)  # what a failed build left
            built.mkdir()
            workdir = root / f"built-{name}.cwd"
            workdir.mkdir(exist_ok=True)
            with pytest.MonkeyPatch.context() as patch:
                isolate(patch, workdir)
                build(built)
            done.touch()
    return built


def run_apart(work: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(work)`` in a thread of its own: for a build that ``built_once`` runs
    (synchronous, before any test's event loop), the main thread's loop left as it is."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def cli_env(**extra: str) -> dict[str, str]:
    """The test process's environment without any MEMORYBOT_* variable but the store a test
    runs on (``conftest.each_backend``), plus ``extra``."""
    kept = ("MEMORYBOT_DATABASE_URL",)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYBOT_") or k in kept}
    env.update(extra)
    return env


def run_cli(
    data_dir: Path | None,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 180,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``memorybot [--data-dir D] ARGS`` as a subprocess (no ``--data-dir`` when None)."""
    data = ["--data-dir", str(data_dir)] if data_dir is not None else []
    return subprocess.run(
        [str(MEMORYBOT), *data, *args],
        env=env if env is not None else cli_env(),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def stats_json(data_dir: Path) -> dict[str, dict[str, Any]]:
    result = run_cli(data_dir, "stats", "--json")
    assert result.returncode == 0, result.stderr
    return {row["guild_id"]: row for row in json.loads(result.stdout)["guilds"]}


def parse_summary(stdout: str) -> dict[str, int]:
    match = re.search(
        r"imported (\d+) file\(s\): read (\d+), new (\d+), skipped (\d+) \(.*?\), queued (\d+)",
        stdout,
    )
    assert match, stdout
    keys = ("files", "read", "new", "skipped", "queued")
    return dict(zip(keys, map(int, match.groups()), strict=True))
