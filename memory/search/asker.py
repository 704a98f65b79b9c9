"""Questions about the asker in general: "what do you know about me?", "who am i", "what do u
remember abt me lol". Such a question names no topic, so ranking the asker's facts by it ranks
them by nothing; the slice carries the asker's profile instead — their most valued facts
(confidence, times said, how lately: ``memory.lifecycle.value``), as MEMORY.md's profile
picks them — and gives them the whole budget (``budget.pack``'s ``fact_share``).

A question is about the asker when it refers to them (me, my, myself, I) and holds no other
word than these, words about remembering or telling, chat fillers and the asker's own name.
"""

from __future__ import annotations

import re
from collections.abc import Collection

SELF = frozenset({"me", "my", "myself", "mine", "i", "im", "i'm", "ive", "i've", "moi"})
"""Words by which the asker refers to themself."""

ABOUT = frozenset(
    """what whats what's who whos who's do does did you u ya your know knows knew remember
    remembers remembered recall recalls memory memories about abt tell say said anything
    everything something stuff things thing info information have has got so far yet is are
    am was be the a an of on all any ever bout give show list summary summarise summarize
    describe profile please pls plz lol lmao haha rn tbh ngl fr hey hi yo bot can could would
    think here it's its this again""".split()  # noqa: SIM905
)
"""Words of a question that asks about the asker without naming a topic."""

_WORD = re.compile(r"[\w']+")


def about_the_asker(query: str, own_names: Collection[str] = ()) -> bool:
    """Whether ``query`` asks what memory holds about the asker in general."""
    words = _WORD.findall(query.lower())
    if not SELF.intersection(words):
        return False
    names = {word for name in own_names for word in _WORD.findall(name.lower())}
    return all(word in SELF or word in ABOUT or word in names for word in words)
