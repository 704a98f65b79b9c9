"""The judge the store asks where a new fact goes: for each of the subject's active facts,
whether the new one is the same fact (merge), contradicts it (supersede) or neither
(:func:`memory.lifecycle.relation.relation`).

Only a merge depends on the embeddings, so a pair is first judged as if they were identical
and the bundled embedder is asked only for the pairs that would merge: most pairs never
need a vector."""

from __future__ import annotations

from collections.abc import Sequence

from memory.lifecycle.relation import SAME_MIN_SIMILARITY, Relation, relation
from memory.lifecycle.similarity import FactSimilarity


class FactJudge:
    """``judge(new, olds) -> ["same" | "contradicts" | "unrelated", ...]`` (the store's
    ``lifecycle_sql.Judge``), synchronous: it runs on the database thread."""

    def __init__(self, similarity: FactSimilarity | None = None) -> None:
        self._similarity = similarity  # made on first need: loading the model takes a moment

    def __call__(self, new: str, olds: Sequence[str]) -> list[str]:
        verdicts = [relation(old, new, 1.0) for old in olds]
        for index, verdict in enumerate(verdicts):
            if (
                verdict is Relation.SAME
                and olds[index].strip().lower() != new.strip().lower()
                and self.similarity.score(new, olds[index]) < SAME_MIN_SIMILARITY
            ):
                verdicts[index] = Relation.UNRELATED
        return [str(verdict) for verdict in verdicts]

    @property
    def similarity(self) -> FactSimilarity:
        if self._similarity is None:
            self._similarity = FactSimilarity()
        return self._similarity
