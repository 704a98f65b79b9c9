"""What the rest of memorybot needs from storage: one typed protocol, every method async
and guild-keyed (but the few queue-internal ones that return work). ``Store`` (SQLite with
FTS5 and sqlite-vec) is its first implementation; a second backend implements this and
nothing else. Where SQLite shows through, a comment says so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from memory.audit import MemoryEvent, StoredEvent
from memory.models import (
    CandidateFact,
    Fact,
    FactOrigin,
    GuildStats,
    IngestItem,
    Job,
    MemberProfile,
    StoredMessage,
)
from memory.storage.forget_sql import DeleteOutcome, EditOutcome, ForgetOutcome
from memory.storage.ingest_sql import Closed, InsertOutcome
from memory.storage.placing import NO_ADVICE, Advice, Lifecycle
from memory.storage.signs_sql import Signs
from memory.storage.vectors_sql import Nearest
from memory.storage.windows import Corpus, Window


class Storage(Protocol):
    """Guild-scoped storage of messages, jobs, members, facts and fact vectors."""

    vector_version: int  # moves when facts or their vectors change
    members_version: int  # moves when members are written
    index_version: int  # moves when messages become searchable
    lifecycle: Lifecycle  # how facts live: the judge and the half-life the store applies
    # Other processes write this store at once (PostgreSQL): the queue claims the jobs it
    # works on and journals only from the store, a guild at a time.
    shared: bool

    # --- the connection ------------------------------------------------------------

    async def close(self) -> None: ...

    def watch_outside_commits(self) -> None: ...

    @property
    def data_version(self) -> tuple[int, int, int]: ...

    async def versions(self) -> dict[str, str]: ...

    # --- members ------------------------------------------------------------

    async def record_guild(self, guild_id: str, name: str) -> None: ...

    async def record_members(
        self, guild_id: str, members: Iterable[tuple[str, str, str]]
    ) -> None: ...

    async def guild_ids(self) -> list[str]: ...

    async def guild_name(self, guild_id: str) -> str: ...

    async def member_names(self, guild_id: str) -> dict[str, str]: ...

    async def members(self, guild_id: str) -> list[tuple[str, str, str]]: ...

    async def opt_out(self, guild_id: str, user_id: str) -> bool: ...

    async def opt_in(self, guild_id: str, user_id: str) -> bool: ...

    async def opted_out(self, guild_id: str) -> frozenset[str]: ...

    async def guild_settings(self, guild_id: str) -> dict[str, Any]: ...

    async def set_guild_setting(self, guild_id: str, key: str, value: Any) -> None: ...

    # --- per guild ------------------------------------------------------------

    async def stats(self, guild_id: str) -> GuildStats: ...

    # --- messages ------------------------------------------------------------

    async def get_message(self, guild_id: str, message_id: str) -> StoredMessage | None: ...

    async def count_messages(self, guild_id: str) -> int: ...

    async def messages_by_rows(
        self, guild_id: str, row_ids: Sequence[int]
    ) -> list[StoredMessage]: ...

    async def recent_messages(
        self, guild_id: str, channel_id: str, limit: int, *, before: str | None = None
    ) -> list[StoredMessage]: ...

    async def neighbours(
        self, guild_id: str, messages: Sequence[StoredMessage], before: int = 1, after: int = 1
    ) -> list[tuple[list[StoredMessage], list[StoredMessage]]]: ...

    async def fts_windows(
        self, corpus: Corpus, guild_id: str, windows: Sequence[Window]
    ) -> list[list[int]]: ...

    # SQLite-only: merges FTS5 segments; a no-op where the index needs no merging.
    async def optimize_search(self) -> None: ...

    async def unjournaled_messages(self, limit: int) -> list[StoredMessage]: ...

    async def messages_after(
        self, row_id: int, limit: int, guild_id: str | None = None
    ) -> list[StoredMessage]: ...

    async def journal_cursor(self) -> int: ...

    # The messages' lines are written: they leave what ``unjournaled_messages`` returns.
    async def mark_journaled(self, messages: Sequence[StoredMessage]) -> None: ...

    # No other process writes the journals of these guilds meanwhile (a shared store's
    # lock; one writing process per data directory needs none).
    def journal_guilds(self, guild_ids: Collection[str]) -> AbstractAsyncContextManager[None]: ...

    # --- jobs ------------------------------------------------------------

    async def insert_messages(
        self, items: Sequence[IngestItem], *, live: bool, closed: Closed = ()
    ) -> InsertOutcome: ...

    async def claim_pending(self, limit: int) -> list[Job]: ...

    async def pending_keys(self) -> list[tuple[str, str, bool]]: ...

    # Pending jobs no living process holds: a shared store's, left by a process that died.
    async def unclaimed_jobs(self) -> int: ...

    async def finish_jobs(
        self,
        done: Sequence[int],
        failed: Sequence[tuple[int, str]] = (),
        facts: Sequence[tuple[FactOrigin, CandidateFact]] = (),
        events: Sequence[MemoryEvent] = (),
        *,
        advice: Advice = NO_ADVICE,
        judge_later: bool = False,
    ) -> set[tuple[str, str]]: ...

    async def settle_waiting(self, limit: int) -> list[tuple[str, str]]: ...

    async def count_waiting(self, guild_id: str | None = None) -> int: ...

    async def pending_count(self, guild_id: str) -> int: ...

    async def drop_jobs(self, keys: Sequence[tuple[str, str]], reason: str) -> None: ...

    async def requeue_jobs(self, guild_id: str, statuses: Sequence[str]) -> int: ...

    async def job_status(self, guild_id: str, message_id: str) -> tuple[str, str | None] | None: ...

    # --- facts ------------------------------------------------------------

    async def active_facts(self, guild_id: str) -> list[Fact]: ...

    async def review_facts(
        self, guild_id: str, *, subject: str | None = None, archived: bool = False,
        limit: int = 100, before_id: int | None = None,
    ) -> list[Fact]: ...  # fmt: skip

    async def edit_fact(
        self, guild_id: str, fact_id: int, *, text: str | None = None,
        fact_type: str | None = None, active: bool | None = None,
    ) -> Fact | None: ...  # fmt: skip

    async def delete_fact(self, guild_id: str, fact_id: int) -> bool: ...

    async def member_facts(self, guild_id: str, user_id: str) -> tuple[list[Fact], list[Fact]]: ...

    async def snapshot_facts(self, guild_id: str, limit: int) -> list[Fact]: ...

    async def facts_of(self, guild_id: str, subjects: Sequence[str]) -> list[Fact]: ...

    async def facts_by_ids(
        self, guild_id: str, fact_ids: Sequence[int], *, archived: bool = False
    ) -> list[Fact]: ...

    async def count_active_facts(self, guild_id: str) -> int: ...

    async def count_subjects(self, guild_id: str) -> int: ...

    async def remember_line(
        self,
        guild_id: str,
        line: str,
        *,
        channel_id: str = "",
        source_message_id: str = "",
        said_at: str | None = None,
        author_id: str = "",
    ) -> CandidateFact: ...

    async def settle_facts(
        self, guild_id: str, progress: Callable[[int], None] | None = None
    ) -> dict[str, int]: ...

    async def delete_message(self, guild_id: str, message_id: str) -> DeleteOutcome: ...

    async def edit_message(
        self, guild_id: str, message_id: str, content: str
    ) -> EditOutcome | None: ...

    async def forget_member(self, guild_id: str, user_id: str) -> ForgetOutcome: ...

    async def messages_by_author(self, guild_id: str, user_id: str) -> list[StoredMessage]: ...

    # --- vectors ------------------------------------------------------------

    async def cached_vectors(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]: ...

    async def cache_vectors(self, model: str, rows: Sequence[tuple[str, bytes]]) -> None: ...

    async def facts_missing_vectors(
        self, guild_id: str, model: str, limit: int
    ) -> list[tuple[int, str]]: ...

    async def count_missing_vectors(self, guild_id: str, model: str) -> int: ...

    async def store_fact_vectors(
        self, guild_id: str, model: str, rows: Sequence[tuple[int, int, bytes]]
    ) -> int: ...

    async def fact_vectors(self, guild_id: str, model: str) -> list[tuple[int, bytes]]: ...

    async def missing_vector_ids(self, guild_id: str, model: str, limit: int) -> list[int]: ...

    # ``bound`` is the coarse pass's Hamming bound (sqlite-vec's sign bits); a backend
    # with its own index (pgvector HNSW) ignores it and returns an exact or ANN answer.
    async def nearest_facts(
        self,
        guild_id: str,
        model: str,
        query: bytes,
        k: int,
        bound: int | None = None,
        *,
        exact: bool = False,
    ) -> Nearest: ...

    # The in-memory pass (``memory.search.signs``): a guild's sign bits, and the vectors of
    # the facts it does not hold yet.
    async def fact_signs(self, guild_id: str, model: str) -> Signs | None: ...

    async def fact_vectors_of(
        self, guild_id: str, model: str, fact_ids: Sequence[int]
    ) -> list[tuple[int, bytes]]: ...

    # --- the audit log ------------------------------------------------------------

    async def record_events(self, events: Sequence[MemoryEvent]) -> None: ...

    async def events(
        self,
        guild_id: str,
        *,
        limit: int = 50,
        before: int | None = None,
        kinds: Sequence[str] = (),
    ) -> list[StoredEvent]: ...

    async def prune_events(self, before: str) -> int: ...

    # --- members' profiles ------------------------------------------------------------

    async def member_profiles(self, guild_id: str) -> list[MemberProfile]: ...

    async def write_member_profile(self, profile: MemberProfile, event: MemoryEvent) -> None: ...
