"""When members' profile paragraphs are written (``memory.profile_writer``): a pass over every
guild every ``MEMORYBOT_PROFILE_INTERVAL_HOURS`` while the bot runs (the first soon after
start), and one pass now (``memorybot profiles``). Only with ``MEMORYBOT_LLM_MODEL`` set:
without it nothing is built and no request is ever made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from memory.errors import ConfigError
from memory.tasks import Periodic

if TYPE_CHECKING:
    from memory.profile_writer import ProfileWriter
    from memory.settings import Settings
    from memory.storage.protocol import Storage


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
        self.schedule = Periodic(
            self.write, every, name="memorybot-profiles", failing="the profile pass failed",
            first_delay=min(FIRST_PASS_DELAY, every),
        )  # fmt: skip

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
