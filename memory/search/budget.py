"""Filling the prompt memory slice within a budget of characters shown.

What a reply costs is the text it is given, so the slice is judged by the characters it
shows: each fact's text, and each message's text — an item or a neighbouring turn — counted
once however many windows hold it. :func:`pack` fills ``budget`` characters from ranked
candidates, in three passes:

1. facts, up to ``FACT_SHARE`` of the budget: the asking member's first, then the guild's,
   best first. A fact is short and points to the message it came from, so a few of them
   reach far for their size;
2. message hits, best first, each with its neighbouring turns (the answer is often the
   reply after the hit, or the turn before it) up to ``WINDOW_CHARS`` characters, paying
   only for the turns not shown yet — never the turns before a pause of more than
   ``PAUSE`` (an earlier conversation); a hit whose window does not fit comes with fewer
   neighbours, down to none; a hit shown already as another's neighbour is passed over;
3. what is left goes to more facts, best first, leaving out those whose source message is
   shown already (its text is there: it is not paid twice).

An item that does not fit is skipped, and the next is tried. Nothing is cut in the middle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

from memory.models import StoredMessage, parse_iso
from memory.search.results import FactHit, MemorySlice, MessageHit

FACT_SHARE = 0.2
"""Share of the budget facts may take before message hits are placed (measured by
``bench/retrieval.py``: 0.1–0.3 are within noise on LoCoMo dev; no facts at all loses 0.02)."""
WINDOW_CHARS = 600
"""A hit's window grows until it shows this many characters (``retriever.NEIGHBOURS`` turns
either side at most): measured 500–800 alike on LoCoMo dev and on informal chat."""
PAUSE = timedelta(hours=1)
"""Turns said more than this before the next are another conversation: a hit's window does
not reach back past such a pause. The turns after one still count (a question is often
answered hours later). Measured on LoCoMo dev and our six conversations (sessions hours to
weeks apart, turns within one at most 12 minutes apart): 0.843 → 0.850 and 0.826 → 0.830,
no conversation lower; cutting the turns after a pause too lost two of our chats."""
FULL = 20
"""A budget with less than this left is full: no fact is that short."""


@dataclass
class _Shown:
    budget: int
    chars: int = 0

    def fits(self, cost: int) -> bool:
        return self.chars + cost <= self.budget

    def pay(self, cost: int) -> None:
        self.chars += cost

    @property
    def full(self) -> bool:
        return self.budget - self.chars < FULL


def pack(
    user_facts: Sequence[FactHit],
    relevant_facts: Sequence[FactHit],
    messages: Sequence[MessageHit],
    budget: int,
    *,
    fact_share: float = FACT_SHARE,
) -> MemorySlice:
    """The slice of these ranked candidates that fills ``budget`` characters shown (see the
    module's docstring; ``fact_share``: of the budget facts may take before messages, 1 for
    a question about the asker); the lists keep their ranking order."""
    shown = _Shown(budget)
    out = MemorySlice()
    facts = [(True, hit) for hit in user_facts] + [(False, hit) for hit in relevant_facts]
    placed: set[int] = set()
    turns: set[str] = set()

    def place_fact(mine: bool, hit: FactHit) -> None:
        cost = len(hit.fact.fact)
        if hit.fact.id in placed or not shown.fits(cost):
            return
        shown.pay(cost)
        placed.add(hit.fact.id)
        (out.user_facts if mine else out.relevant_facts).append(hit)

    for mine, hit in facts:
        if shown.chars >= fact_share * budget:
            break
        place_fact(mine, hit)
    for message in messages:
        if shown.full:
            break
        if message.message.message_id in turns:
            continue  # shown already, as a neighbour of a better hit
        for window in _windows(message):
            new = [m for m in window if m.message_id not in turns]
            cost = sum(len(m.content) for m in new)
            if new and shown.fits(cost):
                shown.pay(cost)
                turns.update(m.message_id for m in new)
                out.relevant_messages.append(replace(message, context=window))
                break
    for mine, hit in facts:
        if shown.full:
            break
        if hit.fact.source_message_id not in turns:
            place_fact(mine, hit)
    rank = {hit.fact.id: index for index, (_mine, hit) in enumerate(facts)}
    out.user_facts.sort(key=lambda hit: rank[hit.fact.id])
    out.relevant_facts.sort(key=lambda hit: rank[hit.fact.id])
    return out


def _windows(hit: MessageHit) -> list[tuple[StoredMessage, ...]]:
    """The turns to show with a hit, widest first: grown from the hit a turn at a time, the
    turn after first, until ``WINDOW_CHARS`` or the turns at hand run out; then one turn less
    on each side, down to the hit alone. Sized by characters, not turns: three lines of a
    chat burst say less than one paragraph of a long message."""
    turns = hit.context
    centre = next((i for i, m in enumerate(turns) if m.message_id == hit.message.message_id), 0)
    start = centre
    while start > 0 and not _paused(turns[start - 1], turns[start]):
        start -= 1
    turns, centre = turns[start:], centre - start
    low = high = centre
    chars = len(turns[centre].content)
    while chars < WINDOW_CHARS and (low > 0 or high < len(turns) - 1):
        if high < len(turns) - 1:
            high += 1
            chars += len(turns[high].content)
        if chars < WINDOW_CHARS and low > 0:
            low -= 1
            chars += len(turns[low].content)
    windows = [turns[low : high + 1]]
    while low < centre or high > centre:
        low, high = min(low + 1, centre), max(high - 1, centre)
        windows.append(turns[low : high + 1])
    return windows


def _paused(earlier: StoredMessage, later: StoredMessage) -> bool:
    """Whether more than ``PAUSE`` passed between two turns (False when a time is unknown)."""
    try:
        return parse_iso(later.created_at) - parse_iso(earlier.created_at) > PAUSE
    except ValueError:
        return False
