"""Errors raised by the memory package; entry points translate them for people."""

from __future__ import annotations


class MemorybotError(Exception):
    """Base class of every error memorybot reports to a person."""


class ConfigError(MemorybotError):
    """A setting has a value that is not allowed."""


class StoreError(MemorybotError):
    """The database cannot be opened or used."""


class ExportError(MemorybotError):
    """A Discord export cannot be read (missing, not an export, corrupt or truncated)."""


class QueueClosedError(MemorybotError):
    """A message was submitted to an ingest queue that is shutting down."""


class NotAnExportError(ExportError):
    """A JSON file that is not a DiscordChatExporter export (skipped inside folders)."""


class InvalidMessageError(MemorybotError, ValueError):
    """A message offered for ingest lacks an id or has a timestamp that is not ISO 8601."""


class EndpointDownError(MemorybotError):
    """A remote endpoint is down: it did not answer (no answer within the deadline, a
    refused or dropped connection, 429 / 5xx after every retry), or is known not to (its
    circuit breaker is open, so the request was not even tried). The breaker logs the
    outage once; whoever sees this error need not log it again."""


def endpoint_down(exc: BaseException) -> bool:
    """Whether ``exc``, or an error it was raised from, is an :class:`EndpointDownError`."""
    current: BaseException | None = exc
    for _ in range(8):  # a chain is a few links long; never follow a cycle forever
        if current is None:
            return False
        if isinstance(current, EndpointDownError):
            return True
        current = current.__cause__
    return False
