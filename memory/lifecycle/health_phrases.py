"""Health told in everyday words, rewritten to the words the lifecycle reads ("cats trigger
his allergies" → "is allergic to cats", "can't have dairy" → "is lactose intolerant", "can't
sleep at night" → "has insomnia"): a part of :data:`memory.lifecycle.phrases.PHRASES`, run in
its place there. Texts arrive tokenised ("can't" → "can not").
"""

from __future__ import annotations

HEALTH_PHRASES: list[tuple[tuple[str, ...], str, str]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("dr .", "mr .", "mrs .", "ms .", "prof ."), r"\b(dr|mr|mrs|ms|prof) \. (?=[a-z])", r"\1 "),
    (
        ("digest",),
        r"\bcan not (?:digest|process) (lactose|gluten|dairy)(?: properly)?\b",
        r"is \1 intolerant",
    ),
    (
        ("trigger", "set off", "sets off"),
        r"^(\S+) (?:[.:,-] )?(?:(?:said|says|mentioned|explained|noted|shared|stated) (?:that )?)?"
        r"([\w-]+(?: [\w-]+)?) (?:triggers?|sets? off) (?:his|her|their|my) "
        r"(?:allergy|allergies)\b",
        r"\1 is allergic to \2",
    ),  # "bartek . cats trigger his allergies"
    (
        ("dairy",),
        r"\bcan not (?:have|eat|do|handle|take|digest) dairy\b(?![\w ]* lactose)"
        r"(?: ,? (?:as |cos |because )?(?:it|that) does not agree with (?:him|her|them|me)\b)?",
        "is lactose intolerant",
    ),  # "cant have dairy, it doesnt agree with her"
    (
        ("sleep",),
        r"\bcan not (?:sleep|get to sleep|fall asleep)(?: at night| at all| properly)?\b",
        "has insomnia",
    ),  # "isa - cant sleep at night. insomniac"
]
