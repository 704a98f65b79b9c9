"""The English word list the typo repair reads (:mod:`memory.lifecycle.spelling`):
pyspellchecker's, with how often each word is used, kept small in memory and read once."""

from __future__ import annotations

import gzip
import importlib.resources
import json
import logging
import unicodedata
from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

WORD_LIST = ("spellchecker", "resources/en.json.gz")
"""pyspellchecker's English word list: a JSON object of word: count (160,000 words)."""


class Dictionary(NamedTuple):
    """The word list, kept small (1.9 MB, where a dict of it takes 14): each word's hash,
    sorted, and how often the word is used."""

    hashes: NDArray[np.int64]
    counts: NDArray[np.int32]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(self.uses([word])[0])

    def __len__(self) -> int:
        return len(self.hashes)

    def uses(self, words: Sequence[str]) -> NDArray[np.int32]:
        """How often each of ``words`` is used; 0 for a word not in the list."""
        import numpy as np

        wanted = np.fromiter((hash(word) for word in words), dtype=np.int64, count=len(words))
        index = np.minimum(np.searchsorted(self.hashes, wanted), len(self.hashes) - 1)
        found = self.hashes[index] == wanted
        return np.where(found, self.counts[index], 0).astype(np.int32)


@lru_cache(maxsize=1)
def dictionary() -> Dictionary:
    """English words, lowercase and without accents ("fiance"), and how often each is used;
    empty, with one warning, when the word list cannot be read (numpy is imported here, as
    where vectors are made: a command that reads no fact starts without it)."""
    import numpy as np

    hashes, counts = array("q"), array("i")
    package, name = WORD_LIST
    try:
        with (
            importlib.resources.files(package).joinpath(name).open("rb") as packed,
            gzip.open(packed, "rt", encoding="utf-8") as lines,
        ):
            for line in lines:
                key, colon, count = line.strip().rstrip(",").rpartition(":")
                if not colon:
                    continue
                word = json.loads(key) if "\\" in key else key[1:-1]
                if not word.isascii():
                    word = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()
                hashes.append(hash(word))
                counts.append(min(int(count), 2**31 - 1))
    except (ImportError, OSError, ValueError) as exc:
        log.warning("typo repair has no dictionary: cannot read pyspellchecker's (%s)", exc)
    order = np.argsort(np.frombuffer(hashes, dtype=np.int64), kind="stable")
    return Dictionary(
        np.frombuffer(hashes, dtype=np.int64)[order].copy(),
        np.frombuffer(counts, dtype=np.int32)[order].copy(),
    )
