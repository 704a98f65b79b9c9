"""The ``memorybot`` command line.

Errors: one clear line and a non-zero exit; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import AsyncIterator, Coroutine
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from memory import ids
from memory.errors import ConfigError, MemorybotError
from memory.settings import Settings, load_settings

if TYPE_CHECKING:
    from memory.search.retriever import Retriever

T = TypeVar("T")
log = logging.getLogger(__name__)


class CliState:
    def __init__(self, debug: bool, data_dir: Path | None) -> None:
        self.debug = debug
        self.data_dir = data_dir

    def settings(self) -> Settings:
        overrides: dict[str, Any] = {}
        if self.data_dir is not None:
            overrides["data_dir"] = self.data_dir
        return load_settings(**overrides)


def _run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def _echo_json(payload: Any) -> None:
    click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))


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
    ctx.obj = CliState(debug=debug, data_dir=data_dir)


@cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--defer", is_flag=True, help="Only store and queue; do not wait for processing.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def import_cmd(state: CliState, paths: tuple[Path, ...], defer: bool, as_json: bool) -> None:
    """Import DiscordChatExporter JSON exports (files or folders), streamed and idempotent."""
    from bot.commands_import import run_import

    settings = state.settings()
    summary, errors = _run(run_import(settings, list(paths), defer=defer, quiet=as_json))
    if as_json:
        _echo_json({**summary.as_dict(), "errors": errors})
    else:
        reasons = ", ".join(f"{n} {r}" for r, n in sorted(summary.skipped.items())) or "none"
        click.echo(
            f"imported {summary.files} file(s): read {summary.read}, new {summary.new}, "
            f"skipped {summary.skipped_total} ({reasons}), queued {summary.queued}"
            + (" (processing deferred)" if defer else "")
        )
        if summary.not_exports:
            click.echo(f"ignored {len(summary.not_exports)} JSON file(s) that are not exports")
    for error in errors:
        click.echo(f"error: {error}", err=True)
    if errors:
        sys.exit(1)


@cli.command()
@click.option("--guild", "guild_id", default=None, help="Only this guild.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def stats(state: CliState, guild_id: str | None, as_json: bool) -> None:
    """Per guild: messages, facts, and pending / dropped / failed ingest jobs."""
    from memory.storage.store import Store

    async def collect() -> list[dict[str, Any]]:
        # Reads only: no data-directory lock, so it works beside a running import or bot.
        async with await Store.open(state.settings().db_path) as store:
            guilds = [guild_id] if guild_id else await store.guild_ids()
            return [asdict(await store.stats(g)) for g in guilds]

    rows = _run(collect())
    if as_json:
        _echo_json({"guilds": rows})
        return
    if not rows:
        click.echo("no guilds yet: import an export or run the bot")
        return
    header = f"{'guild':<20} {'name':<24} {'messages':>9} {'facts':>11} {'pending':>8} "
    header += f"{'dropped':>8} {'failed':>7}"
    click.echo(header)
    for r in rows:
        facts = f"{r['active_facts']}/{r['facts']}"
        click.echo(
            f"{r['guild_id']:<20} {r['name'][:24]:<24} {r['messages']:>9} {facts:>11} "
            f"{r['pending_jobs']:>8} {r['dropped_jobs']:>8} {r['failed_jobs']:>7}"
        )


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def doctor(state: CliState, as_json: bool) -> None:
    """Check settings, SQLite, FTS5, sqlite-vec and the data directory."""
    from bot.doctor import run_doctor

    report = _run(run_doctor(state.data_dir))
    if as_json:
        _echo_json(report)
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
@click.option("--all", "everything", is_flag=True, help="Also re-run messages already processed.")
@click.option("--guild", "guild_id", default=None, help="Only this guild.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def backfill(
    state: CliState,
    extraction: bool,
    embeddings: bool,
    everything: bool,
    guild_id: str | None,
    as_json: bool,
) -> None:
    """Re-run work that failed or was dropped (choose what with a flag)."""
    if not extraction and not embeddings:
        raise click.UsageError("choose what to backfill: --extraction and/or --embeddings")
    from bot.commands_backfill import backfill_embeddings, backfill_extraction

    report: dict[str, Any] = {}
    failed = 0
    if extraction:
        summary = _run(
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
        summary = _run(backfill_embeddings(state.settings(), guild_id=guild_id, quiet=as_json))
        report["embeddings"] = asdict(summary)
        failed += summary.failed
        if not as_json:
            click.echo(
                f"embedded {summary.requeued} fact(s) in {summary.guilds} guild(s); "
                f"{summary.failed} still without a vector"
            )
    if as_json:
        _echo_json(next(iter(report.values())) if len(report) == 1 else report)
    if failed:
        sys.exit(1)


def _snowflake(value: str | None, option: str) -> str | None:
    if value is not None and not ids.is_discord_id(value):
        raise click.BadParameter(f"{value!r} is not {ids.DESCRIPTION}", param_hint=option)
    return value


@contextlib.asynccontextmanager
async def _retriever(state: CliState, guild_id: str | None) -> AsyncIterator[tuple[Retriever, str]]:
    """A retriever with the configured embedder over the store (read beside a running bot:
    no data-directory lock), and the guild asked for or the only one."""
    from memory.search.embeddings import build_embedder
    from memory.search.retriever import Retriever
    from memory.search.semantic import Semantic
    from memory.storage.store import Store

    settings = state.settings()
    async with await Store.open(settings.db_path) as store:
        guild = await _guild_or_only(store, guild_id)
        retriever = Retriever(store, Semantic(store, build_embedder(settings)))
        try:
            yield retriever, guild
        finally:
            await retriever.close()


async def _guild_or_only(store: Any, guild_id: str | None) -> str:
    """The guild asked for, or the only one there is."""
    if guild_id:
        return guild_id
    guilds = await store.guild_ids()
    if len(guilds) == 1:
        return str(guilds[0])
    if not guilds:
        raise MemorybotError("no guilds yet: import an export or run the bot")
    raise click.UsageError("several guilds: choose one with --guild (see memorybot stats)")


@cli.command()
@click.argument("query")
@click.option("--guild", "guild_id", default=None, help="Guild id (default: the only one).")
@click.option("--channel", "channel_id", default=None, help="Channel id (a ranking hint).")
@click.option("--user", "user_id", default=None, help="Only this member's facts.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 24, clamp=True))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def search(
    state: CliState, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, limit: int, as_json: bool,
) -> None:  # fmt: skip
    """Search a guild's durable facts (hybrid, relevance-gated)."""

    guild_id = _snowflake(guild_id, "--guild")
    channel_id = _snowflake(channel_id, "--channel")
    user_id = _snowflake(user_id, "--user")

    async def run() -> list[dict[str, Any]]:
        from memory.search.results import fact_json

        async with _retriever(state, guild_id) as (retriever, guild):
            hits = await retriever.search(
                guild, query, channel_id=channel_id, limit=limit,
                subjects=[user_id] if user_id else None,
            )  # fmt: skip
            return [fact_json(h) for h in hits]

    results = _run(run())
    if as_json:
        _echo_json({"query": query, "results": results})
        return
    if not results:
        click.echo("no relevant facts")
    for r in results:
        click.echo(
            f"{r['score']:.3f}  {r['fact']}  [{r['subjectName'] or r['subject']}, {r['type']}, "
            f"confidence {r['confidence']:.2f}, message {r['sourceMessageId']}]"
        )


@cli.command("slice")
@click.argument("query")
@click.option("--guild", "guild_id", default=None, help="Guild id (default: the only one).")
@click.option("--channel", "channel_id", default=None, help="The channel asked in.")
@click.option("--user", "user_id", default=None, help="The member asking.")
@click.option(
    "--limit",
    default=None,
    type=click.IntRange(1, 10, clamp=True),
    help="At most this many items per section (default 8 / 10 / 8).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def slice_cmd(
    state: CliState, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, limit: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Show the prompt memory slice a reply to QUERY would see."""

    guild_id = _snowflake(guild_id, "--guild")
    channel_id = _snowflake(channel_id, "--channel")
    user_id = _snowflake(user_id, "--user")

    async def run() -> dict[str, Any]:
        from memory.search.results import slice_json

        async with _retriever(state, guild_id) as (retriever, guild):
            memory = await retriever.slice(guild, query, channel_id=channel_id, user_id=user_id)
            if limit is not None:
                memory.user_facts = memory.user_facts[:limit]
                memory.relevant_facts = memory.relevant_facts[:limit]
                memory.relevant_messages = memory.relevant_messages[:limit]
            return slice_json(memory)

    result = _run(run())
    if as_json:
        _echo_json({"query": query, **result})
        return
    for key, title in (("userFacts", "facts about you"), ("relevantFacts", "relevant facts")):
        click.echo(f"{title}:")
        for r in result[key]:
            click.echo(f"  - {r['fact']}  [{r['subjectName'] or r['subject']}, {r['score']:.3f}]")
    click.echo("relevant messages:")
    for r in result["relevantMessages"]:
        for turn in r["context"]:
            mark = ">" if turn["id"] == r["id"] else " "
            click.echo(
                f"  {mark} {turn['createdAt'][:16]} {turn['authorName']}: {turn['content'][:140]}"
            )
        click.echo("")


@cli.command("refresh-journals")
@click.option("--guild", "guild_id", default=None, help="Only this guild.")
@click.pass_obj
def refresh_journals(state: CliState, guild_id: str | None) -> None:
    """Write missing daily-log lines and rewrite every MEMORY.md snapshot."""
    from memory.runtime import open_memory

    async def refresh() -> tuple[int, list[str]]:
        async with open_memory(state.settings(), start_queue=False) as memory:
            lines = await memory.journal_backlog()
            if guild_id:
                await memory.refresh(guild_id)
                return lines, [guild_id]
            return lines, await memory.refresh_all()

    lines, guilds = _run(refresh())
    click.echo(
        f"wrote {lines} missing daily-log line(s); refreshed MEMORY.md of {len(guilds)} guild(s) "
        f"under {state.settings().journals_dir}"
    )


@cli.command()
@click.option("--guild", "guild_id", required=True, help="Guild id.")
@click.option("--user", "user_id", required=True, help="The member's user id.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def forget(state: CliState, guild_id: str, user_id: str, yes: bool, as_json: bool) -> None:
    """Forget a member of a guild: their messages, the facts about them or from their
    messages, their vectors and daily-log lines (what /memory purge-user does)."""
    guild = _snowflake(guild_id, "--guild") or guild_id
    user = _snowflake(user_id, "--user") or user_id
    if not yes and not _confirmed(
        f"Delete everything memorybot keeps of member {user} in guild {guild}? "
        "This cannot be undone."
    ):
        click.echo("aborted: nothing was deleted", err=True)
        sys.exit(1)
    from memory.forgetting import ForgetSummary
    from memory.runtime import open_memory

    async def run() -> ForgetSummary:
        async with open_memory(state.settings(), start_queue=False) as memory:
            return await memory.forget_member(guild, user)

    summary = _run(run())
    if as_json:
        _echo_json({"guildId": guild, "userId": user, **summary.as_dict()})
    else:
        click.echo(f"forgot member {user} in guild {guild}: {summary.describe()}")


def _confirmed(question: str) -> bool:
    """Ask on stderr (stdout may be JSON); no answer (end of input) is a no."""
    try:
        return click.confirm(question, default=False, err=True)
    except click.Abort:
        return False


@cli.command()
@click.pass_obj
def run(state: CliState) -> None:
    """Run the Discord bot (needs DISCORD_TOKEN), with the API and page beside it."""
    from bot.run import discord_token, run_bot

    settings = state.settings()
    token = discord_token(settings)
    _log_at_least(logging.INFO)  # a service says what it does: at start, and what goes wrong
    _run(run_bot(settings, token, announce=lambda s: _announce(s, None, show_token=False)))


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
    guild_id = _snowflake(guild_id, "--guild")
    outcome = _run(sync_commands_now(settings, discord_token(settings), guild_id))
    if as_json:
        _echo_json({"status": outcome.status, "guildId": guild_id or settings.dev_guild,
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


def _log_at_least(level: int) -> None:
    root = logging.getLogger()
    if root.getEffectiveLevel() > level:
        root.setLevel(level)


DEMO_DIR = Path("memorybot-demo")


def _announce(serving: Any, guild_id: str | None, *, show_token: bool) -> None:
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


@cli.command()
@click.option("--port", type=click.IntRange(0, 65_535), default=None,
              help="Port (default: MEMORYBOT_API_PORT; 0: any free port).")  # fmt: skip
@click.pass_obj
def serve(state: CliState, port: int | None) -> None:
    """Serve the HTTP API and the moderator page (no Discord) until Ctrl-C."""
    from dashboard_api.server import serve_forever

    settings = state.settings()

    async def run() -> None:
        await serve_forever(
            settings, port=port, announce=lambda s: _announce(s, None, show_token=False)
        )

    _run(run())


@cli.command()
@click.option("--port", type=click.IntRange(0, 65_535), default=None,
              help="Port (default: MEMORYBOT_API_PORT; 0: any free port).")  # fmt: skip
@click.pass_obj
def demo(state: CliState, port: int | None) -> None:
    """Import the bundled sample community into a demo data directory (./memorybot-demo, or
    --data-dir) and serve the API and moderator page over it, offline."""
    from importlib import resources

    from bot.commands_import import run_import
    from dashboard_api.server import serve_forever

    settings = load_settings(data_dir=state.data_dir or DEMO_DIR)
    sample = resources.files("memory.samples") / "sample_export.json"
    click.echo(f"importing the sample community into {settings.data_dir} …")
    sys.stdout.flush()

    async def run() -> None:
        with resources.as_file(sample) as path:
            summary, errors = await run_import(settings, [path], quiet=True)
        if errors:
            raise MemorybotError("; ".join(errors))
        from memory.storage.store import Store

        async with await Store.open(settings.db_path) as store:
            guilds = await store.guild_ids()
            stats = [await store.stats(g) for g in guilds]
        click.echo(
            f"{summary.read} messages read, {summary.new} new; "
            + ", ".join(f"{s.name or s.guild_id}: {s.active_facts} facts" for s in stats)
        )
        await serve_forever(
            settings, port=port,
            announce=lambda s: _announce(s, guilds[0] if guilds else None, show_token=True),
        )  # fmt: skip

    _run(run())


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
    except (MemorybotError, OSError) as exc:
        if debug:
            raise
        prefix = "configuration error" if isinstance(exc, ConfigError) else "error"
        click.echo(f"{prefix}: {exc}", err=True)
        sys.exit(1)
