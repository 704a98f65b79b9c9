"""Memory that stays true: how a new fact about a member relates to the ones held.

* :mod:`memory.lifecycle.similarity`: :class:`FactSimilarity`, cosine similarities of fact
  texts with the bundled local embedder, synchronous (for the database thread) and cached.
"""

from memory.lifecycle.similarity import FactSimilarity

__all__ = ["FactSimilarity"]
