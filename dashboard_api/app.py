"""The moderators' HTTP API and page (DESIGN "HTTP API"): one app factory, typed app keys,
one JSON error middleware, bearer auth, a per-client rate limit and a guild allowlist."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from importlib import metadata
from pathlib import Path

from aiohttp import web

from dashboard_api import middlewares, moderation, params
from dashboard_api.config import CONFIG, ApiConfig
from dashboard_api.errors import ApiError, Handler, error_middleware
from memory import search_kinds
from memory.runtime import Memory
from memory.search.results import slice_json

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
# the page's scripts and styles (common.js, app.js, one script per further panel, style.css),
# each served at /<name>: a new panel's file needs no route of its own
STATIC_FILES = tuple(sorted(p.name for p in STATIC.iterdir() if p.suffix in (".js", ".css")))
MAX_BODY = 16 * 1024  # bodies: refresh's {"guildId"}, a fact edit's {fact, type, active}
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


MEMORY = web.AppKey("memory", Memory)


def create_app(memory: Memory, config: ApiConfig) -> web.Application:
    """The API and the moderator page over ``memory``."""
    app = web.Application(
        middlewares=[
            error_middleware,
            middlewares.identify,
            middlewares.auth,
            middlewares.rate_limit,
            middlewares.read_body,
        ],
        client_max_size=MAX_BODY,
    )
    app[MEMORY] = memory
    app[CONFIG] = config
    app[middlewares.STOPPING] = asyncio.Event()
    app.on_shutdown.append(middlewares.stopping)
    app.on_response_prepare.append(_no_store)
    app.router.add_get("/api/health", health)
    app.router.add_get("/api/memory/guilds", memory_guilds)
    app.router.add_get("/api/memory", memory_snapshot)
    app.router.add_post("/api/memory/refresh", memory_refresh)
    app.router.add_get("/api/memory/search", memory_search)
    app.router.add_get("/api/memory/slice", memory_slice)
    app.router.add_get("/api/memory/facts", facts_review)
    app.router.add_patch("/api/memory/facts/{fact_id}", fact_edit)
    app.router.add_delete("/api/memory/facts/{fact_id}", fact_delete)
    app.router.add_get("/api/memory/events", audit_events)
    app.router.add_get("/", page)
    for name in STATIC_FILES:
        app.router.add_get(f"/{name}", _static(name))
    app.router.add_get("/favicon.ico", _no_icon)
    return app


async def _no_store(request: web.Request, response: web.StreamResponse) -> None:
    """Guild memory never sits in a browser's or a proxy's cache."""
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")


async def _no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)


def _guild(request: web.Request, values: dict[str, str] | None = None) -> str:
    """The request's ``guildId``, validated and allowed for this token."""
    guild_id = params.snowflake(values if values is not None else request.query, "guildId",
                                needed=True)  # fmt: skip
    assert guild_id is not None
    allowed = request.app[CONFIG].guilds
    if allowed and guild_id not in allowed:
        raise ApiError(403, "forbidden", "this token may not read that guild")
    return guild_id


# --- endpoints --------------------------------------------------------------------------------


async def health(request: web.Request) -> web.Response:
    memory = request.app[MEMORY]
    versions = await memory.versions()
    return web.json_response(
        {
            "status": "ok",
            "version": metadata.version("memorybot"),
            "versions": versions,
            "queueDepth": memory.queue_depth,
        }
    )


async def memory_guilds(request: web.Request) -> web.Response:
    """The guilds this token may read, with their names (for the page's guild chooser)."""
    memory = request.app[MEMORY]
    allowed = request.app[CONFIG].guilds
    guilds = [g for g in await memory.guild_ids() if not allowed or g in allowed]
    return web.json_response(
        {"guilds": [{"id": g, "name": await memory.guild_name(g)} for g in guilds]}
    )


async def memory_snapshot(request: web.Request) -> web.Response:
    guild_id = _guild(request)
    memory = request.app[MEMORY]
    path = memory.snapshot_path(guild_id)
    try:
        markdown = await asyncio.to_thread(path.read_text, encoding="utf-8")
    except FileNotFoundError:
        if guild_id not in await memory.guild_ids():
            raise ApiError(404, "not_found", "no memory for that guild") from None
        markdown = await memory.refresh(guild_id)
    return web.json_response({"guildId": guild_id, "markdown": markdown})


async def memory_refresh(request: web.Request) -> web.Response:
    values = dict(request.query)
    if request.body_exists:
        body = await params.json_body(request)
        if not isinstance(body, dict):
            raise ApiError(400, "invalid_body", 'the body must be a JSON object: {"guildId": …}')
        if "guildId" in body:
            if not isinstance(body["guildId"], str):
                raise ApiError(400, "invalid_parameter", "guildId must be a string")
            values.setdefault("guildId", body["guildId"])
    guild_id = _guild(request, values)
    memory = request.app[MEMORY]
    if guild_id not in await memory.guild_ids():
        raise ApiError(404, "not_found", "no memory for that guild")
    markdown = await memory.refresh(guild_id)
    return web.json_response({"ok": True, "guildId": guild_id, "markdown": markdown})


async def memory_search(request: web.Request) -> web.Response:
    query = params.query_text(request.query)
    guild_id = _guild(request)
    channel_id = params.snowflake(request.query, "channelId")
    limit = params.limit(request.query)
    kind = params.kind(request.query)
    memory = request.app[MEMORY]

    async def compute() -> bytes:
        found = await search_kinds.search(
            memory, guild_id, query, kind, channel_id=channel_id, limit=limit
        )
        return _encode(
            {
                "queryText": query,
                "guildId": guild_id,
                "channelId": channel_id,
                "limit": limit,
                **search_kinds.search_json(found),
            }
        )

    key = ("search", guild_id, query, channel_id, limit, kind, memory.data_version)
    return await _cached(request, key, compute)


async def memory_slice(request: web.Request) -> web.Response:
    query = params.query_text(request.query)
    guild_id = _guild(request)
    channel_id = params.snowflake(request.query, "channelId")
    user_id = params.snowflake(request.query, "userId")
    budget = params.budget(request.query)
    memory = request.app[MEMORY]

    async def compute() -> bytes:
        found = await memory.slice(
            guild_id, query, channel_id=channel_id, user_id=user_id, budget=budget
        )
        return _encode(
            {
                "queryText": query,
                "guildId": guild_id,
                "channelId": channel_id,
                "userId": user_id,
                "budget": budget or memory.settings.slice_budget,
                "shownChars": found.shown_chars(),
                **slice_json(found),
            }
        )

    key = ("slice", guild_id, query, channel_id, user_id, budget, memory.data_version)
    return await _cached(request, key, compute)


def _encode(payload: object) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


async def _cached(
    request: web.Request, key: tuple[object, ...], compute: Callable[[], Awaitable[bytes]]
) -> web.Response:
    body, hit = await request.app[CONFIG].cache.get(key, compute)
    return web.Response(
        body=body, content_type="application/json", charset="utf-8",
        headers={"X-Memorybot-Cache": "hit" if hit else "miss"},
    )  # fmt: skip


async def page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)


def _static(name: str) -> Handler:
    async def serve(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / name, headers=PAGE_HEADERS)

    return serve


async def facts_review(request: web.Request) -> web.Response:
    return await moderation.review(request, request.app[MEMORY], _guild(request))


async def fact_edit(request: web.Request) -> web.Response:
    return await moderation.edit(request, request.app[MEMORY], _guild(request))


async def fact_delete(request: web.Request) -> web.Response:
    return await moderation.delete(request, request.app[MEMORY], _guild(request))


async def audit_events(request: web.Request) -> web.Response:
    return await moderation.events(request, request.app[MEMORY], _guild(request))
