"""``import``: DiscordChatExporter exports → the ingest queue, idempotent and counted.

Imported messages take the queue's bulk path (source ``import``), which waits for room
instead of dropping. One batch is stored on the database thread while the next is parsed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory.audit import CLI, MemoryEvent
from memory.errors import ExportError, NotAnExportError
from memory.imports.format import ExportHeader, Member, ParsedBatch, read_header
from memory.imports.reader import read_batches
from memory.ingest import BulkOutcome, IngestQueue
from memory.models import Author, IngestItem

log = logging.getLogger(__name__)

IMPORT_BATCH = 300

ProgressCallback = Callable[[Path, int, int], None]


@dataclass(slots=True)
class ImportSummary:
    """Counts of one import run; ``skipped`` is broken down by reason; ``extracted`` and
    ``extraction_failed``: messages whose extraction ran, and failed, while it waited for
    the queue (:meth:`ExportImporter.count_extractions`)."""

    files: int = 0
    not_exports: list[str] = field(default_factory=list)
    read: int = 0
    new: int = 0
    queued: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    guilds: set[str] = field(default_factory=set)
    repaired: int = 0  # stored with lone surrogates replaced or cut to Discord's length
    notes: list[str] = field(default_factory=list)  # messages skipped or repaired, named
    extracted: int = 0
    extraction_failed: int = 0

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def skip(self, reason: str, count: int = 1) -> None:
        if count:
            self.skipped[reason] = self.skipped.get(reason, 0) + count

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "notExports": list(self.not_exports),
            "read": self.read,
            "new": self.new,
            "skipped": self.skipped_total,
            "skippedByReason": dict(sorted(self.skipped.items())),
            "queued": self.queued,
            "repaired": self.repaired,
            "guilds": sorted(self.guilds),
            "notes": list(self.notes),
            "extracted": self.extracted,
            "extractionFailed": self.extraction_failed,
        }


def find_export_files(paths: Iterable[Path]) -> list[tuple[Path, bool]]:
    """``(file, named)`` pairs: each path given as a file (named), every ``*.json`` in a folder."""
    found: list[tuple[Path, bool]] = []
    for path in paths:
        if path.is_dir():
            found.extend((p, False) for p in sorted(path.rglob("*.json")) if p.is_file())
        elif path.is_file():
            found.append((path, True))
        else:
            raise ExportError(f"{path}: no such file or folder")
    return found


class _ItemFactory:
    """Turns parsed rows of one export into ``IngestItem``s, sharing Author objects."""

    def __init__(self, header: ExportHeader) -> None:
        self.header = header
        self.trace = {"source": "import", "file": Path(header.path).name}
        self.authors: dict[tuple[str, str, str], Author] = {}

    def items(self, batch: ParsedBatch) -> list[IngestItem]:
        authors = self.authors
        guild_id, channel_id = self.header.guild_id, self.header.channel_id
        out = []
        for message_id, author_id, name, username, content, created_at, mentioned in batch.rows:
            author = authors.get((author_id, name, username))
            if author is None:
                author = authors[(author_id, name, username)] = Author(author_id, name, username)
            trace: dict[str, Any] = self.trace
            if mentioned:  # who the message mentions travels with its job, for extraction
                names = batch.mentions
                trace = {**trace, "mentions": [[uid, names[uid][1]] for uid in mentioned]}
            out.append(IngestItem(guild_id, channel_id, message_id, author, content, created_at,
                                  "import", trace))  # fmt: skip
        return out


class ExportImporter:
    """Feeds exports through ``queue`` in batches and counts what happened."""

    def __init__(
        self,
        queue: IngestQueue,
        *,
        batch_size: int = IMPORT_BATCH,
        on_progress: ProgressCallback | None = None,
        use_child: bool | None = None,
        actor: str = CLI,
    ) -> None:
        self.queue = queue
        self.actor = actor  # who imports, for the audit log
        self.store = queue.store
        # A batch never exceeds the room bulk submits have in the queue.
        self.batch_size = max(1, min(batch_size, queue.bulk_room))
        self.on_progress = on_progress
        self.use_child = use_child
        self.summary = ImportSummary()
        tally = queue.extractions
        self._tally_before = (tally.extracted, tally.failed)

    def count_extractions(self) -> None:
        """Once the queue has processed what was imported: the messages extracted, and
        those whose extraction failed, since this importer was made, into the summary."""
        tally, (extracted, failed) = self.queue.extractions, self._tally_before
        self.summary.extracted = tally.extracted - extracted
        self.summary.extraction_failed = tally.failed - failed

    async def import_paths(self, paths: Sequence[Path]) -> list[str]:
        """Import every export under ``paths``; return one line per file that failed."""
        return await self.import_files(find_export_files(paths))

    async def import_files(self, files: Sequence[tuple[Path, bool]]) -> list[str]:
        """Import ``(file, named)`` pairs of ``find_export_files``; one line per failed file.

        A JSON file found in a folder that is not an export is noted and skipped; a file
        named on purpose that is not an export is an error.
        """
        errors: list[str] = []
        async with self.queue.bulk():
            for path, named in files:
                try:
                    await self.import_file(path)
                except NotAnExportError as exc:
                    if named:
                        errors.append(str(exc))
                    else:
                        self.summary.not_exports.append(str(path))
                except ExportError as exc:
                    errors.append(str(exc))
        return errors

    async def import_file(self, path: Path) -> None:
        """Import one export; on a fault, what was read before it is kept, then it raises."""
        header = read_header(path)
        total = path.stat().st_size  # noqa: ASYNC240 - one stat call
        factory = _ItemFactory(header)
        in_flight: asyncio.Task[BulkOutcome] | None = None
        first = True
        before = (self.summary.read, self.summary.new, dict(self.summary.skipped))
        try:
            async for batch in read_batches(path, self.batch_size, use_child=self.use_child):
                if first:  # it is an export: its guild is known from now on
                    first = False
                    await self.store.record_guild(header.guild_id, header.guild_name)
                    self.summary.files += 1
                    self.summary.guilds.add(header.guild_id)
                self.summary.read += batch.read
                self.summary.repaired += batch.repaired
                self.summary.notes += batch.notes
                for reason, count in batch.skipped.items():
                    self.summary.skip(reason, count)
                items = factory.items(batch)
                await self._settle(in_flight)
                await self._record_mentions(header.guild_id, batch.mentions, items)
                in_flight = asyncio.ensure_future(self.queue.submit_many(items)) if items else None
                if self.on_progress is not None:
                    self.on_progress(path, batch.offset, total)
        finally:
            await self._settle(in_flight)  # whatever was read before a fault is kept
            if not first:
                await self._audit(header, path, before)
        if self.on_progress is not None:
            self.on_progress(path, total, total)

    async def _audit(
        self, header: ExportHeader, path: Path, before: tuple[int, int, dict[str, int]]
    ) -> None:
        """The guild's ``import`` event: what this file added (counts, no message text)."""
        read, new, skipped = before
        now = self.summary
        reasons = {k: v - skipped.get(k, 0) for k, v in now.skipped.items()}
        shown = ", ".join(f"{v} {k}" for k, v in sorted(reasons.items()) if v)
        detail = f"{path.name}: read {now.read - read}, stored {now.new - new}"
        detail += f", skipped {shown}" if shown else ""
        event = MemoryEvent(header.guild_id, "import", self.actor, header.channel_id, "", detail)
        try:
            await self.store.record_events([event])
        except Exception as exc:  # the import's own outcome (or fault) is what matters
            log.warning("the import of %s was not recorded in the audit log: %s", path, exc)

    async def _settle(self, in_flight: asyncio.Task[BulkOutcome] | None) -> None:
        if in_flight is not None:
            self._count(await in_flight)

    async def _record_mentions(
        self, guild_id: str, mentions: dict[str, Member], items: list[IngestItem]
    ) -> None:
        """Names of mentioned members (authors are recorded with their messages)."""
        authors = {item.author.id for item in items}
        others = [member for uid, member in mentions.items() if uid not in authors]
        if others:
            await self.store.record_members(guild_id, others)

    def _count(self, outcome: BulkOutcome) -> None:
        self.summary.new += outcome.new
        self.summary.queued += outcome.new + outcome.pending  # pending: resumed from before
        self.summary.skip("already stored", outcome.stored_before + outcome.pending)
        self.summary.skip("empty", outcome.empty)
        for reason, count in outcome.refused.items():
            self.summary.skip(reason, count)
