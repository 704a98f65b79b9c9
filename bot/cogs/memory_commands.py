"""The ``/memory`` slash commands, for every member: search, about, remember, export,
forget, optout, optin, and ``voice join|leave`` (Manage Server, or anyone in an auto-join
channel: checked when they run).

The group is guild-only in the payload Discord receives, so Discord offers it only in
servers; the moderators' commands are the separate ``/memory-admin`` group
(:mod:`bot.cogs.memory_admin`). Personal data is answered ephemerally; every error becomes a
short message the member can act on."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.slash import NONE, answer_error, forget_after_confirming, say, where
from bot.cogs.voice import VoiceCog, VoiceError
from bot.replies import defuse, fit
from bot.search_reply import facts_text, search_text
from memory.errors import InvalidMessageError

if TYPE_CHECKING:
    from bot.client import MemoryBot

SEARCH_RESULTS = 8
SEARCH_MESSAGES = 5  # messages a search shows (as many as fit)
ABOUT_OTHERS_SETTING = "about_others"  # members may ask about each other


@app_commands.guild_only()
class MemoryCommands(commands.GroupCog, group_name="memory", group_description="What I remember"):
    def __init__(self, bot: MemoryBot) -> None:
        self.bot = bot
        super().__init__()

    # --- everyone -----------------------------------------------------------------------

    @app_commands.command(
        name="search", description="Search what I remember about this server: facts and messages"
    )
    @app_commands.describe(query="What to look for")
    async def search(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, 500]
                     ) -> None:  # fmt: skip
        guild_id, channel_id = where(interaction)
        memory = self.bot.memory
        hits = await memory.search(guild_id, query, channel_id=channel_id, limit=SEARCH_RESULTS)
        found = await memory.messages(
            guild_id, query, channel_id=channel_id, limit=SEARCH_MESSAGES, strict=True
        )
        await say(interaction, search_text(query, hits, found))

    @app_commands.command(
        name="about", description="What I remember about a member (you by default)"
    )
    @app_commands.describe(member="Whom to ask about")
    async def about(self, interaction: discord.Interaction, member: discord.Member | None = None
                    ) -> None:  # fmt: skip
        guild_id, channel_id = where(interaction)
        who = member or interaction.user
        if who.id != interaction.user.id and not interaction.permissions.manage_guild:
            settings = await self.bot.memory.guild_settings(guild_id)
            if not settings.get(ABOUT_OTHERS_SETTING, False):
                await say(interaction, "You can ask about yourself; other members' memories are "
                                       "for moderators (Manage Server).")  # fmt: skip
                return
        hits = await self.bot.memory.search(
            guild_id, who.display_name, channel_id=channel_id, limit=SEARCH_RESULTS,
            strict=False, subjects=[str(who.id)],
        )  # fmt: skip
        await say(interaction, facts_text(f"What I remember about {who.display_name}:", hits))

    @app_commands.command(name="remember", description="Ask me to remember something")
    @app_commands.describe(text="What to remember (one line)")
    async def remember(self, interaction: discord.Interaction,
                       text: app_commands.Range[str, 1, 300]) -> None:  # fmt: skip
        guild_id, channel_id = where(interaction)
        try:
            fact = await self.bot.memory.remember(
                guild_id, text, channel_id=channel_id or "", source_message_id=str(interaction.id),
                author_id=str(interaction.user.id),
            )  # fmt: skip
        except InvalidMessageError as exc:
            await say(interaction, f"I can't remember that: {exc}")
            return
        await say(interaction, fit(defuse(f"I'll remember: {fact.fact}")))

    @app_commands.command(name="forget", description="Forget everything about you")
    async def forget(self, interaction: discord.Interaction) -> None:
        await forget_after_confirming(
            self.bot, interaction, interaction.user, "everything I remember about you"
        )

    @app_commands.command(name="export", description="Everything I remember about you, as a file")
    async def export(self, interaction: discord.Interaction) -> None:
        guild_id, _channel = where(interaction)
        document = await self.bot.memory.export_member(guild_id, str(interaction.user.id))
        data = json.dumps(document, indent=2, ensure_ascii=False).encode()
        counts = (f"{len(document['facts'])} facts, {len(document['lore'])} lines of lore you "
                  f"asked me to remember, {len(document['messages'])} messages")  # fmt: skip
        await interaction.response.send_message(
            f"What I remember about you here: {counts}.", ephemeral=True, allowed_mentions=NONE,
            file=discord.File(io.BytesIO(data), filename=f"memory-{guild_id}.json"),
        )  # fmt: skip

    @app_commands.command(name="optout", description="Forget me, and never remember me here")
    async def optout(self, interaction: discord.Interaction) -> None:
        await forget_after_confirming(
            self.bot, interaction, interaction.user, "everything I remember about you",
            opt_out=True,
        )  # fmt: skip

    @app_commands.command(name="optin", description="Remember what I say here again")
    async def optin(self, interaction: discord.Interaction) -> None:
        guild_id, _channel = where(interaction)
        user = str(interaction.user.id)
        if await self.bot.memory.opt_in(guild_id, user, actor=user):
            await say(interaction, "I'll remember what you say here from now on.")
        else:
            await say(interaction, "You had not opted out: I already remember what you say here.")

    # --- voice (Manage Server, or anyone in an auto-join channel) -----------------------

    voice = app_commands.Group(name="voice", description="Listening in voice channels")

    @voice.command(name="join", description="Listen in a voice channel and remember what is said")
    @app_commands.describe(channel="The voice channel (the one you are in by default)")
    async def voice_join(self, interaction: discord.Interaction,
                         channel: discord.VoiceChannel | discord.StageChannel | None = None
                         ) -> None:  # fmt: skip
        cog, member = self._voice_caller(interaction)
        target = channel or (member.voice.channel if member.voice is not None else None)
        if target is None:
            await say(interaction, "Join a voice channel first, or name one.")
            return
        if not cog.may_control(interaction.permissions.manage_guild, target):
            raise app_commands.MissingPermissions(["manage_guild"])
        await interaction.response.defer(ephemeral=True, thinking=True)  # connecting takes time
        await say(interaction, await cog.join(target))

    @voice.command(name="leave", description="Stop listening in voice")
    async def voice_leave(self, interaction: discord.Interaction) -> None:
        cog, member = self._voice_caller(interaction)
        current = cog.listening_in(member.guild)
        if current is not None and not cog.may_control(
            interaction.permissions.manage_guild, current
        ):
            raise app_commands.MissingPermissions(["manage_guild"])
        await say(interaction, await cog.leave(member.guild))

    def _voice_caller(self, interaction: discord.Interaction
                      ) -> tuple[VoiceCog, discord.Member]:  # fmt: skip
        """The voice cog and the calling member; VoiceError saying why voice cannot run."""
        where(interaction)
        cog = self.bot.voice
        if cog is None:
            raise VoiceError("Voice is not set up on this bot.")
        reason = cog.unavailable()
        if reason is not None:
            raise VoiceError(reason)
        member = interaction.user
        if not isinstance(member, discord.Member):
            raise app_commands.NoPrivateMessage()
        return cog, member

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)
