"""Generate a synthetic DiscordChatExporter export of N messages (for benchmarks and tests).

python bench/gen_export.py OUT.json --messages 100000 [--guild-id ID] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

DISCORD_EPOCH_MS = 1420070400000
WORDS = (  # noqa: SIM905 - a word list reads better as text
    "game night friday dice campaign dragon tavern map session pizza coffee work "
    "nurse dog cat corgi study exam japanese lisbon move music guitar band code rust "
    "python garden plant bike trail run weekend movie book sushi ramen tea rain sun "
    "storm "
).split()
TEMPLATES = [
    "I think {a} is better than {b} tbh",
    "my {a} keeps stealing my {b} lol",
    "anyone up for {a} on {b}?",
    "I work as a {a} and honestly {b} is the best part",
    "from now on call me {a}",
    "just finished the {a}, next up: {b} 🎲",
    "lmao the {a} rolled a 1 again",
    "I prefer {a} over {b} any day",
]


def snowflake(moment: datetime, counter: int) -> str:
    ms = int(moment.timestamp() * 1000)
    return str(((ms - DISCORD_EPOCH_MS) << 22) + (counter % 4096))


def message(i: int, moment: datetime, author: dict[str, object], rng: random.Random) -> dict:
    text = rng.choice(TEMPLATES).format(a=rng.choice(WORDS), b=rng.choice(WORDS))
    return {
        "id": snowflake(moment, i),
        "type": "Default",
        "timestamp": moment.isoformat(timespec="milliseconds"),
        "timestampEdited": None,
        "callEndedTimestamp": None,
        "isPinned": False,
        "content": f"{text} #{i}",
        "author": author,
        "attachments": [],
        "embeds": [],
        "stickers": [],
        "reactions": [],
        "mentions": [],
        "inlineEmojis": [],
    }


def write_export(
    path: Path, count: int, *, guild_id: str = "700000000000000001", seed: int = 1
) -> None:
    """Stream ``count`` messages to ``path`` without holding them in memory."""
    rng = random.Random(seed)
    authors = [
        {
            "id": str(800000000000000000 + n),
            "name": f"member{n}",
            "discriminator": "0000",
            "nickname": f"Member {n}",
            "color": None,
            "isBot": False,
            "roles": [],
            "avatarUrl": "https://cdn.discordapp.com/embed/avatars/0.png",
        }
        for n in range(40)
    ]
    head = {
        "guild": {"id": guild_id, "name": "Bench Guild", "iconUrl": ""},
        "channel": {
            "id": str(int(guild_id) + 1),
            "type": "GuildTextChat",
            "categoryId": None,
            "category": None,
            "name": "general",
            "topic": None,
        },
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2026-11-21T00:00:00.000+00:00",
    }
    start = datetime(2025, 1, 1, tzinfo=UTC)
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(head, indent=1)[:-2] + ',\n "messages": [\n')
        for i in range(count):
            moment = start + timedelta(seconds=7 * i)
            out.write(json.dumps(message(i, moment, rng.choice(authors), rng), indent=1))
            out.write(",\n" if i + 1 < count else "\n")
        out.write(f' ],\n "messageCount": {count}\n}}\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--guild-id", default="700000000000000001")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    write_export(args.out, args.messages, guild_id=args.guild_id, seed=args.seed)


if __name__ == "__main__":
    main()
