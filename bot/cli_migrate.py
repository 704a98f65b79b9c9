"""``memorybot migrate --to postgresql://…``: this data directory's memory moved into
PostgreSQL (``memory.storage.postgres.moving``), with a progress bar per table, and the
rows of every table counted on both sides at the end."""

from __future__ import annotations

import click

from bot.cli_base import CliState, echo_json, run_async


@click.command()
@click.option(
    "--to",
    "url",
    required=True,
    metavar="POSTGRESQL_URL",
    help="The database: postgresql://user:password@host:5432/database.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_obj
def migrate(state: CliState, url: str, as_json: bool) -> None:  # fmt: skip
    """Copy this data directory's memory (memory.db) into PostgreSQL: messages, jobs, facts
    and their history, vectors, members, settings, opt-outs, profiles, the audit log. Stop it
    any time and run it again to go on; memory.db is left as it was."""
    from bot.commands_migrate import move_to_postgres
    from memory.storage.postgres.connection import shown

    settings = state.settings()
    tally = run_async(move_to_postgres(settings, url, quiet=as_json))
    if as_json:
        echo_json({"complete": tally.complete, "counts": {
            name: {"sqlite": mine, "postgresql": theirs}
            for name, (mine, theirs) in tally.counts.items()
        }})  # fmt: skip
    else:
        width = max(len(name) for name in tally.counts)
        click.echo(f"{'':{width}}  {'sqlite':>10}  {'postgresql':>10}")
        for name, (mine, theirs) in tally.counts.items():
            flag = "" if theirs >= mine else "  MISSING"
            click.echo(f"{name:{width}}  {mine:>10,}  {theirs:>10,}{flag}")
    if not tally.complete:
        raise click.ClickException("some rows were not copied: run the same command again")
    if not as_json:
        where = shown(url) + (" (with its password)" if shown(url) != url else "")
        click.echo(
            f"moved: set MEMORYBOT_DATABASE_URL={where} and restart memorybot; "
            f"{settings.db_path} is left as it was (a backup until you remove it)"
        )
