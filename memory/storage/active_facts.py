"""Each subject's active facts as the database holds them, kept on the database thread from
one transaction to the next, so that placing a step's facts does not read every subject's
facts again (an import places ~150 facts a step, for ~30 subjects).

What placing facts changes, it changes here too (``placing``). Anything else that
writes ``memory_facts`` empties the cache: a write by a connection of this process fires a
temporary trigger that counts it, one by any other connection moves ``PRAGMA data_version``.
Both are compared when a transaction begins (:meth:`ActiveFacts.kept`); a transaction that
fails empties it too (what it changed here was rolled back there).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from memory.lifecycle.value import undecayed_rank
from memory.models import parse_iso

SUBJECTS_KEPT = 4096
"""Subjects whose active facts are kept between transactions (the least recently used go)."""

_COUNTER = "memorybot_facts_written"
_TRIGGERS = tuple(
    f"CREATE TEMP TRIGGER IF NOT EXISTS memorybot_facts_{event.lower()} AFTER {event} "
    f"ON main.memory_facts BEGIN SELECT {_COUNTER}(); END"
    for event in ("INSERT", "UPDATE", "DELETE")
)
_UNIX_EPOCH_JULIAN_DAY = 2440587.5
_writes = [0]  # rows of memory_facts written by connections with the trigger, in this process


def _count() -> None:
    _writes[0] += 1


class Active(NamedTuple):
    """An active fact, with what its value is made of."""

    id: int
    fact: str
    last_seen_at: str
    confidence: float
    times_seen: int
    seen_day: float
    """``last_seen_at`` as a Julian day (:func:`day_number`)."""
    worth: float
    """Its value's rank, but for the decay (``value.undecayed_rank``): the cap ranks a
    member's facts again each step."""

    @classmethod
    def of(
        cls, fact_id: int, fact: str, last_seen_at: str, confidence: float, times_seen: int
    ) -> Active:
        return cls(fact_id, fact, last_seen_at, confidence, times_seen, day_number(last_seen_at),
                   undecayed_rank(confidence, times_seen))  # fmt: skip


Key = tuple[str, str]
"""(guild, subject)"""


def day_number(when: str) -> float:
    """The Julian day of an ISO time, as SQLite's ``julianday`` gives it (0.0 if unreadable)."""
    try:
        return parse_iso(when).timestamp() / 86_400 + _UNIX_EPOCH_JULIAN_DAY
    except (ValueError, TypeError):
        return 0.0


def load_active(conn: Any, guild_id: str, subject: str) -> list[Active]:
    rows = conn.execute(
        "SELECT id, fact, COALESCE(last_seen_at, said_at), confidence, times_seen "
        "FROM memory_facts WHERE guild_id = ? AND subject = ? AND is_active = 1",
        (guild_id, subject),
    ).fetchall()
    return [Active.of(*row) for row in rows]


class ActiveFacts:
    """(guild, subject) -> its active facts, read on first need and kept up to date by the
    caller; valid between transactions while nothing else writes facts (see the module)."""

    def __init__(self, kept: int = SUBJECTS_KEPT) -> None:
        self._kept = kept
        self._subjects: OrderedDict[Key, list[Active]] = OrderedDict()
        self._stamp: tuple[int, int] | None = None  # (data_version, writes) when last valid
        self._watched: int | None = None  # id of the connection the trigger is on

    def of(self, conn: Any, guild_id: str, subject: str) -> list[Active]:
        """The subject's active facts (a list the caller keeps up to date as it writes)."""
        key = (guild_id, subject)
        found = self._subjects.get(key)
        if found is None:
            found = self._subjects[key] = load_active(conn, guild_id, subject)
            if len(self._subjects) > self._kept:
                self._subjects.popitem(last=False)
        else:
            self._subjects.move_to_end(key)
        return found

    @contextmanager
    def kept(self, conn: Any) -> Iterator[ActiveFacts]:
        """Around one transaction of ``conn`` that keeps these up to date with what it writes:
        emptied first if anything else wrote facts since the last one, and if it fails."""
        self._watch(conn)
        if self._stamp != self._now(conn):
            self._subjects.clear()
        try:
            yield self
        except BaseException:
            self._subjects.clear()
            self._stamp = None
            raise
        self._stamp = self._now(conn)

    def _now(self, conn: Any) -> tuple[int, int]:
        return (int(conn.execute("PRAGMA data_version").fetchone()[0]), _writes[0])

    def _watch(self, conn: Any) -> None:
        if self._watched == id(conn):
            return
        conn.create_function(_COUNTER, 0, _count)
        for trigger in _TRIGGERS:
            conn.execute(trigger)
        self._watched = id(conn)
        self._subjects.clear()
        self._stamp = None
