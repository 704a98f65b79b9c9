"""A small community for the tests of search by kind (API, page, CLI): two guilds' exports
imported through the real importer (no extractor: the facts are the seeded ones), and facts
that say some of it."""

from __future__ import annotations

from pathlib import Path

from memory.settings import load_settings
from memory.storage.store import Store
from tests.helpers import (
    CHANNEL_A,
    CHANNEL_B,
    GUILD_A,
    GUILD_B,
    MIKE,
    SARAH,
    add_fact,
    export_id,
    export_message,
    write_export,
)

POTTERY = 1  # Sarah's message about her pottery class (guild A)
ANSWER = 2  # Mike's answer to it
NURSE = 5  # Sarah's message about her nurse shifts (guild A)
GUILD_B_POTTERY = 21  # a look-alike pottery message in guild B
POTTERY_TIME = "2026-10-12T18:03:11.123+00:00"

CHAT_A = [
    (POTTERY, SARAH, "my pottery class moved to thursday evenings", POTTERY_TIME),
    (ANSWER, MIKE, "nice, is it still at the community centre?", "2026-10-12T18:04:00.000+00:00"),
    (3, SARAH, "yes, same kiln room as before", "2026-10-12T18:05:00.000+00:00"),
    (4, MIKE, "I finally fixed the bass amp, the tubes were dead", "2026-10-12T18:06:00.000+00:00"),
    (NURSE, SARAH, "night shifts again, nurse life is tiring", "2026-10-12T18:07:00.000+00:00"),
    (6, MIKE, "I think so too, the gig starts at nine", "2026-10-12T18:08:00.000+00:00"),
    (7, SARAH, "we should get tacos after the gig", "2026-10-12T18:09:00.000+00:00"),
]  # fmt: skip
CHAT_B = [(GUILD_B_POTTERY, MIKE, "the pottery class here is on mondays", POTTERY_TIME)]


def link(n: int, guild: str = GUILD_A, channel: str = CHANNEL_A) -> str:
    return f"https://discord.com/channels/{guild}/{channel}/{export_id(n)}"


def write_exports(folder: Path) -> list[Path]:
    """Guild A's chat and guild B's, as two DiscordChatExporter files."""
    folder.mkdir(parents=True, exist_ok=True)
    chats = [(GUILD_A, CHANNEL_A, "Night Shift", CHAT_A), (GUILD_B, CHANNEL_B, "Day Shift", CHAT_B)]
    paths = []
    for guild, channel, name, chat in chats:
        messages = [export_message(n, text, author=who, timestamp=at) for n, who, text, at in chat]
        paths.append(write_export(folder / f"{guild}.json", messages, guild_id=guild,
                                  channel_id=channel, guild_name=name))  # fmt: skip
    return paths


async def import_chats(data_dir: Path) -> None:
    """Both guilds' exports imported into ``data_dir`` by the real importer."""
    from bot.commands_ingest import run_import

    settings = load_settings(data_dir=data_dir, extractor="none")
    _summary, errors = await run_import(settings, write_exports(data_dir.parent / "exports"))
    assert errors == []


async def seed_facts(store: Store) -> None:
    """Facts of guild A about Sarah and Mike, and a look-alike of guild B."""
    await add_fact(store, SARAH.id, "Sarah works as a nurse.", evidence="nurse life",
                   source=export_id(NURSE))  # fmt: skip
    await add_fact(store, SARAH.id, "Sarah has two cats named Miso and Tofu.", source="9")
    await add_fact(store, MIKE.id, "Mike plays bass in a ska band.", source=export_id(4))
    await add_fact(store, MIKE.id, "Mike works as a nurse too.", guild=GUILD_B, channel=CHANNEL_B)
