"""What every slash command shares: where it was asked, private answers, a confirmation
only the asker may press, the forget flow, and errors as short messages a member can act on."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cogs.voice import VoiceError
from memory.errors import MemorybotError

if TYPE_CHECKING:
    from bot.client import MemoryBot

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 60.0
NONE = discord.AllowedMentions.none()


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


def where(interaction: discord.Interaction) -> tuple[str, str | None]:
    """The guild and channel ids a command was used in; NoPrivateMessage outside a server."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    channel = str(interaction.channel_id) if interaction.channel_id else None
    return str(interaction.guild_id), channel


async def say(interaction: discord.Interaction, text: str) -> None:
    """Answer ephemerally (personal data stays with the asker), first reply or follow-up."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NONE)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NONE)


async def forget_after_confirming(
    bot: MemoryBot, interaction: discord.Interaction, who: discord.abc.User, what: str,
    *, opt_out: bool = False,
) -> None:  # fmt: skip
    """Ask the caller to confirm, then delete everything memory holds of ``who`` here (and,
    with ``opt_out``, keep it from remembering them again)."""
    from bot.replies import defuse

    guild_id, _channel = where(interaction)
    view = Confirm(interaction.user.id)
    then = " From then on nothing you write or say here is remembered." if opt_out else ""
    await interaction.response.send_message(
        defuse(f"Delete {what}: facts, messages and journal lines? This cannot be undone.{then}"),
        view=view, ephemeral=True, allowed_mentions=NONE,
    )  # fmt: skip
    if await view.wait() or not view.result:  # timed out, or cancelled
        await interaction.followup.send("Nothing was deleted.", ephemeral=True)
        return
    memory = bot.memory
    if opt_out:
        summary = await memory.opt_out(guild_id, str(who.id), actor=str(interaction.user.id))
        then = " I won't remember you here until you use `/memory optin`."
    else:
        summary = await memory.forget_member(guild_id, str(who.id), actor=str(interaction.user.id))
    await interaction.followup.send(
        f"Done: {summary.describe()}.{then}", ephemeral=True, allowed_mentions=NONE
    )


async def answer_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """A command's error as one short private answer (the unexpected ones also logged)."""
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
        log.exception("/%s failed", getattr(interaction.command, "qualified_name", "?"),
                      exc_info=original)  # fmt: skip
        message = "Sorry, something went wrong on my side. Try again in a moment."
    await say(interaction, message)
