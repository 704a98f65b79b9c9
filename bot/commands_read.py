"""``memorybot stats``, ``search`` and ``slice``: reading a guild's memory, and printing it.

Reads only, through ``memory.runtime.reading_memory`` (no data-directory lock, nothing
started), so these work beside a running import or bot. The search and the slice use the
configured embedder; the guild is the one asked for, or the only one there is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import click

from memory.errors import MemorybotError
from memory.runtime import Memory, reading_memory
from memory.settings import Settings

# --- stats --------------------------------------------------------------------------------


async def stats_rows(settings: Settings, guild_id: str | None) -> list[dict[str, Any]]:
    """Per guild (``guild_id``, else every one): the store's stats as a dict, and its active
    facts without a vector of the configured embedding model (left by a crash, or a model
    switched: ``backfill --embeddings``)."""
    async with reading_memory(settings) as memory:
        guilds = [guild_id] if guild_id else await memory.guild_ids()
        rows = []
        for guild in guilds:
            row = asdict(await memory.stats(guild))
            row["facts_without_vectors"] = await memory.missing_vectors(guild)
            row["members_to_judge"] = await memory.members_to_judge(guild)
            rows.append(row)
        return rows


def echo_stats(rows: list[dict[str, Any]]) -> None:
    """The stats rows as a table (or how to get some)."""
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
    waiting = sum(r["members_to_judge"] for r in rows)
    if waiting:  # an import stopped before its end
        click.echo(
            f"members whose imported facts wait to be judged: {waiting} (the next memorybot "
            "run, import or backfill judges them once its queue is idle)"
        )
    unembedded = sum(r["facts_without_vectors"] for r in rows)
    hint = " (memorybot backfill --embeddings embeds them)" if unembedded else ""
    click.echo(f"facts without vectors: {unembedded}{hint}")


# --- the guild -----------------------------------------------------------------------------


async def guild_or_only(memory: Memory, guild_id: str | None) -> str:
    """The guild asked for, or the only one there is."""
    if guild_id:
        return guild_id
    guilds = await memory.guild_ids()
    if len(guilds) == 1:
        return str(guilds[0])
    if not guilds:
        raise MemorybotError("no guilds yet: import an export or run the bot")
    raise click.UsageError("several guilds: choose one with --guild (see memorybot stats)")


# --- the audit log -------------------------------------------------------------------------


async def audit_events(
    settings: Settings, guild_id: str | None, *, limit: int, before: int | None,
    kinds: Sequence[str],
) -> list[dict[str, Any]]:  # fmt: skip
    """The guild's newest audit events (below id ``before``; of ``kinds``), as JSON."""
    from memory.audit import event_json

    async with reading_memory(settings) as memory:
        guild = await guild_or_only(memory, guild_id)
        found = await memory.events(guild, limit=limit, before=before, kinds=kinds)
        names = await memory.member_names(guild)
        return [event_json(e, names) for e in found]


def echo_events(rows: list[dict[str, Any]]) -> None:
    """One line per event: id, time, kind, who, what it touched, and the detail."""
    if not rows:
        click.echo("no events (yet, or none of that kind)")
        return
    for r in rows:
        who = r["actorName"] or r["actor"]
        noun = r["kind"].split(".")[0]
        about = f" {noun} {r['objectId']}" if noun in ("fact", "message", "channel") else ""
        if r["subject"]:
            about += f" about {r['subjectName'] or r['subject']}"
        click.echo(f"{r['id']:>8} {r['at'][:19]} {r['kind']:<17} by {who}{about}: {r['detail']}")


# --- search -------------------------------------------------------------------------------


async def search_found(
    settings: Settings, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, limit: int, kind: str = "facts",
) -> dict[str, Any]:  # fmt: skip
    """The guild's durable facts and/or messages relevant to ``query`` (``kind``: facts,
    messages or all), best first, in the API's JSON shape (``memory.search_kinds``):
    ``{kind, results?, messages?}``. ``user_id``: only facts about that member."""
    from memory import search_kinds

    async with reading_memory(settings) as memory:
        guild = await guild_or_only(memory, guild_id)
        found = await search_kinds.search(
            memory, guild, query, search_kinds.parse_kind(kind), channel_id=channel_id,
            limit=limit, subjects=[user_id] if user_id else None,
        )  # fmt: skip
        return search_kinds.search_json(found)


def echo_search(found: dict[str, Any]) -> None:
    """One line per fact found, then each message found with its neighbouring turns (the
    hit marked ">"); or that none was."""
    results = found.get("results")
    if results is not None and not results:
        click.echo("no relevant facts")
    for r in results or []:
        click.echo(
            f"{r['score']:.3f}  {r['fact']}  [{r['subjectName'] or r['subject']}, {r['type']}, "
            f"confidence {r['confidence']:.2f}, message {r['sourceMessageId']}]"
        )
    messages = found.get("messages")
    if messages is None:
        return
    if results is not None:
        click.echo("")
    if not messages:
        click.echo("no relevant messages")
    for r in messages:
        where = r["link"] or f"channel {r['channelId']}, message {r['id']}"
        click.echo(f"{r['score']:.3f}  {r['authorName']} at {r['createdAt'][:16]}  [{where}]")
        for turn in r["context"]:
            mark = ">" if turn["id"] == r["id"] else " "
            click.echo(
                f"  {mark} {turn['createdAt'][:16]} {turn['authorName']}: {turn['content'][:140]}"
            )


# --- slice --------------------------------------------------------------------------------


async def memory_slice(
    settings: Settings, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, limit: int | None, *, budget: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The prompt memory slice a reply to ``query`` would see within ``budget`` characters
    (default: the setting), in its JSON shape; ``limit`` cuts each section."""
    from memory.search.results import slice_json

    async with reading_memory(settings) as memory:
        guild = await guild_or_only(memory, guild_id)
        found = await memory.slice(
            guild, query, channel_id=channel_id, user_id=user_id, budget=budget
        )
    if limit is not None:
        found.user_facts = found.user_facts[:limit]
        found.relevant_facts = found.relevant_facts[:limit]
        found.relevant_messages = found.relevant_messages[:limit]
    return {
        "budget": budget or settings.slice_budget,
        "shownChars": found.shown_chars(),
        **slice_json(found),
    }


def echo_slice(result: dict[str, Any]) -> None:
    """The slice's sections: facts about the member, relevant facts, relevant messages."""
    click.echo(f"{result['shownChars']:,} of {result['budget']:,} characters shown")
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
