"""Durable facts: reading a guild's active facts, storing lore, and forgetting — Discord
deletions and edits and ``/memory forget`` — which removes facts with what they came from."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from memory.audit import SYSTEM
from memory.extraction.lore import Origin, lore_fact
from memory.models import CandidateFact, Fact, StoredMessage, canonical_time, utc_iso
from memory.storage import facts_sql
from memory.storage import forget_sql as fsql
from memory.storage import ingest_sql as sql
from memory.storage.base import FACT_COLS, Database, fact_from_row
from memory.storage.lifecycle_sql import settle_subject
from memory.storage.messages import FTS_TABLES
from memory.storage.placing import tally_settled

log = logging.getLogger(__name__)


class Facts(Database):
    """The ``memory_facts`` table (and what forgetting removes with its facts)."""

    async def active_facts(self, guild_id: str) -> list[Fact]:
        rows = await self._fetchall(
            f"SELECT {FACT_COLS} FROM memory_facts f "
            "WHERE f.guild_id = ? AND f.is_active = 1 ORDER BY f.subject, f.confidence DESC, f.id",
            (guild_id,),
        )
        return [fact_from_row(r) for r in rows]

    async def member_facts(self, guild_id: str, user_id: str) -> tuple[list[Fact], list[Fact]]:
        """Every fact of the guild about the member, and the lore they wrote — active and
        archived, oldest first (what ``/memory export`` hands them)."""
        about = await self._fetchall(
            f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.guild_id = ? AND f.subject = ? "
            "ORDER BY f.said_at, f.id",
            (guild_id, user_id),
        )
        lore = await self._fetchall(
            f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.guild_id = ? AND f.author_id = ? "
            "ORDER BY f.said_at, f.id",
            (guild_id, user_id),
        )
        return [fact_from_row(r) for r in about], [fact_from_row(r) for r in lore]

    async def review_facts(
        self, guild_id: str, *, subject: str | None = None, archived: bool = False,
        limit: int = 100, before_id: int | None = None,
    ) -> list[Fact]:  # fmt: skip
        """The guild's facts for moderators, newest first (``archived``: those too)."""
        where = ["f.guild_id = ?"]
        params: list[object] = [guild_id]
        if subject is not None:
            where.append("f.subject = ?")
            params.append(subject)
        if not archived:
            where.append("f.is_active = 1")
        if before_id is not None:
            where.append("f.id < ?")
            params.append(before_id)
        rows = await self._fetchall(
            f"SELECT {FACT_COLS} FROM memory_facts f WHERE {' AND '.join(where)} "
            "ORDER BY f.id DESC LIMIT ?",
            (*params, limit),
        )
        return [fact_from_row(r) for r in rows]

    async def edit_fact(
        self, guild_id: str, fact_id: int, *, text: str | None = None,
        fact_type: str | None = None, active: bool | None = None,
    ) -> Fact | None:  # fmt: skip
        """A moderator's change to one fact of the guild (its vectors go when its text does:
        it is embedded again); None when the guild has no such fact. ``ValueError`` when the
        new text is another fact of the same subject already."""
        updated = await self._call(
            fsql.edit_fact, guild_id, fact_id, text, fact_type, active, utc_iso()
        )
        if updated:
            self.vector_version += 1
        found = await self.facts_by_ids(guild_id, [fact_id], archived=True)
        return found[0] if found else None

    async def delete_fact(self, guild_id: str, fact_id: int) -> bool:
        """Delete one fact of the guild (its vectors and full-text row with it)."""
        deleted = await self._call(fsql.delete_fact, guild_id, fact_id)
        if deleted:
            self.vector_version += 1
        return deleted

    async def snapshot_facts(self, guild_id: str, limit: int) -> list[Fact]:
        """The guild's ``limit`` most recently updated active facts (for MEMORY.md), in
        ``active_facts`` order."""
        rows = await self._fetchall(
            f"SELECT {FACT_COLS} FROM (SELECT * FROM memory_facts WHERE guild_id = ? "
            "AND is_active = 1 ORDER BY updated_at DESC, id DESC LIMIT ?) f "
            "ORDER BY f.subject, f.confidence DESC, f.id",
            (guild_id, limit),
        )
        return [fact_from_row(r) for r in rows]

    async def facts_of(self, guild_id: str, subjects: Sequence[str]) -> list[Fact]:
        """Every active fact of the guild about ``subjects``."""
        found: list[Fact] = []
        for chunk in sql.chunks(list(dict.fromkeys(subjects))):
            rows = await self._fetchall(
                f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.guild_id = ? AND f.is_active = 1 "
                f"AND f.subject IN ({sql.marks(chunk)})",
                (guild_id, *chunk),
            )
            found += [fact_from_row(r) for r in rows]
        return found

    async def facts_by_ids(
        self, guild_id: str, fact_ids: Sequence[int], *, archived: bool = False
    ) -> list[Fact]:
        """Active facts of the guild among ``fact_ids`` (``archived``: those too)."""
        found: list[Fact] = []
        active = "" if archived else " AND +f.is_active = 1"
        for chunk in sql.chunks(list(fact_ids)):
            rows = await self._fetchall(
                # "+" keeps SQLite from scanning a guild index: the ids are the way in.
                f"SELECT {FACT_COLS} FROM memory_facts f WHERE f.id IN ({sql.marks(chunk)}) "
                f"AND +f.guild_id = ?{active}",
                (*chunk, guild_id),
            )
            found += [fact_from_row(r) for r in rows]
        return found

    async def count_active_facts(self, guild_id: str) -> int:
        row = await self._fetchone(
            "SELECT count(*) FROM memory_facts WHERE guild_id = ? AND is_active = 1", (guild_id,)
        )
        return int(row[0])

    async def count_subjects(self, guild_id: str) -> int:
        """Members (and lore) with active facts in the guild."""
        row = await self._fetchone(
            "SELECT count(DISTINCT subject) FROM memory_facts WHERE guild_id = ? AND is_active = 1",
            (guild_id,),
        )
        return int(row[0])

    async def remember_line(
        self,
        guild_id: str,
        line: str,
        *,
        channel_id: str = "",
        source_message_id: str = "",
        said_at: str | None = None,
        author_id: str = "",
    ) -> CandidateFact:
        """Store ``line`` as guild lore (DESIGN "Lore"); return the fact as stored.

        ``said_at`` (ISO 8601) is when the line was said: now when not given; ``author_id``
        who asked to remember it (forgetting them forgets it). Raises
        ``InvalidMessageError`` for an empty, instruction-like or secret line, ``ValueError``
        for a ``said_at`` that is no timestamp.
        """
        fact = lore_fact(line, source_message_id=source_message_id)
        origin = Origin(guild_id, channel_id, canonical_time(said_at) if said_at else "")
        await self._call(
            facts_sql.store_lore,
            origin,
            fact,
            author_id,
            author_id or SYSTEM,
            utc_iso(),
            self.lifecycle,
        )
        self.vector_version += 1
        return fact

    async def settle_facts(
        self, guild_id: str, progress: Callable[[int], None] | None = None
    ) -> dict[str, int]:
        """Apply the lifecycle rules to the guild's facts stored before them (merge
        paraphrases, supersede contradictions, cap by value), a subject at a time; how many
        facts were ``merged``, ``superseded`` and ``archived``. ``progress`` is told each
        subject done."""
        rows = await self._fetchall(
            "SELECT DISTINCT subject FROM memory_facts WHERE guild_id = ? AND is_active = 1",
            (guild_id,),
        )
        counts = {"merged": 0, "superseded": 0, "archived": 0}
        for (subject,) in rows:
            events = await self._call(settle_subject, guild_id, subject, utc_iso(), self.lifecycle)
            tally_settled(counts, events)
            if events:
                self.vector_version += 1
            if progress is not None:
                progress(1)
        return counts

    async def count_waiting(self, guild_id: str | None = None) -> int:
        """Subjects (of ``guild_id``, else of every guild) whose facts wait to be judged
        (:meth:`settle_waiting`)."""
        if not self.waiting_to_settle:
            return 0
        if guild_id is None:
            row = await self._fetchone("SELECT count(*) FROM subjects_to_settle")
        else:
            row = await self._fetchone(
                "SELECT count(*) FROM subjects_to_settle WHERE guild_id = ?", (guild_id,)
            )
        return int(row[0])

    async def settle_waiting(self, limit: int) -> list[tuple[str, str]]:
        """Settle up to ``limit`` of the subjects whose facts an import left to judge (see
        ``facts_sql.finish_jobs``), one transaction each; return them. Nothing without a
        judge (they wait for one)."""
        if not self.waiting_to_settle or self.lifecycle.judge is None:
            return []
        rows = await self._fetchall(
            "SELECT guild_id, subject FROM subjects_to_settle LIMIT ?", (max(1, limit),)
        )
        if not rows:
            self.waiting_to_settle = False
        for guild_id, subject in rows:
            await self._call(settle_subject, guild_id, subject, utc_iso(), self.lifecycle)
        if rows:
            self.vector_version += 1
        return [(str(guild_id), str(subject)) for guild_id, subject in rows]

    async def delete_message(self, guild_id: str, message_id: str) -> fsql.DeleteOutcome:
        """A message deleted on Discord: remove it and every fact sourced from it (their
        vectors, full-text rows and its job go with them). Unknown message: nothing."""
        outcome = await self._call(fsql.delete_message, guild_id, message_id)
        self._forgot(outcome.facts, bool(outcome.messages), members=False)
        if outcome.messages or outcome.facts:
            log.info(
                "deleted message %s of guild %s and %d fact(s)", message_id, guild_id, outcome.facts
            )
        return outcome

    async def edit_message(
        self, guild_id: str, message_id: str, content: str
    ) -> fsql.EditOutcome | None:
        """A message edited on Discord: store its new text, delete the facts grounded in the
        old one and set its job pending (attempts reset) so it is extracted again.

        None (falsy) for a message the guild does not have. With a running queue use
        ``IngestQueue.edit_message``: it also keeps an extraction of the old text that is
        under way from closing the job."""
        outcome = await self._call(fsql.edit_message, guild_id, message_id, content, utc_iso())
        if outcome is not None and outcome.changed:
            self._forgot(outcome.facts, True, members=False)
        return outcome

    async def forget_member(self, guild_id: str, user_id: str) -> fsql.ForgetOutcome:
        """``/memory forget`` and ``purge-user``: remove the member's messages (every
        source), the facts about them or sourced from their messages, their vectors, their
        members row and their name in other messages' pending mentions. This guild only."""
        outcome = await self._call(fsql.forget_member, guild_id, user_id)
        if not await self._call(fsql.wipe_traces, sorted(FTS_TABLES)):
            log.warning(
                "forgot member %s of guild %s, but another process reading the database kept "
                "the write-ahead log from being emptied: their words leave it at its next "
                "checkpoint",
                user_id,
                guild_id,
            )
        self._members_written.pop((guild_id, user_id), None)
        self._forgot(outcome.facts, bool(outcome.messages), members=bool(outcome.members))
        log.info(
            "forgot member %s of guild %s: %d message(s), %d fact(s)",
            user_id,
            guild_id,
            len(outcome.messages),
            outcome.facts,
        )
        return outcome

    async def messages_by_author(self, guild_id: str, user_id: str) -> list[StoredMessage]:
        """The member's stored messages in the guild, oldest first (scans the guild)."""
        return await self._call(fsql.messages_by_author, guild_id, user_id)

    def _forgot(self, facts: int, messages: bool, *, members: bool) -> None:
        """Move the version counters that caches of what changed compare."""
        if facts:
            self.vector_version += 1
        if messages:
            self.index_version += 1
        if members:
            self.members_version += 1
