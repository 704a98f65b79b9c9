"""What ``Storage.fts_windows`` is asked: full-text *windows* of one guild, each the newest
(or oldest) documents that hold a word of some term groups, maybe narrowed to a channel or
some authors (``memory.search.lexical`` says why windows, and ranks what they find). A
backend renders them in its own full-text syntax; the words are index terms as
``memory.search.fts.fts_words`` folds them, so every backend indexes those."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Corpus = Literal["messages", "facts"]  # messages' content; facts' text and evidence
CORPORA: tuple[Corpus, ...] = ("messages", "facts")


@dataclass(frozen=True, slots=True)
class Narrow:
    """Only the messages whose ``column`` is one of ``values``."""

    column: Literal["channel_id", "author_id"]
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Window:
    """The guild's newest ``limit`` documents (``ascending``: its oldest) that hold a word
    of any of ``groups`` (each a set of index words; None: every document), within
    ``narrow``."""

    groups: tuple[frozenset[str], ...] | None
    limit: int
    ascending: bool = False
    narrow: Narrow | None = None
