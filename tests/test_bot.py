"""The Discord side with dpytest: ingest of guild messages (not DMs, not bots), replies from
memory when mentioned or replied to, and replies that never ping."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import MemoryBot, memory_intents
from bot.replies import defuse, fit, offline_answer
from memory.runtime import open_memory
from memory.search.results import MemorySlice, slice_json
from memory.settings import load_settings
from tests.helpers import add_fact, dpytest_bot, side_store

pytestmark = pytest.mark.usefixtures("each_backend")  # on SQLite and PostgreSQL


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[MemoryBot]:
    settings = load_settings(data_dir=tmp_path / "data", notice=False)  # its own test below
    async with open_memory(settings) as runtime:
        client = await dpytest_bot(runtime)
        try:
            yield client
        finally:
            await dpytest.empty_queue()


def people() -> tuple[discord.Guild, discord.TextChannel, discord.Member, discord.Member]:
    config = dpytest.get_config()
    guild = config.guilds[0]
    sarah, mike = config.members[0], config.members[1]
    return guild, config.channels[0], sarah, mike


async def stored(bot: MemoryBot, guild: discord.Guild) -> list[str]:
    """What memory keeps of the guild's one channel, oldest first."""
    await bot.memory.join()
    channel = str(dpytest.get_config().channels[0].id)
    return [m.content for m in await bot.memory.recent_messages(str(guild.id), channel, 100)]


def test_the_bot_asks_for_the_intents_memory_needs() -> None:
    intents = memory_intents()
    assert intents.guilds and intents.guild_messages and intents.message_content
    assert intents.members and intents.voice_states
    assert not intents.dm_messages and not intents.presences


async def test_guild_messages_from_people_are_ingested(bot: MemoryBot) -> None:
    guild, _channel, sarah, _mike = people()
    await dpytest.message("i'm a nurse at the children's hospital", member=0)
    await dpytest.message("anyone up for pottery on tuesday?", member=1)
    assert await stored(bot, guild) == [
        "i'm a nurse at the children's hospital", "anyone up for pottery on tuesday?",
    ]  # fmt: skip
    (fact,) = await bot.memory.active_facts(str(guild.id))
    assert fact.subject == str(sarah.id) and "nurse" in fact.fact
    assert await bot.memory.guild_name(str(guild.id)) == guild.name
    assert dpytest.verify().message().nothing()  # not addressed: no answer


async def test_bots_and_empty_messages_are_not_ingested(bot: MemoryBot) -> None:
    guild, _channel, _sarah, _mike = people()
    other_bot = dpytest.backend.make_user("helperbot", 1, None)
    other_bot.bot = True  # type: ignore[misc]
    member = dpytest.backend.make_member(other_bot, guild)
    await dpytest.message("i am a bot and i love spam", member=member)
    await dpytest.message("   ", member=0)
    assert await stored(bot, guild) == []


async def test_a_mention_gets_an_answer_from_memory_that_never_pings(bot: MemoryBot) -> None:
    guild, channel, _sarah, mike = people()
    async with side_store(bot.settings) as store:
        await store.record_members(str(guild.id), [(str(mike.id), "Mike", "mike")])
        await add_fact(store, str(mike.id), "Mike has a cat named @everyone <@&1>.",
                       guild=str(guild.id), channel=str(channel.id))  # fmt: skip
    assert bot.user is not None
    await dpytest.message(f"<@{bot.user.id}> who has a cat?", member=0)
    answer = dpytest.get_message()
    assert answer.content.startswith("Here is what I remember:")
    assert "Mike has a cat named" in answer.content and "(about Mike)" in answer.content
    assert "@everyone" not in answer.content and "<@&1>" not in answer.content
    assert len(answer.content) <= 2000
    # and nothing it sends can ping anyone, whatever the text
    # (a new bot: dpytest swaps the connection state)
    mentions = MemoryBot(bot.settings, bot.memory).allowed_mentions
    assert mentions is not None
    assert (mentions.everyone, mentions.users, mentions.roles, mentions.replied_user) == (
        False, False, False, False,
    )  # fmt: skip


async def test_a_mention_with_nothing_remembered_says_so(bot: MemoryBot) -> None:
    assert bot.user is not None
    await dpytest.message(f"<@{bot.user.id}> what is the capital of Peru?", member=0)
    assert dpytest.verify().message().content("I don't remember anything about that yet.")


def test_replies_fit_and_defuse() -> None:
    assert defuse("hi @everyone and @here <@123> <@!4> <@&5> <#6>") == (
        "hi @\u200beveryone and @\u200bhere <@\u200b123> <@\u200b!4> <@\u200b&5> <#\u200b6>"
    )
    long = "\n".join(f"• fact number {n} " + "x" * 50 for n in range(100))
    cut = fit(long)
    assert len(cut) <= 2000 and cut.endswith("…") and "\n" in cut
    assert fit("short") == "short"
    assert offline_answer(MemorySlice()) == "I don't remember anything about that yet."


async def test_edits_and_deletions_on_discord_reach_memory(bot: MemoryBot) -> None:
    guild, channel, sarah, _mike = people()
    first = await dpytest.message("i'm a nurse at the children's hospital", member=0)
    second = await dpytest.message("my dog is called Biscuit", member=0)
    await bot.memory.join()
    # an edit: the new text is stored, facts of the old text go, extraction runs again
    edited = {**dpytest.factories.dict_from_message(first), "content": "i'm a teacher now",
              "channel_id": str(channel.id), "guild_id": str(guild.id)}  # fmt: skip
    dpytest.backend.get_state().parse_message_update(edited)
    await dpytest.run_all_events()
    assert await stored(bot, guild) == ["i'm a teacher now", "my dog is called Biscuit"]
    facts = [f.fact for f in await bot.memory.active_facts(str(guild.id))]
    assert not any("nurse" in f for f in facts) and any("teacher" in f for f in facts)
    # a deletion: the message, its facts and its journal line go
    dpytest.backend.delete_message(second)
    await dpytest.run_all_events()
    assert await stored(bot, guild) == ["i'm a teacher now"]
    memory = await bot.memory.slice(str(guild.id), "Biscuit", user_id=str(sarah.id))
    assert "Biscuit" not in str(slice_json(memory))
    logs = (bot.memory.settings.journals_dir / str(guild.id)).glob("*-*-*.md")
    assert not any("Biscuit" in p.read_text(encoding="utf-8") for p in logs)


async def test_with_an_llm_the_bot_replies_with_its_answer_and_remembers_its_line(
    tmp_path: Path,
) -> None:
    import json

    from tests.fake_openai import FakeOpenAI, reply

    async with FakeOpenAI(api_key="sk-test") as fake:
        settings = load_settings(
            data_dir=tmp_path / "data", llm_model="fake-chat", llm_base_url=fake.base_url,
            llm_api_key="sk-test", extractor="offline", notice=False,
        )  # fmt: skip
        async with open_memory(settings) as runtime:
            client = await dpytest_bot(runtime)
            try:
                guild = people()[0]
                await dpytest.message("we play board games every thursday", member=0)
                answer = {"reply": "Board games on Thursdays, @everyone!",
                          "memoryLine": "game night is on thursday"}  # fmt: skip
                fake.script(reply(json.dumps(answer)))
                assert client.user is not None
                await dpytest.message(f"<@{client.user.id}> when is game night?", member=0)
                sent = dpytest.get_message()
                assert sent.content == "Board games on Thursdays, @\u200beveryone!"
                # the prompt carried the channel's earlier message as quoted data
                assert "board games every thursday" in json.dumps(fake.chat_requests[-1].json)
                facts = [f.fact for f in await runtime.active_facts(str(guild.id))]
                assert "Memory line: game night is on thursday." in facts
            finally:
                await dpytest.empty_queue()
                assert client.replier is not None
                await client.replier.aclose()  # (dpytest's fake socket cannot close the bot)


@pytest.mark.slow
def test_run_without_a_token_says_how_to_get_one(tmp_path: Path) -> None:
    from tests.helpers import cli_env, run_cli

    env = cli_env()
    env.pop("DISCORD_TOKEN", None)
    result = run_cli(tmp_path, "run", env=env)
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert "DISCORD_TOKEN is not set" in line and "README" in line


async def test_a_rejected_token_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py talks to a local server that answers 401, as Discord does for a bad token."""
    from aiohttp import web

    from bot.run import run_bot
    from memory.errors import ConfigError
    from tests.fake_openai import unused_port

    seen: list[str] = []

    async def unauthorized(request: web.Request) -> web.Response:
        seen.append(request.path)
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", unauthorized)
    runner = web.AppRunner(app)
    await runner.setup()
    port = unused_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    settings = load_settings(data_dir=tmp_path / "data", api_token="t" * 20)
    try:
        with pytest.raises(ConfigError, match="DISCORD_TOKEN was rejected by Discord"):
            await run_bot(settings, "not-a-token", announce=lambda serving: None, port=0)
    finally:
        await runner.cleanup()
    assert seen == ["/api/v10/users/@me"]


async def test_the_first_activity_in_a_server_posts_one_notice_ever(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data")
    async with open_memory(settings) as memory:
        await dpytest_bot(memory)
        await dpytest.message("hello everyone, first message here", member=0)
        notice = dpytest.get_message()
        assert "/memory optout" in notice.content and "/memory export" in notice.content
        await dpytest.message("and a second one", member=1)
        assert dpytest.verify().message().nothing()
        await dpytest.empty_queue()
        guild_id = str(dpytest.get_config().guilds[0].id)
    async with open_memory(settings) as memory:  # a restart: it is remembered as posted
        assert (await memory.guild_settings(guild_id))["notice_posted"] is True


async def test_no_notice_when_switched_off(tmp_path: Path) -> None:
    async with open_memory(load_settings(data_dir=tmp_path / "data", notice=False)) as memory:
        await dpytest_bot(memory)
        await dpytest.message("hello everyone, first message here", member=0)
        assert dpytest.verify().message().nothing()
        await dpytest.empty_queue()
