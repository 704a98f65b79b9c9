"""A real memorybot API on loopback over a real runtime, for API and page tests."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.runtime import MemoryRuntime, open_runtime
from dashboard_api.server import Serving, running_api
from memory.settings import load_settings

TOKEN = "test-token-0123456789abcdef"


@dataclass
class Api:
    url: str  # ends with "/"
    token: str
    runtime: MemoryRuntime
    serving: Serving

    def headers(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.token}"}


@contextlib.asynccontextmanager
async def served(data_dir: Path, **settings: Any) -> AsyncIterator[Api]:
    """The API (any free port on 127.0.0.1) over ``data_dir``; ``settings`` override the
    defaults (``api_token`` defaults to ``TOKEN``; pass ``api_token=None`` for the file)."""
    settings.setdefault("api_token", TOKEN)
    config = load_settings(data_dir=data_dir, api_host="127.0.0.1", **settings)
    async with open_runtime(config) as runtime, running_api(runtime, config, port=0) as serving:
        yield Api(serving.url, serving.token, runtime, serving)
