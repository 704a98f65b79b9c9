"""Learned merges: paraphrases the word rules of :mod:`memory.lifecycle.relation` miss.

The rules merge two facts only when their content words match (lemmas, synonyms, one typo).
Whole rewordings ("sings in a choir" / "is a member of a choir", "supports the
Lakers" / "is a Lakers supporter") share too few words for that. For a pair the
rules call unrelated, a logistic model reads what the bundled embedder and the reading of
both facts tell (:func:`features`): the two vectors' cosine, their elementwise product and
distance, the share of content words in common, negation, habits ended, dates, attribute
slots. Above its threshold the pair is the same fact. The embedder is given each fact as the
rules read it (:func:`meaning`: typos repaired, chat spellings and reported speech undone),
not as it was written: a word mistyped is a word the embedder does not know.

The weights (``merge_weights.json``, beside this module) are trained by
``bench/train_merge.py`` on the labelled pairs opened for tuning
(``bench/data/lifecycle``), which also picks the regularisation and the threshold by
cross-validation: the most paraphrases merged while the merges added to the rules' stay
under 0.5 % of the pairs that are not the same, counted over the pairs :func:`asked` lets
through (the only ones the store asks about). The blind sets measure it
(``bench/lifecycle.py``). A pair the rules call a contradiction or the same fact is never
asked; nor is a pair in another language than English (non-Latin letters, or no English
word in either fact: the model cannot see "ne ... pas" or "не"), one whose embeddings are
further apart than ``SAME_MIN_SIMILARITY``, a wish beside what is ("wants to quit smoking" /
"quit smoking"), or two facts of the same content words (numbers aside) in another order:
the rules have read those words already, and the vectors, sums of word vectors, cannot see
an order.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from memory.extraction.offline.verbs import verb
from memory.lifecycle.aligned import aligned
from memory.lifecycle.change import tells_change
from memory.lifecycle.lexicon import FILLERS, LANGUAGES, PETS, STOPWORDS, WEEKDAYS
from memory.lifecycle.reading import PUNCTUATION, Reading, canonical, keys, lemma, read
from memory.lifecycle.relation import ALSO, akin
from memory.lifecycle.similarity import FactSimilarity
from memory.lifecycle.slots import find_slots

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

WEIGHTS = Path(__file__).with_name("merge_weights.json")
HAND_FEATURES = (
    "similarity", "shared_words", "one_negated", "both_negated", "habit_ended", "both_dated",
    "same_slot", "both_slotted", "both_cued", "core_length_gap", "residue_similarity",
    "both_residues", "residue_length",
)  # fmt: skip
"""The features read from the two facts, before the vectors' product and distance."""


def residues(old: str, new: str) -> tuple[str, str]:
    """The content words each fact says that the other does not, as texts to embed ("Lakers
    supporter" / "supports the Lakers": "supporter", "support"; "" when a fact has none)."""
    old, new = aligned(old, new)
    words_a, words_b = keys(old).words, keys(new).words
    return " ".join(sorted(words_a - words_b)), " ".join(sorted(words_b - words_a))


def embedded(old: str, new: str) -> list[str]:
    """The texts :func:`features` embeds for a pair: both facts' :func:`meaning`, and their
    :func:`residues` when each fact has one."""
    old, new = aligned(old, new)
    rest = residues(old, new)
    return [meaning(old), meaning(new), *(rest if all(rest) else ())]


def features(old: str, new: str, similarity: FactSimilarity) -> NDArray[np.float64]:
    """What the model reads of a pair: ``HAND_FEATURES``, then ``first * second`` and
    ``|first - second|`` (the unit vectors of the two facts' :func:`meaning` from the bundled
    embedder). The residues' similarity tells a rewording ("fan" / "supports") from another
    thing of one kind ("tennis" / "chess") where the words in common are the same."""
    import numpy as np

    old, new = aligned(old, new)
    first, second, *rest = similarity.vectors(embedded(old, new))
    a, b = read(old), read(new)
    keys_a, keys_b = keys(old), keys(new)
    slots_a = {slot.key for slot in find_slots(a.body)}
    slots_b = {slot.key for slot in find_slots(b.body)}
    union = keys_a.words | keys_b.words
    hand = [
        float(first @ second),
        len(keys_a.words & keys_b.words) / max(1, len(union)),
        float(a.negated != b.negated),
        float(a.negated and b.negated),
        float(a.stopped or b.stopped),
        float(bool(a.dates) and bool(b.dates)),
        float(bool(slots_a & slots_b)),
        float(bool(slots_a) and bool(slots_b)),
        float(keys_a.cued and keys_b.cued),
        abs(len(a.core) - len(b.core)) / 5.0,
        float(rest[0] @ rest[1]) if rest else 0.0,
        float(bool(rest)),
        len(union - (keys_a.words & keys_b.words)) / 5.0,
    ]
    return np.concatenate([np.asarray(hand), first * second, np.abs(first - second)])


@dataclass(frozen=True)
class MergeModel:
    """A logistic model over standardised :func:`features` (see the module's docstring)."""

    mean: NDArray[np.float64]
    scale: NDArray[np.float64]
    coef: NDArray[np.float64]
    intercept: float
    threshold: float

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MergeModel:
        import numpy as np

        return cls(
            np.asarray(data["mean"]), np.asarray(data["scale"]), np.asarray(data["coef"]),
            float(data["intercept"]), float(data["threshold"]),
        )  # fmt: skip

    def probability(self, row: NDArray[np.float64]) -> float:
        """The chance that the pair read as ``row`` is the same fact."""
        import math

        z = float(((row - self.mean) / self.scale) @ self.coef) + self.intercept
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


@cache
def bundled_model() -> MergeModel | None:
    """The model trained by ``bench/train_merge.py`` (read once); None, with one warning,
    when its weights cannot be read (a broken install): the word rules judge alone."""
    try:
        return MergeModel.from_json(json.loads(WEIGHTS.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("learned merges off: cannot read %s (%s); reinstall memorybot", WEIGHTS, exc)
        return None


class _View(NamedTuple):
    """What :func:`may_merge` needs of one fact (cached per text)."""

    english: bool
    """Latin letters, and a word of English past the subject: a stopword or a verb form the
    verb lexicon knows, of two letters or more (French "à" reads "a")."""
    negated: bool
    latin: bool
    wished: bool
    someone: str
    """Whom of the subject's the fact is about ("tess's mom works as a nurse": "mom"), else ""."""
    changes: bool
    """It tells a change ("moved", "single again": :func:`memory.lifecycle.change.tells_change`)."""
    dates: frozenset[str]
    """The dates of events it names, the days of the week aside ("on saturdays" and "every
    saturday" are one habit however the reading takes them)."""
    days: frozenset[str]
    body: str
    """The fact as read, end punctuation and fillers aside."""
    slots: frozenset[str]
    words: frozenset[str]
    """Content words, numbers left out (ids, counts)."""
    counts: dict[str, str]
    """Each number's thing, and the number ("sleeps 9 hours": hour 9)."""
    times: frozenset[str]
    """The hours of the times of day it tells ("at 9am", "til 9": "9")."""


_NUMBERED = re.compile(r"\d")
_TIME = re.compile(
    r"\b(?:(?:at|til|till|until|by|from|before|after|around) (\d{1,2})(?:am|pm)?"
    r"|(\d{1,2})(?:am|pm))\b"
)
_COUNT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) ([a-z]{2,})")
_WEEKDAYS = frozenset(WEEKDAYS.split("|"))
_RELATIVES = frozenset((
    "mom", "mum", "mother", "dad", "father", "brother", "sister", "son", "daughter", "wife",
    "husband", "boyfriend", "girlfriend", "fiance", "fiancee", "aunt", "uncle", "grandma",
    "grandpa", "grandmother", "grandfather", "niece", "nephew", "bf", "gf", "sis", "bro",
))  # fmt: skip
"""People of the subject's named as one person of one sex, not as a group ("siblings",
"parents") or without one ("partner", "kid"): a brother is never a sister, but "siblings" may
be "brothers and sisters"."""
_SOMEONE = _RELATIVES | frozenset((
    "parent", "parents", "sibling", "siblings", "kid", "kids", "child", "children", "partner",
    "friend", "friends", "cousin", "gran", "grandparents", "roommate", "flatmate", "housemate",
    "boss", "baby",
))  # fmt: skip
"""People of the subject's a possessive fact may be about ("tess's mom"): the relatives, and
groups and people named without a sex."""
_MEDIA = frozenset(("game", "movie", "show", "book", "novel", "series", "anime", "manga",
                    "podcast", "song", "album"))  # fmt: skip
_KIND_WORDS = (("relative", _RELATIVES), ("pet", frozenset(PETS)), ("language", LANGUAGES),
               ("medium", _MEDIA))  # fmt: skip
"""Closed sets of things, their other names read as one already ("mum" is "mother"); kinds of
media too ("horror games" / "horror movies")."""
_KIN_ADJECTIVES = frozenset(("little", "big", "older", "younger", "elder", "eldest", "youngest",
                             "oldest", "baby"))  # fmt: skip


def _kinds(words: frozenset[str]) -> set[str]:
    """The kinds of thing these content words name, of ``_KIND_WORDS`` ("sister": a relative;
    "hamster": a pet; "tagalog": a language)."""
    return {kind for kind, members in _KIND_WORDS if words & members}


def _someone(reading: Reading) -> str:
    """Whom of the subject's a possessive fact is about ("sarah 's little sister": "sister")."""
    if not reading.possessive:
        return ""
    words = [word for word in reading.body.split()[2:4] if word not in _KIN_ADJECTIVES]
    if not words or words[0] not in _SOMEONE:
        return ""
    return canonical(words[0])  # as the content words: "mum" is "mother", "kids" "kid"


_LIKING = frozenset(("like",))
"""The words of a liking whose object the reading leaves out ("is not a morning person",
read "not likes morning": a time of day is no key word): the model would see no object."""

_LEFT_HANGING = frozenset(("and", "or", "but", "&", "+"))
"""Words a fact may end on once its dates are read out of it ("on the courts every saturday
and sunday": "on the courts and")."""


def _plain(body: str) -> list[str]:
    words = [word for word in body.split() if word not in FILLERS]
    while words and (words[-1] in PUNCTUATION or words[-1] in _LEFT_HANGING):
        words.pop()
    return words


@lru_cache(maxsize=8192)
def _view(text: str) -> _View:
    reading = read(text)
    body = reading.body
    english = any(
        len(word) > 1 and (word in STOPWORDS or verb(word) is not None) for word in body.split()[1:]
    )
    return _View(
        english, reading.negated, body.isascii(), reading.wished, _someone(reading),
        tells_change(reading),
        frozenset(date for date in reading.dates if date not in _WEEKDAYS), reading.days,
        " ".join(_plain(body)),
        frozenset(slot.key for slot in find_slots(body)),
        frozenset(word for word in keys(text).words if not word.isdigit()),
        {lemma(thing): number for number, thing in _COUNT.findall(body)},
        frozenset(at or hour for at, hour in _TIME.findall(body)),
    )  # fmt: skip


def meaning(text: str) -> str:
    """What the embedder is given of a fact: its reading, fillers and end punctuation aside
    ("Lucas is a Boca Junoirs fan." → "lucas is a boca juniors fan")."""
    return _view(text).body or text


_ALSO = re.compile(ALSO, re.IGNORECASE)  # the rules' "also" (relation.ALSO)
_SINCE = re.compile(r"\bsince\b", re.IGNORECASE)


def may_merge(old: str, new: str) -> bool:
    """Whether the model may be asked about the pair at all (no embedding needed): facts of
    the kind it was trained on (English: Latin letters, one of them holding an English word;
    in another language it cannot see a negation), not a wish beside what is, nor a value
    told after it as one more ("also" before the verb), nor a change
    beside a state, nor a fact about someone of the subject's ("tess's mom") beside one that
    never names them, nor facts of different dates or days (a dated event and an undated
    fact), not two attributes the rules read, not a fact and the same fact with more said
    after it ("plays clarinet" / "plays clarinet in a band": a merge keeps one wording and
    would lose the rest), nor two denials with no word in common, nor two facts whose
    words differ only in values with numbers ("v4" / "v6") or that tell another time of day
    each ("opens at 9am" / "opens at 10am"), nor the same words in another
    order, nor a fact and one telling since when ("since age 10"). Each fact's shorthand is
    read as the other spells it
    (:func:`memory.lifecycle.aligned.aligned`)."""
    old, new = aligned(old, new)
    first, second = _view(old), _view(new)
    if not (first.latin and second.latin and (first.english or second.english)):
        return False
    if first.wished != second.wished:
        return False  # a wish and what is are never the same fact
    if _ALSO.match(old) is None and _ALSO.match(new) is not None:
        return False  # one more beside the first: "listens to kpop" / "also into jpop now"
    if (first.someone and first.someone not in second.words) or (
        second.someone and second.someone not in first.words
    ):
        return False  # "tess's mom works as a nurse" is not about tess
    if first.changes != second.changes:
        return False  # nor a change and a state: "rhea w/ kiran" / "rhea n kiran over. single"
    if any(second.counts.get(thing, number) != number for thing, number in first.counts.items()):
        return False  # "sleeps 9 hours" / "running on 4 hours sleep": the model sees no number
    if first.times - second.times and second.times - first.times:
        return False  # a time each: "opens at 9am" / "has started opening at 10am"
    if first.dates != second.dates or first.days != second.days:
        return False  # as the rules: "got the job" / "starts on 10 march", another date
    if first.slots and second.slots and not first.slots & second.slots:
        return False  # two attributes: "is from London" / "is based in London"
    if _kinds(first.words - second.words) & _kinds(second.words - first.words):
        return False  # two things of one kind: "has a younger sister" / "... brother"
    if _LIKING in (first.words, second.words):
        return False  # a liking of nothing read ("hates mornings": a time is no key word)
    if first.negated and second.negated and not akin(first.words, second.words):
        return False  # two things denied look alike: "doesn't drink" / "doesn't like cats"
    only_a, only_b = first.words - second.words, second.words - first.words
    if only_a and only_b and all(_NUMBERED.search(word) for word in only_a | only_b):
        return False  # one value each, with a number: "hardest boulder is v4" / "... v6"
    if (_SINCE.search(old) is None) != (_SINCE.search(new) is None):
        return False  # how long, told by one: "is vegetarian" / "vegetarian since age 10"
    short, long = sorted((first.body, second.body), key=len)
    if long.startswith(short + " "):
        return False  # the same fact with more said: the rules judge it
    return first.words != second.words  # only an order differs: the vectors cannot see it


def asked(old: str, new: str, similarity: FactSimilarity, *, floor: float) -> bool:
    """Whether the model is asked about two facts the rules call unrelated: :func:`may_merge`,
    and their embeddings at least ``floor`` similar (``bench/train_merge.py`` counts the
    merges it adds over these pairs only)."""
    old, new = aligned(old, new)
    if not may_merge(old, new):
        return False
    first, second = similarity.vectors([meaning(old), meaning(new)])
    return float(first @ second) >= floor


def learned_same(
    old: str, new: str, similarity: FactSimilarity, *, floor: float,
    model: MergeModel | None = None,
) -> bool:  # fmt: skip
    """Whether the model takes two facts the rules call unrelated for the same fact (never
    when their embeddings are less similar than ``floor``)."""
    old, new = aligned(old, new)
    if not asked(old, new, similarity, floor=floor):
        return False
    model = model or bundled_model()
    if model is None:
        return False
    return model.probability(features(old, new, similarity)) >= model.threshold
