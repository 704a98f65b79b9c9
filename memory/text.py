"""Text hygiene shared by ingest, journals and extraction."""

from __future__ import annotations

import re

_EMOJI = "\u2600-\u27bf\ufe0f\U0001f000-\U0001faff"
# Zero-width, bidi-control and other control characters: invisible, able to hide or
# reorder text. A zero-width joiner between two emoji (family, flags) is kept.
_ALWAYS_INVISIBLE = (
    "\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad"
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
)
INVISIBLE = re.compile(f"[{_ALWAYS_INVISIBLE}]|(?<![{_EMOJI}])\u200d|\u200d(?![{_EMOJI}])")
_ANY_SUSPECT = re.compile(f"[{_ALWAYS_INVISIBLE}\u200d]")

# A UTF-16 surrogate alone is no character: JSON can carry one (``"\\ud800"``), but it cannot
# be written as UTF-8, to SQLite or anywhere else. (A valid pair is decoded to one character.)
_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"

#: Discord's limit on a message's text (Nitro's, the longer one). Longer text (only an edited
#: export can hold it) is stored cut here, with a note of how much was cut: no step after
#: (extraction, journals, search) is ever handed megabytes as one message.
MAX_MESSAGE_CHARS = 4000

MIN_CLEAN_CHARS = 2
JOURNAL_TEXT_CAP = 320


# Every character removed above and every whitespace character but the ASCII space is
# unprintable to ``str.isprintable`` (tests check each code point): a printable text needs
# none of the regular expressions, and ``isprintable`` is a C loop, far cheaper than they are.


def strip_invisible(text: str) -> str:
    """Remove zero-width, bidi-control and control characters (tabs and newlines stay)."""
    if text.isprintable() or _ANY_SUSPECT.search(text) is None:  # the common cases
        return text
    return INVISIBLE.sub("", text)


def clean_text(text: str) -> str:
    """Trim, drop invisible characters, collapse whitespace (newlines too), ``|`` → ``/``."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text.replace("|", "/")  # nothing to trim, collapse or remove
    text = " ".join(strip_invisible(text).split())
    return text.replace("|", "/")


def lone_surrogates(text: str) -> int:
    """How many lone UTF-16 surrogates ``text`` holds (0 for any text read as UTF-8)."""
    if text.isascii():
        return 0
    return len(_SURROGATE.findall(text))


def repair_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (the replacement character)."""
    return text if text.isascii() else _SURROGATE.sub(REPLACEMENT, text)


_TRUNCATION_ROOM = 48  # for " … [truncated: N characters]", whatever N


def truncate_message(text: str) -> str:
    """``text``, or when it is longer than ``MAX_MESSAGE_CHARS``, its start and ``… [truncated:
    N characters]``, together no longer than that (cut again, it stays as it is)."""
    if len(text) <= MAX_MESSAGE_CHARS:
        return text
    kept = MAX_MESSAGE_CHARS - _TRUNCATION_ROOM
    return f"{text[:kept]} … [truncated: {len(text) - kept:,} characters]"


def cap(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def is_meaningful(text: str) -> bool:
    """Whether cleaned text is long enough to be worth storing (DESIGN: drop < 2 chars)."""
    if text.isprintable() or _ANY_SUSPECT.search(text) is None:
        # Collapsing inner whitespace keeps the first and last characters: the stripped
        # length is short exactly when the cleaned one is (the common case, without a copy).
        return len(text.strip()) >= MIN_CLEAN_CHARS
    return len(clean_text(text)) >= MIN_CLEAN_CHARS
