"""A loopback stand-in for Discord, enough for discord.py's real client to log in, register
its slash commands and connect: the HTTP API calls it makes (``/users/@me``,
``/oauth2/applications/@me``, the bulk ``PUT …/commands``) and a gateway that accepts its
IDENTIFY and reports one server. Every HTTP request is recorded, so tests assert on what
Discord received. It runs in a thread with its own event loop, so a CLI test (which runs
``asyncio.run`` itself) and an async test can both use it.

Point discord.py at it with :meth:`FakeDiscord.point_discord_py_here` (``Route.BASE`` and
the default gateway URL, as discord.py's own tests do)."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import WSMsgType, web

TOKEN = "fake-bot-token.for-tests"
APPLICATION_ID = 1_400_000_000_000_000_001
GUILD_ID = 1_400_000_000_000_000_100
CHANNEL_ID = 1_400_000_000_000_000_101
OWNER_ID = 1_400_000_000_000_000_200
BOT_USER = {
    "id": str(APPLICATION_ID), "username": "memorybot", "discriminator": "0",
    "global_name": None, "avatar": None, "bot": True,
}  # fmt: skip


def answer(body: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it: discord.py parses only a bare ``application/json``."""
    return web.Response(
        body=json.dumps(body).encode(), status=status, headers={**(headers or {}),
        "Content-Type": "application/json"},
    )  # fmt: skip


@dataclass
class Recorded:
    method: str
    path: str
    body: Any


@dataclass
class Failure:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.identified: list[dict[str, Any]] = []
        self.command_failure: Failure | None = None
        """Set: every command registration is answered with it."""
        self.api_base = self.gateway_url = ""
        self._ids = itertools.count(APPLICATION_ID + 1000)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="fake-discord", daemon=True)
        self._started = threading.Event()
        self._runner: web.AppRunner | None = None

    # --- what tests read --------------------------------------------------------------

    def command_puts(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "PUT" and r.path.endswith("/commands")]

    def point_discord_py_here(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import discord.gateway
        import discord.http
        import yarl

        monkeypatch.setattr(discord.http.Route, "BASE", self.api_base)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url)
        )

    # --- running ----------------------------------------------------------------------

    def start(self) -> None:
        self._thread.start()
        if not self._started.wait(10):
            raise RuntimeError("the fake Discord did not start")

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start_site())
        self._started.set()
        self._loop.run_forever()
        assert self._runner is not None
        self._loop.run_until_complete(self._runner.cleanup())
        self._loop.close()

    async def _start_site(self) -> None:
        app = web.Application(middlewares=[self._record])
        api = "/api/v10"
        app.router.add_get(f"{api}/users/@me", self._me)
        app.router.add_get(f"{api}/oauth2/applications/@me", self._application)
        app.router.add_put(f"{api}/applications/{{app}}/commands", self._commands)
        app.router.add_put(f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self._commands)
        app.router.add_get("/gateway", self._gateway)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.api_base = f"http://{host}:{port}{api}"
        self.gateway_url = f"ws://{host}:{port}/gateway"

    # --- the HTTP API -----------------------------------------------------------------

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        body = await request.json() if request.can_read_body else None
        self.requests.append(Recorded(request.method, request.path, body))
        if request.path.startswith("/api/") and request.headers.get("Authorization") != (
            f"Bot {TOKEN}"
        ):
            return answer({"message": "401: Unauthorized", "code": 0}, status=401)
        response: web.StreamResponse = await handler(request)
        return response

    async def _me(self, request: web.Request) -> web.Response:
        return answer(BOT_USER)

    async def _application(self, request: web.Request) -> web.Response:
        return answer({
            "id": str(APPLICATION_ID), "name": "memorybot", "description": "", "icon": None,
            "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": {**BOT_USER, "id": str(OWNER_ID), "username": "owner", "bot": False},
            "flags": 0,
        })  # fmt: skip

    async def _commands(self, request: web.Request) -> web.Response:
        failure = self.command_failure
        if failure is not None:
            return answer(failure.body, status=failure.status, headers=failure.headers)
        guild = request.match_info.get("guild")
        registered = [
            {**command, "id": str(next(self._ids)), "application_id": str(APPLICATION_ID),
             "version": "1", **({"guild_id": guild} if guild else {})}
            for command in await request.json()
        ]  # fmt: skip
        return answer(registered)

    # --- the gateway ------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41_250}, "s": None, "t": None})
        sequence = itertools.count(1)
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            if frame["op"] == 1:  # heartbeat
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif frame["op"] == 2:  # identify
                self.identified.append(frame["d"])
                if frame["d"].get("token") != TOKEN:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                for event, data in self._ready(frame["d"].get("shard")):
                    await ws.send_json({"op": 0, "t": event, "s": next(sequence), "d": data})
        return ws

    def _ready(self, shard: list[int] | None) -> list[tuple[str, dict[str, Any]]]:
        """READY and the server's GUILD_CREATE, as Discord sends them to a session: a
        sharded one hears the server only when it is on its shard (Discord's rule: the
        server id's timestamp part, modulo the shard count)."""
        guild = {
            "id": str(GUILD_ID), "name": "Test Tavern", "unavailable": False, "large": False,
            "member_count": 1, "owner_id": str(OWNER_ID), "features": [], "emojis": [],
            "stickers": [], "threads": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "roles": [{"id": str(GUILD_ID), "name": "@everyone", "permissions": "0",
                       "position": 0, "color": 0, "hoist": False, "managed": False,
                       "mentionable": False}],
            "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "general", "position": 0,
                          "permission_overwrites": []}],
            "members": [{"user": BOT_USER, "roles": [], "joined_at": "2026-11-01T00:00:00+00:00",
                         "deaf": False, "mute": False, "flags": 0}],
        }  # fmt: skip
        ready = {
            "v": 10, "user": BOT_USER, "session_id": "fake-session",
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "application": {"id": str(APPLICATION_ID), "flags": 0},
        }  # fmt: skip
        if shard is not None:
            ready["shard"] = shard
            if (GUILD_ID >> 22) % shard[1] != shard[0]:
                ready["guilds"] = []
                return [("READY", ready)]
        return [("READY", ready), ("GUILD_CREATE", guild)]
