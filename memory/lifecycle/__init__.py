"""Memory that stays true: how a new fact about a member relates to the ones held.

* :mod:`memory.lifecycle.relation`: :func:`relation` decides, offline and in microseconds,
  whether two facts about the same subject say the same thing (merge), contradict each
  other (the newer supersedes the older) or neither; from attribute slots (home, job,
  relationship status, a pet's name, age, studies, favourites), the polarity of likes,
  dislikes and habits, word overlap and the embedding similarity of the two texts.
* :mod:`memory.lifecycle.similarity`: :class:`FactSimilarity`, cosine similarities of fact
  texts with the bundled local embedder, synchronous (for the database thread) and cached.

Measured by ``bench/lifecycle.py`` on the labelled pairs of ``bench/data/lifecycle/``.

The package imports none of its modules itself: the storage reads :mod:`memory.lifecycle.value`
without loading the rules, whose patterns take most of a second to compile (a command that
judges no fact, such as ``stats``, need not wait for them).
"""
