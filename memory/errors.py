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
