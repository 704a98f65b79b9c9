"""Validation of API parameters: every bad value is a 400 naming the parameter."""

from __future__ import annotations

import json
from collections.abc import Mapping

from aiohttp import web

from dashboard_api.errors import ApiError
from memory import ids
from memory.search_kinds import DEFAULT_KIND, Kind, parse_kind
from memory.settings import MAX_SLICE_BUDGET, MIN_SLICE_BUDGET

MAX_QUERY_CHARS = 500
DEFAULT_LIMIT = 10
LIMIT_RANGE = (1, 24)


async def json_body(request: web.Request) -> object:
    """The request's body as JSON: anything else (not UTF-8, not JSON, nested too deep to
    parse) is a 400."""
    raw = await request.read()
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError included
        raise ApiError(400, "invalid_body", "the body must be JSON") from None


def required(params: Mapping[str, str], name: str) -> str:
    value = params.get(name)
    if value is None or not value.strip():
        raise ApiError(400, "missing_parameter", f"{name} is required")
    return value


def snowflake(params: Mapping[str, str], name: str, *, needed: bool = False) -> str | None:
    """A Discord id (``memory.ids``), or None when absent and not ``needed``."""
    value = required(params, name) if needed else params.get(name)
    if value is None or (not needed and value == ""):
        return None
    if not ids.is_discord_id(value):
        raise ApiError(400, "invalid_parameter", f"{name} must be {ids.DESCRIPTION}")
    return value


def query_text(params: Mapping[str, str]) -> str:
    value = required(params, "q")
    if len(value) > MAX_QUERY_CHARS:
        raise ApiError(400, "invalid_parameter", f"q is longer than {MAX_QUERY_CHARS} characters")
    return value


def integer(params: Mapping[str, str], name: str) -> int | None:
    """The integer parameter ``name``; None when absent or empty; anything but an integer is
    a 400."""
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw.strip())
    except ValueError:
        raise ApiError(400, "invalid_parameter", f"{name} must be an integer") from None


def limit(params: Mapping[str, str], *, default: int = DEFAULT_LIMIT,
          high: int = LIMIT_RANGE[1]) -> int:  # fmt: skip
    """``limit``: ``default`` (10) when absent, clamped to 1..``high`` (24); anything but an
    integer is a 400."""
    value = integer(params, "limit")
    if value is None:
        return default
    return max(LIMIT_RANGE[0], min(high, value))


def budget(params: Mapping[str, str]) -> int | None:
    """``budget``: characters a slice shows; absent → the server's setting (None); an
    integer outside 200..100,000 or anything else is a 400."""
    value = integer(params, "budget")
    if value is None:
        return None
    if not MIN_SLICE_BUDGET <= value <= MAX_SLICE_BUDGET:
        raise ApiError(
            400,
            "invalid_parameter",
            f"budget must be {MIN_SLICE_BUDGET}..{MAX_SLICE_BUDGET} characters",
        )
    return value


def kind(params: Mapping[str, str]) -> Kind:
    """``kind``: what a search finds, ``facts`` (absent or empty), ``messages`` or ``all``;
    anything else is a 400."""
    raw = params.get("kind")
    if raw is None or raw == "":
        return DEFAULT_KIND
    try:
        return parse_kind(raw.strip())
    except ValueError as exc:
        raise ApiError(400, "invalid_parameter", str(exc)) from None
