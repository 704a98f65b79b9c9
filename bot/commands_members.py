"""``memorybot forget`` and ``optout``: what an operator does for one member of a guild —
forget what memory holds of them, or keep it from remembering them at all — and printing it.
"""

from __future__ import annotations

from typing import Any

import click

from bot.cli_base import echo_json
from memory.audit import CLI
from memory.forgetting import ForgetSummary
from memory.runtime import open_memory
from memory.settings import Settings


async def forget_member(settings: Settings, guild: str, user: str) -> ForgetSummary:
    """Everything kept of the member in the guild, deleted (``Memory.forget_member``)."""
    async with open_memory(settings, start_queue=False) as memory:
        return await memory.forget_member(guild, user, actor=CLI)


def echo_forget(guild: str, user: str, summary: ForgetSummary, *, as_json: bool) -> None:
    if as_json:
        echo_json({"guildId": guild, "userId": user, **summary.as_dict()})
    else:
        click.echo(f"forgot member {user} in guild {guild}: {summary.describe()}")


async def set_optout(
    settings: Settings, guild: str, user: str, *, opted_out: bool
) -> dict[str, Any]:
    """Opt the member out (what is held is forgotten) or in again; what it did, as a dict."""
    async with open_memory(settings, start_queue=False) as memory:
        if not opted_out:
            return {"optedOut": False, "changed": await memory.opt_in(guild, user, actor=CLI)}
        return {"optedOut": True, **(await memory.opt_out(guild, user, actor=CLI)).as_dict()}


def echo_optout(guild: str, user: str, outcome: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        echo_json({"guildId": guild, "userId": user, **outcome})
    elif not outcome["optedOut"]:
        click.echo(f"member {user} of guild {guild} is remembered again from now on")
    else:
        forgot = f"forgot {outcome['messages']} message(s) and {outcome['facts']} fact(s)"
        click.echo(f"member {user} of guild {guild} opted out: {forgot}")
