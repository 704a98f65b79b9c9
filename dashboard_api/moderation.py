"""Moderating single facts over the API (admin token only): review a guild's facts, edit
one (text, type, archive / restore), delete one; and read the guild's audit log. An edited
fact is embedded again; a deleted one leaves nothing in search, the slice, vectors or
MEMORY.md."""

from __future__ import annotations

from aiohttp import web

from dashboard_api import params
from dashboard_api.errors import ApiError
from memory.audit import API, KINDS, event_json
from memory.errors import InvalidMessageError
from memory.runtime import Memory
from memory.search.results import stored_fact_json

ADMIN = web.RequestKey("admin", bool)  # the request came with the admin token


def _admin(request: web.Request) -> None:
    if not request.get(ADMIN, False):
        raise ApiError(403, "admin_required", "moderating facts needs the admin token")


def _fact_id(request: web.Request) -> int:
    raw = request.match_info["fact_id"]
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ApiError(400, "invalid_parameter", "the fact id must be a number")
    return int(raw)


async def review(request: web.Request, memory: Memory, guild_id: str) -> web.Response:
    """``GET /api/memory/facts?guildId=&subject=&includeArchived=&limit=&before=``."""
    _admin(request)
    subject = request.query.get("subject") or None
    archived = request.query.get("includeArchived", "false").lower() in ("1", "true", "yes")
    before = request.query.get("before")
    if before is not None and not (before.isascii() and before.isdigit()):
        raise ApiError(400, "invalid_parameter", "before must be a fact id")
    count = params.limit(request.query, default=100, high=500)
    facts = await memory.review_facts(
        guild_id, subject=subject, archived=archived, limit=count,
        before_id=int(before) if before else None,
    )  # fmt: skip
    names = await memory.member_names(guild_id)
    shown = [stored_fact_json(f, names) for f in facts]
    return web.json_response({"guildId": guild_id, "facts": shown})


async def edit(request: web.Request, memory: Memory, guild_id: str) -> web.Response:
    """``PATCH /api/memory/facts/{id}?guildId=`` with ``{fact?, type?, active?}``."""
    _admin(request)
    fact_id = _fact_id(request)
    body = await params.json_body(request)
    if not isinstance(body, dict) or not body or set(body) - {"fact", "type", "active"}:
        raise ApiError(400, "invalid_body", 'send some of {"fact", "type", "active"}')
    text, fact_type, active = body.get("fact"), body.get("type"), body.get("active")
    if (
        not isinstance(text, str | None)
        or not isinstance(fact_type, str | None)
        or not (active is None or isinstance(active, bool))
    ):
        raise ApiError(400, "invalid_body", "fact and type are strings, active a boolean")
    try:
        fact = await memory.edit_fact(
            guild_id, fact_id, text=text, fact_type=fact_type, active=active, actor=API
        )
    except (InvalidMessageError, ValueError) as exc:
        raise ApiError(400, "invalid_fact", str(exc)) from None
    if fact is None:
        raise ApiError(404, "not_found", "no such fact in that guild")
    names = await memory.member_names(guild_id)
    return web.json_response({"guildId": guild_id, "fact": stored_fact_json(fact, names)})


async def events(request: web.Request, memory: Memory, guild_id: str) -> web.Response:
    """``GET /api/memory/events?guildId=&limit=&before=&kind=``: the guild's audit log,
    newest first; ``nextBefore`` pages on (null at the end)."""
    _admin(request)
    before = request.query.get("before") or None
    if before is not None and not (before.isascii() and before.isdigit() and len(before) <= 18):
        raise ApiError(400, "invalid_parameter", "before must be an event id")
    kinds = [k for k in request.query.get("kind", "").split(",") if k]
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        known = ", ".join(KINDS)
        raise ApiError(
            400, "invalid_parameter", f"unknown kind {unknown[0][:40]!r}: one of {known}"
        )
    count = params.limit(request.query, default=50, high=500)
    found = await memory.events(
        guild_id, limit=count, before=int(before) if before else None, kinds=kinds
    )
    names = await memory.member_names(guild_id)
    return web.json_response({
        "guildId": guild_id,
        "events": [event_json(e, names) for e in found],
        "nextBefore": found[-1].id if len(found) == count else None,
    })  # fmt: skip


async def delete(request: web.Request, memory: Memory, guild_id: str) -> web.Response:
    """``DELETE /api/memory/facts/{id}?guildId=``."""
    _admin(request)
    fact_id = _fact_id(request)
    if not await memory.delete_fact(guild_id, fact_id, actor=API):
        raise ApiError(404, "not_found", "no such fact in that guild")
    return web.json_response({"ok": True, "guildId": guild_id, "deleted": fact_id})
