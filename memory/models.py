"""Plain data passed between the store, the ingest queue and its consumers."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple, Protocol

from memory.errors import InvalidMessageError
from memory.text import MAX_MESSAGE_CHARS, lone_surrogates, repair_surrogates, truncate_message

Source = Literal["text", "voice", "import", "bot"]
JobStatus = Literal["pending", "done", "dropped", "failed"]
SOURCES: tuple[Source, ...] = ("text", "voice", "import", "bot")
LORE_SUBJECT = "__lore__"


def subject_name(subject: str, names: Mapping[str, str]) -> str:
    """How a fact's subject is shown: "lore", a member's display name, or "" (unknown)."""
    return "lore" if subject == LORE_SUBJECT else names.get(subject, "")


def utc_iso(moment: datetime | None = None) -> str:
    """ISO 8601 in UTC with milliseconds: the one timestamp format stored everywhere."""
    if moment is None:  # now (every write asks): already in UTC
        return datetime.now(UTC).isoformat(timespec="milliseconds")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def parse_iso(value: str) -> datetime:
    """Parse an ISO 8601 timestamp (``Z`` accepted); naive values are taken as UTC."""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:00-05:00 is in year 10000 in UTC
        raise ValueError(f"time out of range in UTC: {value[:40]!r}") from None


# Times already in the stored format that are surely valid: ASCII digits (``\d`` would take
# any script's digits, and is twice as slow), a day the month has, a real hour, minute and
# second. Anything else (February 29th too) is parsed to be sure.
_CANONICAL_TIME = re.compile(
    r"(?!0000)[0-9]{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])"
    r"|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
    r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}\+00:00"
)


def canonical_time(value: str) -> str:
    """``value`` in the stored format (UTC, milliseconds); ValueError if it is no timestamp."""
    if _CANONICAL_TIME.fullmatch(value):
        return value
    return utc_iso(parse_iso(value))


# Hot value objects are NamedTuples: built in C, cheap at 20,000 messages a second.


class Author(NamedTuple):
    id: str
    name: str
    username: str = ""


class IngestItem(NamedTuple):
    """One message offered to the ingest queue (DESIGN "Ingest").

    ``created_at`` is ISO 8601 (stored in UTC); ``trace`` says where it came from.
    """

    guild_id: str
    channel_id: str
    message_id: str
    author: Author
    content: str
    created_at: str
    source: Source = "text"
    trace: dict[str, Any] | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.guild_id, self.message_id)

    def validated(self) -> IngestItem:
        """This item, with its time in the stored format, text longer than Discord allows
        cut (``truncate_message``) and lone surrogates replaced; ``InvalidMessageError`` for
        what the store could not keep (no id, text that is no string, a time that is none)."""
        if not isinstance(self.message_id, str) or not self.message_id:
            raise InvalidMessageError(f"message has no id: {self.message_id!r}")
        if not isinstance(self.content, str):
            raise InvalidMessageError(f"message {self.message_id}: content is not text")
        try:
            created_at = canonical_time(self.created_at)
        except (ValueError, TypeError, AttributeError):
            raise InvalidMessageError(
                f"message {self.message_id}: created_at is not an ISO 8601 time: "
                f"{str(self.created_at)[:40]!r}"
            ) from None
        fixed = self if created_at == self.created_at else self._replace(created_at=created_at)
        if len(self.content) > MAX_MESSAGE_CHARS:
            fixed = fixed._replace(content=truncate_message(self.content))
        texts = (fixed.content, self.author.name, self.author.username)
        return fixed._repaired() if any(map(lone_surrogates, texts)) else fixed

    def _repaired(self) -> IngestItem:
        """Text that JSON gave lone UTF-16 surrogates (no UTF-8 can hold one): each one
        replaced with U+FFFD, the rest kept."""
        author = self.author._replace(
            name=repair_surrogates(self.author.name),
            username=repair_surrogates(self.author.username),
        )
        return self._replace(content=repair_surrogates(self.content), author=author)

    def stored(self, row_id: int) -> StoredMessage:
        """The row of this (validated) item, stored as ``row_id``."""
        return StoredMessage(
            row_id, self.guild_id, self.channel_id, self.message_id, self.author.id,
            self.author.name, self.content, self.source, self.created_at,
        )  # fmt: skip


class StoredMessage(NamedTuple):
    row_id: int
    guild_id: str
    channel_id: str
    message_id: str
    author_id: str
    author_name: str
    content: str
    source: Source
    created_at: str


class Job(NamedTuple):
    """A pending ingest job with the message it is about (``job_id`` = the message row)."""

    job_id: int
    live: bool
    trace: dict[str, Any]
    message: StoredMessage


class FactOrigin(Protocol):
    """Where and when a fact was said: the message's guild, channel and time (a stored or
    source message; an empty time means now)."""

    @property
    def guild_id(self) -> str: ...

    @property
    def channel_id(self) -> str: ...

    @property
    def created_at(self) -> str: ...


class CandidateFact(NamedTuple):
    """What an extractor proposes; the queue filters and stores it."""

    subject: str
    fact: str
    fact_type: str
    confidence: float
    evidence: str
    source_message_id: str


@dataclass(frozen=True, slots=True)
class Fact:
    id: int
    guild_id: str
    channel_id: str | None
    subject: str
    fact: str
    fact_type: str
    evidence: str
    source_message_id: str | None
    confidence: float
    is_active: bool
    said_at: str  # when its source message was written (recency counts from it)
    created_at: str  # when it was stored
    updated_at: str
    times_seen: int = 1  # how often it was said (from different messages)
    last_seen_at: str = ""  # when it was last said
    superseded_by: int | None = None  # the newer fact that contradicts it
    valid_until: str | None = None  # when that newer fact was said

    @property
    def said_on(self) -> str:
        """The day (UTC, ``YYYY-MM-DD``) the fact was said."""
        return self.said_at[:10]


@dataclass(slots=True)
class GuildStats:
    guild_id: str
    name: str
    messages: int = 0
    facts: int = 0
    active_facts: int = 0
    pending_jobs: int = 0
    dropped_jobs: int = 0
    failed_jobs: int = 0


@dataclass(frozen=True, slots=True)
class MemberProfile:
    """A member's condensed paragraph, written by the LLM from their facts (``fact_ids``,
    each sentence citing the ones it rests on). ``current``: every cited fact is still active
    (else it is not shown until it is written again)."""

    guild_id: str
    subject: str
    paragraph: str
    fact_ids: tuple[int, ...]
    digest: str  # of the member's facts it was written from: unchanged facts, no rewrite
    model: str
    written_at: str
    current: bool = True

    @property
    def written_on(self) -> str:
        return self.written_at[:10]
