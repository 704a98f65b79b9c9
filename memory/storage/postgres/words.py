"""Full text in PostgreSQL: the index words of a text as a tsvector's lexemes, and a
window (``memory.storage.windows``) as a statement over them.

The words are those ``memory.search.fts.fts_words`` gives, which SQLite's index holds too,
so both backends find the same documents. They are written as lexemes as they are
(``array_to_tsvector``), never parsed by a text search configuration, and a window's words
are quoted into a ``tsquery`` the same way, so no configuration or language changes them."""

from __future__ import annotations

from typing import Any

from memory.search.fts import fts_words
from memory.storage.windows import Window

MAX_LEXEME_BYTES = 2046  # PostgreSQL's limit on one lexeme: a longer "word" is not indexed


def index_words(text: str) -> list[str]:
    """The distinct index words of ``text`` that a lexeme can hold."""
    return [w for w in dict.fromkeys(fts_words(text)) if len(w.encode()) <= MAX_LEXEME_BYTES]


def lexemes(text: str) -> str:
    """``text``'s index words as one statement parameter, space-separated (a word never
    holds a space): :func:`as_tsvector` makes the tsvector of it."""
    return " ".join(index_words(text))


def as_tsvector(parameter: str) -> str:
    """The SQL of the tsvector of a :func:`lexemes` parameter (e.g. ``"$3"``)."""
    return f"array_to_tsvector(string_to_array({parameter}, ' '))"


def _lexeme(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def tsquery(groups: tuple[frozenset[str], ...]) -> str:
    """Any word of any group, as ``tsquery`` text."""
    return " | ".join(_lexeme(w) for group in groups for w in sorted(group)) or "''"


SPANS = (11, 14, 17, 20)
"""Each document's ``words`` also hold, per shift here, the span of row ids it is in (``~14:
<guild>:<row id >> 14>``), ``~g:<guild>``, ``~c:<channel>`` and ``~a:<author>`` (the
``memorybot_spans`` trigger, schema P013): GIN then finds a guild's matches within its newest
rows, and in a channel or by an author, without reading other rows."""
NARROW_MARKS = {"channel_id": "~c:", "author_id": "~a:"}


def window_sql(table: str, guild_id: str, window: Window, top: int) -> tuple[str, list[Any]]:
    """The statement of one window over ``table`` (its ``$1`` is the guild id; ``top`` the
    guild's newest row id), and its other parameters.

    A window of words asks GIN alone, newest spans first: the guild's two newest spans of
    2^11 row ids, then of 2^14 (below those), 2^17, 2^20, then all of its older rows, each a
    ``UNION ALL`` part that PostgreSQL runs only while the window is not full. A common
    word is found in the first part, reading a few hundred rows; a rare one in a few index
    lookups. (Ordered by ``id + 0``: no b-tree can give that order, so the planner never
    walks the table's rows newest first testing each, which its estimates of a word's
    frequency would sometimes choose.)"""
    params: list[Any] = []

    def param(value: Any, cast: str) -> str:
        params.append(value)
        return f"${len(params) + 1}::{cast}"

    narrow = ""
    if window.narrow is not None:
        narrow = f" AND {window.narrow.column} = ANY({param(list(window.narrow.values), 'text[]')})"
    if window.groups is None:
        order = "ASC" if window.ascending else "DESC"
        limit = param(window.limit, "integer")
        return (
            f"SELECT id FROM {table} WHERE guild_id = $1{narrow} ORDER BY id {order} LIMIT {limit}",
            params,
        )
    words = tsquery(window.groups)
    if window.narrow is not None:  # GIN narrows too: only those channels' or authors' words
        mark = NARROW_MARKS[window.narrow.column]
        within = " | ".join(_lexeme(f"{mark}{value}") for value in window.narrow.values)
        words = f"({within}) & ({words})"
    limit = param(window.limit, "integer")
    anywhere = f"{_lexeme(f'~g:{guild_id}')} & ({words})"  # in all of the guild's rows
    if window.ascending:
        match = param(anywhere, "tsquery")
        return (
            f"SELECT id FROM {table} WHERE guild_id = $1 AND words @@ {match}{narrow} "
            f"ORDER BY id + 0 ASC LIMIT {limit}",
            params,
        )
    parts, below = [], None
    for shift in SPANS:
        span = top >> shift
        spans = " | ".join(_lexeme(f"~{shift}:{guild_id}:{k}") for k in (span, span - 1) if k >= 0)
        older = f" AND id < {param(below, 'bigint')}" if below is not None else ""
        match = param(f"({spans}) & ({words})", "tsquery")
        parts.append(f"words @@ {match}{older}")
        below = max(span - 1, 0) << shift
        if below == 0:
            break
    else:
        parts.append(f"words @@ {param(anywhere, 'tsquery')} AND id < {param(below, 'bigint')}")
    union = " UNION ALL ".join(
        f"(SELECT id FROM {table} WHERE guild_id = $1 AND {part}{narrow} "
        f"ORDER BY id + 0 DESC LIMIT {limit})"
        for part in parts
    )
    return f"SELECT id FROM ({union}) AS newest LIMIT {limit}", params
