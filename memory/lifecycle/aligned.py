"""Two facts of a pair, each read beside the other before they are compared: a partner told
of the other partner said of the pair's subject (:func:`memory.lifecycle.partners.of_subject`),
and each fact's shorthand spelt as the other spells it
(:func:`memory.lifecycle.shorthand.unfold`). The rules (:func:`memory.lifecycle.relation.relation`)
and the learned merges (:mod:`memory.lifecycle.merging`) both read a pair through it."""

from __future__ import annotations

from functools import lru_cache

from memory.lifecycle.partners import of_subject
from memory.lifecycle.shorthand import unfold


@lru_cache(maxsize=8192)
def aligned(old: str, new: str) -> tuple[str, str]:
    """``old`` and ``new`` as compared (see the module)."""
    return unfold(*of_subject(old, new))
