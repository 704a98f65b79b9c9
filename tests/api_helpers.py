"""A real memorybot API on loopback over real memory, for API and page tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dashboard_api.server import Serving, running_api
from memory.runtime import Memory, open_memory
from memory.settings import load_settings
from tests.helpers import Seed, seed_store

TOKEN = "test-token-0123456789abcdef"


@dataclass
class Api:
    url: str  # ends with "/"
    token: str
    memory: Memory
    serving: Serving

    def headers(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.token}"}


@contextlib.asynccontextmanager
async def served(
    data_dir: Path, *, seed: Seed | None = None, **settings: Any
) -> AsyncIterator[Api]:
    """The API (any free port on 127.0.0.1) over ``data_dir``, first ``seed``-ed (and its
    MEMORY.md written); ``settings`` override the defaults (``api_token`` defaults to
    ``TOKEN``; pass ``api_token=None`` for the file)."""
    settings.setdefault("api_token", TOKEN)
    config = load_settings(data_dir=data_dir, api_host="127.0.0.1", **settings)
    if seed is not None:
        await seed_store(config.db_path, seed)
    async with open_memory(config) as memory, running_api(memory, config, port=0) as serving:
        if seed is not None:
            await memory.refresh_all()
        yield Api(serving.url, serving.token, memory, serving)


async def settled(api: Api) -> None:
    """Let the change notices of earlier writes land before a test counts cache hits:
    PostgreSQL announces a commit a moment after it (``memory.storage.postgres.changes``),
    and each notice renews every cached answer."""
    last = api.memory.data_version
    for _ in range(40):
        await asyncio.sleep(0.025)
        if api.memory.data_version == last:
            return
        last = api.memory.data_version
