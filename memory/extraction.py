"""The extraction step of the ingest queue: messages in, candidate facts out.

The queue only knows the ``Extractor`` protocol; which extractor runs is the caller's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from memory.models import CandidateFact, StoredMessage

MAX_FACTS_PER_MESSAGE = 4


@runtime_checkable
class Extractor(Protocol):
    """Turns a batch of stored messages into candidate facts tied to their source message."""

    name: str

    async def extract(self, messages: Sequence[StoredMessage]) -> list[CandidateFact]: ...


class NoopExtractor:
    """Extracts nothing: messages are stored and journaled, no facts are proposed."""

    name = "none"

    async def extract(self, messages: Sequence[StoredMessage]) -> list[CandidateFact]:
        return []
