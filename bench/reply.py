"""Reply benchmark: from a message that mentions the bot to the reply being sent, offline.

    python bench/reply.py [--data-dir DIR] [--messages 200] [--json]

The bot (its real cogs, runtime, queue and journals) runs under dpytest over the store of
``bench/scale.py`` in ``DIR/memory.db`` (built there when missing: about 4 minutes); the
messages come from a member in the 100k-fact guild and mention the bot. Each is timed from
its arrival to the moment the reply is handed to Discord (dpytest's fake HTTP), which covers
ingest (the message is stored before the reply), the memory slice and the offline answer.
The first message warms the guild's vectors and is not counted. Reports p50 / p95.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from scale import BIG_CHANNELS, BIG_GUILD, _pct, _queries, ensure_store  # noqa: E402


async def run(data_dir: Path, count: int) -> dict[str, Any]:
    import discord.ext.test as dpytest

    from bot.client import MemoryBot
    from memory.runtime import open_memory
    from memory.settings import load_settings

    settings = load_settings(data_dir=data_dir, notice=False)  # replies only
    async with open_memory(settings) as runtime:
        bot = MemoryBot(runtime.settings, runtime)
        await bot._async_setup_hook()
        await bot.setup_hook()
        dpytest.configure(bot, guilds=0, text_channels=0, voice_channels=0, members=0)
        guild = dpytest.backend.make_guild("scale guild", id_num=int(BIG_GUILD))
        dpytest.backend.make_member(dpytest.backend.get_state().user, guild)  # the bot joins
        channel = dpytest.backend.make_text_channel("general", guild, id_num=int(BIG_CHANNELS[0]))
        user = dpytest.backend.make_user("Sarah17", 1, None, id_num=800000000000000017)
        member = dpytest.backend.make_member(user, guild)
        assert bot.user is not None
        mention = f"<@{bot.user.id}>"
        timings: list[float] = []
        replies = 0
        for n, query in enumerate(["warm up: who likes pizza?", *_queries(count)]):
            started = time.perf_counter()
            await dpytest.message(f"{mention} {query}", channel=channel, member=member)
            elapsed = time.perf_counter() - started
            answer = dpytest.get_message()
            replies += bool(answer.content)
            if n:
                timings.append(1000 * elapsed)
        await runtime.join()
    ms = timings
    return {
        "messages": len(ms),
        "replies": replies - 1,
        "reply_ms": {"p50": round(statistics.median(ms), 1), "p95": round(_pct(ms, 0.95), 1),
                     "max": round(max(ms), 1)},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=Path("bench/out/scale"))
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ensure_store(args.data_dir)
    result = asyncio.run(run(args.data_dir, args.messages))
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
