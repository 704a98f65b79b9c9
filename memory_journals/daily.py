"""Append-only daily logs: ``<root>/<guild_id>/YYYY-MM-DD.md``, one line per message."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from memory.models import StoredMessage
from memory.text import JOURNAL_TEXT_CAP, cap, clean_text
from memory_journals.files import guild_dir

log = logging.getLogger(__name__)

NAME_CAP = 80


def daily_header(day: str) -> str:
    return f"# Daily Memory Log {day}\n\n"


@lru_cache(maxsize=8192)
def _label(value: str, fallback: str) -> str:
    """A name or an id made safe for one line (they repeat: cleaned once each)."""
    return cap(clean_text(value), NAME_CAP) or fallback


def format_line(message: StoredMessage) -> str:
    """``- <ISO time> | <name> (<user id>) | [guild:<G> channel:<C>] <text>``, one line."""
    name = _label(message.author_name, "unknown")
    user_id = _label(message.author_id, "?")
    scope = f"[guild:{_label(message.guild_id, '')} channel:{_label(message.channel_id, '')}"
    if message.source == "voice":
        scope += " voice"
    text = cap(clean_text(message.content), JOURNAL_TEXT_CAP)
    return f"- {message.created_at} | {name} ({user_id}) | {scope}] {text}\n"


def message_day(message: StoredMessage) -> str:
    """The UTC day of a message (stored timestamps are canonical UTC ISO 8601)."""
    return message.created_at[:10]


class DailyLogWriter:
    """Appends lines; the first write to an existing file in a process skips lines already there.

    That check covers the one crash window: lines written but not yet marked journaled.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._checked: set[Path] = set()

    def path_for(self, guild_id: str, day: str) -> Path:
        return guild_dir(self.root, guild_id) / f"{day}.md"

    def append(self, messages: Sequence[StoredMessage]) -> list[Path]:
        """Write one line per message to its guild's log of the message's day."""
        by_file: dict[tuple[str, str], list[str]] = {}
        for message in messages:
            day_key = (message.guild_id, message_day(message))
            by_file.setdefault(day_key, []).append(format_line(message))
        paths = []
        for (guild_id, day), lines in by_file.items():
            path = self.path_for(guild_id, day)
            self._append_lines(path, lines)
            paths.append(path)
        return paths

    def _append_lines(self, path: Path, lines: list[str]) -> None:
        if path not in self._checked:
            self._checked.add(path)
            if path.exists():
                existing = list(_read_lines(path))
                present = set(existing)
                lines = [line for line in lines if line not in present]
                if lines and existing and not existing[-1].endswith("\n"):
                    lines[0] = "\n" + lines[0]  # a line cut short (power loss): end it first
        if not lines:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            if handle.tell() == 0:
                handle.write(daily_header(path.stem))
            handle.write("".join(lines))


def _read_lines(path: Path) -> Iterable[str]:
    with open(path, encoding="utf-8", newline="\n") as handle:
        yield from handle
