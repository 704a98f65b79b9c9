"""``memorybot forget``, ``optout`` and ``events``: an operator's moderation of one guild —
forget a member, keep memory from remembering them, and read what memory did and who asked."""

from __future__ import annotations

import sys

import click

from bot.cli_base import CliState, confirmed, echo_json, run_async, snowflake


@click.command()
@click.option("--guild", "guild_id", required=True, help="Guild id.")
@click.option("--user", "user_id", required=True, help="The member's user id.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def forget(state: CliState, guild_id: str, user_id: str, yes: bool, as_json: bool) -> None:
    """Forget a member of a guild: their messages, the facts about them or from their
    messages, their vectors and daily-log lines (what /memory purge-user does)."""
    guild = snowflake(guild_id, "--guild") or guild_id
    user = snowflake(user_id, "--user") or user_id
    if not yes and not confirmed(
        f"Delete everything memorybot keeps of member {user} in guild {guild}? "
        "This cannot be undone."
    ):
        click.echo("aborted: nothing was deleted", err=True)
        sys.exit(1)
    from bot.commands_members import echo_forget, forget_member

    summary = run_async(forget_member(state.settings(), guild, user))
    echo_forget(guild, user, summary, as_json=as_json)


@click.command()
@click.option("--guild", "guild_id", required=True, help="Guild id.")
@click.option("--user", "user_id", required=True, help="The member's user id.")
@click.option("--undo", is_flag=True, help="Opt the member in again (remembered from now on).")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
@click.pass_obj
def optout(state: CliState, guild_id: str, user_id: str, undo: bool, as_json: bool) -> None:
    """Opt a member out of memory in a guild (what /memory optout does): what is held of them
    is forgotten, and nothing they write or say is stored again, imports included."""
    guild = snowflake(guild_id, "--guild") or guild_id
    user = snowflake(user_id, "--user") or user_id
    from bot.commands_members import echo_optout, set_optout

    outcome = run_async(set_optout(state.settings(), guild, user, opted_out=not undo))
    echo_optout(guild, user, outcome, as_json=as_json)


@click.command()
@click.option("--guild", "guild_id", default=None, help="Guild id (default: the only one).")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000, clamp=True))
@click.option(
    "--before", type=click.IntRange(1), default=None, help="Only events older than this id."
)
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    help="Only events of this kind (repeatable), e.g. fact.deleted.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def events(
    state: CliState, guild_id: str | None, limit: int, before: int | None,
    kinds: tuple[str, ...], as_json: bool,
) -> None:  # fmt: skip
    """The guild's audit log, newest first: facts stored, archived, edited and deleted,
    extraction calls and errors, forget, opt-out, imports — and who asked."""
    from bot.commands_read import audit_events, echo_events
    from memory.audit import KINDS

    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r}: one of {', '.join(KINDS)}", param_hint="--kind")
    guild = snowflake(guild_id, "--guild")
    rows = run_async(audit_events(state.settings(), guild, limit=limit, before=before, kinds=kinds))
    if as_json:
        echo_json({"events": rows})
        return
    echo_events(rows)
