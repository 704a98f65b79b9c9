"""``memorybot run``: the Discord bot, with the API in the same event loop.

Logging is configured by the CLI (the entry point). SIGINT / SIGTERM close the Discord
connection; then the API stops, the ingest queue drains (``MEMORYBOT_DRAIN_TIMEOUT``) and the
database closes, and the process exits 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable

import aiohttp
import discord

from bot.client import MemoryBot
from bot.runtime import open_runtime
from dashboard_api.server import Serving, running_api
from memory.errors import ConfigError, MemorybotError
from memory.settings import Settings

log = logging.getLogger(__name__)

TOKEN_ENV = "DISCORD_TOKEN"


def discord_token() -> str:
    """``DISCORD_TOKEN`` from the environment, or a one-line error saying how to get one."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise ConfigError(
            f"{TOKEN_ENV} is not set: create a bot at https://discord.com/developers/applications "
            "(see the README) and export its token"
        )
    return token


async def run_bot(
    settings: Settings,
    token: str,
    *,
    announce: Callable[[Serving], None],
    port: int | None = None,
) -> None:
    """The bot until it is closed (SIGINT / SIGTERM), with the API (``port``: see
    ``running_api``) beside it; errors reaching Discord become one-line errors."""
    async with (
        open_runtime(settings) as runtime,
        running_api(runtime, settings, port=port) as serving,
    ):
        announce(serving)
        bot = MemoryBot(runtime)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        try:
            await bot.start(token)
        except discord.LoginFailure:
            raise ConfigError(f"{TOKEN_ENV} was rejected by Discord: check the token") from None
        except discord.PrivilegedIntentsRequired:
            raise ConfigError(
                "Discord refused the privileged intents: enable Message Content and Server "
                "Members for the bot in the Developer Portal (see the README)"
            ) from None
        except (aiohttp.ClientError, OSError) as exc:
            raise MemorybotError(f"cannot reach Discord: {exc}") from None
        finally:
            if not bot.is_closed():
                await bot.close()
        log.info("disconnected from Discord: draining the ingest queue")
