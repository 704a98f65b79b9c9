"""``memorybot serve`` and ``demo``: the HTTP API and moderator page without Discord; and
what the commands that serve (these two and ``run``) print once they listen.

``demo`` first imports the bundled sample community into its own data directory
(``./memorybot-demo`` unless ``--data-dir``), offline, then serves it with its token shown.
Apart from ``bot/run.py`` because neither imports discord.py.
"""

from __future__ import annotations

import logging
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import click

from dashboard_api.server import serve_forever
from memory.errors import MemorybotError
from memory.settings import Settings

DEMO_DIR = Path("memorybot-demo")
"""``demo``'s data directory when ``--data-dir`` is not given."""


def log_at_least(level: int) -> None:
    """Lower the root logger's level to ``level`` if it is above it."""
    root = logging.getLogger()
    if root.getEffectiveLevel() > level:
        root.setLevel(level)


def announce(serving: Any, guild_id: str | None, *, show_token: bool) -> None:
    """What ``serve`` and ``demo`` print once they listen."""
    lines = [f"memorybot API and moderator page: {serving.url}"]
    if show_token or serving.token_created:
        lines.append(f"API token: {serving.token}")
        if serving.token_file:
            lines.append(f"  (stored in {serving.token_file}, readable only by you)")
    elif serving.token_file:
        lines.append(f"API token: in {serving.token_file}")
    else:
        lines.append("API token: the one in MEMORYBOT_API_TOKEN")
    guild = guild_id or "<guild id>"
    token = serving.token if show_token or serving.token_created else "$TOKEN"
    lines.append(
        f"try: curl -H 'Authorization: Bearer {token}' "
        f"'{serving.url}api/memory/search?guildId={guild}&q=cat'"
    )
    lines.append("stop with Ctrl-C")
    click.echo("\n".join(lines))
    sys.stdout.flush()


async def serve_api(settings: Settings, port: int | None, workers: int = 1) -> None:
    """``serve``: the API and page over ``settings``' data until SIGINT or SIGTERM (served by
    ``workers`` processes)."""
    await serve_forever(
        settings, port=port, workers=workers,
        announce=lambda s: announce(s, None, show_token=False),
    )  # fmt: skip


async def run_demo(settings: Settings, port: int | None) -> None:
    """``demo``: import the sample community into ``settings``' data directory, say what it
    holds, then serve it until SIGINT or SIGTERM."""
    from bot.commands_ingest import run_import

    sample = resources.files("memory.samples") / "sample_export.json"
    with resources.as_file(sample) as path:
        summary, errors = await run_import(settings, [path], quiet=True)
    if errors:
        raise MemorybotError("; ".join(errors))
    from memory.runtime import reading_memory

    async with reading_memory(settings) as memory:
        guilds = await memory.guild_ids()
        stats = [await memory.stats(g) for g in guilds]
    click.echo(
        f"{summary.read} messages read, {summary.new} new; "
        + ", ".join(f"{s.name or s.guild_id}: {s.active_facts} facts" for s in stats)
    )
    await serve_forever(
        settings, port=port,
        announce=lambda s: announce(s, guilds[0] if guilds else None, show_token=True),
    )  # fmt: skip
