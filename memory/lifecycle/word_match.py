"""Two facts' words compared forgivingly: equal, one typo apart ("libary" / "library"), two
typos apart in a long word that is no word ("pinaple" / "pineapple"), a word and one made from
it ("plumber" / "plumbing"), or one word written apart ("shellfish" / "shell fish").
:mod:`memory.lifecycle.spelling` repairs a fact's words one at a time; this compares two."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import permutations

from memory.lifecycle.word_list import dictionary


def neighbours_swapped(first: str, second: str) -> bool:
    """Two neighbouring letters swapped."""
    if len(first) != len(second):
        return False
    differ = [index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and first[differ[0]] == second[differ[1]]
        and first[differ[1]] == second[differ[0]]
    )


def one_edit(first: str, second: str) -> bool:
    """One insertion, deletion, substitution or swap of neighbours turns one into the other."""
    if len(first) > len(second):
        first, second = second, first
    for index, (mine, theirs) in enumerate(zip(first, second, strict=False)):
        if mine == theirs:
            continue
        if len(first) == len(second):
            swapped = first[index + 1 : index + 2] + first[index] + first[index + 2 :]
            return first[index + 1 :] == second[index + 1 :] or swapped == second[index:]
        return first[index:] == second[index + 1 :]
    return True


def words_match(first: str, second: str) -> bool:
    """Equal, or one typo apart when both are long enough to tell ("libary" / "library"), or
    two neighbours swapped in a word of four letters ("prok" / "pork")."""
    if first == second:
        return True
    if min(len(first), len(second)) >= MIN_TWICE_MISTYPED and _twice_mistyped(first, second):
        return True
    if abs(len(first) - len(second)) > 1 or len(first) < 4 or len(second) < 4:
        return False
    if not (first.isalpha() and second.isalpha()):
        return False  # a number or a sign is no typo: "utc+3" / "utc-3", "rtx 3060" / "3070"
    if 4 in (len(first), len(second)):  # a swap only: same letters, one edit
        return sorted(first) == sorted(second) and one_edit(first, second)
    return one_edit(first, second)


MIN_TWICE_MISTYPED = 7


@lru_cache(maxsize=65536)
def _twice_mistyped(first: str, second: str) -> bool:
    """Two long words two typos apart, one of them no word ("pinaple" / "pineapple"; not
    "painting" / "printing", two words), the first letter kept."""
    if first[0] != second[0] or abs(len(first) - len(second)) > 2:
        return False
    if not (first.isalpha() and second.isalpha()):
        return False
    if sum(((Counter(first) - Counter(second)) + (Counter(second) - Counter(first))).values()) > 4:
        return False  # two typos change at most four letters
    if first in dictionary() and second in dictionary():
        return False
    return typos_apart(first, second) <= 2


def within(part: Iterable[str], whole: Iterable[str]) -> bool:
    """Every word of ``part`` has a match in ``whole`` (:func:`words_match`)."""
    whole = list(whole)
    return all(any(words_match(word, other) for other in whole) for word in part)


def typos_apart(first: str, second: str) -> int:
    """How many typos (letters put in, left out, mistyped, or two neighbours swapped) turn
    one word into the other (the optimal string alignment distance)."""
    previous, current = None, list(range(len(second) + 1))
    for i, mine in enumerate(first, 1):
        before, previous, current = previous, current, [i] + [0] * len(second)
        for j, theirs in enumerate(second, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (mine != theirs))  # fmt: skip
            if before and i > 1 and j > 1 and mine == second[j - 2] and first[i - 2] == theirs:
                current[j] = min(current[j], before[j - 2] + 1)
    return current[-1]


def kin(first: str, second: str) -> bool:
    """One word, or a word and one made from it ("teach" / "teacher", "bake" / "baker")."""
    if first == second:
        return True
    short, long = sorted((first, second), key=len)
    if len(short) < 4 or not long.startswith(short):
        return False
    return len(long) - len(short) <= 3 or long[len(short) :] in _MADE_INTO_A_NOUN


_MADE_INTO_A_NOUN = frozenset({"ship", "ment", "ling", "hood"})
"""Longer endings that make a word's noun ("chairman" / "chairmanship", "marshal" /
"marshalling", "intern" / "internship")."""


def sets_match(first: frozenset[str], second: frozenset[str]) -> bool:
    """Every word of each set has a match in the other (``words_match``); or the words
    left over are one word written apart ("shellfish" / "shell fish"), or one word and one
    made from it (:func:`kin`: "plumber" / "plumb"). Words both sets hold
    match at once; only the rest are compared (a word left over on one side only has
    nothing to match)."""
    if first == second:
        return True
    only_first, only_second = first - second, second - first
    if not only_first or not only_second:
        return False
    if len(only_first) == len(only_second) == 1 and kin(min(only_first), min(only_second)):
        return True  # who does it and what they do: "is a plumber" / "does plumbing"
    if len(only_first) > 1 and len(only_second) > 1:  # no one word on either side: typos only
        return all(any(words_match(w, o) for o in only_second) for w in only_first) and all(
            any(words_match(w, o) for o in only_first) for w in only_second
        )
    left = [w for w in only_first if not any(words_match(w, o) for o in only_second)]
    if len(left) > 3:  # too many to be matched, or to be one word written apart
        return False
    right = [w for w in only_second if not any(words_match(w, o) for o in only_first)]
    if not left and not right:
        return True
    return _written_apart(left, right) or _written_apart(right, left)


def _written_apart(one: list[str], parts: list[str]) -> bool:
    """``one`` is a single word and ``parts`` (two or three words) spell it in some order."""
    if len(one) != 1 or not 2 <= len(parts) <= 3:
        return False
    return any("".join(order) == one[0] for order in permutations(parts))
