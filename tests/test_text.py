"""memory.text: cleaning agrees with its definition on every input, including the shortcuts
it takes for printable text, and the storing rule (``is_meaningful``) agrees with cleaning."""

from __future__ import annotations

import itertools
import sys

import pytest

from memory.text import INVISIBLE, MIN_CLEAN_CHARS, clean_text, is_meaningful, strip_invisible

# Whitespace of several kinds, invisible and control characters, a pipe, letters, emoji parts.
ALPHABET = [" ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "\x85", "\x1c", "\u200b", "\u200d",
            "\ufeff", "\x00", "|", "a", "é", "😀"]  # fmt: skip


def defined_clean(text: str) -> str:
    """What cleaning is defined as, without any shortcut."""
    return " ".join(INVISIBLE.sub("", text).split()).replace("|", "/")


def test_every_printable_character_is_one_cleaning_keeps_as_it_is() -> None:
    """The shortcut's premise: no character cleaning removes or turns into a space is
    printable, but the ASCII space."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if char.isprintable() and char != " ":
            assert not char.isspace() and INVISIBLE.search(char) is None, hex(code)


def test_cleaning_is_its_definition_for_every_short_string() -> None:
    for size in range(5):
        for chars in itertools.product(ALPHABET, repeat=size):
            text = "".join(chars)
            assert clean_text(text) == defined_clean(text), repr(text)
            assert strip_invisible(text) == INVISIBLE.sub("", text), repr(text)


@pytest.mark.parametrize(
    "text",
    ["plain words", " leading", "trailing ", "two  spaces", "a|b", "tab\there", "é😀 ok",
     "\u200bhidden", "line\nbreak", "\u00a0nbsp", "👨\u200d👩", "x" * 500],
)  # fmt: skip
def test_cleaning_examples_match_the_definition(text: str) -> None:
    assert clean_text(text) == defined_clean(text)


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
