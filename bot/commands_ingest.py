"""``memorybot import`` and ``backfill``: the commands that feed the ingest queue and wait
for it to finish, with a progress bar on a terminal."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)

from memory.errors import ExportError, MemorybotError
from memory.extraction.choice import extractor_choice
from memory.imports.importer import ImportSummary, find_export_files
from memory.runtime import Memory, open_memory, reading_memory
from memory.settings import Settings


def progress_bar(quiet: bool, *, counted: bool) -> Progress:
    """A bar on stderr when it is a terminal (and not ``quiet``); ``counted``: "n/total"
    instead of a percentage."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn() if counted else TaskProgressColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet or not sys.stderr.isatty(),
    )


# --- import ----------------------------------------------------------------------------------


# An import makes a few short-lived objects per message. With the collector's default
# threshold (700 new objects) its youngest generation runs every couple of batches and
# traces the batches still in flight; at 10,000 most objects are gone before it runs
# (GC time in a 100k-message import: 0.3 s -> 0.03 s).
IMPORT_GC_THRESHOLD = 10_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the collector's youngest-generation threshold while an import runs."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], IMPORT_GC_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


async def run_import(
    settings: Settings, paths: list[Path], *, defer: bool = False, quiet: bool = False
) -> tuple[ImportSummary, list[str]]:
    """Import every export under ``paths``; return the summary and one line per failed file.

    Unless ``defer``, returns once every queued message is processed and journaled, with
    the summary counting the extractions that ran and failed.
    """
    files = find_export_files(paths)
    if not files:
        raise ExportError("no .json export found under " + ", ".join(map(str, paths)))
    async with open_memory(settings) as memory:
        with progress_bar(quiet, counted=False) as progress, fewer_collections():
            tasks: dict[Path, TaskID] = {}

            def on_progress(path: Path, done: int, total: int) -> None:
                if path not in tasks:
                    tasks[path] = progress.add_task(f"import {path.name}", total=total)
                progress.update(tasks[path], completed=done)

            importer = memory.importer(on_progress)
            errors = await importer.import_files(files)
            if not defer:
                await _wait_processed(memory, progress)
                importer.count_extractions()
        if not defer:
            # No final merge of the full-text index: FTS5 merges its segments as it goes
            # (searches after a 100k import were within 5% of a fully merged index), and a
            # full merge would rewrite the whole index, every guild's, after each import.
            await memory.settle()  # facts embedded, journals written, messages indexed
    return importer.summary, errors


async def _wait_processed(memory: Memory, progress: Progress) -> None:
    """Progress bars while the queue is emptied, then while members' facts are judged."""
    start = memory.queue_depth
    task = progress.add_task(f"process {start} queued messages", total=max(start, 1))
    join = asyncio.ensure_future(memory.join())
    judging: tuple[TaskID, int] | None = None
    while not join.done():
        depth = memory.queue_depth
        progress.update(task, completed=max(0, start - depth))
        left = await memory.members_to_judge() if depth == 0 else None
        if left and judging is None:
            judging = (progress.add_task(f"judge the facts of {left} member(s)", total=left), left)
        if judging is not None and left is not None:
            progress.update(judging[0], completed=judging[1] - left)
        await asyncio.wait({join}, timeout=0.2)
    join.result()
    progress.update(task, completed=max(start, 1))
    if judging is not None:
        progress.update(judging[0], completed=judging[1])


# --- backfill --------------------------------------------------------------------------------

POLL_SECONDS = 0.2


@dataclass(slots=True)
class BackfillSummary:
    guilds: int = 0
    requeued: int = 0  # jobs (facts, for embeddings) this backfill ran
    failed: int = 0  # jobs that failed again


async def _left_pending(settings: Settings, guild_id: str | None) -> int:
    """Jobs of the guild (else of every guild) an earlier run left pending (a crash, an
    import with --defer): the queue resumes them as it starts, so the backfill runs them."""
    if settings.postgres_url is None and not settings.db_path.is_file():
        return 0
    async with reading_memory(settings) as memory:
        guilds = [guild_id] if guild_id else await memory.guild_ids()
        return sum([await memory.pending_jobs(g) for g in guilds])


async def backfill_extraction(
    settings: Settings,
    *,
    guild_id: str | None = None,
    everything: bool = False,
    quiet: bool = False,
) -> BackfillSummary:
    """Set failed and dropped jobs (``everything``: all jobs) pending again and process them,
    and the jobs left pending before, with the configured extractor; return how many jobs it
    ran and how many failed again."""
    if extractor_choice(settings) == "none":
        raise MemorybotError(
            "extraction is off (MEMORYBOT_EXTRACTOR=none): nothing would be extracted"
        )
    summary = BackfillSummary(requeued=await _left_pending(settings, guild_id))
    async with open_memory(settings) as memory:
        guilds = [guild_id] if guild_id else await memory.guild_ids()
        summary.guilds = len(guilds)
        statuses = ("failed", "dropped", "done") if everything else ("failed", "dropped")
        for guild in guilds:
            summary.requeued += await memory.requeue(guild, statuses)
        progress = progress_bar(quiet, counted=True)
        with progress:
            task = progress.add_task("re-extract", total=max(summary.requeued, 1))
            join = asyncio.ensure_future(memory.join())
            while not join.done():
                waiting = sum([await memory.pending_jobs(g) for g in guilds])
                progress.update(task, completed=max(0, summary.requeued - waiting))
                await asyncio.wait({join}, timeout=POLL_SECONDS)
            join.result()
            progress.update(task, completed=max(summary.requeued, 1))
        for guild in guilds:
            summary.failed += (await memory.stats(guild)).failed_jobs
        await memory.refresh_all()
    return summary


async def backfill_lifecycle(
    settings: Settings, *, guild_id: str | None = None, quiet: bool = False
) -> dict[str, int]:
    """Apply the fact lifecycle to facts stored before it, guild by guild, member by member
    (a progress bar counts members); how many facts were merged, superseded, archived."""
    totals = {"guilds": 0, "merged": 0, "superseded": 0, "archived": 0}
    judged = settings.model_copy(update={"fact_lifecycle": True})  # asked for: on
    async with open_memory(judged, start_queue=False) as memory:
        guilds = [guild_id] if guild_id else await memory.guild_ids()
        totals["guilds"] = len(guilds)
        subjects = {g: await memory.count_subjects(g) for g in guilds}
        progress = progress_bar(quiet, counted=True)
        with progress:
            task = progress.add_task("lifecycle", total=max(sum(subjects.values()), 1))
            for guild in guilds:
                counts = await memory.settle_facts(guild, lambda n: progress.advance(task, n))
                for key, value in counts.items():
                    totals[key] += value
        await memory.flush_journals()
    return totals


async def backfill_embeddings(
    settings: Settings, *, guild_id: str | None = None, quiet: bool = False
) -> BackfillSummary:
    """Embed every active fact that has no vector of the configured embedding model (after
    switching models, or when embedding failed before); ``requeued`` counts the facts."""
    summary = BackfillSummary()
    async with open_memory(settings, start_queue=False) as memory:
        guilds = [guild_id] if guild_id else await memory.guild_ids()
        summary.guilds = len(guilds)
        model = memory.embedding_model
        missing = {g: await memory.missing_vectors(g) for g in guilds}
        progress = progress_bar(quiet, counted=True)
        with progress:
            task = progress.add_task(f"embed ({model})", total=max(sum(missing.values()), 1))
            for guild in guilds:
                if missing[guild]:
                    summary.requeued += await memory.embed_missing(
                        guild, lambda n: progress.advance(task, n)
                    )
        for guild in guilds:
            summary.failed += await memory.missing_vectors(guild)
    return summary
