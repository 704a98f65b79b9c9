"""``memorybot run``: the Discord bot, with the API in the same event loop; and
``memorybot sync-commands``: registering the slash commands with Discord, forced.

Logging is configured by the CLI (the entry point). SIGINT / SIGTERM close the Discord
connection; then the API stops, the ingest queue drains (``MEMORYBOT_DRAIN_TIMEOUT``) and the
database closes, and the process exits 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any

import aiohttp
import discord

from bot.client import MemoryBot, bot_for
from bot.command_sync import SyncOutcome, SyncTarget
from dashboard_api.server import Serving, running_api
from memory.errors import ConfigError, MemorybotError
from memory.runtime import open_memory
from memory.settings import Settings

log = logging.getLogger(__name__)

TOKEN_ENV = "DISCORD_TOKEN"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def discord_token(settings: Settings) -> str:
    """``DISCORD_TOKEN`` (environment or ``.env``), or a one-line error saying how to get one."""
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        raise ConfigError(
            f"{TOKEN_ENV} is not set: create a bot at https://discord.com/developers/applications "
            "(see the README) and export its token, or put it in .env"
        )
    return token


async def run_bot(
    settings: Settings,
    token: str,
    *,
    announce: Callable[[Serving], None],
    port: int | None = None,
    client_options: Mapping[str, Any] | None = None,
) -> None:
    """The bot until it is closed (SIGINT / SIGTERM), with the API (``port``: see
    ``running_api``) beside it; errors reaching Discord become one-line errors.
    ``client_options`` go to discord.py's client."""
    async with (
        open_memory(settings, profiles=True) as memory,
        running_api(memory, settings, port=port) as serving,
    ):
        announce(serving)
        bot = bot_for(settings, memory, **(client_options or {}))
        with _closing_on_signals(bot):
            async with _discord_errors():
                try:
                    await bot.start(token)
                finally:
                    if not bot.is_closed():
                        await bot.close()
        log.info("disconnected from Discord: draining the ingest queue")


async def sync_commands_now(
    settings: Settings, token: str, guild_id: str | None = None
) -> SyncOutcome:
    """Log in (no gateway) and register the commands (to ``guild_id``, else where ``run``
    registers them) whatever was registered before."""
    bot = MemoryBot(settings)
    try:
        async with _discord_errors():
            await bot.login(token)
        target = SyncTarget(int(guild_id)) if guild_id else bot.command_target
        return await bot.sync_commands(target, force=True)
    finally:
        await bot.close()


@contextlib.asynccontextmanager
async def _discord_errors() -> AsyncIterator[None]:
    """Discord's refusals as one-line errors that say what to do."""
    try:
        yield
    except discord.LoginFailure:
        raise ConfigError(f"{TOKEN_ENV} was rejected by Discord: check the token") from None
    except discord.PrivilegedIntentsRequired:
        raise ConfigError(
            "Discord refused the privileged intents: enable Message Content and Server "
            "Members for the bot in the Developer Portal (see the README)"
        ) from None
    except (aiohttp.ClientError, OSError) as exc:
        raise MemorybotError(f"cannot reach Discord: {exc}") from None


@contextlib.contextmanager
def _closing_on_signals(bot: MemoryBot) -> Iterator[None]:
    """SIGINT and SIGTERM close ``bot`` while the block runs (where the loop supports it)."""
    loop = asyncio.get_running_loop()
    installed = []
    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
            installed.append(sig)
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
