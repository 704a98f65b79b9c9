"""``memorybot stats``, ``search`` and ``slice``: reading what memory holds of a guild —
its counts, its facts and messages for a query, and the slice a reply would see."""

from __future__ import annotations

import click

from bot.cli_base import CliState, echo_json, run_async, snowflake
from memory.settings import MAX_SLICE_BUDGET, MIN_SLICE_BUDGET


@click.command()
@click.option("--guild", "guild_id", default=None, help="Only this guild.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def stats(state: CliState, guild_id: str | None, as_json: bool) -> None:
    """Per guild: messages, facts, and pending / dropped / failed ingest jobs."""
    from bot.commands_read import echo_stats, stats_rows

    rows = run_async(stats_rows(state.settings(), guild_id))
    if as_json:
        echo_json({"guilds": rows})
        return
    echo_stats(rows)


@click.command()
@click.argument("query")
@click.option("--guild", "guild_id", default=None, help="Guild id (default: the only one).")
@click.option("--channel", "channel_id", default=None, help="Channel id (a ranking hint).")
@click.option("--user", "user_id", default=None, help="Only this member's facts.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 24, clamp=True),
              help="Results of each kind.")  # fmt: skip
@click.option("--kind", default="facts", show_default=True,
              type=click.Choice(["facts", "messages", "all"]), help="What to search.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def search(
    state: CliState, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, limit: int, kind: str, as_json: bool,
) -> None:  # fmt: skip
    """Search a guild's durable facts, stored messages or both (relevance-gated)."""
    from bot.commands_read import echo_search, search_found

    guild_id = snowflake(guild_id, "--guild")
    channel_id = snowflake(channel_id, "--channel")
    user_id = snowflake(user_id, "--user")
    settings = state.settings()
    found = run_async(search_found(settings, query, guild_id, channel_id, user_id, limit, kind))
    if as_json:
        echo_json({"query": query, **found})
        return
    echo_search(found)


@click.command("slice")
@click.argument("query")
@click.option("--guild", "guild_id", default=None, help="Guild id (default: the only one).")
@click.option("--channel", "channel_id", default=None, help="The channel asked in.")
@click.option("--user", "user_id", default=None, help="The member asking.")
@click.option(
    "--budget",
    default=None,
    type=click.IntRange(MIN_SLICE_BUDGET, MAX_SLICE_BUDGET),
    help="Characters the slice shows (default: MEMORYBOT_SLICE_BUDGET, 4000).",
)
@click.option(
    "--limit",
    default=None,
    type=click.IntRange(1, 100, clamp=True),
    help="At most this many items per section, after the budget.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def slice_cmd(
    state: CliState, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, budget: int | None, limit: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Show the prompt memory slice a reply to QUERY would see: the best facts and messages
    that fill its budget of characters shown."""
    from bot.commands_read import echo_slice, memory_slice

    guild_id = snowflake(guild_id, "--guild")
    channel_id = snowflake(channel_id, "--channel")
    user_id = snowflake(user_id, "--user")
    settings = state.settings()
    result = run_async(
        memory_slice(settings, query, guild_id, channel_id, user_id, limit, budget=budget)
    )
    if as_json:
        echo_json({"query": query, **result})
        return
    echo_slice(result)
