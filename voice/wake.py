"""Whether a transcript addresses the bot: one of its names said as words.

Speech-to-text writes a name the way it hears it: "memorybot" may come out as "memory bot"
or "Memory-Bot", and "Memo Bot" as "memobot". So names and transcripts are compared as
lowercase word sequences, and a name written as one word also matches up to three
consecutive transcript words written together.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+")
_JOINED_WORDS = 3


def words(text: str) -> list[str]:
    """Lowercase words of ``text`` (letters and digits; punctuation and hyphens split)."""
    return _WORD.findall(text.lower())


def addresses(transcript: str, names: Iterable[str]) -> bool:
    """True when ``transcript`` says one of ``names`` (case, spacing and hyphens aside)."""
    said = words(transcript)
    for name in names:
        wanted = words(name)
        if not wanted:
            continue
        size = len(wanted)
        if any(said[i : i + size] == wanted for i in range(len(said) - size + 1)):
            return True
        joined = "".join(wanted)
        for span in range(1, _JOINED_WORDS + 1):
            if any("".join(said[i : i + span]) == joined for i in range(len(said) - span + 1)):
                return True
    return False
