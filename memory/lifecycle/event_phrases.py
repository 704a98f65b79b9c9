"""Changes told as events in chat's own words, rewritten to the words the change cues of
:mod:`memory.lifecycle.cues` read ("got let go" → "got fired", "packed in the fags" → "quit
the fags", "the parrot flew away" → "is gone"): a part of :data:`memory.lifecycle.phrases.PHRASES`,
run in its place there.
"""

from __future__ import annotations

_SPELL = r"(?:years?|months?|weeks?|winters?|summers?|trips?|stints?|semesters?|visits?)"
"""A stretch of time somewhere, told as what changed a member's mind."""

EVENT_PHRASES: list[tuple[tuple[str, ...], str, str]] = [
    # (words one of which must be in the text, pattern, replacement)
    (
        ("after",),
        rf"\bafter (?:(?:a|an|\d+|a few|several|her|his|their) )?(?:(?:recent|first|last"
        rf"|long) )?{_SPELL}(?: (?:in|at|living in|abroad)(?: (?!and\b|but\b)[\w-]+){{1,2}})?"
        r"(?= ,|$| [.!?]| (?:ngl|tbh|fr|lol)\b)(?: ,)?",
        "",
    ),
    # why a mind changed, no part of the fact: "hates winter after a year in helsinki", "said
    # that after her recent trip , kyoto has become her favourite city" (not "since ten years":
    # how long, as second-language English says it)
    (
        ("looking for", "searching", "hunting for", "to find"),
        r"\b(?:(?:is|are|been) )?(?:(?:looking|searching|hunting) for|searching|trying to find)\b",
        "wants",
    ),  # a thing sought is not had: "is looking for a car" / "doesn't have a car yet"
    (("die hard", "diehard", "die-hard"), r"\bdie[- ]?hard(?: fan)?\b", "fan"),
    (("down to",), r"^(\S+) (?:[.:,-] )?(?:is )?(?:now )?down to (?=\d+ )", r"\1 has "),
    (("let go",), r"\b(?:got|was|has been|been|just got) let go(?! of)\b", "got fired"),
    (("laid of ",), r"\b(got|was|has been|been|just got) laid of\b", r"\1 laid off"),  # a typo
    (
        ("finished",),
        r"\bfinished (?:his|her|their) (?:studies|degree|course|masters|phd)\b",
        "graduated",
    ),  # "finished his studys and works as engineer now"
    (
        ("passed out",),
        r"\bpassed out (?:of|from) (?:the )?(?:college|university|uni|school)\b",
        "graduated",
    ),  # Indian English: "passed out of college in 2022"
    (
        ("away", "missing", "off", "came back"),
        r"\b(?:flew|ran|has flown|has run) (?:away|off)\b"
        r"|\b(?:went|has gone|is) missing\b"
        r"|\b(?:flew|ran|got) out (?:\S+ ){0,5}?and never came back\b",
        "is gone",
    ),  # "the parrot flew away", "kiwi flew out of an open window and never came back"
    (("rip", "rest in peace"), r"\bpassed(?! away)(?=.* (?:rip|rest in peace)\b)", "passed away"),
    # "bean passed last night , rip lil guy"
    (
        ("come to", "grown to", "came to", "grew to"),
        r"\b(?:has |have )?(?:come|came|grown|grew) to "
        r"(?=(?:hate|dread|dislike|detest|love|like|enjoy|appreciate)\b)",
        "",
    ),  # "has come to dread"
    (
        ("to live with",),
        r"\b(?:went|has gone|moved|has moved) to live with\b",
        "is gone to live with",
    ),  # "george the tortoise went to live with her nephew"
    (("doing it",), r"\bstopped doing (?:it|that|them)\b", "stopped it"),
    (("nuked",), r"\b(?:has )?nuked\b", "uninstalled"),  # "nuked windows, full linux now"
    (("shaved",), r"\bshaved (?:off )?(?:his|her|their) (\w+)(?: off)?\b", r"removed \1"),
    (("packed",), r"\b(?:has )?packed (?:it )?in\b", "quit"),  # "packed in the fags": quit
    (("packed",), r"\b(?:has )?packed (\w+(?: \w+)?) in\b", r"quit \1"),  # "packed tennis in"
    (("dumped",), r"^(\S+) (?:[.:,-] )?(\w+) dumped (?:him|her|them)\b", r"\1 and \2 broke up"),
    (("rto",), r"\b(?:got |was |has been )?rto(?: would|d)?\b", "is back in the office"),  # "rto'd"
    (
        ("break from", "ing break"),
        r"\b(?:is |are )?(?:on|taking|takin|having|took|has taken) (?:a |an )?(?:little |short "
        r"|long |proper )?(?:break from\b|(?!smoking\b)(\w+ing) break\b)",
        r"not \1",
    ),  # "on a break from ranked", "on a gaming break": not doing it for now
    (("jumped ship", "jumps ship"), r"\b(?:has )?(?:jumped|jumps) ship to\b", "switched to"),
    (("away from",), r"\b(?:has |is )?(?:go|goes|went|gone) away from\b", "left"),  # a job left
    (
        ("went from", "gone from", "going from"),
        r"\b(?:has )?(?:went|gone|going) from (?=[\w' -]+"
        r" to )",
        "switched from ",
    ),  # "went from oat milk to regular milk"
    (
        ("not touched", "not been to", "not been near"),
        r"\bhas not (?:touched|been to|been near) (?:a |an |the |any |his |her |their )?"
        r"([\w -]{1,25}?) (?:(?:in|for) (?:(?:\d+|a|a few|a couple of|several|many|over a) )?"
        r"(?:days?|weeks?|months?|years?|ages|a while|forever)|since \w+)\b",
        r"stopped \1",
    ),  # "hasnt touched the gym in months": a habit left, no denial of a visit
]
