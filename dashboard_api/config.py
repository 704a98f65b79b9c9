"""What an API app is told: tokens, guilds, rate limits, trusted proxies, deadlines."""

from __future__ import annotations

from dataclasses import dataclass, field

from aiohttp import web

from dashboard_api.cache import ResponseCache
from dashboard_api.clients import Network
from dashboard_api.ratelimit import RateLimiter, failure_limiter


@dataclass(slots=True)
class ApiConfig:
    """Who may call the API and how often."""

    token: str
    guilds: frozenset[str] = frozenset()  # empty: every guild
    admin_token: str | None = None  # may also moderate facts
    limiter: RateLimiter = field(default_factory=lambda: RateLimiter(20.0, 40))
    # requests with a missing or wrong token, counted apart (per client too)
    failures: RateLimiter = field(default_factory=failure_limiter)
    cache: ResponseCache = field(default_factory=lambda: ResponseCache(1024))
    trusted_proxies: tuple[Network, ...] = ()  # whose X-Forwarded-For is believed
    client_timeout: float = 10.0  # seconds to send a request's body (its headers: connections)


CONFIG = web.AppKey("config", ApiConfig)
