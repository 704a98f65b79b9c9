"""One ``Memory`` for every entry point — the bot, the API, the CLI and voice.

``open_memory`` opens the store, starts the journals, the ingest queue and the fact
embedder, and closes them in order. ``Memory`` owns every operation with side effects beyond
its own table: storing lore refreshes ``MEMORY.md`` and embeds the new fact; forgetting
removes daily-log lines and drops queued work; an import ends with the facts embedded and
the journals written. Each of those happens here and nowhere else, and callers never reach
into the parts (store, queue, journals) behind it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from memory import forgetting
from memory.audit import DISCORD, EventPruner
from memory.controls import Controls
from memory.errors import StoreError
from memory.extraction import Extractor, NoopExtractor
from memory.extraction.choice import build_extractor
from memory.forgetting import EditSummary, ForgetSummary
from memory.imports.importer import ExportImporter, ProgressCallback
from memory.ingest import IngestHandle, IngestQueue
from memory.ingest.admission import Admission
from memory.models import CandidateFact, Fact, GuildStats, IngestItem, StoredMessage
from memory.profile_pass import MemberProfiles, ProfileTally
from memory.search.embeddings import build_embedder
from memory.search.results import FactHit, MemorySlice, MessageHit
from memory.search.retriever import RELEVANT_MESSAGES, Retriever
from memory.search.semantic import Semantic
from memory.settings import Settings
from memory.storage.lock import DataDirLock
from memory.storage.opening import open_storage
from memory.storage.placing import Lifecycle
from memory.storage.protocol import Storage
from memory_journals import Journals

if TYPE_CHECKING:
    from memory.lifecycle.judge import FactJudge
    from memory.lifecycle.llm_check import LLMFactCheck
    from memory.lifecycle.similarity import FactSimilarity


def build_fact_check(
    settings: Settings, judge: FactJudge | None, store: Storage
) -> LLMFactCheck | None:
    """The LLM's check of the lifecycle's pairs: with a model configured, the lifecycle on
    (``judge``) and ``MEMORYBOT_LLM_FACT_CHECK`` not turned off; else None."""
    if judge is None or not settings.llm_model or not settings.llm_fact_check:
        return None
    from memory.lifecycle.llm_check import LLMFactCheck  # imports openai: only when used

    # A judge of its own: the store's keeps its subjects' facts indexed for the database
    # thread, and the check runs in another.
    own = _judge(judge.similarity)
    return LLMFactCheck.from_settings(settings, own, judge.similarity, store.facts_of)


class Memory(Controls):
    """What a community told the bot, and every way to add to it, read it and forget it."""

    def __init__(
        self,
        settings: Settings,
        store: Storage,
        journals: Journals,
        queue: IngestQueue,
        semantic: Semantic,
        profiles: MemberProfiles,
    ) -> None:
        self.settings = settings
        self._profiles = profiles
        self._store = store
        self._journals = journals
        self._queue = queue
        self._semantic = semantic
        self._retriever = Retriever(
            store,
            semantic,
            min_confidence=settings.slice_min_confidence,
            budget=settings.slice_budget,
            half_life_days=settings.fact_half_life_days,
        )  # one: it caches names and index profiles

    # --- what members say ------------------------------------------------------------------

    async def ingest(self, item: IngestItem) -> IngestHandle:
        """Queue a message (text or a voice transcript): stored, journaled and extracted."""
        return await self._queue.submit(item)

    async def record_guild(self, guild_id: str, name: str) -> None:
        await self._store.record_guild(guild_id, name)

    async def remember(
        self,
        guild_id: str,
        line: str,
        *,
        channel_id: str = "",
        source_message_id: str = "",
        said_at: str | None = None,
        author_id: str = "",
    ) -> CandidateFact:
        """Store ``line`` as guild lore (``/memory remember``, a reply's memory line); it
        reaches ``MEMORY.md`` and gets its vector. Raises ``InvalidMessageError`` for an
        empty, instruction-like or secret line."""
        fact = await self._store.remember_line(
            guild_id, line, channel_id=channel_id, source_message_id=source_message_id,
            said_at=said_at, author_id=author_id,
        )  # fmt: skip
        self._journals.guild_changed(guild_id)
        self._semantic.facts.wake(guild_id)
        return fact

    async def edit_message(self, guild_id: str, message_id: str, content: str) -> EditSummary:
        """A message edited on Discord: new text stored, old facts gone, extracted again."""
        summary = await forgetting.edit_message(
            self._store, self._journals, self._queue, guild_id, message_id, content
        )
        if summary.changed:
            detail = f"{summary.facts} fact(s) of the old text deleted; extracted again"
            await self._record(guild_id, "message.edited", DISCORD, message_id, "", detail)
        return summary

    async def delete_message(self, guild_id: str, message_id: str) -> ForgetSummary:
        """A message deleted on Discord: it, its facts and its daily-log line go."""
        summary = await forgetting.delete_message(
            self._store, self._journals, guild_id, message_id, queue=self._queue
        )
        if summary.removed_anything:
            detail = f"{summary.facts} fact(s) from it deleted"
            await self._record(guild_id, "message.deleted", DISCORD, message_id, "", detail)
        return summary

    # --- imports and upkeep ----------------------------------------------------------------

    def importer(self, on_progress: ProgressCallback | None = None) -> ExportImporter:
        """An importer of DiscordChatExporter files into this memory."""
        return ExportImporter(self._queue, on_progress=on_progress)

    async def join(self) -> None:
        """Wait until every queued message is stored, extracted and journaled."""
        await self._queue.join()

    async def settle(self) -> None:
        """After an import: wait for the queue, embed the new facts, write every journal
        (which also indexes the messages for search)."""
        await self._queue.join()
        await self._semantic.facts.join()
        await self._journals.refresh_all()

    async def requeue(self, guild_id: str, statuses: Sequence[str]) -> int:
        """Set the guild's jobs of those statuses pending again; return how many."""
        return await self._queue.requeue(guild_id, statuses)

    async def embed_missing(
        self, guild_id: str, progress: Callable[[int], None] | None = None
    ) -> int:
        """Embed every active fact of the guild without a vector of the current model."""
        return await self._semantic.facts.backfill(guild_id, progress)

    async def settle_facts(
        self, guild_id: str, progress: Callable[[int], None] | None = None
    ) -> dict[str, int]:
        """Apply the fact lifecycle to the guild's facts stored before it (``backfill
        --lifecycle``): paraphrases merged, contradictions superseded, the cap by value."""
        counts = await self._store.settle_facts(guild_id, progress)
        self._journals.guild_changed(guild_id)
        self._semantic.facts.wake(guild_id)
        return counts

    async def write_profiles(
        self, guild_id: str | None = None, progress: Callable[[int], None] | None = None
    ) -> ProfileTally:
        """Let the LLM write the paragraphs of members whose facts changed, now (one guild,
        or every guild); their MEMORY.md is refreshed. ``ConfigError`` without a model."""
        return await self._profiles.write(guild_id, progress)

    async def count_subjects(self, guild_id: str) -> int:
        """Members (and lore) with active facts in the guild."""
        return await self._store.count_subjects(guild_id)

    async def journal_backlog(self, guild_id: str | None = None) -> int:
        """Write the daily-log lines of messages stored but not journaled (past the journal
        cursor), then every other line the logs lack, found by comparing them with the
        stored messages (of ``guild_id``, else of every guild); return how many."""
        written = await self._queue.journal_backlog()
        return written + await self._journals.write_missing(guild_id)

    async def refresh(self, guild_id: str) -> str:
        """Rewrite the guild's ``MEMORY.md``; return its text."""
        return await self._journals.refresh(guild_id)

    async def refresh_all(self) -> list[str]:
        """Rewrite every guild's ``MEMORY.md`` and the index; return the guilds."""
        return await self._journals.refresh_all()

    async def flush_journals(self) -> None:
        """Write the snapshots that wait for their debounce, now."""
        await self._journals.flush()

    # --- reading ---------------------------------------------------------------------------

    async def search(
        self, guild_id: str, query: str, *, channel_id: str | None = None, limit: int = 10,
        strict: bool = True, subjects: Sequence[str] | None = None,
    ) -> list[FactHit]:  # fmt: skip
        """The guild's facts for ``query``, best first (``strict``: relevance-gated;
        ``subjects``: only facts about them)."""
        return await self._retriever.search(
            guild_id, query, channel_id=channel_id, limit=limit, strict=strict, subjects=subjects
        )

    async def named_members(self, guild_id: str, text: str) -> dict[str, str]:
        """The guild's members ``text`` names (display name, username, first name or
        ``<@id>`` mention), as ``user_id -> display name``; only that guild's members."""
        return await self._retriever.named_members(guild_id, text)

    async def member_names(self, guild_id: str) -> dict[str, str]:
        """``user_id -> display name`` of every member the guild has seen."""
        return await self._store.member_names(guild_id)

    async def slice(
        self, guild_id: str, query: str, *, channel_id: str | None = None,
        user_id: str | None = None, budget: int | None = None,
    ) -> MemorySlice:  # fmt: skip
        """What a reply to ``query`` sees of memory, within ``budget`` characters shown."""
        return await self._retriever.slice(
            guild_id, query, channel_id=channel_id, user_id=user_id, budget=budget
        )

    async def messages(
        self, guild_id: str, query: str, *, channel_id: str | None = None,
        limit: int = RELEVANT_MESSAGES, strict: bool = False,
    ) -> list[MessageHit]:  # fmt: skip
        """Stored messages for ``query``, each with its neighbouring turns (``strict``: what
        search shows, only relevant ones: ``Retriever.search_messages``)."""
        find = self._retriever.search_messages if strict else self._retriever.messages
        return await find(guild_id, query, channel_id=channel_id, limit=limit)

    async def recent_messages(
        self, guild_id: str, channel_id: str, limit: int, *, before: str | None = None
    ) -> list[StoredMessage]:
        return await self._store.recent_messages(guild_id, channel_id, limit, before=before)

    async def message(self, guild_id: str, message_id: str) -> StoredMessage | None:
        return await self._store.get_message(guild_id, message_id)

    async def active_facts(self, guild_id: str) -> list[Fact]:
        return await self._store.active_facts(guild_id)

    async def stats(self, guild_id: str) -> GuildStats:
        return await self._store.stats(guild_id)

    async def guild_ids(self) -> list[str]:
        return await self._store.guild_ids()

    async def guild_name(self, guild_id: str) -> str:
        return await self._store.guild_name(guild_id)

    async def pending_jobs(self, guild_id: str) -> int:
        return await self._store.pending_count(guild_id)

    async def missing_vectors(self, guild_id: str) -> int:
        """Active facts of the guild without a vector of the current embedding model."""
        return await self._store.count_missing_vectors(guild_id, self.embedding_model)

    async def versions(self) -> dict[str, str]:
        """SQLite's, sqlite-vec's and FTS5's versions."""
        return await self._store.versions()

    def snapshot_path(self, guild_id: str) -> Path:
        return self._journals.snapshot_path(guild_id)

    @property
    def embedding_model(self) -> str:
        return self._semantic.embedder.model_key

    @property
    def data_version(self) -> tuple[int, int, int]:
        """Moves whenever what a search or a slice could return changes (a cache key)."""
        return self._store.data_version

    def watch_outside_commits(self) -> None:  # other processes write too (``Storage``'s)
        self._store.watch_outside_commits()

    @property
    def queue_depth(self) -> int:
        return self._queue.depth

    async def members_to_judge(self, guild_id: str | None = None) -> int:
        """Members (of one guild, else of every guild) whose imported facts wait to be
        judged (once a queue is idle)."""
        return await self._store.count_waiting(guild_id)

    @property
    def dropped(self) -> int:
        """Live messages dropped because the queue was full (DESIGN "Ingest queue")."""
        return self._queue.dropped


@asynccontextmanager
async def open_memory(
    settings: Settings, *, start_queue: bool = True, extractor: Extractor | None = None,
    profiles: bool = False, store: Storage | None = None,
) -> AsyncIterator[Memory]:  # fmt: skip
    """Open the store, start the journals and (optionally) the queue and the fact embedder,
    and (``profiles``, with a model) the periodic profile pass; stop and close them on exit.
    ``store``: the storage to use (closed on exit) instead of the one the settings name
    (``MEMORYBOT_DATABASE_URL``, else the data directory's SQLite file).

    Holds the data directory's lock throughout: one writing process per data directory, or
    any number whose store is shared (PostgreSQL).
    """
    shared = settings.postgres_url is not None or (store is not None and store.shared)
    lock = DataDirLock(settings.data_dir, shared=shared)
    lock.acquire()
    try:
        async with _opened(
            settings, start_queue=start_queue, extractor=extractor, profiles=profiles,
            store=store,
        ) as memory:  # fmt: skip
            yield memory
    finally:
        lock.release()


@asynccontextmanager
async def reading_memory(settings: Settings) -> AsyncIterator[Memory]:
    """Memory for reading beside a running bot or import (``search``, ``slice``, ``stats``):
    no lock, and nothing started — no queue, no journals, no background embedding. A search
    may still embed the few facts it finds without a vector (SQLite serialises the writers).
    Creates nothing on SQLite: ``StoreError`` when the data directory holds no database (a
    PostgreSQL database gets its schema, as every process that opens it does).
    """
    if settings.postgres_url is None and not settings.db_path.is_file():
        raise StoreError(
            f"no memory at {settings.data_dir}: {settings.db_path.name} does not exist there "
            "(check --data-dir or MEMORYBOT_DATA_DIR; import an export or run the bot first)"
        )
    async with _opened(settings, start_queue=False, extractor=NoopExtractor(), reading=True) as m:
        yield m


def _judge(similarity: FactSimilarity | None = None) -> FactJudge:
    """A judge of the lifecycle, imported only where facts are judged: its rules' patterns
    take most of a second to compile, which a reading command (``stats``, ``search``) need not
    wait for."""
    from memory.lifecycle.judge import FactJudge

    return FactJudge(similarity)


@asynccontextmanager
async def _opened(
    settings: Settings, *, start_queue: bool, extractor: Extractor | None, reading: bool = False,
    profiles: bool = False, store: Storage | None = None,
) -> AsyncIterator[Memory]:  # fmt: skip
    owned = extractor is None
    extractor = extractor or build_extractor(settings)  # a bad LLM setting fails before opening
    store = store or await open_storage(settings)
    judge = _judge() if settings.fact_lifecycle and not reading else None
    store.lifecycle = Lifecycle(judge=judge, half_life_days=settings.fact_half_life_days)
    journals = Journals(
        settings.journals_dir,
        store,
        debounce=settings.journal_debounce,
        refresh_interval=settings.journal_refresh_interval,
    )
    semantic = Semantic(store, build_embedder(settings))
    check = None if reading else build_fact_check(settings, judge, store)
    pruner = EventPruner(store, settings.events_retention_days)
    writer = MemberProfiles(settings, store, journals.guild_changed)
    queue = IngestQueue(
        store,
        extractor=extractor,
        journal=journals,
        max_queue=settings.max_queue,
        drain_timeout=settings.drain_timeout,
        on_facts=semantic.facts.wake,
        admission=Admission(store, settings.ignore_channels),
        fact_check=check.advise if check is not None else None,
    )
    try:
        if not reading:  # a reader writes no journals
            await journals.start()
        if start_queue:
            await queue.start()
            semantic.facts.start()
            pruner.start()
        if profiles and not reading:
            writer.start()
        yield Memory(settings, store, journals, queue, semantic, writer)
    finally:
        try:
            await writer.close()
            await pruner.close()
            await queue.close()
            await semantic.facts.close()
            await semantic.embedder.aclose()
            await journals.close()
            if check is not None:
                await check.aclose()
        finally:
            await store.close()
            if owned:
                await extractor.aclose()
