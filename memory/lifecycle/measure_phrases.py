"""Amounts told in other words, rewritten to the number they stand for ("three decades" → "30
years"): a part of :data:`memory.lifecycle.phrases.PHRASES`, run in its place there. Texts
arrive with their number words as digits ("three" → "3").
"""

from __future__ import annotations

import re
from collections.abc import Callable


def _decades(match: re.Match[str]) -> str:
    count = 1 if match.group(1) == "a" else int(match.group(1))
    return f"{count * 10} years"


MEASURE_PHRASES: list[tuple[tuple[str, ...], str, str | Callable[[re.Match[str]], str]]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("decade",), r"\b(a|\d) decades?\b", _decades),  # "for three decades", "a decade ago"
]
