"""Per-client token buckets: ``rate`` requests per second, bursts of up to ``burst``."""

from __future__ import annotations

import math
import time

MAX_CLIENTS = 10_000  # buckets kept; full (idle) ones are forgotten first


class RateLimiter:
    """``check(client)`` takes one token from the client's bucket, or says how many seconds
    to wait. A ``rate`` of 0 lets everything through."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)

    def check(self, client: str, now: float | None = None) -> float:
        """0 when the request may go ahead, else the seconds until it may."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens, when = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[client] = (tokens - 1.0, now)
        if len(self._buckets) > MAX_CLIENTS:
            self._forget_idle(now)
        return 0.0

    def _forget_idle(self, now: float) -> None:
        full = [
            c for c, (t, w) in self._buckets.items()
            if t + (now - w) * self.rate >= self.burst
        ]  # fmt: skip
        for client in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[client]


def retry_after(seconds: float) -> str:
    """The ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


FAILURE_RATE, FAILURE_BURST = 0.5, 20
"""Requests with a missing or wrong token a client may send: 20 at once, then one every 2 s
(apart from the rate limit of requests with the token, which they never use up)."""


def failure_limiter(share: int = 1) -> RateLimiter:
    """The limit of requests without the right token, per client address (``share``: the
    number of processes serving the API, each allowing that share)."""
    return RateLimiter(FAILURE_RATE / share, max(1, FAILURE_BURST // share))
