"""The ``/memory`` slash commands: search, about, remember, forget, and for members with
Manage Server, purge-user, stats and ``voice join|leave`` (voice also for everyone in an
auto-join channel). Personal data is answered ephemerally; every error
becomes a short message the member can act on."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.voice import VoiceCog, VoiceError
from bot.replies import defuse, fit
from memory.errors import InvalidMessageError, MemorybotError
from memory.retrieval import FactHit

if TYPE_CHECKING:
    from bot.client import MemoryBot

log = logging.getLogger(__name__)

SEARCH_RESULTS = 8
CONFIRM_SECONDS = 60.0
NONE = discord.AllowedMentions.none()


def facts_text(title: str, hits: list[FactHit]) -> str:
    """A short list of facts for a Discord message (no pings, ≤ 2,000 characters)."""
    if not hits:
        return f"{title}\nNothing remembered yet."
    lines = [title]
    for hit in hits:
        about = "" if hit.subject_name in ("", "lore") else f" (about {hit.subject_name})"
        lines.append(f"• {hit.fact.fact}{about}")
    return fit(defuse("\n".join(lines)))


class Confirm(discord.ui.View):
    """Yes / Cancel buttons only ``owner`` may press; ``result`` says what was chosen."""

    def __init__(self, owner_id: int, *, timeout: float = CONFIRM_SECONDS) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.result: bool | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message(
                "Only the member who asked can confirm this.", ephemeral=True
            )
            return False
        return True

    @discord.ui.button(label="Yes, forget it", style=discord.ButtonStyle.danger)
    async def yes(
        self, interaction: discord.Interaction, button: discord.ui.Button[Confirm]
    ) -> None:
        self.result = True
        await interaction.response.defer()
        self.stop()

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(
        self, interaction: discord.Interaction, button: discord.ui.Button[Confirm]
    ) -> None:
        self.result = False
        await interaction.response.defer()
        self.stop()


class MemoryCommands(commands.GroupCog, group_name="memory", group_description="What I remember"):
    def __init__(self, bot: MemoryBot) -> None:
        self.bot = bot
        super().__init__()

    # --- everyone -----------------------------------------------------------------------

    @app_commands.command(name="search", description="Search what I remember about this server")
    @app_commands.describe(query="What to look for")
    @app_commands.guild_only()
    async def search(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, 500]
                     ) -> None:  # fmt: skip
        guild_id, channel_id = _where(interaction)
        hits = await self.bot.runtime.retriever.search(
            guild_id, query, channel_id=channel_id, limit=SEARCH_RESULTS
        )
        await _say(interaction, facts_text(f"What I remember about “{query}”:", hits))

    @app_commands.command(
        name="about", description="What I remember about a member (you by default)"
    )
    @app_commands.describe(member="Whom to ask about")
    @app_commands.guild_only()
    async def about(self, interaction: discord.Interaction, member: discord.Member | None = None
                    ) -> None:  # fmt: skip
        guild_id, channel_id = _where(interaction)
        who = member or interaction.user
        hits = await self.bot.runtime.retriever.search(
            guild_id, who.display_name, channel_id=channel_id, limit=SEARCH_RESULTS,
            strict=False, subjects=[str(who.id)],
        )  # fmt: skip
        await _say(interaction, facts_text(f"What I remember about {who.display_name}:", hits))

    @app_commands.command(name="remember", description="Ask me to remember something")
    @app_commands.describe(text="What to remember (one line)")
    @app_commands.guild_only()
    async def remember(self, interaction: discord.Interaction,
                       text: app_commands.Range[str, 1, 300]) -> None:  # fmt: skip
        guild_id, channel_id = _where(interaction)
        try:
            fact = await self.bot.runtime.store.remember_line(
                guild_id, text, channel_id=channel_id or "", source_message_id=str(interaction.id)
            )
        except InvalidMessageError as exc:
            await _say(interaction, f"I can't remember that: {exc}")
            return
        self.bot.runtime.journals.guild_changed(guild_id)
        await _say(interaction, fit(defuse(f"I'll remember: {fact.fact}")))

    @app_commands.command(name="forget", description="Forget everything about you")
    @app_commands.guild_only()
    async def forget(self, interaction: discord.Interaction) -> None:
        await self._forget(interaction, interaction.user, "everything I remember about you")

    # --- moderators ---------------------------------------------------------------------

    @app_commands.command(name="purge-user", description="Forget everything about a member")
    @app_commands.describe(member="Whose memory to delete")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def purge_user(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await self._forget(
            interaction, member, f"everything I remember about {member.display_name}"
        )

    @app_commands.command(name="stats", description="What this server's memory holds")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def stats(self, interaction: discord.Interaction) -> None:
        guild_id, _channel = _where(interaction)
        s = await self.bot.runtime.store.stats(guild_id)
        await _say(
            interaction,
            f"Messages: {s.messages} · facts: {s.active_facts} active of {s.facts} · "
            f"jobs pending {s.pending_jobs} / dropped {s.dropped_jobs} / failed {s.failed_jobs}",
        )

    # --- voice (Manage Server, or anyone in an auto-join channel) -----------------------

    voice = app_commands.Group(
        name="voice", description="Listening in voice channels", guild_only=True
    )

    @voice.command(name="join", description="Listen in a voice channel and remember what is said")
    @app_commands.describe(channel="The voice channel (the one you are in by default)")
    async def voice_join(self, interaction: discord.Interaction,
                         channel: discord.VoiceChannel | discord.StageChannel | None = None
                         ) -> None:  # fmt: skip
        cog, member = self._voice_caller(interaction)
        target = channel or (member.voice.channel if member.voice is not None else None)
        if target is None:
            await _say(interaction, "Join a voice channel first, or name one.")
            return
        if not cog.may_control(interaction.permissions.manage_guild, target):
            raise app_commands.MissingPermissions(["manage_guild"])
        await interaction.response.defer(ephemeral=True, thinking=True)  # connecting takes time
        await _say(interaction, await cog.join(target))

    @voice.command(name="leave", description="Stop listening in voice")
    async def voice_leave(self, interaction: discord.Interaction) -> None:
        cog, member = self._voice_caller(interaction)
        current = cog.listening_in(member.guild)
        if current is not None and not cog.may_control(
            interaction.permissions.manage_guild, current
        ):
            raise app_commands.MissingPermissions(["manage_guild"])
        await _say(interaction, await cog.leave(member.guild))

    def _voice_caller(self, interaction: discord.Interaction
                      ) -> tuple[VoiceCog, discord.Member]:  # fmt: skip
        """The voice cog and the calling member; VoiceError saying why voice cannot run."""
        _where(interaction)
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

    # --- shared -------------------------------------------------------------------------

    async def _forget(self, interaction: discord.Interaction, who: discord.abc.User,
                      what: str) -> None:  # fmt: skip
        from memory.forgetting import forget_member

        guild_id, _channel = _where(interaction)
        view = Confirm(interaction.user.id)
        await interaction.response.send_message(
            defuse(f"Delete {what}: facts, messages and journal lines? This cannot be undone."),
            view=view, ephemeral=True, allowed_mentions=NONE,
        )  # fmt: skip
        if await view.wait() or not view.result:  # timed out, or cancelled
            await interaction.followup.send("Nothing was deleted.", ephemeral=True)
            return
        runtime = self.bot.runtime
        summary = await forget_member(
            runtime.store, runtime.journals, guild_id, str(who.id), queue=runtime.queue
        )
        await interaction.followup.send(
            f"Done: {summary.describe()}.", ephemeral=True, allowed_mentions=NONE
        )

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.MissingPermissions):
            message = "You need the Manage Server permission for this."
        elif isinstance(error, app_commands.NoPrivateMessage):
            message = "This works in a server, not in direct messages."
        elif isinstance(original, VoiceError):
            message = str(original)
        elif isinstance(original, MemorybotError):
            message = f"Sorry, that failed: {original}"
        else:
            log.exception("/memory command failed", exc_info=original)
            message = "Sorry, something went wrong on my side. Try again in a moment."
        await _say(interaction, message)


def _where(interaction: discord.Interaction) -> tuple[str, str | None]:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    channel = str(interaction.channel_id) if interaction.channel_id else None
    return str(interaction.guild_id), channel


async def _say(interaction: discord.Interaction, text: str) -> None:
    """Answer ephemerally (personal data stays with the asker), first reply or follow-up."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NONE)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NONE)
