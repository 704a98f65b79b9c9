"""The judge the store asks where a new fact goes: for each of the subject's active facts,
whether the new one is the same fact (merge), contradicts it (supersede) or neither
(:func:`memory.lifecycle.relation.relation`).

A member can hold 80 active facts, and every new fact meets all of them, so the judge first
picks the pairs worth judging: those sharing a word that is rare among the member's facts
(paraphrases, and likes turned dislikes, share their object), and those sharing no word at
all where both may fill an attribute slot ("lives in Boston" / "moved to Denver", "is 29" /
"is 30"). Two facts that share only words the member uses all the time ("Sarah prefers tea
over coffee" / "Sarah prefers trains over planes") are not compared further.

Only a merge depends on the embeddings, so a pair is judged as if the two were identical and
the bundled embedder is asked only for the pairs that would merge."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from memory.lifecycle.reading import keys
from memory.lifecycle.relation import SAME_MIN_SIMILARITY, Relation, relation
from memory.lifecycle.similarity import FactSimilarity

ALL_PAIRS_UP_TO = 12
"""With this many facts or fewer, every pair is judged."""
COMMON_SHARE = 0.25
"""A word in more than this share of a member's facts (and in more than 3) is common."""


def worth_judging(new: str, olds: Sequence[str]) -> list[int]:
    """The indexes of ``olds`` that ``new`` is compared with (see the module's docstring)."""
    if len(olds) <= ALL_PAIRS_UP_TO:
        return list(range(len(olds)))
    mine = keys(new)
    theirs = [keys(old) for old in olds]
    counts = Counter(word for key in theirs for word in key.words & mine.words)
    limit = max(3, int(len(olds) * COMMON_SHARE))
    rare = {word for word, count in counts.items() if count <= limit}
    same_text = new.strip().lower()
    return [
        index
        for index, key in enumerate(theirs)
        if key.words & rare
        or (mine.cued and key.cued and not key.words & mine.words)
        or olds[index].strip().lower() == same_text
    ]


class FactJudge:
    """``judge(new, olds) -> ["same" | "contradicts" | "unrelated", ...]`` (the store's
    ``lifecycle_sql.Judge``), synchronous: it runs on the database thread."""

    def __init__(self, similarity: FactSimilarity | None = None) -> None:
        self._similarity = similarity  # made on first need: loading the model takes a moment

    def __call__(self, new: str, olds: Sequence[str]) -> list[str]:
        verdicts = [Relation.UNRELATED] * len(olds)
        for index in worth_judging(new, olds):
            verdict = relation(olds[index], new, 1.0)
            if (
                verdict is Relation.SAME
                and olds[index].strip().lower() != new.strip().lower()
                and self.similarity.score(new, olds[index]) < SAME_MIN_SIMILARITY
            ):
                verdict = Relation.UNRELATED
            verdicts[index] = verdict
        return [str(verdict) for verdict in verdicts]

    @property
    def similarity(self) -> FactSimilarity:
        if self._similarity is None:
            self._similarity = FactSimilarity()
        return self._similarity
