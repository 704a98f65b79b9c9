"""Stored messages: reading them by id, channel and neighbourhood, the journal cursor that
makes them searchable, and guild-scoped full-text windows."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

from memory.ids import is_discord_id
from memory.models import StoredMessage
from memory.storage import ingest_sql as sql
from memory.storage.base import MESSAGE_COLS, Database, message_from_row
from memory.storage.windows import Corpus, Window

#: Each corpus' FTS5 table, and the columns its words are searched in.
FTS_CORPORA: dict[str, tuple[str, str]] = {
    "messages": ("messages_fts", "content"),
    "facts": ("memory_facts_fts", "{fact evidence_text}"),
}
FTS_TABLES = frozenset(table for table, _ in FTS_CORPORA.values())


def _fts_windows(
    conn: Any, table: str, guild_id: str, queries: Sequence[tuple[str | None, int, bool]]
) -> list[list[int]]:
    scope = f'guild_id:"{guild_id}"'
    out = []
    for expression, limit, ascending in queries:
        match = f"{scope} AND ({expression})" if expression else scope
        rows = conn.execute(
            f"SELECT rowid FROM {table} WHERE {table} MATCH ? "
            f"ORDER BY rowid {'ASC' if ascending else 'DESC'} LIMIT ?",
            (match, limit),
        )
        out.append([r[0] for r in rows])
    return out


def _quote(word: str) -> str:
    """One FTS5 string: double quotes inside are doubled."""
    return '"' + word.replace('"', '""') + '"'


def _any(terms: list[str]) -> str:
    return terms[0] if len(terms) == 1 else "(" + " OR ".join(terms) + ")"


def fts5_expression(window: Window, text_columns: str) -> str | None:
    """``window``'s words and narrowing as an FTS5 expression (None: every document). Words
    are searched in ``text_columns`` only when one looks like an id (a long number): the
    column filter slows FTS5 down, and words never occur in the id columns."""
    expression = None
    if window.groups is not None:
        words = _any(["(" + " OR ".join(map(_quote, sorted(g))) + ")" for g in window.groups])
        ids = any(is_discord_id(word) for group in window.groups for word in group)
        expression = f"{text_columns}:{words}" if ids else words
    if window.narrow is not None:
        column = window.narrow.column
        narrow = _any([f"{column}:{_quote(value)}" for value in window.narrow.values])
        expression = f"{narrow} AND {expression}" if expression else narrow
    return expression


def _neighbours(
    conn: Any, guild_id: str, messages: Sequence[StoredMessage], before: int, after: int
) -> list[tuple[list[StoredMessage], list[StoredMessage]]]:
    out = []
    for message in messages:
        key = (guild_id, message.channel_id, message.created_at, message.row_id)
        earlier = conn.execute(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.channel_id = ? "
            "AND (m.created_at, m.id) < (?, ?) ORDER BY m.created_at DESC, m.id DESC LIMIT ?",
            (*key, before),
        ).fetchall()
        later = conn.execute(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.channel_id = ? "
            "AND (m.created_at, m.id) > (?, ?) ORDER BY m.created_at, m.id LIMIT ?",
            (*key, after),
        ).fetchall()
        out.append(
            ([message_from_row(r) for r in reversed(earlier)],
             [message_from_row(r) for r in later])
        )  # fmt: skip
    return out


class Messages(Database):
    """The ``messages`` table, its full-text index and the journal cursor."""

    async def get_message(self, guild_id: str, message_id: str) -> StoredMessage | None:
        row = await self._fetchone(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.message_id = ?",
            (guild_id, message_id),
        )
        return message_from_row(row) if row else None

    async def count_messages(self, guild_id: str) -> int:
        row = await self._fetchone("SELECT COUNT(*) FROM messages WHERE guild_id = ?", (guild_id,))
        return int(row[0])

    async def messages_by_rows(self, guild_id: str, row_ids: Sequence[int]) -> list[StoredMessage]:
        """The guild's messages among ``row_ids``."""
        found: list[StoredMessage] = []
        for chunk in sql.chunks(list(row_ids)):
            rows = await self._fetchall(
                f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.id IN ({sql.marks(chunk)}) "
                "AND +m.guild_id = ?",
                (*chunk, guild_id),
            )
            found += [message_from_row(r) for r in rows]
        return found

    async def recent_messages(
        self, guild_id: str, channel_id: str, limit: int, *, before: str | None = None
    ) -> list[StoredMessage]:
        """The channel's last ``limit`` messages (before the message ``before`` when given),
        oldest first."""
        where, params = "", list[object]([guild_id, channel_id])
        if before is not None:
            anchor = await self.get_message(guild_id, before)
            if anchor is not None:
                where = "AND (m.created_at, m.id) < (?, ?)"
                params += [anchor.created_at, anchor.row_id]
        rows = await self._fetchall(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.channel_id = ? "
            f"{where} ORDER BY m.created_at DESC, m.id DESC LIMIT ?",
            (*params, limit),
        )
        return [message_from_row(r) for r in reversed(rows)]

    async def neighbours(
        self, guild_id: str, messages: Sequence[StoredMessage], before: int = 1, after: int = 1
    ) -> list[tuple[list[StoredMessage], list[StoredMessage]]]:
        """For each of ``messages``, the messages just before and just after it in its
        channel, in order (one round trip for all)."""
        return await self._call(_neighbours, guild_id, list(messages), before, after)

    async def fts_windows(
        self, corpus: Corpus, guild_id: str, windows: Sequence[Window]
    ) -> list[list[int]]:
        """Row ids of the guild's messages or facts (``corpus``), one list per window
        (``memory.storage.windows``), in one round trip. FTS5 reads each window off the end
        of its terms' doclists; the guild's indexed ``guild_id`` scopes every query."""
        if corpus not in FTS_CORPORA:
            raise ValueError(f"not a full-text corpus: {corpus!r}")
        if not is_discord_id(guild_id):
            raise ValueError(f"not a guild id: {guild_id!r}")
        table, columns = FTS_CORPORA[corpus]
        queries = [(fts5_expression(w, columns), w.limit, w.ascending) for w in windows]
        return await self._call(_fts_windows, table, guild_id, queries)

    async def optimize_search(self) -> None:
        """Merge each full-text index into one segment (after a bulk import: a query then
        reads one doclist per term instead of one per segment)."""
        for table in sorted(FTS_TABLES):
            await self._fetchall(f"INSERT INTO {table} ({table}) VALUES ('optimize')")

    async def unjournaled_messages(self, limit: int) -> list[StoredMessage]:
        """Queue-internal: stored messages past the journal cursor (not yet in the daily
        logs nor the full-text index), oldest first."""
        rows = await self._fetchall(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.id > "
            "(SELECT journaled_through FROM journal_cursor) ORDER BY m.id LIMIT ?",
            (limit,),
        )
        return [message_from_row(r) for r in rows]

    async def messages_after(
        self, row_id: int, limit: int, guild_id: str | None = None
    ) -> list[StoredMessage]:
        """Up to ``limit`` stored messages past row ``row_id`` (of ``guild_id``, else of every
        guild), in row order: every message, a page at a time."""
        where, params = "m.id > ?", list[object]([row_id])
        if guild_id is not None:
            where, params = where + " AND +m.guild_id = ?", [row_id, guild_id]
        rows = await self._fetchall(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE {where} ORDER BY m.id LIMIT ?",
            (*params, limit),
        )
        return [message_from_row(r) for r in rows]

    async def journal_cursor(self) -> int:
        """Queue-internal: every message row up to this id has its daily-log line."""
        row = await self._fetchone("SELECT journaled_through FROM journal_cursor")
        return int(row[0]) if row else 0

    async def mark_journaled_through(self, row_id: int) -> None:
        """Every message up to ``row_id`` has its daily-log line: index them for search."""
        await self._call(sql.advance_journal_cursor, row_id)
        self.index_version += 1

    async def mark_journaled(self, messages: Sequence[StoredMessage]) -> None:
        """The messages (the oldest past the cursor, in row order) have their daily-log
        lines: the cursor passes them."""
        if messages:
            await self.mark_journaled_through(max(m.row_id for m in messages))

    @asynccontextmanager
    async def journal_guilds(self, guild_ids: Collection[str]) -> AsyncIterator[None]:
        """Nothing to wait for: the data directory's lock keeps other writers out."""
        yield
