"""The work of ``memorybot migrate``: the move run under the data directory's lock (no
memorybot writes ``memory.db`` meanwhile), a progress bar per table."""

from __future__ import annotations

from rich.progress import Progress, TaskID

from bot.commands_ingest import progress_bar
from memory.settings import Settings
from memory.storage.lock import DataDirLock
from memory.storage.postgres.moving import Mover, Tally
from memory.storage.postgres.store import PostgresStore


async def move_to_postgres(settings: Settings, url: str, *, quiet: bool = False) -> Tally:
    """Copy ``settings``' SQLite store into the PostgreSQL database at ``url``."""
    with DataDirLock(settings.data_dir), progress_bar(quiet, counted=True) as progress:
        bars = _Bars(progress)
        target = await PostgresStore.open(url, pool_size=settings.database_pool_size)
        try:
            return await Mover(settings.db_path, target, bars.update).run()
        finally:
            await target.close()


class _Bars:
    """One bar per table, made as its copy starts."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.tasks: dict[str, TaskID] = {}

    def update(self, what: str, done: int, total: int) -> None:
        task = self.tasks.get(what)
        if task is None:
            task = self.tasks[what] = self.progress.add_task(what, total=total)
        self.progress.update(task, completed=done, total=total)
