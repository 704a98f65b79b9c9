"""Guild messages into memory: new ones are ingested, edits re-extracted, deletions
forgotten; a mention of the bot (or a reply to it) gets an answer built from memory."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.answer import compose_answer, recent_window
from memory.errors import MemorybotError
from memory.models import Author, IngestItem, utc_iso

if TYPE_CHECKING:
    from bot.client import MemoryBot

log = logging.getLogger(__name__)

_INGESTED_TYPES = frozenset({discord.MessageType.default, discord.MessageType.reply})


def ingest_item(message: discord.Message) -> IngestItem | None:
    """The ingest item of a guild message from a person, or None (DMs, bots, webhooks,
    system messages)."""
    if message.guild is None or message.author.bot or message.webhook_id is not None:
        return None
    if message.type not in _INGESTED_TYPES:
        return None
    author = Author(str(message.author.id), message.author.display_name, message.author.name)
    mentioned = [m for m in message.mentions if not m.bot and m.id != message.author.id]
    trace: dict[str, object] = {"source": "discord"}
    if mentioned:  # who the message mentions travels with its job, for extraction
        trace["mentions"] = [[str(m.id), m.display_name] for m in mentioned]
    return IngestItem(
        str(message.guild.id), str(message.channel.id), str(message.id), author,
        message.content, utc_iso(message.created_at), "text", trace,
    )  # fmt: skip


NOTICE = (
    "Hi! I remember what people say in this server's channels (and in voice, when asked to "
    "listen), so I can answer questions about it later. `/memory about` shows what I remember "
    "about you, `/memory export` sends it all to you, `/memory forget` deletes it, and "
    "`/memory optout` stops me remembering you here. Moderators: `/memory-admin`."
)
NOTICE_SETTING = "notice_posted"


async def post_notice(bot: MemoryBot, guild: discord.Guild, where: object) -> None:
    """Once per guild (``MEMORYBOT_NOTICE``): the notice, in the system channel or ``where``
    the bot was first active, else to the owner by DM; remembered in the guild's settings."""
    memory = bot.memory
    if not memory.settings.notice or (await memory.guild_settings(str(guild.id))).get(
        NOTICE_SETTING
    ):
        return
    for channel in (guild.system_channel, where):
        if (
            isinstance(channel, discord.TextChannel | discord.Thread)
            and channel.permissions_for(guild.me).send_messages
        ):
            try:
                await channel.send(NOTICE, allowed_mentions=discord.AllowedMentions.none())
                break
            except discord.HTTPException as exc:
                log.info("notice not posted in channel %s: %s", channel.id, exc)
    else:
        owner = guild.owner
        if owner is None:
            return
        try:
            await owner.send(f"About me in {guild.name}: {NOTICE}")
        except discord.HTTPException as exc:
            log.info("notice not sent to the owner of guild %s: %s", guild.id, exc)
            return
    await memory.set_guild_setting(str(guild.id), NOTICE_SETTING, True)


class StoringOutage:
    """Live messages that memory could not store (a full disk, a damaged database): one
    warning when it starts, one line when storing works again with how many were lost,
    instead of a traceback for every message in between."""

    def __init__(self) -> None:
        self.lost = 0

    def failed(self, exc: MemorybotError) -> None:
        if not self.lost:
            log.warning("live messages are not being stored (each is lost until then): %s", exc)
        self.lost += 1

    def stored(self) -> None:
        if self.lost:
            log.warning("live messages are stored again (%d were not)", self.lost)
            self.lost = 0


class IngestCog(commands.Cog):
    def __init__(self, bot: MemoryBot) -> None:
        self.bot = bot
        self._guilds_named: set[int] = set()
        self.outage = StoringOutage()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        item = ingest_item(message)
        if item is None or not self.bot.memory.settings.memory_enabled:
            return
        try:
            await self._remember(message, item)
        except MemorybotError as exc:  # the message is lost; the bot still answers
            self.outage.failed(exc)
        else:
            self.outage.stored()
        if self._addressed(message):
            await self.reply(message)

    async def _remember(self, message: discord.Message, item: IngestItem) -> None:
        assert message.guild is not None
        if message.guild.id not in self._guilds_named:
            await self.bot.memory.record_guild(item.guild_id, message.guild.name)
            self._guilds_named.add(message.guild.id)
            await post_notice(self.bot, message.guild, message.channel)
        parent = getattr(message.channel, "parent_id", None)  # a thread's channel
        if parent is None or str(parent) not in await self.bot.memory.ignored_channels(
            item.guild_id
        ):  # an ignored channel's threads are ignored with it (the channel: by memory)
            await self.bot.memory.ingest(item)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edit: the stored text follows, and the message is extracted again."""
        content = payload.data.get("content")
        if payload.guild_id is None or not isinstance(content, str):
            return  # a DM, or an update without text (an embed appearing, a pin)
        summary = await self.bot.memory.edit_message(
            str(payload.guild_id), str(payload.message_id), content
        )
        if summary.changed:
            log.debug("message %s edited: %s", payload.message_id, summary.describe())

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A deletion: the message, the facts from it and its journal line go."""
        if payload.guild_id is not None:
            await self._forget_messages(payload.guild_id, [payload.message_id])

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            await self._forget_messages(payload.guild_id, sorted(payload.message_ids))

    async def _forget_messages(self, guild_id: int, message_ids: list[int]) -> None:
        for message_id in message_ids:
            summary = await self.bot.memory.delete_message(str(guild_id), str(message_id))
            if summary.removed_anything:
                log.debug("message %s deleted: %s", message_id, summary.describe())

    def _addressed(self, message: discord.Message) -> bool:
        me = self.bot.user
        if me is None:
            return False
        if me in message.mentions:
            return True
        ref = message.reference
        resolved = ref.resolved if ref is not None else None
        return isinstance(resolved, discord.Message) and resolved.author.id == me.id

    async def reply(self, message: discord.Message) -> None:
        """Answer from memory: the LLM when one is configured (offline when it fails)."""
        assert message.guild is not None
        memory = self.bot.memory
        guild_id, channel_id = str(message.guild.id), str(message.channel.id)
        recent = await recent_window(
            memory, self.bot.replier, guild_id, channel_id, before=str(message.id)
        )
        me = self.bot.user
        answer = await compose_answer(
            memory, guild_id=guild_id, channel_id=channel_id,
            author_id=str(message.author.id), author_name=message.author.display_name,
            question=message.clean_content, recent=recent, replier=self.bot.replier,
            message_id=str(message.id), bot_name=me.display_name if me else "memorybot",
            said_at=utc_iso(message.created_at),
        )  # fmt: skip
        await message.reply(
            answer.text, allowed_mentions=discord.AllowedMentions.none(), mention_author=False
        )
