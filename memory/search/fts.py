"""Full-text queries built from what people type, safely (DESIGN: user text never reaches
``MATCH`` unquoted).

A query becomes its word tokens (:func:`query_tokens`), each token a group of exact index
terms — itself and its word forms (:func:`term_groups`) — every term a quoted FTS5 string:
quotes, ``*``, ``NEAR``, ``AND``/``OR``/``NOT``, ``-``, parentheses and ``:`` in the text are
only ever characters of a quoted term, never operators. Emoji and punctuation vanish; no
groups means "nothing to search for". Exact terms, not prefix queries: FTS5 merges every
term a prefix matches on each query, which costs tens of milliseconds on a big index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.search.scripts import spaced, words

MAX_QUERY_TOKENS = 32
_TOKEN = re.compile(r"\w+")
# Words that carry no topic: asking them of FTS only adds noise.
STOPWORDS = frozenset(
    """a an the is are was were be been being am do does did doing have has had having i me my
    mine we us our you your he him his she her it its they them their what which who whom whose
    when where why how this that these those of in on at to for from by with about as into
    through after over between out against during without before under around among and
    or but if then so than too very can could should would will shall may might must just also
    not no nor any some all each every both few more most other such own same only s t don
    ever there here get got any anything something thing things tell say said know""".split()  # noqa: SIM905
)


def query_tokens(text: str) -> list[str]:
    """Lower-cased word tokens of ``text`` without stopwords (all of them if that is all);
    a Chinese, Japanese or Korean run gives its character bigrams (``memory.search.scripts``)."""
    tokens = [w.casefold() for w in _TOKEN.findall(spaced(text))]
    content = [w for w in tokens if w not in STOPWORDS]
    seen: dict[str, None] = {}
    for word in content or tokens:
        seen.setdefault(word, None)
    return list(seen)[:MAX_QUERY_TOKENS]


_SUFFIXES = ("ingly", "ings", "ing", "edly", "ed", "ies", "es", "s", "ly")


def stem(token: str) -> str:
    """A crude stem for prefix matching: "painted", "painting", "paints" → "paint"."""
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


# --- term groups: what a query token matches, as exact index terms ------------------------

MAX_FORMS = 16
_VOWELS = frozenset("aeiou")


def fts_words(text: str) -> list[str]:
    """``text`` split and folded as the full-text index holds it: "Café_crème" → ["cafe",
    "creme"], "東京で" → ["東京", "で"] (:func:`memory.search.scripts.words`)."""
    return words(text)


_INFLECTIONS = ("ies", "ied", "ing", "ers", "er", "ed", "es", "s")


def _bases(token: str) -> set[str]:
    """The base forms ``token`` may be an inflection of ("studies" → study, "hiking" →
    hike / hik, "running" → run / runn); ``{token}`` when it has no inflection ending."""
    for ending in _INFLECTIONS:
        root = token[: -len(ending)]
        if not token.endswith(ending) or len(root) < 3 or token.endswith("ss"):
            continue
        if ending in ("ies", "ied"):
            return {root + "y", root + "ie"}
        if ending == "s":
            return {root}
        bases = {root, root + "e"}
        if ending != "es" and root[-1] == root[-2] and root[-1] not in _VOWELS:
            bases.add(root[:-1])  # "running" → run
        return bases
    return {token}


def _inflections(base: str) -> list[str]:
    if base.endswith("e"):
        return [base, base + "s", base + "d", base + "r", base + "rs", base[:-1] + "ing"]
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return [base, base[:-1] + "ies", base[:-1] + "ied", base + "ing", base[:-1] + "ier"]
    if base.endswith(("s", "x", "z", "ch", "sh")):
        return [base, base + "es", base + "ed", base + "ing", base + "er"]
    return [base, base + "s", base + "ed", base + "ing", base + "er", base + "ers"]


def word_forms(token: str) -> tuple[str, ...]:
    """The exact index terms a query token stands for: itself first, then its base forms
    and their usual inflections ("cycling" → cycling, cycle, cycles, cycled, …), at most
    ``MAX_FORMS``. Short tokens (under 4 letters) and numbers stand only for themselves."""
    if len(token) < 4 or not token.isalpha():
        return (token,)
    forms: dict[str, None] = {token: None}
    for base in sorted(_bases(token), key=lambda b: (-len(b), b)):
        for form in _inflections(base):
            forms[form] = None
    return tuple(forms)[:MAX_FORMS]


@dataclass(frozen=True, slots=True)
class TermGroup:
    """One query token as the exact index terms that count as it."""

    token: str
    forms: frozenset[str]
    prefix: str | None = None  # ranking also counts words that start with it (4+ letters)


def term_groups(tokens: list[str]) -> list[TermGroup]:
    """Term groups for query tokens (see :func:`query_tokens`), split and folded as the
    index tokenizer does; one group per distinct folded word."""
    groups: dict[str, TermGroup] = {}
    for token in tokens:
        for word in fts_words(token):
            if word not in groups:
                root = stem(word)
                prefix = root if len(root) >= 4 and word.isalpha() else None
                groups[word] = TermGroup(word, frozenset(word_forms(word)), prefix)
    return list(groups.values())[:MAX_QUERY_TOKENS]
