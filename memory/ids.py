"""The Discord id rule: a snowflake is 17 to 20 ASCII digits, wherever an id is read —
settings, the command line, the API, exports, and mentions in text.

Discord's ids are 64-bit numbers counted from 2015 (17 digits since then, 20 at most);
``\\d`` is not used because it takes any script's digits.
"""

from __future__ import annotations

import re
from typing import TypeGuard

MIN_DIGITS, MAX_DIGITS = 17, 20
PATTERN = f"[0-9]{{{MIN_DIGITS},{MAX_DIGITS}}}"
DESCRIPTION = f"a Discord id ({MIN_DIGITS}-{MAX_DIGITS} digits)"
MENTION = re.compile(f"<@!?({PATTERN})>")
"""A user mention in message text (``<@id>``, or ``<@!id>`` for a nickname), the id grouped."""

_ID = re.compile(PATTERN)


def is_discord_id(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a string holding one Discord id and nothing else."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None
