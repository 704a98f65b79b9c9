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


def window_sql(table: str, window: Window) -> tuple[str, list[Any]]:
    """The statement of one window over ``table`` (its ``$1`` is the guild id), and its
    other parameters."""
    where, params = ["guild_id = $1"], list[Any]()
    if window.groups is not None:
        params.append(tsquery(window.groups))
        where.append(f"words @@ ${len(params) + 1}::tsquery")
    if window.narrow is not None:
        params.append(list(window.narrow.values))
        where.append(f"{window.narrow.column} = ANY(${len(params) + 1}::text[])")
    params.append(window.limit)
    order = "ASC" if window.ascending else "DESC"
    sql = (
        f"SELECT id FROM {table} WHERE {' AND '.join(where)} "
        f"ORDER BY id {order} LIMIT ${len(params) + 1}"
    )
    return sql, params
