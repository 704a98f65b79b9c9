"""How a fact is read clause by clause, and whom of the member's it is about.

A fact of several clauses ("lily back on the burgers lol no more vegan") is read clause by
clause, each as said of its subject, so that one clause may deny another fact. A possessive
fact about one relative ("koa 's daughter loves ballet" / "koa 's daughter hates ballet now")
is read as said of that relative, as a fact of the subject is of the subject.
"""

from __future__ import annotations

from functools import lru_cache

from memory.lifecycle.lexicon import SYNONYMS
from memory.lifecycle.reading import Reading, lemma, read

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


def relative_told(first: Reading, second: Reading) -> frozenset[str]:
    """The one relative both facts are about ("koa 's daughter loves ballet" / "koa 's
    daughter hates ballet now"), as its core word: what is said is said of them, as of the
    subject. Empty when the facts are of two people, or of the subject."""
    a, b = first.body.split(), second.body.split()
    if not (first.possessive and second.possessive and len(a) > 2 and len(b) > 2):
        return frozenset()
    kin = {SYNONYMS.get(lemma(a[2]), lemma(a[2]))} & {SYNONYMS.get(lemma(b[2]), lemma(b[2]))}
    return frozenset(kin & first.core & second.core & _RELATIVES)


def of_relative(text: str) -> bool:
    """Whether ``text`` starts with "'s" and a relative ("'s daughter hates it"), no "is"
    ("'s lowkey a running addict")."""
    words = text.split()
    if len(words) < 2 or words[0] != "'s":
        return False
    plain = lemma(words[1])
    return SYNONYMS.get(plain, plain) in _RELATIVES


_RELATIVES = frozenset((
    "son", "daughter", "kid", "baby", "boy", "girl", "toddler", "twin", "husband", "wife",
    "partner", "boyfriend", "girlfriend", "mother", "father", "brother", "sister", "parent",
    "grandparent", "grandkid",
))  # fmt: skip
"""Whom of theirs a possessive fact may be about: what is said is said of them."""
