"""The ``memorybot`` command line.

Errors: one clear line and a non-zero exit; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from bot.cli_base import (
    CliState,
    db_path_of,
    echo_json,
    fewer_malloc_arenas,
    run_async,
    snowflake,
)
from bot.cli_migrate import migrate
from bot.cli_moderation import events, forget, optout
from bot.cli_read import search, slice_cmd, stats
from memory.errors import ConfigError, MemorybotError, UnrecoverableError
from memory.settings import load_settings
from memory.storage.damage import DamageLogFilter
from memory.storage.permissions import PRIVATE_UMASK

log = logging.getLogger(__name__)

EXIT_NOTHING_EXTRACTED = 3
"""``import``: every message stored, but not one extraction succeeded (the LLM endpoint is
down, say); ``backfill --extraction`` re-runs them."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Debug logging, and tracebacks on errors.")
@click.option("-v", "--verbose", is_flag=True, help="Informational logging.")
@click.option(
    "--data-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Data directory (overrides MEMORYBOT_DATA_DIR).",
)
@click.version_option(package_name="memorybot")
@click.pass_context
def cli(ctx: click.Context, debug: bool, verbose: bool, data_dir: Path | None) -> None:
    """memorybot: a Discord bot that remembers what a community tells it."""
    level = logging.DEBUG if debug else logging.INFO if verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not debug:  # a damaged database: one line per place, no tracebacks (see main)
        for handler in logging.getLogger().handlers:
            handler.addFilter(DamageLogFilter())
    os.umask(PRIVATE_UMASK)  # what memorybot writes (members' words) is for its user only
    fewer_malloc_arenas()
    ctx.obj = CliState(debug=debug, data_dir=data_dir)


@cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--defer", is_flag=True, help="Only store and queue; do not wait for processing.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def import_cmd(state: CliState, paths: tuple[Path, ...], defer: bool, as_json: bool) -> None:
    """Import DiscordChatExporter JSON exports (files or folders), streamed and idempotent."""
    from bot.commands_ingest import run_import

    settings = state.settings()
    summary, errors = run_async(run_import(settings, list(paths), defer=defer, quiet=as_json))
    if as_json:
        echo_json({**summary.as_dict(), "errors": errors})
    else:
        reasons = ", ".join(f"{n} {r}" for r, n in sorted(summary.skipped.items())) or "none"
        click.echo(
            f"imported {summary.files} file(s): read {summary.read}, new {summary.new}, "
            f"skipped {summary.skipped_total} ({reasons}), queued {summary.queued}"
            + (f", repaired {summary.repaired}" if summary.repaired else "")
            + (" (processing deferred)" if defer else "")
        )
        for note in summary.notes:
            click.echo(f"warning: {note}", err=True)
        if summary.not_exports:
            click.echo(f"ignored {len(summary.not_exports)} JSON file(s) that are not exports")
    failed = summary.extraction_failed
    if failed:
        tried = failed + summary.extracted
        click.echo(
            f"extraction failed for {failed} of {tried} message(s) (they are stored; "
            "`memorybot backfill --extraction` extracts them once the extractor works)",
            err=True,
        )
    for error in errors:
        click.echo(f"error: {error}", err=True)
    if errors:
        sys.exit(1)
    if failed and not summary.extracted:
        sys.exit(EXIT_NOTHING_EXTRACTED)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--repair", "repair", is_flag=True,
    help="Save what can be read of a damaged database into a new one (the damaged file is "
    "kept aside). Stop memorybot first.",
)  # fmt: skip
@click.pass_obj
def doctor(state: CliState, as_json: bool, repair: bool) -> None:
    """Check settings, SQLite (quick_check), FTS5, sqlite-vec and the data directory."""
    from bot.doctor import repair_database, run_doctor

    if repair:
        click.echo(run_async(repair_database(state.data_dir)))
        return
    report = run_async(run_doctor(state.data_dir))
    if as_json:
        echo_json(report)
    else:
        for check in report["checks"]:
            mark = "ok " if check["ok"] else "ERR"
            click.echo(f"[{mark}] {check['name']}: {check['detail']}")
    if not report["ok"]:
        sys.exit(1)


@cli.command()
@click.option(
    "--extraction", is_flag=True, help="Re-run fact extraction for failed and dropped jobs."
)
@click.option(
    "--embeddings", is_flag=True, help="Embed facts that lack a vector of the current model."
)
@click.option(
    "--lifecycle", is_flag=True,
    help="Merge paraphrases, supersede contradictions and cap by value in facts stored before.",
)  # fmt: skip
@click.option("--all", "everything", is_flag=True, help="Also re-run messages already processed.")
@click.option("--guild", "guild_id", default=None, help="Only this guild.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def backfill(
    state: CliState,
    extraction: bool,
    embeddings: bool,
    lifecycle: bool,
    everything: bool,
    guild_id: str | None,
    as_json: bool,
) -> None:
    """Re-run work that failed or was dropped (choose what with a flag)."""
    if not extraction and not embeddings and not lifecycle:
        raise click.UsageError(
            "choose what to backfill: --extraction, --embeddings and/or --lifecycle"
        )
    from bot.commands_ingest import backfill_embeddings, backfill_extraction, backfill_lifecycle

    report: dict[str, Any] = {}
    failed = 0
    if extraction:
        summary = run_async(
            backfill_extraction(
                state.settings(), guild_id=guild_id, everything=everything, quiet=as_json
            )
        )
        report["extraction"] = asdict(summary)
        failed += summary.failed
        if not as_json:
            click.echo(
                f"re-ran extraction of {summary.requeued} message(s) in {summary.guilds} "
                f"guild(s); {summary.failed} job(s) failed (see memorybot stats)"
            )
    if embeddings:
        summary = run_async(backfill_embeddings(state.settings(), guild_id=guild_id, quiet=as_json))
        report["embeddings"] = asdict(summary)
        failed += summary.failed
        if not as_json:
            click.echo(
                f"embedded {summary.requeued} fact(s) in {summary.guilds} guild(s); "
                f"{summary.failed} still without a vector"
            )
    if lifecycle:
        counts = run_async(backfill_lifecycle(state.settings(), guild_id=guild_id, quiet=as_json))
        report["lifecycle"] = counts
        if not as_json:
            click.echo(
                f"merged {counts['merged']} paraphrase(s), superseded {counts['superseded']} "
                f"contradicted fact(s), archived {counts['archived']} past the caps"
            )
    if as_json:
        echo_json(next(iter(report.values())) if len(report) == 1 else report)
    if failed:
        sys.exit(1)


@cli.command()
@click.option("--guild", "guild_id", default=None, help="Only this guild.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def profiles(state: CliState, guild_id: str | None, as_json: bool) -> None:
    """Let the LLM write each member's profile paragraph from their facts now (where they
    changed), and rewrite MEMORY.md; needs MEMORYBOT_LLM_MODEL. Exits 1 if some failed."""
    from bot.commands_profiles import describe, write_profiles

    guild = snowflake(guild_id, "--guild")
    tally = run_async(write_profiles(state.settings(), guild_id=guild, quiet=as_json))
    if as_json:
        echo_json(tally.as_dict())
    else:
        click.echo(describe(tally))
    if tally.failed:
        sys.exit(1)


@cli.command("refresh-journals")
@click.option("--guild", "guild_id", default=None, help="Only this guild.")
@click.pass_obj
def refresh_journals(state: CliState, guild_id: str | None) -> None:
    """Write the daily-log lines missing (every stored message has one) and rewrite every
    MEMORY.md snapshot."""
    from memory.runtime import open_memory

    async def refresh() -> tuple[int, list[str]]:
        async with open_memory(state.settings(), start_queue=False) as memory:
            lines = await memory.journal_backlog(guild_id)
            if guild_id:
                await memory.refresh(guild_id)
                return lines, [guild_id]
            return lines, await memory.refresh_all()

    lines, guilds = run_async(refresh())
    click.echo(
        f"wrote {lines} missing daily-log line(s); refreshed MEMORY.md of {len(guilds)} guild(s) "
        f"under {state.settings().journals_dir}"
    )


@cli.command()
@click.pass_obj
def run(state: CliState) -> None:
    """Run the Discord bot (needs DISCORD_TOKEN), with the API and page beside it."""
    from bot.commands_serve import announce, log_at_least
    from bot.run import discord_token, run_bot

    settings = state.settings()
    token = discord_token(settings)
    log_at_least(logging.INFO)  # a service says what it does: at start, and what goes wrong
    run_async(run_bot(settings, token, announce=lambda s: announce(s, None, show_token=False)))


@cli.command("sync-commands")
@click.option("--guild", "guild_id", default=None,
              help="Register to this server only (default: MEMORYBOT_DEV_GUILD, else "
              "globally).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the outcome and payload as JSON.")
@click.pass_obj
def sync_commands(state: CliState, guild_id: str | None, as_json: bool) -> None:
    """Register the slash commands with Discord now (needs DISCORD_TOKEN), even if unchanged."""
    from bot.command_sync import describe_access
    from bot.run import discord_token, sync_commands_now

    settings = state.settings()
    guild_id = snowflake(guild_id, "--guild")
    outcome = run_async(sync_commands_now(settings, discord_token(settings), guild_id))
    if as_json:
        echo_json({"status": outcome.status, "guildId": guild_id or settings.dev_guild,
                    "error": outcome.error or None, "commands": list(outcome.payload)})  # fmt: skip
    elif outcome.status == "registered":
        click.echo(f"registered {len(outcome.payload)} commands {outcome.target.describe()}:")
        for command, name in zip(outcome.payload, outcome.commands, strict=True):
            click.echo(f"  {name} — {describe_access(command)}")
        if outcome.target.guild_id is None:
            click.echo("Global commands can take a few minutes to show up; reload Discord "
                       "(Ctrl-R) if they do not.")  # fmt: skip
    if outcome.status == "failed":
        click.echo(f"error: {outcome.error}", err=True)
        sys.exit(1)


@cli.command()
@click.option("--port", type=click.IntRange(0, 65_535), default=None,
              help="Port (default: MEMORYBOT_API_PORT; 0: any free port).")  # fmt: skip
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Processes serving (default: MEMORYBOT_API_WORKERS).")  # fmt: skip
@click.pass_obj
def serve(state: CliState, port: int | None, workers: int | None) -> None:
    """Serve the HTTP API and the moderator page (no Discord) until Ctrl-C."""
    from bot.commands_serve import serve_api

    settings = state.settings()
    run_async(serve_api(settings, port, workers or settings.api_workers))


@cli.command()
@click.option("--port", type=click.IntRange(0, 65_535), default=None,
              help="Port (default: MEMORYBOT_API_PORT; 0: any free port).")  # fmt: skip
@click.pass_obj
def demo(state: CliState, port: int | None) -> None:
    """Import the bundled sample community into a demo data directory (./memorybot-demo, or
    --data-dir) and serve the API and moderator page over it, offline."""
    from bot.commands_serve import DEMO_DIR, run_demo

    settings = load_settings(data_dir=state.data_dir or DEMO_DIR)
    click.echo(f"importing the sample community into {settings.data_dir} …")
    sys.stdout.flush()
    run_async(run_demo(settings, port))


for command in (events, forget, optout, migrate, search, slice_cmd, stats):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: turn memorybot errors into one line and an exit code."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="memorybot", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo(
            "interrupted: what was stored is kept; run the same command again to finish",
            err=True,
        )
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except Exception as exc:
        from memory.storage.damage import damage_line, is_damage

        if debug or not (is_damage(exc) or isinstance(exc, MemorybotError | OSError)):
            raise
        if is_damage(exc) and not isinstance(exc, UnrecoverableError):
            click.echo(f"error: {damage_line(db_path_of(argv), exc)}", err=True)
            sys.exit(1)
        prefix = "configuration error" if isinstance(exc, ConfigError) else "error"
        click.echo(f"{prefix}: {exc}", err=True)
        sys.exit(1)


if __name__ == "__main__":  # python -m bot.cli: the console script without installing it
    main()
