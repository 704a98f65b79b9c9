"""Reading DiscordChatExporter JSON exports: streamed, validated, in compact batches.

Pure parsing (no asyncio, no database), so it runs the same in this process or in a
reader child process. A 200 MB export is never loaded whole: ``json_stream`` yields one
message at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from memory import ids
from memory.errors import ExportError, NotAnExportError
from memory.imports.json_stream import JSONStream, JSONStreamError, iter_object
from memory.models import canonical_time
from memory.text import (
    MAX_MESSAGE_CHARS,
    clean_text,
    is_meaningful,
    lone_surrogates,
    repair_surrogates,
    truncate_message,
)

USER_MESSAGE_TYPES = frozenset({"Default", "Reply"})

#: Lines per export that name a message skipped as invalid, repaired or truncated; the
#: summary counts the rest.
MAX_NOTES = 20

#: (message_id, author_id, display_name, username, content, created_at)
# message id, author id, display name, username, content, created_at, mentioned user ids
Row = tuple[str, str, str, str, str, str, tuple[str, ...]]
Member = tuple[str, str, str]  # (user_id, display_name, username)


@dataclass(frozen=True, slots=True)
class ExportHeader:
    path: str
    guild_id: str
    guild_name: str
    channel_id: str
    channel_name: str


@dataclass(slots=True)
class ParsedBatch:
    """Up to a batch of people's messages, and what the parser passed over to get them."""

    rows: list[Row] = field(default_factory=list)
    read: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    mentions: dict[str, Member] = field(default_factory=dict)
    offset: int = 0
    repaired: int = 0  # kept with lone surrogates replaced, or cut to MAX_MESSAGE_CHARS
    notes: list[str] = field(default_factory=list)  # one line per message named


def _snowflake(value: Any, what: str, path: Path) -> str:
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    if not ids.is_discord_id(text):
        raise ExportError(f"{path}: {what} is not a Discord id: {str(value)[:40]!r}")
    return text


def read_header(path: Path) -> ExportHeader:
    """Guild and channel of an export (read from its start; the messages are not loaded)."""
    found: dict[str, Any] = {}
    try:
        with _open(path) as handle:
            stream = JSONStream(handle)
            if stream.peek() != "{":
                stream.value()  # valid JSON, yet no object: not an export; else not JSON
                raise NotAnExportError(
                    f"{path}: not a DiscordChatExporter JSON export "
                    "(no 'guild' and 'channel' objects)"
                )
            for key, value in iter_object(stream, "messages"):
                if key in ("guild", "channel"):
                    found[key] = value
                if len(found) == 2:
                    break
    except JSONStreamError as exc:
        raise NotAnExportError(f"{path}: not valid JSON: {exc.reason}") from None
    guild, channel = found.get("guild"), found.get("channel")
    if not isinstance(guild, dict) or not isinstance(channel, dict):
        raise NotAnExportError(
            f"{path}: not a DiscordChatExporter JSON export (no 'guild' and 'channel' objects)"
        )
    return ExportHeader(
        path=str(path),
        guild_id=_snowflake(guild.get("id"), "guild.id", path),
        guild_name=clean_text(repair_surrogates(str(guild.get("name") or ""))),
        channel_id=_snowflake(channel.get("id"), "channel.id", path),
        channel_name=clean_text(repair_surrogates(str(channel.get("name") or ""))),
    )


def _open(path: Path) -> IO[bytes]:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise ExportError(f"{path}: cannot read: {exc.strerror or exc}") from None


@dataclass(slots=True)
class _Cursor:
    """Where the parser is, for progress and for error messages."""

    stream: JSONStream
    count: int = 0
    last_id: str = ""

    @property
    def offset(self) -> int:
        return self.stream.bytes_read


def iter_raw_messages(
    path: Path, on_message: Callable[[_Cursor], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Yield each raw message object; a parse error names the file and where it broke."""
    with _open(path) as handle:
        cursor = _Cursor(JSONStream(handle))
        seen_messages = False
        try:
            for key, raw in iter_object(cursor.stream, "messages"):
                if key != "messages":
                    continue
                seen_messages = True
                if isinstance(raw, list):  # "messages": [] decoded whole (an empty list)
                    continue
                cursor.count += 1
                if isinstance(raw, dict):
                    cursor.last_id = str(raw.get("id", ""))[:40]
                if on_message is not None:
                    on_message(cursor)
                yield raw if isinstance(raw, dict) else {}
        except JSONStreamError as exc:
            after = (
                f"after message #{cursor.count} (id {cursor.last_id})"
                if cursor.count
                else "before the first message"
            )
            raise ExportError(
                f"{path}: JSON breaks {after}, near byte {exc.offset:,}: {exc.reason}"
            ) from None
    if not seen_messages:
        raise NotAnExportError(
            f"{path}: not a DiscordChatExporter JSON export (no 'messages' list)"
        )


def to_row(raw: dict[str, Any], mentioned: tuple[str, ...] = ()) -> Row | str:
    """The compact row of a person's message, or the reason it is skipped."""
    message_id = raw.get("id")
    author = raw.get("author")
    if not ids.is_discord_id(message_id):
        return "invalid"
    if not isinstance(author, dict) or not ids.is_discord_id(str(author.get("id", ""))):
        return "invalid"
    if author.get("isBot") is True:
        return "bot"
    if raw.get("type", "Default") not in USER_MESSAGE_TYPES:
        return "system"
    content = raw.get("content")
    if not isinstance(content, str) or not is_meaningful(content):
        return "empty"
    created_at = _timestamp(raw.get("timestamp"))
    if created_at is None:
        return "invalid"
    shown, username = names(author)
    return (message_id, str(author["id"]), shown, username, content, created_at, mentioned)


def _timestamp(value: Any) -> str | None:
    try:
        return canonical_time(value) if isinstance(value, str) else None
    except ValueError:
        return None


def names(person: dict[str, Any]) -> tuple[str, str]:
    """``(display name, username)``: the name people see (the guild nickname, else the
    account name) and the account name, cleaned."""
    return _clean_names(str(person.get("nickname") or ""), str(person.get("name") or ""))


@lru_cache(maxsize=4096)
def _clean_names(nickname: str, name: str) -> tuple[str, str]:
    # Cached: an export repeats its few authors on every message, and the same string
    # objects then go into every row (pickled once per batch, not once per message).
    username = clean_text(repair_surrogates(name))[:100]
    return clean_text(repair_surrogates(nickname))[:100] or username or "unknown", username


def why_invalid(raw: dict[str, Any]) -> str:
    """What makes a message ``to_row`` called invalid, for a person."""
    author = raw.get("author")
    if not ids.is_discord_id(raw.get("id")):
        return "its id is not a Discord id"
    if not isinstance(author, dict) or not ids.is_discord_id(str(author.get("id", ""))):
        return "its author has no Discord id"
    return f"its timestamp is not a time memorybot can store: {str(raw.get('timestamp'))[:40]!r}"


def repair(raw: dict[str, Any]) -> str | None:
    """Make a message's text storable in place: lone UTF-16 surrogates (a JSON escape such
    as ``\\ud800``, which no UTF-8 can hold) replaced with U+FFFD, text longer than Discord
    allows cut with a note. What was done, or None when nothing needed it."""
    content = raw.get("content")
    if not isinstance(content, str) or (content.isascii() and len(content) <= MAX_MESSAGE_CHARS):
        return None
    done = []
    if len(content) > MAX_MESSAGE_CHARS:
        done.append(f"its text ({len(content):,} characters) cut to {MAX_MESSAGE_CHARS:,}")
        content = truncate_message(content)
    surrogates = lone_surrogates(content)
    if surrogates:
        done.append(f"{surrogates} lone surrogate(s) in its text replaced with U+FFFD")
        content = repair_surrogates(content)
    raw["content"] = content
    return " and ".join(done) or None


def mentioned_members(raw: dict[str, Any]) -> Iterator[Member]:
    for person in raw.get("mentions") or []:
        if (
            isinstance(person, dict)
            and ids.is_discord_id(str(person.get("id", "")))
            and person.get("isBot") is not True
        ):
            yield (str(person["id"]), *names(person))


def parse_batches(path: Path, batch_size: int) -> Iterator[ParsedBatch]:
    """The messages of ``path`` in batches of up to ``batch_size`` kept rows.

    Raises ``ExportError`` where the file breaks; every batch before it was yielded.
    """
    batch = ParsedBatch()
    cursor_offset = 0
    notes = _Notes(path)

    def track(cursor: _Cursor) -> None:
        nonlocal cursor_offset
        cursor_offset = cursor.offset

    try:
        for raw in iter_raw_messages(path, track):
            batch.read += 1
            mentioned: tuple[str, ...] = ()
            if raw.get("mentions"):
                for member in mentioned_members(raw):
                    batch.mentions[member[0]] = member
                    mentioned += (member[0],)
            repaired = repair(raw)
            row = to_row(raw, mentioned)
            if isinstance(row, str):
                batch.skipped[row] = batch.skipped.get(row, 0) + 1
                if row == "invalid":
                    notes.add(batch, raw, f"skipped: {why_invalid(raw)}")
                continue
            if repaired:
                batch.repaired += 1
                notes.add(batch, raw, f"stored with {repaired}")
            batch.rows.append(row)
            if len(batch.rows) >= batch_size:
                batch.offset = cursor_offset
                yield batch
                batch = ParsedBatch()
    except ExportError:
        notes.finish(batch)
        if batch.read or batch.notes:
            batch.offset = cursor_offset
            yield batch  # what was read before the fault is kept
        raise
    batch.offset = cursor_offset
    notes.finish(batch)
    yield batch


@dataclass(slots=True)
class _Notes:
    """The lines that name messages skipped or changed, up to ``MAX_NOTES`` an export."""

    path: Path
    count: int = 0

    def add(self, batch: ParsedBatch, raw: dict[str, Any], what: str) -> None:
        self.count += 1
        if self.count <= MAX_NOTES:
            shown = str(raw.get("id", "?"))[:40] or "?"
            batch.notes.append(f"{self.path.name}: message {shown}: {what}")

    def finish(self, batch: ParsedBatch) -> None:
        if self.count > MAX_NOTES:
            batch.notes.append(
                f"{self.path.name}: {self.count - MAX_NOTES} more message(s) skipped or "
                "repaired (counted in the summary)"
            )
