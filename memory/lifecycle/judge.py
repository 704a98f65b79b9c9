"""The judge the store asks where a new fact goes: for each of the subject's active facts,
whether the new one is the same fact (merge), contradicts it (supersede) or neither
(:func:`memory.lifecycle.relation.relation`).

A member can hold 80 active facts, and every new fact meets all of them, so the judge first
picks the pairs worth judging: those sharing a word that is rare among the member's facts
(paraphrases, and likes turned dislikes, share their object), those filling the same
attribute slot ("lives in Boston" / "moved to Denver", "is 29" / "is 30"), and a diet beside
anything that may be eaten. Two facts that share only words the member uses all the time
("Sarah prefers tea over coffee" / "Sarah prefers trains over planes") are not compared
further.

Only a merge depends on the embeddings, so a pair is judged as if the two were identical and
the bundled embedder is asked only for the pairs that would merge."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from memory.lifecycle.reading import keys, read
from memory.lifecycle.relation import SAME_MIN_SIMILARITY, Relation, relation
from memory.lifecycle.similarity import FactSimilarity
from memory.lifecycle.slots import find_slots

ALL_PAIRS_UP_TO = 12
"""With this many facts or fewer, every pair is judged."""
COMMON_SHARE = 0.25
"""A word in more than this share of a member's facts (and in more than 3) is common."""


class _Profile(NamedTuple):
    """What picking pairs needs of a fact (cached per text)."""

    words: frozenset[str]
    slots: frozenset[str]
    diet: bool
    cued: bool


@lru_cache(maxsize=8192)
def _profile(text: str) -> _Profile:
    found = keys(text)
    reading = read(text)
    slots = frozenset(slot.key for slot in find_slots(reading.body))
    return _Profile(found.words, slots, bool(reading.not_eaten), found.cued)


def worth_judging(new: str, olds: Sequence[str]) -> list[int]:
    """The indexes of ``olds`` that ``new`` is compared with (see the module's docstring)."""
    if len(olds) <= ALL_PAIRS_UP_TO:
        return list(range(len(olds)))
    mine = _profile(new)
    theirs = [_profile(old) for old in olds]
    shared = [mine.words & other.words for other in theirs]
    counts = Counter(word for words in shared for word in words)
    limit = max(3, int(len(olds) * COMMON_SHARE))
    common = {word for word, count in counts.items() if count > limit}
    same_text = new.strip().lower()
    return [
        index
        for index, other in enumerate(theirs)
        if (shared[index] and not shared[index] <= common)
        or mine.slots & other.slots
        or (other.cued and mine.diet)
        or (mine.cued and other.diet)
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
