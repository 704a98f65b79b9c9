"""The judge the store asks where a new fact goes: for each of the subject's active facts,
whether the new one is the same fact (merge), contradicts it (supersede) or neither
(:func:`memory.lifecycle.relation.relation`).

A member can hold 80 active facts, and every new fact meets all of them, so the judge first
picks the pairs worth judging: those sharing a word that is rare among the member's facts
(paraphrases, and likes turned dislikes, share their object), those filling the same
attribute slot ("lives in Boston" / "moved to Denver", "is 29" / "is 30"), a word and the
words in a row it may be the initials of ("is a PM" / "is a product manager"), and a diet
beside anything that may be eaten. Two facts that share only words the member uses all the
time ("Sarah prefers tea over coffee" / "Sarah prefers trains over planes") are not compared
further.

Only a merge depends on the embeddings, so a pair is judged as if the two were identical and
the bundled embedder is asked only for the pairs that would merge, and for those the rules
call unrelated that the learned merges (:mod:`memory.lifecycle.merging`) may be asked
about, in one batch per new fact.

A pair picked by a rare word alone is judged only if it can be the same fact or deny the
other one: their words mostly shared (``SHARED_SHARE`` of the shorter fact's), or one of
them negating, ending a habit or telling of a change. Two facts with one object in common
and nothing else ("prefers sushi over pizza" / "finished the sushi") are neither."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from memory.lifecycle.change import changed_topics, tells_change, topics
from memory.lifecycle.merging import embedded, learned_same, may_merge
from memory.lifecycle.reading import keys, read
from memory.lifecycle.relation import SAME_MIN_SIMILARITY, Relation, relation
from memory.lifecycle.shorthand import initials, shorthand
from memory.lifecycle.similarity import FactSimilarity
from memory.lifecycle.slots import find_slots

ALL_PAIRS_UP_TO = 12
"""With this many facts or fewer, every pair is judged."""
COMMON_SHARE = 0.25
"""A word in more than this share of a member's facts (and in more than 3) is common."""
SHARED_SHARE = 0.5
"""A pair sharing at least this share of the shorter fact's words is judged."""
SUBJECTS_KEPT = 4096
"""Subjects whose facts the judge keeps indexed between calls (the least recently judged go)."""


class _Profile(NamedTuple):
    """What picking pairs needs of a fact (cached per text)."""

    words: frozenset[str]
    slots: frozenset[str]
    diet: bool
    cued: bool
    marked: bool
    """Negating, ending a habit or telling of a change: may deny a fact it shares little with."""
    topics: frozenset[str]
    """What the fact is about (home, work...)."""
    changes: frozenset[str]
    """The topics it tells a change of: it is judged beside every fact on them."""
    denies: frozenset[str]
    """The kinds it denies whole ("does not play any instrument"): judged beside members."""
    members: frozenset[str]
    """The kinds it names a member of ("plays the piano": instrument)."""
    initials: frozenset[str]
    """What its words in a row are shortened to ("product manager": "pm")..."""
    shorthand: frozenset[str]
    """... and its words that may be such initials ("is in hr": "hr"), to meet each other
    (:mod:`memory.lifecycle.shorthand`)."""


@lru_cache(maxsize=8192)
def _profile(text: str) -> _Profile:
    found = keys(text)
    reading = read(text)
    slots = frozenset(slot.key for slot in find_slots(reading.body))
    marked = reading.negated or reading.stopped or tells_change(reading)
    return _Profile(
        found.words, slots, bool(reading.not_eaten), found.cued, marked, topics(reading),
        changed_topics(reading), found.kinds & found.words if reading.negated else frozenset(),
        found.members, initials(text), shorthand(text),
    )  # fmt: skip


class SubjectFacts:
    """What picking pairs needs of one subject's active facts: who holds each word and
    slot, kept up to date between calls (:meth:`sync`) so that a new fact's pairs come from
    its own words instead of a pass over all 80 facts."""

    def __init__(self) -> None:
        self._order: list[str] = []
        self._profiles: dict[str, _Profile] = {}
        self._by_word: dict[str, set[str]] = {}
        self._by_slot: dict[str, set[str]] = {}
        self._by_topic: dict[str, set[str]] = {}
        self._by_denied: dict[str, set[str]] = {}
        self._by_member: dict[str, set[str]] = {}
        self._by_initials: dict[str, set[str]] = {}
        self._by_shorthand: dict[str, set[str]] = {}
        self._diet: set[str] = set()
        self._cued: set[str] = set()
        self._lowered: dict[str, set[str]] = {}

    def sync(self, olds: Sequence[str]) -> None:
        """Hold exactly ``olds`` (distinct texts)."""
        if self._order == olds:
            return
        held = self._profiles.keys() - set(olds)
        for text in held:
            self._drop(text)
        for text in olds:
            if text not in self._profiles:
                self._add(text)
        self._order = list(olds)

    def pick(self, new: str) -> list[int]:
        """The indexes of the held facts that ``new`` is compared with (see the module)."""
        olds = self._order
        if len(olds) <= ALL_PAIRS_UP_TO:
            return list(range(len(olds)))
        mine = _profile(new)
        limit = max(3, int(len(olds) * COMMON_SHARE))
        picked: set[str] = set()
        for word in mine.words:
            holders = self._by_word.get(word)
            if holders and len(holders) <= limit:  # a word rare among the member's facts
                picked |= holders
        if not mine.marked:
            picked = {text for text in picked if self._comparable(mine, self._profiles[text])}
        for word in mine.shorthand:  # "is a pm" beside "works as a product manager"
            picked |= self._by_initials.get(word, set())
        for short in mine.initials:  # and the other way round
            picked |= self._by_shorthand.get(short, set())
        for slot in mine.slots:
            picked |= self._by_slot.get(slot, set())
        for topic in mine.changes:
            picked |= self._by_topic.get(topic, set())
        for kind in mine.denies:
            picked |= self._by_member.get(kind, set())
        for kind in mine.members:
            picked |= self._by_denied.get(kind, set())
        if mine.diet:
            picked |= self._cued
        if mine.cued:
            picked |= self._diet
        picked |= self._lowered.get(new.strip().lower(), set())
        return [index for index, text in enumerate(olds) if text in picked]

    @staticmethod
    def _comparable(mine: _Profile, theirs: _Profile) -> bool:
        """Picked by a word, worth judging: mostly the same words, or ``theirs`` may deny."""
        if theirs.marked:
            return True
        shorter = min(len(mine.words), len(theirs.words))
        return len(mine.words & theirs.words) >= SHARED_SHARE * shorter

    def _add(self, text: str) -> None:
        profile = self._profiles[text] = _profile(text)
        for table, held_under in self._tables(text, profile):
            for key in held_under:
                table.setdefault(key, set()).add(text)
        if profile.diet:
            self._diet.add(text)
        if profile.cued:
            self._cued.add(text)

    def _drop(self, text: str) -> None:
        profile = self._profiles.pop(text)
        for table, held_under in self._tables(text, profile):
            for key in held_under:
                table[key].discard(text)
                if not table[key]:
                    del table[key]
        self._diet.discard(text)
        self._cued.discard(text)

    def _tables(
        self, text: str, profile: _Profile
    ) -> tuple[tuple[dict[str, set[str]], Iterable[str]], ...]:
        """Each index of the held facts, with the keys ``text`` is held under there."""
        return (
            (self._by_word, profile.words),
            (self._by_slot, profile.slots),
            (self._by_topic, profile.topics),
            (self._by_denied, profile.denies),
            (self._by_member, profile.members),
            (self._by_initials, profile.initials),
            (self._by_shorthand, profile.shorthand),
            (self._lowered, (text.strip().lower(),)),
        )


def worth_judging(new: str, olds: Sequence[str]) -> list[int]:
    """The indexes of ``olds`` that ``new`` is compared with (see the module's docstring)."""
    facts = SubjectFacts()
    facts.sync(olds)
    return facts.pick(new)


class FactJudge:
    """``judge(new, olds, whose) -> ["same" | "contradicts" | "unrelated", ...]`` (the
    store's ``placing.Judge``), synchronous: it runs on the database thread. ``whose``
    names the subject (any hashable key): its facts stay indexed between calls, since each
    call differs from the last by a fact or two."""

    def __init__(self, similarity: FactSimilarity | None = None, *, learned: bool = True
                 ) -> None:  # fmt: skip
        self._similarity = similarity  # made on first need: loading the model takes a moment
        self.learned = learned  # the learned merges of memory.lifecycle.merging
        self._subjects: OrderedDict[Hashable, SubjectFacts] = OrderedDict()

    def __call__(self, new: str, olds: Sequence[str], whose: Hashable = None) -> list[str]:
        verdicts = [Relation.UNRELATED] * len(olds)
        asked = []  # unrelated by the rules, and the learned merges may tell otherwise
        for index in self._indexed(whose, olds).pick(new):
            old = olds[index]
            verdicts[index] = self._by_rules(old, new)
            if verdicts[index] is Relation.UNRELATED and self.learned and may_merge(old, new):
                asked.append(index)
        if asked:
            self.similarity.vectors([text for i in asked for text in embedded(olds[i], new)])
        for index in asked:
            if learned_same(olds[index], new, self.similarity, floor=SAME_MIN_SIMILARITY):
                verdicts[index] = Relation.SAME
        return [str(verdict) for verdict in verdicts]

    def pair(self, old: str, new: str) -> Relation:
        """How ``new`` relates to ``old``: the rules, then, for a pair they call unrelated,
        the learned merges."""
        verdict = self._by_rules(old, new)
        learned = verdict is Relation.UNRELATED and self.learned
        if learned and learned_same(old, new, self.similarity, floor=SAME_MIN_SIMILARITY):
            return Relation.SAME
        return verdict

    def _by_rules(self, old: str, new: str) -> Relation:
        """The rules' verdict, the embeddings asked only for a merge."""
        verdict = relation(old, new, 1.0)
        if verdict is Relation.SAME and old.strip().lower() != new.strip().lower():
            return relation(old, new, self.similarity.score(new, old))  # now with embeddings
        return verdict

    def _indexed(self, whose: Hashable, olds: Sequence[str]) -> SubjectFacts:
        facts = self._subjects.pop(whose, None) or SubjectFacts()
        self._subjects[whose] = facts  # the most recently judged last
        if len(self._subjects) > SUBJECTS_KEPT:
            self._subjects.popitem(last=False)
        facts.sync(olds)
        return facts

    @property
    def similarity(self) -> FactSimilarity:
        if self._similarity is None:
            self._similarity = FactSimilarity()
        return self._similarity
