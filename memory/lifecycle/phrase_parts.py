"""The parts the wordings of :mod:`memory.lifecycle.phrases` are built from: how an extractor
frames a fact, peoples by name, who plays an instrument, kinds of tool, what
is said of a thing disliked, medicines, a year of school, and counts of children and siblings.
"""

from __future__ import annotations

import re

from memory.lifecycle.places import DEMONYMS

SAYING = ("mentioned", "said", "says", "shared", "noted", "explained", "revealed", "stated",
           "confirmed", "announced", "indicated", "reported", "admitted", "wrote", "posted",
           "clarified", "corrected", "confessed", "insisted", "found out", "decided",
           "told")  # fmt: skip
FRAME = (  # how an LLM extractor reports a fact: "Ana mentioned that she ..."
    r"^(\S+) (?:(?:also|proudly|happily|excitedly|recently|once|later|has|had|just) )*"
    rf"(?:{'|'.join(SAYING[:-1])}|told (?:the \w+|everyone|us|me|them|\w+))"
    r"(?: to (?:the \w+|everyone|us|me|them))?(?: that)? "
    r"(?:(?:these days|lately|nowadays) (?:, )?)?"  # "said that these days her favourite ..."
)
MEDICINES = (
    "warfarin|metformin|insulin|aspirin|statins?|atorvastatin|simvastatin|sertraline|citalopram"
    "|escitalopram|fluoxetine|prozac|zoloft|lexapro|venlafaxine|mirtazapine|amitriptyline"
    "|lisinopril|ramipril|amlodipine|bisoprolol|metoprolol|propranolol|levothyroxine|thyroxine"
    "|omeprazole|lansoprazole|methotrexate|prednisolone|prednisone|adderall|ritalin|concerta"
    "|methylphenidate|lithium|gabapentin|pregabalin|tramadol|codeine|morphine|ozempic|wegovy"
    "|hrt|antidepressants|antibiotics|steroids|blood thinners|beta blockers|the pill"
)
"""Medicines one is "on" ("is on warfarin": takes warfarin)."""
GLUTEN_FREE = (
    r"^(\S+) (?:[.:,-] )?(?:(?:is|eats|goes|has|gone|went|follows|following|keeps|on|a|like|been"
    r"|sticks|sticking|to) )*(?:strictly |strict |fully |completely )?gluten[- ]free(?: diet)?"
    r"(?=$| [.,;:!?]| now| since| because| for| due)"
)
"""A gluten-free diet kept: "is gluten free", "eats like gluten free", "has been following a
strict gluten-free diet"."""
DEMONYM = (  # "is brazilian", "a brit": a people's word alone, not "a brazilian band"
    r"^(\S+) (?:[.:,-] )?(?:is |'s )?(?:a |an )?("
    + "|".join(sorted(DEMONYMS, key=len, reverse=True))
    + r")(?=$| [.;:!?]| (?:and|but|lol|fr|ngl|tbh|btw|through|born)\b)"
)


def is_from(match: re.Match[str]) -> str:
    return f"{match.group(1)} is from {DEMONYMS[match.group(2)]}"


PLAYERS = {
    "guitarist": "guitar", "pianist": "piano", "violinist": "violin", "drummer": "drums",
    "bassist": "bass", "cellist": "cello", "flautist": "flute", "flutist": "flute",
    "saxophonist": "saxophone", "clarinetist": "clarinet", "clarinettist": "clarinet",
    "trumpeter": "trumpet", "keyboardist": "keyboard", "harpist": "harp", "organist": "organ",
    "violist": "viola", "trombonist": "trombone", "percussionist": "percussion",
}  # fmt: skip
"""Who plays an instrument, and the instrument: "is a guitarist" / "plays guitar"."""
PLAYER = (
    r"\bis (?:a |an |the )?(?:(lead|bass|rhythm|jazz|classical|session) )?("
    + "|".join(PLAYERS)
    + r")\b"
)


def plays(match: re.Match[str]) -> str:
    kind = match.group(1)
    return f"plays {kind + ' ' if kind else ''}{PLAYERS[match.group(2)]}"


TOOLS = ("daw", "editor", "ide", "distro", "browser", "os", "tablet", "tab", "camera", "engine")
"""Kinds of tool told as "daw = reaper", "'s editor is neovim": what the member uses."""
TOOL = rf"(?:(?:main|go-to|daily|usual) )?(?:{'|'.join(TOOLS)})"

CHILDREN = {"girls": "daughters", "daughters": "daughters", "boys": "sons", "sons": "sons"}
SIBLINGS = {"girls": "sisters", "sisters": "sisters", "boys": "brothers", "brothers": "brothers"}


BAD = (
    "trash",
    "garbage",
    "cringe",
    "disgusting",
    "gross",
    "boring",
    "overrated",
    "worst",
    "hard pass",
    "soap",
    "awful",
    "terrible",
    "horrible",
    "disturbing",
    "unbearable",
)
"""What is said of a thing disliked ("X is cringe now", "finds X boring", "X = soap")."""
GOOD = ("goated", "peak", "elite", "a banger", "bussin", "the goat")
"""What is said of a thing liked ("pineapple pizza is goated now")."""
NO_THING = r"(?:is|are|was|'s|it|this|that|he|she|they|his|her|their|a|an|not)\b"
"""What a thing disliked does not start with ("is the worst at aim" dislikes nothing)."""


YEARS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
          "4th": 4, "fifth": 5, "5th": 5, "freshman": 1, "freshmen": 1, "fresher": 1,
          "sophomore": 2, "junior": 3, "senior": 4}  # fmt: skip
"""A year of school or university by its ordinal or its name ("a sophomore": the second)."""


def school_year(match: re.Match[str]) -> str:
    """ "a junior in high school" → "in grade 11", "a sophomore at uni" → "in year 2 at uni"
    (high school's years are grades 9 to 12)."""
    year, school = YEARS[match.group(1)], match.group(2) or ""
    if "high" in school:
        return f"in grade {year + 8}"
    return f"in year {year}{' at ' + school if school else ''}"


def has_children(match: re.Match[str]) -> str:
    """A parent of N: "mother of 2 girls" → "has 2 daughters", "dad of 3" → "has 3 kids"."""
    return f"has {match.group(1)} {CHILDREN.get(match.group(2) or '', 'kids')}"


def has_younger(match: re.Match[str]) -> str:
    """An older sibling of N: "the older brother of 2 girls" → "has 2 younger sisters"."""
    return f"has {match.group(1)} younger {SIBLINGS.get(match.group(2), 'siblings')}"
