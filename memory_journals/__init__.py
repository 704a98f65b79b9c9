"""Markdown journals: daily logs and MEMORY.md snapshots that operators read."""

from memory_journals.journals import Journals

__all__ = ["Journals"]
