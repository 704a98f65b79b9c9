"""A partner told of the other partner ("Rana is Omar's wife" beside "Omar is married to
Rana"), read as said of the pair's subject.

"X is Y's wife" (or "X - Y's spouse") is about X when the other fact is about X ("Mariam is
married to Idris" / "Mariam is Idris's wife": one fact), and about Y when the other fact is
about Y ("Omar is married to Rana" / "Rana is Omar's wife"). Read alone, the slot patterns
cannot tell the two apart; beside the other fact of a pair, :func:`of_subject` rewrites it
as said of the subject: "X is married to Y", "engaged to" for a fiancé(e), "dating" for a
partner.
"""

from __future__ import annotations

import re

_ROLES = {"wife": "married to", "husband": "married to", "spouse": "married to",
          "fiance": "engaged to", "fiancee": "engaged to", "fiancé": "engaged to",
          "fiancée": "engaged to", "girlfriend": "dating", "boyfriend": "dating",
          "partner": "dating", "gf": "dating", "bf": "dating"}  # fmt: skip

_TOLD_OF_OTHER = re.compile(
    r"^(?P<one>[\w-]+)(?: (?:is|has been|was)|\s*[-.:,—]) (?P<other>[\w-]+)(?:'s|’s|') "
    rf"(?P<role>{'|'.join(_ROLES)})\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_FIRST = re.compile(r"^\W*([\w-]+)")


def _first(text: str) -> str:
    found = _FIRST.match(text)
    return found.group(1).lower() if found else ""


def _said_of(text: str, subject: str) -> str:
    found = _TOLD_OF_OTHER.match(text.strip())
    if found is None:
        return text
    one, other = found["one"], found["other"]
    told = _ROLES[found["role"].lower()]
    if one.lower() == subject:
        return f"{one} is {told} {other}{found['rest']}"
    if other.lower() == subject:
        return f"{other} is {told} {one}{found['rest']}"
    return text


def of_subject(old: str, new: str) -> tuple[str, str]:
    """``old`` and ``new``, a partner told of the other partner read as said of the subject
    the other fact is about (see the module); unchanged otherwise."""
    return _said_of(old, _first(new)), _said_of(new, _first(old))
