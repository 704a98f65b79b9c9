"""Members' profiles in MEMORY.md (issue 20, item 4): the most valued current facts, grouped,
the member's name left out, events latest first with their day, hedged facts left out."""

from __future__ import annotations

from datetime import UTC, datetime

from memory.models import Fact
from memory_journals.profiles import profile_lines

NOW = datetime(2026, 11, 25, tzinfo=UTC)


def fact(n: int, text: str, kind: str, *, said: str = "2026-11-01", confidence: float = 0.9,
         times: int = 1) -> Fact:  # fmt: skip
    when = f"{said}T10:00:00.000+00:00"
    return Fact(n, "1", None, "7", text, kind, "", None, confidence, True, when, when, when,
                times_seen=times, last_seen_at=when)  # fmt: skip


def test_a_profile_groups_the_most_valued_facts() -> None:
    facts = [
        fact(1, "Sarah works as a nurse.", "profile"),
        fact(2, "Sarah's dog is called Biscuit.", "relationship"),
        fact(3, "Sarah likes olives.", "preference", times=3),
        fact(4, "Sarah likes jazz.", "preference", said="2025-01-01"),
        fact(5, "Sarah likes tea.", "preference"),
        fact(6, "Sarah likes hiking.", "preference", confidence=0.6),  # hedged: left out
        fact(7, "Sarah went to Lisbon on 2 November 2026.", "event", said="2026-11-02"),
        fact(8, "Sarah ran a 10k on 1 October 2026.", "event", said="2026-10-01"),
        fact(9, "Sarah is maybe moving.", "other"),
    ]
    assert profile_lines(facts, "Sarah", now=NOW) == [
        "**Who they are:** works as a nurse; their dog is called Biscuit.",
        "**What they like:** likes olives; likes tea; likes jazz.",
        "**Lately:** went to Lisbon on 2 November 2026 (2026-11-02); "
        "ran a 10k on 1 October 2026 (2026-10-01).",
    ]


def test_no_facts_no_profile() -> None:
    assert profile_lines([], "Sarah", now=NOW) == []
    assert profile_lines([fact(1, "Sarah is maybe moving.", "other")], "Sarah", now=NOW) == []
