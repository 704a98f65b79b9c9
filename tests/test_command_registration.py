"""Slash-command registration through discord.py's real HTTP layer and gateway, against a
local fake Discord (tests/fake_discord.py): what Discord receives at start (every command,
its options, default member permissions, guild-only contexts), that unchanged commands are
not sent again, the development server, ``memorybot sync-commands``, failures as one line
with the bot running on, and the operator's line at ready."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.cli import main
from bot.client import MemoryBot
from bot.run import run_bot
from memory.runtime import open_memory
from memory.settings import Settings, load_settings
from tests.fake_discord import APPLICATION_ID, GUILD_ID, TOKEN, Failure, FakeDiscord

GLOBAL_COMMANDS = f"/api/v10/applications/{APPLICATION_ID}/commands"
GUILD_COMMANDS = f"/api/v10/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands"
MANAGE_GUILD = discord.Permissions(manage_guild=True).value
QUICK = {"guild_ready_timeout": 0.05}  # discord.py waits this long for servers after READY


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscord]:
    server = FakeDiscord()
    server.start()
    server.point_discord_py_here(monkeypatch)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(data_dir=tmp_path / "data", discord_token=TOKEN)


def ready_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "bot.client" and r.getMessage().startswith("logged in as")]  # fmt: skip


async def run_until_ready(settings: Settings, caplog: pytest.LogCaptureFixture) -> str:
    """``memorybot run``'s bot until its ready line, then SIGTERM, as an operator stops it;
    the ready line."""
    caplog.set_level(logging.INFO)
    before = len(ready_lines(caplog))
    bot = asyncio.create_task(
        run_bot(settings, TOKEN, announce=lambda _: None, port=0, client_options=QUICK)
    )
    for _ in range(400):
        if len(ready_lines(caplog)) > before or bot.done():
            break
        await asyncio.sleep(0.05)
    assert not bot.done(), bot.exception()
    signal.raise_signal(signal.SIGTERM)
    await asyncio.wait_for(bot, 30)
    return ready_lines(caplog)[-1]


def by_name(payload: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {command["name"]: command for command in payload}


def options(command: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {option["name"]: option for option in command.get("options", [])}


async def test_the_first_start_registers_every_command_with_its_permissions(
    fake: FakeDiscord, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    line = await run_until_ready(settings, caplog)
    (put,) = fake.command_puts()
    assert put.path == GLOBAL_COMMANDS
    commands = by_name(put.body)
    assert set(commands) == {"memory", "memory-admin"}
    member, admin = commands["memory"], commands["memory-admin"]
    # guild-only, in the payload: Discord itself hides both groups in DMs
    for command in (member, admin):
        assert command["contexts"] == [0] and command["dm_permission"] is False
    # moderators' commands carry Manage Server; members' are for everyone
    assert int(admin["default_member_permissions"]) == MANAGE_GUILD
    assert member["default_member_permissions"] is None
    assert set(options(admin)) == {
        "purge-user",
        "stats",
        "ignore-channel",
        "unignore-channel",
        "settings",
        "fact",
    }
    assert set(options(member)) == {"search", "about", "remember", "export", "forget", "optout",
                                   "optin", "voice"}  # fmt: skip
    # each subcommand with its options as members fill them in
    query = options(options(member)["search"])["query"]
    assert (query["type"], query["required"], query["min_length"], query["max_length"]) == (
        3, True, 1, 500,
    )  # fmt: skip
    text = options(options(member)["remember"])["text"]
    assert (text["type"], text["required"], text["max_length"]) == (3, True, 300)
    about = options(options(member)["about"])["member"]
    assert (about["type"], about["required"]) == (6, False)
    voice = options(member)["voice"]
    assert voice["type"] == 2 and set(options(voice)) == {"join", "leave"}
    channel = options(options(voice)["join"])["channel"]
    assert channel["type"] == 7 and set(channel["channel_types"]) == {2, 13}
    purge = options(options(admin)["purge-user"])["member"]
    assert (purge["type"], purge["required"]) == (6, True)
    # the operator's line at ready, at the level `memorybot run` logs at
    assert line.startswith("logged in as memorybot (id ") and " in 1 server;" in line
    assert "commands registered globally: /memory (search, about, remember, forget, " in line
    assert "voice join, voice leave); /memory-admin (purge-user, stats, ignore-channel, " in line
    assert "; voice: " in line


@pytest.mark.parametrize(
    ("shards", "identified", "servers", "registers"),
    [("0,1", [[0, 3], [1, 3]], "0 servers", True), ("2", [[2, 3]], "1 server", False)],
)
async def test_a_process_runs_its_shards_and_only_shard_zero_registers_the_commands(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    shards: str, identified: list[list[int]], servers: str, registers: bool,
) -> None:  # fmt: skip
    settings = load_settings(data_dir=tmp_path / "data", discord_token=TOKEN, shard_count=3,
                             shard_ids=shards)  # fmt: skip
    line = await run_until_ready(settings, caplog)
    assert sorted(frame["shard"] for frame in fake.identified) == identified
    assert f" in {servers};" in line  # the fake's server is on shard 2, as Discord splits
    assert len(fake.command_puts()) == (1 if registers else 0)
    assert ("commands registered globally" in line) == registers


async def test_a_restart_sends_nothing_unless_the_commands_changed(
    fake: FakeDiscord, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    await run_until_ready(settings, caplog)
    line = await run_until_ready(settings, caplog)
    assert len(fake.command_puts()) == 1
    assert "commands as registered before globally (unchanged): /memory (" in line

    ping = app_commands.Command(name="ping", description="Is the bot there?", callback=_pong)

    class NewerBot(MemoryBot):  # the next version of the bot, with one more command
        async def setup_hook(self) -> None:
            self.tree.add_command(ping)
            await super().setup_hook()

    async with open_memory(settings) as runtime:
        bot = NewerBot(settings, runtime, register_commands=True, **QUICK)
        async with bot:
            await bot.login(TOKEN)
            assert bot.registration is not None
            outcome = await bot.registration
    assert outcome.status == "registered"
    assert [sorted(c["name"] for c in put.body) for put in fake.command_puts()] == [
        ["memory", "memory-admin"], ["memory", "memory-admin", "ping"],
    ]  # fmt: skip


async def _pong(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")


async def test_the_development_server_gets_the_commands_at_once(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = load_settings(data_dir=tmp_path / "data", discord_token=TOKEN,
                             dev_guild=str(GUILD_ID))  # fmt: skip
    line = await run_until_ready(settings, caplog)
    (put,) = fake.command_puts()
    assert put.path == GUILD_COMMANDS
    commands = by_name(put.body)
    assert set(commands) == {"memory", "memory-admin"}
    assert int(commands["memory-admin"]["default_member_permissions"]) == MANAGE_GUILD
    assert f"commands registered to server {GUILD_ID}: /memory (" in line


@pytest.mark.parametrize(
    ("failure", "says"),
    [
        (Failure(403, {"message": "Missing Access", "code": 50001}),
         "Discord answered 403 (Missing Access): invite the bot to the bot's servers with the "
         "applications.commands scope — https://discord.com/oauth2/authorize?client_id="
         f"{APPLICATION_ID}&scope=bot+applications.commands"),
        (Failure(429, {"message": "You are being rate limited.", "retry_after": 0.01,
                       "global": False}, {"Via": "1.1 google"}),
         "Discord is rate-limiting command registration"),
    ],
    ids=["403-missing-scope", "429"],
)  # fmt: skip
@pytest.mark.slow
async def test_a_failed_registration_is_one_line_and_the_bot_runs_on(
    fake: FakeDiscord, settings: Settings, caplog: pytest.LogCaptureFixture,
    failure: Failure, says: str,
) -> None:  # fmt: skip
    fake.command_failure = failure
    line = await run_until_ready(settings, caplog)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING
                and r.name.startswith("bot.")]  # fmt: skip
    (warning,) = warnings
    message = warning.getMessage()
    assert message.startswith("could not register the slash commands: ") and says in message
    assert "memorybot sync-commands" in message and "\n" not in message
    assert warning.exc_info is None  # one line, no traceback
    assert "commands NOT registered (see the warning above)" in line  # and it got to ready
    # nothing was recorded as registered: once Discord accepts, the next start registers
    fake.command_failure = None
    await run_until_ready(settings, caplog)
    assert fake.command_puts()[-1].path == GLOBAL_COMMANDS
    assert len(fake.command_puts()) == (2 if failure.status == 403 else 6)


def test_sync_commands_registers_even_unchanged_and_prints_what(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    data = ["--data-dir", str(tmp_path / "data")]
    main([*data, "sync-commands"])
    main([*data, "sync-commands"])
    out = capsys.readouterr().out
    assert [put.path for put in fake.command_puts()] == [GLOBAL_COMMANDS, GLOBAL_COMMANDS]
    assert out.count("registered 2 commands globally:") == 2
    assert ("  /memory (search, about, remember, forget, export, optout, optin, voice join, voice "
            "leave) "
            "— servers "
            "only; every member") in out  # fmt: skip
    assert ("  /memory-admin (purge-user, stats, ignore-channel, unignore-channel, settings, fact "
            "edit, fact delete) — "
            "servers only; members with Manage Server") in out  # fmt: skip
    assert "Global commands can take a few minutes to show up" in out
    main([*data, "sync-commands", "--guild", str(GUILD_ID), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "registered" and answer["guildId"] == str(GUILD_ID)
    assert fake.command_puts()[-1].path == GUILD_COMMANDS
    assert {c["name"] for c in answer["commands"]} == {"memory", "memory-admin"}
    main([*data, "doctor"])
    (discord_line,) = [x for x in capsys.readouterr().out.splitlines() if "discord:" in x]
    assert discord_line.startswith("[ok ] discord: token set; slash commands globally at 20")
    assert f"; to server {GUILD_ID} at 20" in discord_line


def test_sync_commands_says_what_is_wrong_in_one_line(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    data = ["--data-dir", str(tmp_path / "data")]
    with pytest.raises(SystemExit) as exited:
        main([*data, "sync-commands"])
    assert exited.value.code == 1
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err
    monkeypatch.setenv("DISCORD_TOKEN", "not-the-token")
    with pytest.raises(SystemExit):
        main([*data, "sync-commands"])
    assert capsys.readouterr().err == (
        "configuration error: DISCORD_TOKEN was rejected by Discord: check the token\n"
    )
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    fake.command_failure = Failure(403, {"message": "Missing Access", "code": 50001})
    with pytest.raises(SystemExit):
        main([*data, "sync-commands", "--guild", str(GUILD_ID)])
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: could not register the slash commands: Discord answered 403")
    assert f"invite the bot to server {GUILD_ID} (MEMORYBOT_DEV_GUILD: is the bot in it?)" in line


async def test_a_token_discord_rejects_stops_the_bot_with_one_line(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    from memory.errors import ConfigError

    settings = load_settings(data_dir=tmp_path / "data")
    with pytest.raises(ConfigError, match="DISCORD_TOKEN was rejected by Discord"):
        await run_bot(settings, "wrong-token", announce=lambda _: None, port=0)
    assert fake.command_puts() == []


RUN_AGAINST_FAKE = """
import sys, discord.gateway, discord.http, yarl
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from bot.cli import main
main(["--data-dir", sys.argv[3], "run"])
"""


@pytest.mark.slow
def test_memorybot_run_says_what_runs_at_the_default_level_and_stops_on_sigterm(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The real ``memorybot run`` process, its token in ``.env``, no logging flags."""
    import subprocess
    import sys
    import time

    from tests.fake_openai import unused_port
    from tests.helpers import cli_env

    workdir = tmp_path / "cwd"
    (workdir / ".env").parent.mkdir(exist_ok=True)
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nMEMORYBOT_API_PORT={unused_port()}\n",
                                  encoding="utf-8")  # fmt: skip
    env = cli_env(PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    env.pop("DISCORD_TOKEN", None)
    argv = [sys.executable, "-c", RUN_AGAINST_FAKE, fake.api_base, fake.gateway_url,
            str(tmp_path / "data")]  # fmt: skip
    log = tmp_path / "run.log"
    with (
        log.open("w") as stderr,
        subprocess.Popen(
            argv, cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=stderr
        ) as bot,
    ):
        deadline = time.monotonic() + 60
        while "logged in as" not in log.read_text() and bot.poll() is None:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        bot.send_signal(signal.SIGTERM)
        code = bot.wait(30)
    seen = log.read_text()
    assert code == 0, seen
    (line,) = [x for x in seen.splitlines() if "logged in as" in x]
    assert " INFO bot.client: logged in as memorybot (id " in line
    assert "commands registered globally: /memory (search," in line
    assert len(fake.command_puts()) == 1
    assert "Traceback" not in seen
