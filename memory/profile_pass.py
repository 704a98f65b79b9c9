"""When members' profile paragraphs are written (``memory.profile_writer``): a pass over every
guild every ``MEMORYBOT_PROFILE_INTERVAL_HOURS`` while the bot runs (the first soon after
start), and one pass now (``memorybot profiles``). Only with ``MEMORYBOT_LLM_MODEL`` set:
without it nothing is built and no request is ever made.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from memory.errors import ConfigError
from memory.tasks import stop_task

if TYPE_CHECKING:
    from memory.profile_writer import ProfileWriter
    from memory.settings import Settings
    from memory.storage.protocol import Storage

log = logging.getLogger(__name__)

FIRST_PASS_DELAY = 60.0
"""Seconds after start before the first periodic pass (the interval, when shorter)."""
NO_MODEL = "MEMORYBOT_LLM_MODEL is not set: writing members' profiles needs a model"


@dataclass(slots=True)
class ProfileTally:
    """What a pass did: paragraphs ``written``, members whose facts were ``unchanged``,
    answers ``failed`` (a failed request, or an answer refused), members ``skipped`` (too
    few facts)."""

    guilds: int = 0
    written: int = 0
    unchanged: int = 0
    failed: int = 0
    skipped: int = 0

    def add(self, other: ProfileTally) -> None:
        for key, value in asdict(other).items():
            setattr(self, key, getattr(self, key) + value)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class ProfileSchedule:
    """Runs ``run`` (a pass) ``first_delay`` seconds after ``start`` (at most ``every``), then
    every ``every`` seconds until ``close``; a pass that fails is one warning line."""

    def __init__(
        self, run: Callable[[], Awaitable[object]], every: float,
        first_delay: float = FIRST_PASS_DELAY,
    ) -> None:  # fmt: skip
        self.run = run
        self.every = every
        self.first_delay = min(first_delay, every)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.every > 0 and self._task is None:
            self._task = asyncio.create_task(self._loop(), name="memorybot-profiles")

    async def close(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def _loop(self) -> None:
        await asyncio.sleep(self.first_delay)
        while True:
            try:
                await self.run()
            except Exception as exc:  # a busy or full disk: try again next time
                log.warning("the profile pass failed: %s", " ".join(str(exc).split()))
            await asyncio.sleep(self.every)


class MemberProfiles:
    """The profile writer as memory runs it: built only with a model configured, its passes
    scheduled by ``start`` (when ``MEMORYBOT_PROFILE_INTERVAL_HOURS`` is over 0), closed by
    ``close``. ``on_written`` is told each guild whose paragraphs changed."""

    def __init__(
        self, settings: Settings, store: Storage, on_written: Callable[[str], None]
    ) -> None:
        self.writer: ProfileWriter | None = None
        if settings.llm_model:
            from memory.profile_writer import ProfileWriter  # imports openai: only when used

            self.writer = ProfileWriter.from_settings(settings, store, on_written)
        every = settings.profile_interval_hours * 3600 if self.writer is not None else 0.0
        self.schedule = ProfileSchedule(self.write, every)

    async def write(
        self, guild_id: str | None = None, progress: Callable[[int], None] | None = None
    ) -> ProfileTally:
        """A pass now, over one guild or every guild; ``ConfigError`` without a model."""
        if self.writer is None:
            raise ConfigError(NO_MODEL)
        if guild_id is not None:
            return await self.writer.write_guild(guild_id, progress)
        return await self.writer.write_all(progress)

    def start(self) -> None:
        self.schedule.start()

    async def close(self) -> None:
        await self.schedule.close()
        if self.writer is not None:
            await self.writer.aclose()
