"""Roles in the community told in other words, rewritten to one form: moderating or running
the server ("mods the server", "is a server admin", "is one of the mods in this server", "got
mod perms", "helps moderate this discord"), and volunteering ("gives her time to a charity",
"does volunteer work at"): a part of :data:`memory.lifecycle.phrases.PHRASES`,
run in its place there.
"""

from __future__ import annotations

_ROLE = r"(?:mod|moderator|admin|administrator|owner)"
_HERE = r"(?:here|(?:the|this|our) (?:discord )?(?:server|discord|community))"
"""The community the fact is told in: "on here", "in this server", "of our discord"."""

COMMUNITY_PHRASES: list[tuple[tuple[str, ...], str, str]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("server",), rf"\b(moderates|administers|admins|mods|runs|is (?:a |an |the )?{_ROLE}) "
     r"(?:of )?(?:the |this |our |a )?(?:discord )?server\b", r"\1"),
    (("server",), rf"\bis (?:a |an |the )?(?:discord )?server ({_ROLE})\b", r"is a \1"),
    (("server",), rf"^(\S+ )(?:[.:,-] )?(?:discord )?server ({_ROLE})\b", r"\1is a \2"),
    (("mod", "admin"), rf"\b(?:is |'s )?1 of (?:the|our) ({_ROLE})s\b", r"is a \1"),
    (("perms", "permissions"), rf"\b(?:got|has|was given|has been given) ({_ROLE}) "
     r"(?:perms|permissions|role)\b", r"is a \1"),  # "got mod perms on the server"
    (("helps",), r"\bhelps (moderate|mod|admin|run)\b", r"\1s"),
    (("mod", "admin", "owner"), rf"\b({_ROLE}s?) (?:on|in|of|for|at) {_HERE}\b", r"\1"),
    (("mod", "admin", "owner"), rf"\b({_ROLE}s?) here\b", r"\1"),
    (("moderate", "admin", "run"), rf"\b(moderates|admins|mods|runs) {_HERE}\b", r"\1"),
    # volunteering told other ways: "gives her time to a charity", "does volunteer work at"
    (("time",), r"\b(?:gives|gave|donates) (?:her|his|their) (?:free |spare )?time (?:to|at)\b",
     "volunteers with"),
    (("volunteer",), r"\bdoes (?:some )?volunteer(?:ing)? (?:work )?(at|with|for)\b",
     r"volunteers \1"),
]  # fmt: skip
