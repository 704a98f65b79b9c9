"""``memorybot stats``, ``search`` and ``slice``: reading a guild's memory, and printing it.

Reads only: the store is opened without the data-directory lock, so these work beside a
running import or bot. The search and the slice use the configured embedder; the guild is the
one asked for, or the only one there is.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import click

from memory.errors import MemorybotError
from memory.settings import Settings
from memory.store import Store

if TYPE_CHECKING:
    from memory.search.retriever import Retriever


# --- stats --------------------------------------------------------------------------------


async def stats_rows(settings: Settings, guild_id: str | None) -> list[dict[str, Any]]:
    """Per guild (``guild_id``, else every one): the store's stats as a dict."""
    # Reads only: no data-directory lock, so it works beside a running import or bot.
    async with await Store.open(settings.db_path) as store:
        guilds = [guild_id] if guild_id else await store.guild_ids()
        return [asdict(await store.stats(g)) for g in guilds]


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


# --- the retriever ------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def open_retriever(
    settings: Settings, guild_id: str | None
) -> AsyncIterator[tuple[Retriever, str]]:
    """A retriever with the configured embedder over the store (read beside a running bot:
    no data-directory lock), and the guild asked for or the only one."""
    from memory.embeddings import build_embedder
    from memory.search.retriever import Retriever
    from memory.semantic import Semantic

    async with await Store.open(settings.db_path) as store:
        guild = await guild_or_only(store, guild_id)
        retriever = Retriever(store, Semantic(store, build_embedder(settings)))
        try:
            yield retriever, guild
        finally:
            await retriever.close()


async def guild_or_only(store: Any, guild_id: str | None) -> str:
    """The guild asked for, or the only one there is."""
    if guild_id:
        return guild_id
    guilds = await store.guild_ids()
    if len(guilds) == 1:
        return str(guilds[0])
    if not guilds:
        raise MemorybotError("no guilds yet: import an export or run the bot")
    raise click.UsageError("several guilds: choose one with --guild (see memorybot stats)")


# --- search -------------------------------------------------------------------------------


async def search_facts(
    settings: Settings, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, limit: int,
) -> list[dict[str, Any]]:  # fmt: skip
    """The guild's durable facts relevant to ``query``, best first, in their JSON shape."""
    from memory.search.results import fact_json

    async with open_retriever(settings, guild_id) as (retriever, guild):
        hits = await retriever.search(
            guild, query, channel_id=channel_id, limit=limit,
            subjects=[user_id] if user_id else None,
        )  # fmt: skip
        return [fact_json(h) for h in hits]


def echo_search(results: list[dict[str, Any]]) -> None:
    """One line per fact found (or that none was)."""
    if not results:
        click.echo("no relevant facts")
    for r in results:
        click.echo(
            f"{r['score']:.3f}  {r['fact']}  [{r['subjectName'] or r['subject']}, {r['type']}, "
            f"confidence {r['confidence']:.2f}, message {r['sourceMessageId']}]"
        )


# --- slice --------------------------------------------------------------------------------


async def memory_slice(
    settings: Settings, query: str, guild_id: str | None, channel_id: str | None,
    user_id: str | None, limit: int | None,
) -> dict[str, Any]:  # fmt: skip
    """The prompt memory slice a reply to ``query`` would see, in its JSON shape; ``limit``
    cuts each section."""
    from memory.search.results import slice_json

    async with open_retriever(settings, guild_id) as (retriever, guild):
        memory = await retriever.slice(guild, query, channel_id=channel_id, user_id=user_id)
        if limit is not None:
            memory.user_facts = memory.user_facts[:limit]
            memory.relevant_facts = memory.relevant_facts[:limit]
            memory.relevant_messages = memory.relevant_messages[:limit]
        return slice_json(memory)


def echo_slice(result: dict[str, Any]) -> None:
    """The slice's sections: facts about the member, relevant facts, relevant messages."""
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
