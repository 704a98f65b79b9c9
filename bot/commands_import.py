"""``memorybot import``: exports → ingest queue, with a progress bar on a terminal."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)

from memory.errors import ExportError
from memory.imports.importer import ImportSummary, find_export_files
from memory.runtime import Memory, open_memory
from memory.settings import Settings

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


def _progress(quiet: bool) -> Progress:
    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet or not sys.stderr.isatty(),
        transient=False,
    )


async def run_import(
    settings: Settings, paths: list[Path], *, defer: bool = False, quiet: bool = False
) -> tuple[ImportSummary, list[str]]:
    """Import every export under ``paths``; return the summary and one line per failed file.

    Unless ``defer``, returns once every queued message is processed and journaled.
    """
    files = find_export_files(paths)
    if not files:
        raise ExportError("no .json export found under " + ", ".join(map(str, paths)))
    async with open_memory(settings) as memory:
        with _progress(quiet) as progress, fewer_collections():
            tasks: dict[Path, TaskID] = {}

            def on_progress(path: Path, done: int, total: int) -> None:
                if path not in tasks:
                    tasks[path] = progress.add_task(f"import {path.name}", total=total)
                progress.update(tasks[path], completed=done)

            importer = memory.importer(on_progress)
            errors = await importer.import_files(files)
            if not defer:
                await _wait_processed(memory, progress)
        if not defer:
            # No final merge of the full-text index: FTS5 merges its segments as it goes
            # (searches after a 100k import were within 5% of a fully merged index), and a
            # full merge would rewrite the whole index, every guild's, after each import.
            await memory.settle()  # facts embedded, journals written, messages indexed
    return importer.summary, errors


async def _wait_processed(memory: Memory, progress: Progress) -> None:
    start = memory.queue_depth
    task = progress.add_task(f"process {start} queued messages", total=max(start, 1))
    join = asyncio.ensure_future(memory.join())
    while not join.done():
        progress.update(task, completed=max(0, start - memory.queue_depth))
        await asyncio.wait({join}, timeout=0.2)
    join.result()
    progress.update(task, completed=max(start, 1))
