"""The Discord client (discord.py's ``commands.Bot``, as in its advanced_startup example):
cogs loaded in ``setup_hook``, no pings, the intents memory needs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.runtime import MemoryRuntime

if TYPE_CHECKING:
    from bot.cogs.voice import VoiceCog
    from bot.llm_reply import LLMReplier


def memory_intents() -> discord.Intents:
    """Guilds, guild messages, message content, members and voice states."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = True
    intents.members = True
    intents.voice_states = True
    return intents


class MemoryBot(commands.Bot):
    def __init__(self, runtime: MemoryRuntime, **options: object) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=memory_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,  # type: ignore[arg-type]
        )
        self.runtime = runtime
        self.replier: LLMReplier | None = None
        self.voice: VoiceCog | None = None
        if runtime.settings.llm_model:
            from bot.llm_reply import LLMReplier  # imports openai: only when an LLM is set

            self.replier = LLMReplier.from_settings(runtime.settings)

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self.replier is not None:
                await self.replier.aclose()

    async def on_message(self, message: discord.Message) -> None:
        """No text commands: messages are the ingest cog's (the commands are slash ones)."""

    async def setup_hook(self) -> None:
        from bot.cogs.ingest import IngestCog
        from bot.cogs.memory_commands import MemoryCommands
        from bot.cogs.voice import VoiceCog

        await self.add_cog(IngestCog(self))
        self.voice = VoiceCog(self)
        await self.add_cog(self.voice)
        await self.add_cog(MemoryCommands(self))
