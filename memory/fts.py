"""Full-text queries built from what people type, safely (DESIGN: user text never reaches
``MATCH`` unquoted).

A query becomes its word tokens, each a quoted FTS5 string joined with ``OR``: quotes, ``*``,
``NEAR``, ``AND``/``OR``/``NOT``, ``-``, parentheses and ``:`` in the text are only ever
characters of a quoted token, never operators. Emoji and punctuation vanish; an empty result
means "nothing to search for".
"""

from __future__ import annotations

import re

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
    """Lower-cased word tokens of ``text`` without stopwords (all of them if that is all)."""
    words = [w.casefold() for w in _TOKEN.findall(text)]
    content = [w for w in words if w not in STOPWORDS]
    seen: dict[str, None] = {}
    for word in content or words:
        seen.setdefault(word, None)
    return list(seen)[:MAX_QUERY_TOKENS]


def quote(token: str) -> str:
    """One FTS5 string: double quotes inside are doubled."""
    return '"' + token.replace('"', '""') + '"'


_SUFFIXES = ("ingly", "ings", "ing", "edly", "ed", "ies", "es", "s", "ly")


def stem(token: str) -> str:
    """A crude stem for prefix matching: "painted", "painting", "paints" → "paint"."""
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


def fts_query(tokens: list[str], *, prefix: bool = True) -> str | None:
    """An FTS5 ``MATCH`` expression matching any of ``tokens`` (with ``prefix``: any word that
    starts with a token's stem), or None when there are none."""
    if not tokens:
        return None
    if not prefix:
        return " OR ".join(quote(t) for t in tokens)
    terms = {quote(stem(t)) + "*" if len(t) >= 4 else quote(t) for t in tokens}
    return " OR ".join(sorted(terms))
