"""Reaching PostgreSQL: a pool of asyncpg connections from a ``postgresql://`` URL, with
errors that say what to do and never show the URL's password."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from memory.errors import StoreError

log = logging.getLogger(__name__)

SCHEMES = ("postgresql", "postgres")
CONNECT_SECONDS = 10.0
INSTALL = "pip install 'memorybot[postgres]'"
# Each statement is planned for its own values: asyncpg prepares every statement, and a plan
# made once for any values cannot tell a common word from a rare one (``words.window_sql``).
SERVER_SETTINGS = {"plan_cache_mode": "force_custom_plan"}


def shown(url: str) -> str:
    """``url`` as it may be logged: the password replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def check_url(url: str) -> str:
    """``url`` when it names a PostgreSQL database; a ``StoreError`` saying why not."""
    scheme = urlsplit(url).scheme
    if scheme not in SCHEMES:
        raise StoreError(
            f"not a PostgreSQL URL: {shown(url)!r} (expected postgresql://user:password@host"
            "/database)"
        )
    return url


def _driver() -> Any:
    try:
        import asyncpg
    except ImportError as exc:
        raise StoreError(f"the PostgreSQL backend needs asyncpg: {INSTALL}") from exc
    return asyncpg


async def open_pool(url: str, size: int) -> Any:
    """A pool of at most ``size`` connections to ``url`` (asyncpg's ``Pool``)."""
    check_url(url)
    asyncpg = _driver()
    try:
        return await asyncpg.create_pool(
            url, min_size=1, max_size=size, timeout=CONNECT_SECONDS, command_timeout=None,
            server_settings=SERVER_SETTINGS,
        )  # fmt: skip
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        raise StoreError(f"cannot reach PostgreSQL at {shown(url)}: {exc}") from exc


async def connect(url: str) -> Any:
    """One connection to ``url`` of its own (asyncpg's ``Connection``)."""
    check_url(url)
    asyncpg = _driver()
    try:
        return await asyncpg.connect(url, timeout=CONNECT_SECONDS)
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        raise StoreError(f"cannot reach PostgreSQL at {shown(url)}: {exc}") from exc
