"""memory.text: the storing rule (``is_meaningful``) agrees with cleaning on every input,
including the shortcut it takes for text without invisible characters."""

from __future__ import annotations

import itertools

import pytest

from memory.text import MIN_CLEAN_CHARS, clean_text, is_meaningful

# Whitespace of several kinds, invisible and control characters, a pipe, letters, emoji parts.
ALPHABET = [" ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "\x85", "\x1c", "\u200b", "\u200d",
            "\ufeff", "\x00", "|", "a", "é", "😀"]  # fmt: skip


def test_is_meaningful_is_the_length_of_the_cleaned_text_for_every_short_string() -> None:
    for size in range(5):
        for chars in itertools.product(ALPHABET, repeat=size):
            text = "".join(chars)
            assert is_meaningful(text) == (len(clean_text(text)) >= MIN_CLEAN_CHARS), repr(text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [("ok", True), (" o k ", True), ("a\u200b", False), ("\u200ba\u200b", False),
     ("a \n\t ", False), ("||", True), ("  \u3000 ", False), ("a\x00b", True), ("😀", False)],
)  # fmt: skip
def test_is_meaningful_examples(text: str, kept: bool) -> None:
    assert is_meaningful(text) is kept
