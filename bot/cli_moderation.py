"""``memorybot forget``, ``optout`` and ``events``: an operator's moderation of one guild —
forget a member, keep memory from remembering them, and read what memory did and who asked."""

from __future__ import annotations

import sys

import click

from bot.cli_base import CliState, confirmed, run_async, snowflake


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
