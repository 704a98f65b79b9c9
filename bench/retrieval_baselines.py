"""The simple baselines the retrieval benchmark holds the slice against, at the same budget of
characters shown: what a reply would get from plain full-text search over the raw turns.

* ``bm25``: turns ranked by BM25 (k1 1.2, b 0.75; lowercase word tokens, the search's
  stopwords left out, a plural or -ing / -ed ending cut), shown whole in rank order while
  they fit the budget;
* ``bm25+neighbours``: the same hits, each with the two turns before and after it, every
  turn counted once, in rank order while they fit;
* ``rrf(bm25, embedder)``: turns ranked by reciprocal rank fusion (k = 10) of BM25 and the
  cosine similarity of the bundled embedder's vectors, shown whole while they fit.

A unit that does not fit is skipped and the next is tried, so a baseline fills its budget as
well as its ranking allows. On ``../shared/data/locomo-dev`` at 4,000 characters these reach
0.662 / 0.766 / 0.649 (the data's README: 0.675 / 0.766 / 0.669).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from memory.search.fts import STOPWORDS

K1, B = 1.2, 0.75
RRF_K = 10
CONTEXT = 2
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Turn:
    message_id: str
    content: str


def tokens(text: str) -> list[str]:
    return [_stem(word) for word in _TOKEN.findall(text.lower()) if word not in STOPWORDS]


def _stem(word: str) -> str:
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


class Conversation:
    """One channel's turns, indexed for BM25 and (given a vectoriser) for the embedder."""

    def __init__(
        self, turns: Sequence[Turn], vectorise: Callable[[list[str]], NDArray[np.float32]]
    ) -> None:
        self.turns = list(turns)
        self._vectorise = vectorise
        self._bags = [Counter(tokens(t.content)) for t in self.turns]
        self._lengths = [sum(bag.values()) for bag in self._bags]
        self._mean_length = sum(self._lengths) / max(1, len(self._lengths))
        df: Counter[str] = Counter()
        for bag in self._bags:
            df.update(bag.keys())
        n = len(self.turns)
        self._idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}
        self._vectors = vectorise([t.content for t in self.turns]) if self.turns else None

    def bm25(self, query: str) -> list[int]:
        """Turn indexes by BM25 score, best first (turns sharing no word left out)."""
        words = [w for w in set(tokens(query)) if w in self._idf]
        scores: dict[int, float] = {}
        for index, bag in enumerate(self._bags):
            norm = K1 * (1 - B + B * self._lengths[index] / self._mean_length)
            score = sum(
                self._idf[w] * bag[w] * (K1 + 1) / (bag[w] + norm) for w in words if w in bag
            )
            if score > 0:
                scores[index] = score
        return sorted(scores, key=lambda i: (-scores[i], i))

    def embedded(self, query: str) -> list[int]:
        """Every turn by cosine similarity to the query, best first."""
        if self._vectors is None:
            return []
        query_vector = self._vectorise([query])[0]
        similarity = self._vectors @ query_vector
        return [int(i) for i in np.argsort(-similarity, kind="stable")]

    def fused(self, query: str) -> list[int]:
        scores: dict[int, float] = {}
        for ranking in (self.bm25(query), self.embedded(query)):
            for rank, index in enumerate(ranking):
                scores[index] = scores.get(index, 0.0) + 1.0 / (RRF_K + rank)
        return sorted(scores, key=lambda i: (-scores[i], i))


@dataclass(frozen=True)
class Shown:
    """What a baseline shows for one question: the turns' ids and their characters."""

    message_ids: frozenset[str]
    chars: int


def fill(conversation: Conversation, ranking: Sequence[int], budget: int, context: int) -> Shown:
    """Units (a hit and ``context`` turns either side) in ranking order while they fit."""
    shown: set[int] = set()
    chars = 0
    for index in ranking:
        window = range(max(0, index - context), min(len(conversation.turns), index + context + 1))
        new = [i for i in window if i not in shown]
        cost = sum(len(conversation.turns[i].content) for i in new)
        if not new or chars + cost > budget:
            continue
        shown.update(new)
        chars += cost
        if budget - chars < 20:
            break
    return Shown(frozenset(conversation.turns[i].message_id for i in shown), chars)


BASELINES: dict[str, Callable[[Conversation, str, int], Shown]] = {
    "bm25": lambda c, q, budget: fill(c, c.bm25(q), budget, 0),
    "bm25+neighbours": lambda c, q, budget: fill(c, c.bm25(q), budget, CONTEXT),
    "rrf(bm25, embedder)": lambda c, q, budget: fill(c, c.fused(q), budget, 0),
}
