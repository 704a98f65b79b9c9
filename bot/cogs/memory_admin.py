"""The ``/memory-admin`` slash commands, for moderators: purge-user and stats.

The group carries Manage Server as its default member permission and is guild-only in the
payload Discord receives, so Discord itself offers it only to moderators and only in
servers (server owners can change that under Integrations); each command checks the
permission again when it runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.slash import answer_error, forget_after_confirming, say, where

if TYPE_CHECKING:
    from bot.client import MemoryBot


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class MemoryAdminCommands(
    commands.GroupCog,
    group_name="memory-admin",
    group_description="Moderate what I remember (Manage Server)",
):
    def __init__(self, bot: MemoryBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="purge-user", description="Forget everything about a member")
    @app_commands.describe(member="Whose memory to delete")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def purge_user(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await forget_after_confirming(
            self.bot, interaction, member, f"everything I remember about {member.display_name}"
        )

    @app_commands.command(name="stats", description="What this server's memory holds")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def stats(self, interaction: discord.Interaction) -> None:
        guild_id, _channel = where(interaction)
        s = await self.bot.memory.stats(guild_id)
        await say(
            interaction,
            f"Messages: {s.messages} · facts: {s.active_facts} active of {s.facts} · "
            f"jobs pending {s.pending_jobs} / dropped {s.dropped_jobs} / failed {s.failed_jobs}",
        )

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)
