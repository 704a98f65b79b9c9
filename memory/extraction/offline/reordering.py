"""Statements whose object comes before the speaker's "I", put back in the order the
rewriter reads: subject, verb, object.

- what someone shows: "Here's a self-portrait I made last week" → "I made a self-portrait
  last week"; "Here's a pic from when we met up" → "we met up";
- a thing named first: "These figurines I bought yesterday remind me of …" → "bought the
  figurines yesterday" (only a past verb and a time, followed by the sentence's own verb);
- a relative clause that ends the sentence: "One special memory was this parade I went to a
  few weeks ago" → "went to the parade a few weeks ago".
"""

from __future__ import annotations

import re
from datetime import date

from memory.extraction.offline import dates
from memory.extraction.offline.verbs import is_finite, is_past

_SHOWING = r"^(?:here's|here is|heres|check out|look at)\s+"
_SHOWN_WHEN = re.compile(
    _SHOWING + r"(?:(?:a|an|some|the|this)\s+)?"
    r"(?:pic|pics|picture|pictures|photo|photos|shot|snap|video|clip)\s+from\s+when\s+"
    r"(?P<clause>(?:I|I'm|I was|we|we're|we were)\b.+)$",
    re.I,
)
_SHOWN_MADE = re.compile(
    _SHOWING + r"(?P<np>(?:a|an|one|some|another)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+(?:that\s+)?I\s+"
    r"(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$",
    re.I,
)
_MEDIUM = re.compile(
    r"^(?:a|an|some)\s+(?:pic|picture|photo|shot|snap|peek|look|video|clip)\s+(?:of|at|from)\s+",
    re.I,
)
_NP_WORD = r"(?!(?:where|when|that|which|who|whom|whose|while|if|because)\b)[a-z][\w'-]*"
_NP = rf"(?P<np>{_NP_WORD}(?:\s+{_NP_WORD}){{0,2}})"
_FRONTED = re.compile(rf"(?:these|those|this|that|the)\s+{_NP}", re.I)
_NAMED_BEFORE = re.compile(rf"\b(?:was|is|were|are)\s+(?:this|that|the|a|an)\s+{_NP}$", re.I)
_STRANDED = frozenset({"to", "with", "at", "on", "in", "for", "about", "into", "from"})


def shown_as_statement(text: str) -> str:
    """What a member shows, as their own statement (``text`` unchanged otherwise)."""
    remembered = _SHOWN_WHEN.match(text)  # "Here's a pic from when we met up last week"
    if remembered is not None:
        text = remembered.group("clause")
    made = _SHOWN_MADE.match(text)  # "Here's a self-portrait I made last week"
    if made is not None and is_past(made.group("verb")):
        thing = _MEDIUM.sub("", made.group("np"))  # "a peek at the space I designed"
        text = f"I {made.group('verb')} {thing} {made.group('rest')}".strip()
    return text


def names_object_first(prefix: str) -> bool:
    """What stands before the subject names the object of its verb."""
    prefix = prefix.strip(" ,")
    return bool(_FRONTED.fullmatch(prefix) or _NAMED_BEFORE.search(prefix))


def in_order(prefix: str, after: str, said: date) -> str | None:
    """The words after the subject with the object named in ``prefix`` put back after the
    verb, or None when they are no plain past doing ("The guy I met is nice" → "met the
    guy"; "The thing I hate most is traffic" → None)."""
    prefix = prefix.strip(" ,")
    words = after.split()
    if not words or not is_past(words[0]):
        return None
    fronted = _FRONTED.fullmatch(prefix)
    if fronted is not None:
        for end in range(1, min(len(words), 5)):
            when = " ".join(words[1:end])
            untimed = end == 1 and not dates.TIME_LEAD.match(" ".join(words[1:4]))
            if is_finite(words[end]) and (untimed or dates.resolve(when, said, past=True)[1]):
                return f"{words[0]} the {fronted.group('np')} {when}"
        return None
    before = _NAMED_BEFORE.search(prefix)
    if before is None:
        return None
    head = words[:2] if len(words) > 1 and words[1].lower() in _STRANDED else words[:1]
    when = " ".join(words[len(head) :])
    if when and not dates.resolve(when, said, past=True)[1]:
        return None
    return f"{' '.join(head)} the {before.group('np')} {when}"
