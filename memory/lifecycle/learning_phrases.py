"""Learning something told in other words, rewritten to "learning" ("is trying to learn",
"picking up korean", "is teaching herself korean", "grinding spanish on duo", "taking
portuguese lessons"), and speaking a language told as being conversational or fluent in it:
a part of :data:`memory.lifecycle.phrases.PHRASES`, run in its place there.
"""

from __future__ import annotations

from memory.lifecycle.lexicon import LANGUAGES

_SELF = r"(?:himself|herself|themselves|themself|myself)"

LEARNING_PHRASES: list[tuple[tuple[str, ...], str, str]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("lessons",), r"\bgives (\w+) lessons\b", r"teaches \1"),  # not learning: teaching
    (
        ("conversational", "fluent"),
        r"(?<!become )(?<!be )(?<!get )\b(?:is )?(?:(?:pretty much"
        r"|pretty|fairly|quite|now|basically) )*(?:conversational|fluent) in\b",
        "speaks",
    ),
    # "is pretty much conversational in" (not "trying to become fluent in")
    (("trying to learn",), r"\b(?:is )?trying to learn\b", "is learning"),
    (
        ("picking up", "picked up", "picks up"),
        rf"\b(?:picking|picked|picks) up (?=(?:{'|'.join(LANGUAGES)})\b)",
        "learning ",
    ),  # "picking up korean"
    (
        ("picking up", "pick up"),
        r"\b(?:currently|in the process of|slowly|trying to) (?:picking|pick) up\b",
        "learning",
    ),  # "is in the process of picking up rust", not "picking up her kids"
    (("picking up",), r"\bpicking up (\w+) (?=atm|rn|these days|lately)\b", r"learning \1 "),
    (("teach",), rf"\bteach(?:es|ing)? {_SELF} ", "learning "),
    (("teach",), rf"\b(?:has )?taught {_SELF} ", "learned "),
    (
        ("lesson",),
        r"\b(?:is )?(?:taking|doing|having|takes|does|has) (\w+) (?:lessons|classes)\b",
        r"learning \1",
    ),  # "is taking portuguese lessons", "does piano lessons"
    (
        ("duo", "on the side"),
        r"\b(?:grinding|studying|learning|doing) (\w+) (?:on (?:the )?(?:duo|duolingo|the side)"
        r"|on the side)\b(?: every day| daily)?",
        r"learning \1",
    ),  # "grinding spanish on duo every day", "studying german on the side"
]
