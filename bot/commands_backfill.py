"""``memorybot backfill``: re-run work that failed or was dropped, with a progress bar."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from memory.errors import MemorybotError
from memory.runtime import extractor_choice, open_memory
from memory.settings import Settings

POLL_SECONDS = 0.2


def _progress(quiet: bool) -> Progress:
    """A bar on stderr when it is a terminal (and not ``quiet``)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet or not sys.stderr.isatty(),
    )


@dataclass(slots=True)
class BackfillSummary:
    guilds: int = 0
    requeued: int = 0
    failed: int = 0  # jobs that failed again


async def backfill_extraction(
    settings: Settings,
    *,
    guild_id: str | None = None,
    everything: bool = False,
    quiet: bool = False,
) -> BackfillSummary:
    """Set failed and dropped jobs (``everything``: all jobs) pending again and process them
    with the configured extractor; return what was re-run and how many failed again."""
    if extractor_choice(settings) == "none":
        raise MemorybotError(
            "extraction is off (MEMORYBOT_EXTRACTOR=none): nothing would be extracted"
        )
    summary = BackfillSummary()
    async with open_memory(settings) as memory:
        guilds = [guild_id] if guild_id else await memory.guild_ids()
        summary.guilds = len(guilds)
        statuses = ("failed", "dropped", "done") if everything else ("failed", "dropped")
        for guild in guilds:
            summary.requeued += await memory.requeue(guild, statuses)
        progress = _progress(quiet)
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
        progress = _progress(quiet)
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
