"""How a fact is read clause by clause, and whom of the member's it is about.

A fact of several clauses ("lily back on the burgers lol no more vegan") is read clause by
clause, each as said of its subject, so that one clause may deny another fact. Two possessive
facts about one relative ("koa 's daughter loves ballet" / "koa 's daughter hates ballet now",
"connor 's son is a vegetarian" / "connor 's son eats chicken again") that read as unrelated
are read again as said of that relative, as facts of the subject are: every rule reads them
as it reads those.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.lifecycle.reading import Reading, canonical, read

_CLAUSE_ENDS = frozenset({",", ".", ";", "!", "?", "(", ")", "lol", "lmao", "ngl", "tbh", "fr",
                          "and", "but", "so", "because", "cuz", "though", "tho"})  # fmt: skip


@lru_cache(maxsize=4096)
def clauses(body: str) -> tuple[Reading, ...]:
    """The clauses of a fact's body when it has several, each read as said of its subject
    ("lily back on the burgers lol no more vegan": "lily back on the burgers", "lily not
    vegan"); none for a fact of one clause."""
    words = body.split()
    if len(words) < 3 or not _CLAUSE_ENDS.intersection(words):
        return ()
    parts: list[list[str]] = [[]]
    for word in words[1:]:
        if word in _CLAUSE_ENDS:
            parts.append([])
        else:
            parts[-1].append(word)
    found = [" ".join(part) for part in parts if part and part != ["like"]]  # ", like ,"
    if len(found) < 2:
        return ()
    return tuple(read(f"{words[0]}{'' if of_relative(part) else ' '}{part}") for part in found)


def of_one_relative(old: str, new: str) -> tuple[str, str] | None:
    """Two facts about one relative of the subject's as facts of the subject ("koa 's
    daughter hates ballet now": "koa hates ballet now"); None for facts of two people, or of
    the subject, or told with dates or days (which their bodies are read without)."""
    if not (_namescanonical(old) and _namescanonical(new)):
        return None  # most facts name no relative: not read again
    first, second = read(old), read(new)
    a, b = first.body.split(), second.body.split()
    if not (first.possessive and second.possessive and len(a) > 3 and len(b) > 3):
        return None
    if first.dates or second.dates or first.days or second.days:
        return None  # a body is read without its dates and days: only the words are told again
    if canonical(a[2]) != canonical(b[2]) or canonical(a[2]) not in _RELATIVES:
        return None
    return " ".join([a[0], *a[3:]]), " ".join([b[0], *b[3:]])


def _namescanonical(text: str) -> bool:
    return any(canonical(word) in _RELATIVES for word in _WORD.findall(text.lower()))


_WORD = re.compile(r"[a-z]+")


def of_relative(text: str) -> bool:
    """Whether ``text`` starts with "'s" and a relative ("'s daughter hates it"), no "is"
    ("'s lowkey a running addict")."""
    words = text.split()
    if len(words) < 2 or words[0] != "'s":
        return False
    return canonical(words[1]) in _RELATIVES


_RELATIVES = frozenset((
    "son", "daughter", "kid", "baby", "boy", "girl", "toddler", "twin", "husband", "wife",
    "partner", "boyfriend", "girlfriend", "mother", "father", "brother", "sister", "parent",
    "grandparent", "grandkid",
))  # fmt: skip
"""Whom of theirs a possessive fact may be about: what is said is said of them."""
