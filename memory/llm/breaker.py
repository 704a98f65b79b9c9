"""The circuit breaker of one endpoint: once a request finds the endpoint down, the requests
after it fail at once instead of each waiting out its deadline.

Closed (the endpoint answers): every request goes. A request that finds the endpoint down
(no answer within its deadline, a refused or dropped connection) opens the breaker, with one
warning line. Open: requests fail at once for the cool-down (``MEMORYBOT_LLM_COOLDOWN``);
then the next request goes as the trial (half-open) while the others still fail at once.
An answer of any kind (even an error status) closes the breaker again; a trial that finds
the endpoint still down keeps it open twice as long as the last time, up to
:data:`MAX_COOLDOWN` (or the cool-down, when that is longer).

No I/O here, and no openai: :class:`memory.llm.endpoint.OpenAIEndpoint` reports each
request's outcome.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

MAX_COOLDOWN = 900.0
"""Longest wait (seconds) between trials while they keep failing (unless the cool-down is
longer)."""


class Breaker:
    """Whether requests to one endpoint may go now; see the module docstring."""

    def __init__(
        self, what: str, cooldown: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.what = what  # the endpoint, as logs name it
        self.cooldown = cooldown
        self._clock = clock
        self._until: float | None = None  # open until then; None: closed
        self._wait = cooldown  # the current cool-down
        self._trial = False  # a trial request is under way
        self._reason = ""  # why the endpoint was found down

    @property
    def is_open(self) -> bool:
        return self._until is not None

    def admit(self) -> bool:
        """Whether a request may go now: the breaker is closed, or it has cooled down and
        no other request is trying (this one is the trial)."""
        if self._until is None:
            return True
        if self._trial or self._clock() < self._until:
            return False
        self._trial = True
        return True

    def refusal(self) -> str:
        """Why a request was not sent (one line)."""
        left = max(0.0, (self._until or 0.0) - self._clock())
        again = "a request is trying it" if self._trial else f"tried again in {left:.0f} s"
        return f"{self.what} not sent: the endpoint is down ({self._reason}); {again}"

    def answered(self) -> None:
        """A request got an answer (of any kind): the endpoint is up."""
        if self._until is not None:
            log.warning("%s answers again", self.what)
        self._until, self._wait, self._trial = None, self.cooldown, False

    def failed(self, reason: str) -> None:
        """A request found the endpoint down (``reason``: how)."""
        self._reason = reason
        if self._until is None:
            log.warning(
                "%s is down (%s): its requests fail at once for %g s, then one tries again",
                self.what, reason, self._wait,
            )  # fmt: skip
        elif self._trial:
            self._wait = min(self._wait * 2, max(self.cooldown, MAX_COOLDOWN))
            log.info("%s is still down (%s): the next try in %g s", self.what, reason, self._wait)
        else:
            return  # sent before the breaker opened: it is open already
        self._until = self._clock() + self._wait
        self._trial = False

    def abandoned(self) -> None:
        """A request ended without an outcome (cancelled): a trial under way is over."""
        self._trial = False
