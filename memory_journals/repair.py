"""Finding the daily-log lines a guild's logs lack, by the messages table (not the journal
cursor): every stored message has exactly one line in its day's log. ``memorybot
refresh-journals`` writes the ones missing, after a fault that lost them or a log file
deleted by hand."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from memory.models import StoredMessage
from memory.storage.protocol import Storage
from memory_journals.daily import (
    DailyLogWriter,
    add_lines,
    drop_torn_line,
    format_line,
    message_day,
    read_lines,
)

log = logging.getLogger(__name__)

PAGE = 5000  # stored messages compared at a time


class MissingLines:
    """Walks the stored messages a page at a time, in row order, and appends to each log the
    lines it lacks. A log is read again for each page that has messages of it; ``matched``
    counts (by a hash of the line) the lines of that log earlier pages found, so two messages
    that make the same line need two lines."""

    def __init__(self, store: Storage, writer: DailyLogWriter) -> None:
        self.store = store
        self.writer = writer
        self._matched: dict[Path, Counter[int]] = {}

    async def write(self, guild_id: str | None = None) -> int:
        """Append every missing line (of ``guild_id``'s messages, else every guild's);
        return how many."""
        written, after = 0, 0
        while page := await self.store.messages_after(after, PAGE, guild_id):
            after = page[-1].row_id
            written += await asyncio.to_thread(self.write_page, page)
        if written:
            log.info("wrote %d missing daily-log line(s)", written)
        return written

    def write_page(self, messages: Sequence[StoredMessage]) -> int:
        by_file: dict[Path, list[str]] = {}
        for message in messages:
            path = self.writer.path_for(message.guild_id, message_day(message))
            by_file.setdefault(path, []).append(format_line(message))
        written = 0
        for path, lines in by_file.items():
            if path.exists():
                drop_torn_line(path)
            missing = self._missing(path, lines)
            add_lines(path, missing)
            written += len(missing)
        return written

    def _missing(self, path: Path, lines: list[str]) -> list[str]:
        matched = self._matched.setdefault(path, Counter())
        present = Counter(map(hash, read_lines(path))) if path.exists() else Counter[int]()
        missing = []
        for line in lines:
            key = hash(line)
            if present[key] <= matched[key]:  # every copy there is another message's
                missing.append(line)
            matched[key] += 1
        return missing
