"""The ``/memory-admin`` slash commands, for moderators: purge-user, stats, ignore-channel,
unignore-channel, settings, and ``fact edit|delete``.

The group carries Manage Server as its default member permission and is guild-only in the
payload Discord receives, so Discord itself offers it only to moderators and only in
servers (server owners can change that under Integrations); each command checks the
permission again when it runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.memory_commands import ABOUT_OTHERS_SETTING
from bot.cogs.slash import answer_error, forget_after_confirming, say, where
from bot.replies import defuse, fit
from memory.errors import InvalidMessageError

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

    @app_commands.command(name="ignore-channel", description="Remember nothing from a channel")
    @app_commands.describe(channel="The channel (its threads too)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def ignore_channel(
        self, interaction: discord.Interaction, channel: discord.abc.GuildChannel
    ) -> None:
        guild_id, _channel = where(interaction)
        changed = await self.bot.memory.ignore_channel(
            guild_id, str(channel.id), actor=str(interaction.user.id)
        )
        already = "" if changed else " (it was already)"
        await say(interaction, f"I won't remember anything from <#{channel.id}> now{already}.")

    @app_commands.command(name="unignore-channel", description="Remember a channel again")
    @app_commands.describe(channel="The channel")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def unignore_channel(
        self, interaction: discord.Interaction, channel: discord.abc.GuildChannel
    ) -> None:
        guild_id, _channel = where(interaction)
        changed = await self.bot.memory.ignore_channel(
            guild_id, str(channel.id), ignored=False, actor=str(interaction.user.id)
        )
        if str(channel.id) in await self.bot.memory.ignored_channels(guild_id):
            text = f"<#{channel.id}> stays ignored: the bot's MEMORYBOT_IGNORE_CHANNELS lists it."
        else:
            text = f"I remember <#{channel.id}> again{'' if changed else ' (it was not ignored)'}."
        await say(interaction, text)

    @app_commands.command(name="settings", description="How memory is set up in this server")
    @app_commands.describe(about_others="Whether members may ask /memory about each other")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self, interaction: discord.Interaction, about_others: bool | None = None
    ) -> None:
        guild_id, _channel = where(interaction)
        memory = self.bot.memory
        if about_others is not None:
            await memory.set_guild_setting(
                guild_id, ABOUT_OTHERS_SETTING, about_others, actor=str(interaction.user.id)
            )
        ignored = sorted(await memory.ignored_channels(guild_id))
        channels = ", ".join(f"<#{c}>" for c in ignored) or "none"
        others = (await memory.guild_settings(guild_id)).get(ABOUT_OTHERS_SETTING, False)
        who = "every member" if others else "moderators only"
        await say(interaction, f"Ignored channels: {channels}. Asking about others: {who}.")

    fact = app_commands.Group(name="fact", description="Fix or remove one remembered fact")

    @fact.command(name="edit", description="Change what one fact says")
    @app_commands.describe(fact_id="The fact's id (see the moderator page)", text="Its new text")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def fact_edit(self, interaction: discord.Interaction, fact_id: int,
                        text: app_commands.Range[str, 1, 300]) -> None:  # fmt: skip
        guild_id, _channel = where(interaction)
        try:
            fact = await self.bot.memory.edit_fact(
                guild_id, fact_id, text=text, actor=str(interaction.user.id)
            )
        except (InvalidMessageError, ValueError) as exc:
            await say(interaction, f"I can't change it: {exc}")
            return
        if fact is None:
            await say(interaction, f"There is no fact {fact_id} in this server.")
        else:
            await say(interaction, fit(defuse(f"Fact {fact_id} now says: {fact.fact}")))

    @fact.command(name="delete", description="Forget one fact")
    @app_commands.describe(fact_id="The fact's id (see the moderator page)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def fact_delete(self, interaction: discord.Interaction, fact_id: int) -> None:
        guild_id, _channel = where(interaction)
        if await self.bot.memory.delete_fact(guild_id, fact_id, actor=str(interaction.user.id)):
            await say(interaction, f"Fact {fact_id} is forgotten.")
        else:
            await say(interaction, f"There is no fact {fact_id} in this server.")

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)
