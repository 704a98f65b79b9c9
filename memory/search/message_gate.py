"""The relevance gate of message search: a message found by full text is shown only when it
holds enough of the query's content words.

Full text finds every message that holds *any* query word, so an unrelated query ("what does
Kai think about quantum chromodynamics") still finds "I think so". Search (not the slice,
which fills its budget from the ungated ranking) keeps a message only when the query's term
groups it holds carry at least ``MIN_SHARE`` of the query's weight, each group weighted by
its IDF: a rare word the message lacks costs more than a common one it has. A one-word query
needs its word; a two-word one, the rarer word (or both when they are about as rare). A word
counts as held as it does for BM25 (``lexical.rank``): one of the group's forms, or a word
starting with the group's prefix.

Measured on the informal chats of ``bench/data/retrieval`` (158 questions, 8 messages a
question) against 30 unrelated queries (10 a chat): the share of evidence messages that are
hits went 0.263 (ungated) → 0.307, hits a question 7.8 → 3.3, unrelated queries' hits 58 → 1
(a message about the very sourdough starter asked about). A share of 0.5 kept 0.175; 0.25 let
15 unrelated hits through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memory.search.fts import TermGroup
from memory.search.lexical import cached_words

MIN_SHARE = 0.3  # of the query's IDF weight a message must hold


def held(groups: Sequence[TermGroup], text: str) -> list[bool]:
    """For each group, whether ``text`` holds one of its forms (or a word with its prefix)."""
    words = cached_words(text)  # as ranking split it
    found = []
    for group in groups:
        hit = not group.forms.isdisjoint(words)
        if not hit and group.prefix:
            hit = any(word.startswith(group.prefix) for word in words)
        found.append(hit)
    return found


def share(groups: Sequence[TermGroup], idf: Mapping[str, float], text: str) -> float:
    """The share of the query's IDF weight (``groups`` not empty) that ``text`` holds."""
    weights = [max(idf.get(g.token, 0.0), 1e-6) for g in groups]
    found = held(groups, text)
    return sum(w for w, hit in zip(weights, found, strict=True) if hit) / sum(weights)


def relevant(groups: Sequence[TermGroup], idf: Mapping[str, float], text: str) -> bool:
    """Whether a message with ``text`` passes the gate for the query's ``groups``."""
    return bool(groups) and share(groups, idf, text) >= MIN_SHARE
