"""Assembling the memory runtime (store + journals + ingest queue) for every entry point."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from memory.embeddings import build_embedder
from memory.extraction import Extractor, NoopExtractor
from memory.ingest import IngestQueue
from memory.lock import DataDirLock
from memory.retrieval import Retriever
from memory.semantic import Semantic
from memory.settings import Settings
from memory.store import Store
from memory_journals import Journals


@dataclass(slots=True)
class MemoryRuntime:
    settings: Settings
    store: Store
    journals: Journals
    queue: IngestQueue
    semantic: Semantic
    retriever: Retriever  # one per runtime: it caches member names and index profiles


def extractor_choice(settings: Settings) -> str:
    """``offline``, ``llm`` or ``none``: ``auto`` is ``llm`` when a model is configured, else
    ``offline`` (``heuristic``, the old name, is ``offline`` too)."""
    if settings.extractor == "auto":
        return "llm" if settings.llm_model else "offline"
    return "offline" if settings.extractor == "heuristic" else settings.extractor


def build_extractor(settings: Settings) -> Extractor:
    """The extraction step the queue runs, as the settings choose it."""
    choice = extractor_choice(settings)
    if choice == "none":
        return NoopExtractor()
    if choice == "offline":
        from memory.extraction.offline import OfflineExtractor

        return OfflineExtractor()
    from memory.llm_extractor import LLMExtractor  # imports openai: only when it is used

    return LLMExtractor.from_settings(settings)


@asynccontextmanager
async def open_runtime(
    settings: Settings, *, start_queue: bool = True, extractor: Extractor | None = None
) -> AsyncIterator[MemoryRuntime]:
    """Open the store, start journals and (optionally) the queue; drain and close on exit.

    Holds the data directory's lock throughout: one writing process per data directory.
    """
    lock = DataDirLock(settings.data_dir)
    lock.acquire()
    try:
        async with _opened(settings, start_queue=start_queue, extractor=extractor) as runtime:
            yield runtime
    finally:
        lock.release()


@asynccontextmanager
async def _opened(
    settings: Settings, *, start_queue: bool, extractor: Extractor | None
) -> AsyncIterator[MemoryRuntime]:
    owned = extractor is None
    extractor = extractor or build_extractor(settings)  # a bad LLM setting fails before opening
    store = await Store.open(settings.db_path)
    journals = Journals(
        settings.journals_dir,
        store,
        debounce=settings.journal_debounce,
        refresh_interval=settings.journal_refresh_interval,
    )
    semantic = Semantic(store, build_embedder(settings))
    queue = IngestQueue(
        store,
        extractor=extractor,
        journal=journals,
        max_queue=settings.max_queue,
        drain_timeout=settings.drain_timeout,
        on_facts=semantic.facts.wake,
    )
    try:
        await journals.start()
        if start_queue:
            await queue.start()
            semantic.facts.start()
        yield MemoryRuntime(settings, store, journals, queue, semantic, Retriever(store, semantic))
    finally:
        try:
            await queue.close()
            await semantic.facts.close()
            await semantic.embedder.aclose()
            await journals.close()
        finally:
            await store.close()
            if owned:
                await extractor.aclose()
