"""Append-only daily logs: ``<root>/<guild_id>/YYYY-MM-DD.md``, one line per message.

Append-only for ingest; forgetting rewrites a file (atomically) to take a deleted
message's line out or to put an edited message's new text in its place.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from memory.models import StoredMessage
from memory.storage.permissions import make_private_dir
from memory.text import JOURNAL_TEXT_CAP, cap, clean_text
from memory_journals.files import daily_logs, guild_dir, write_atomic

log = logging.getLogger(__name__)

NAME_CAP = 80


def daily_header(day: str) -> str:
    return f"# Daily Memory Log {day}\n\n"


@lru_cache(maxsize=8192)
def _label(value: str, fallback: str) -> str:
    """A name or an id made safe for one line (they repeat: cleaned once each)."""
    return cap(clean_text(value), NAME_CAP) or fallback


@lru_cache(maxsize=8192)
def _middle(author_name: str, author_id: str, guild_id: str, channel_id: str, voice: bool) -> str:
    """`` | <name> (<user id>) | [guild:<G> channel:<C>] `` (one per speaker and channel)."""
    name, user_id = _label(author_name, "unknown"), _label(author_id, "?")
    scope = f"[guild:{_label(guild_id, '')} channel:{_label(channel_id, '')}"
    return f" | {name} ({user_id}) | {scope}{' voice' if voice else ''}] "


def format_line(message: StoredMessage) -> str:
    """``- <ISO time> | <name> (<user id>) | [guild:<G> channel:<C>] <text>``, one line."""
    middle = _middle(message.author_name, message.author_id, message.guild_id,
                     message.channel_id, message.source == "voice")  # fmt: skip
    return f"- {message.created_at}{middle}{cap(clean_text(message.content), JOURNAL_TEXT_CAP)}\n"


def message_day(message: StoredMessage) -> str:
    """The UTC day of a message (stored timestamps are canonical UTC ISO 8601)."""
    return message.created_at[:10]


class DailyLogWriter:
    """Appends lines; the first write to an existing file in a process skips lines already there.

    That check covers the crash window (lines written but not yet marked journaled); a write
    asked to ``recheck`` (after one that failed) checks its files again. A write that fails
    part way takes what it added to a file out again.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._checked: set[Path] = set()

    def path_for(self, guild_id: str, day: str) -> Path:
        return guild_dir(self.root, guild_id) / f"{day}.md"

    def append(self, messages: Sequence[StoredMessage], *, recheck: bool = False) -> list[Path]:
        """Write one line per message to its guild's log of the message's day (``recheck``:
        skip the lines its files have already, as after a crash)."""
        by_file: dict[Path, list[str]] = {}
        for message in messages:
            path = self.path_for(message.guild_id, message_day(message))
            by_file.setdefault(path, []).append(format_line(message))
        if recheck:
            self._checked.difference_update(by_file)
        try:
            for path, lines in by_file.items():
                self._append_lines(path, lines)
        except BaseException:
            self._checked.difference_update(by_file)  # written in part: look again next time
            raise
        return list(by_file)

    def _append_lines(self, path: Path, lines: list[str]) -> None:
        if path not in self._checked:
            if path.exists():
                drop_torn_line(path)
                lines = _missing(path, lines)
            self._checked.add(path)
        add_lines(path, lines)

    def rewrite(
        self,
        guild_id: str,
        changes: Sequence[tuple[StoredMessage, StoredMessage | None]],
        *,
        author_id: str | None = None,
        keep: Collection[str] = (),
    ) -> int:
        """Replace the line of each ``(before, after)`` message in its day's log with the
        line of ``after``, or remove it (None); with ``author_id``, also remove every line by
        that member in any of the guild's logs, but the lines in ``keep``. Only files that
        change are rewritten (atomically); other lines stay byte for byte. Returns how many
        lines were replaced or removed."""
        edits: dict[Path, dict[str, list[str | None]]] = {}
        for before, after in changes:
            if before.guild_id != guild_id:
                continue
            lines = edits.setdefault(self.path_for(guild_id, message_day(before)), {})
            replacement = format_line(after) if after is not None else None
            lines.setdefault(format_line(before), []).append(replacement)
        paths = set(edits)
        author = None
        if author_id is not None:
            author = f" ({_label(author_id, '?')})"
            paths.update(daily_logs(guild_dir(self.root, guild_id)))
        return sum(_rewrite_file(path, edits.get(path, {}), author, keep) for path in sorted(paths))


def _rewrite_file(
    path: Path, edits: Mapping[str, list[str | None]], author: str | None, keep: Collection[str]
) -> int:
    """Apply ``edits`` (a line -> what takes its place, one per occurrence) and drop the
    lines by ``author`` (`` (<user id>)``) not in ``keep``; a missing file has nothing."""
    try:
        lines = list(read_lines(path))
    except FileNotFoundError:
        return 0
    todo = {line: list(replacements) for line, replacements in edits.items()}
    out: list[str] = []
    changed = 0
    for line in lines:
        replacements = todo.get(line)
        if replacements:
            changed += 1
            replacement = replacements.pop(0)
            if replacement is not None:
                out.append(replacement)
        elif author is not None and line not in keep and _written_by(line, author):
            changed += 1
        else:
            out.append(line)
    if changed:
        write_atomic(path, "".join(out))
    return changed


def _written_by(line: str, author: str) -> bool:
    """Whether a log line's ``<name> (<user id>)`` part ends with ``author``; names and
    texts are cleaned (``|`` -> ``/``), so `` | `` only separates the parts."""
    parts = line.split(" | ", 2)
    return line.startswith("- ") and len(parts) == 3 and parts[1].endswith(author)


def add_lines(path: Path, lines: Sequence[str]) -> None:
    """Append ``lines`` to a daily log (made with its header when new); a write that fails
    leaves the file as it was."""
    if not lines:
        return
    make_private_dir(path.parent)
    size = path.stat().st_size if path.exists() else 0
    if not size:
        # A new day's log appears whole, header and lines: a kill cannot leave it empty.
        # (No flush to the device: an import of years of history starts a log per day.)
        write_atomic(path, daily_header(path.stem) + "".join(lines), sync=False)
        return
    data = memoryview("".join(lines).encode("utf-8"))
    try:  # one write call for all the lines (a kill rarely lands inside one)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            while data:
                data = data[os.write(fd, data) :]
        finally:
            os.close(fd)
    except OSError:
        with contextlib.suppress(OSError):  # no half line left behind (a full disk)
            os.truncate(path, size)
        raise


def drop_torn_line(path: Path) -> None:
    """Cut a last line that was never ended (a write cut short by a power loss, or by a
    kill between two pages of a big write): the message it was written for has no line
    then, and gets a whole one."""
    with open(path, "rb") as handle:
        end = handle.seek(0, os.SEEK_END)
        if not end:
            return
        handle.seek(end - 1)
        if handle.read(1) == b"\n":
            return
        start = max(0, end - 64 * 1024)
        handle.seek(start)
        tail = handle.read()
    cut = tail.rfind(b"\n")
    if cut < 0:
        return  # no whole line in the last 64 KB: not a daily log, leave it be
    os.truncate(path, start + cut + 1)
    log.warning("%s ended in a line cut short: removed, its message gets a whole line", path)


def _missing(path: Path, lines: list[str]) -> list[str]:
    """Those of ``lines`` the file does not have yet: each as often as it is missing (two
    messages can make the same line)."""
    existing = list(read_lines(path))
    present = Counter(existing)
    missing = []
    for line in lines:
        if present[line]:
            present[line] -= 1
        else:
            missing.append(line)
    return missing


def read_lines(path: Path) -> Iterable[str]:
    with open(path, encoding="utf-8", newline="\n") as handle:
        yield from handle
