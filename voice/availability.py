"""Whether this install can do voice, and what to do when it cannot.

Voice lives behind the ``voice`` extra. Nothing here imports those packages: it only looks
for them, so the bot (and ``memorybot doctor``) can say what is missing without failing.
"""

from __future__ import annotations

import ctypes.util
import importlib.util

from memory.settings import LOCAL_STT

ENABLE_VOICE = "pip install -e '.[voice]'"
"""The command that installs the voice extra (from a checkout of memorybot)."""

LIBOPUS = "libopus"
ENABLE_LIBOPUS = "apt-get install libopus0"

_PACKAGES = {  # import name → distribution to install
    "discord.ext.voice_recv": "discord-ext-voice-recv",
    "nacl": "PyNaCl",
    "davey": "davey",
    "webrtcvad": "webrtcvad-wheels",
}
_OFFLINE_STT = {"pocketsphinx": "pocketsphinx"}


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent package is missing, or a blocked module
        return False


def missing_voice_parts(stt_model: str = LOCAL_STT) -> list[str]:
    """What voice needs and this install lacks: Python distributions, then ``libopus``."""
    wanted = dict(_PACKAGES)
    if stt_model == LOCAL_STT:
        wanted.update(_OFFLINE_STT)
    missing = [dist for name, dist in wanted.items() if not _importable(name)]
    if ctypes.util.find_library("opus") is None:
        missing.append(LIBOPUS)
    return missing


def voice_unavailable(stt_model: str = LOCAL_STT) -> str | None:
    """None when voice can run; otherwise one line saying what is missing and how to fix it."""
    missing = missing_voice_parts(stt_model)
    if not missing:
        return None
    fixes = [ENABLE_VOICE] if any(part != LIBOPUS for part in missing) else []
    if LIBOPUS in missing:
        fixes.append(ENABLE_LIBOPUS)
    how = " and ".join(f"`{fix}`" for fix in fixes)
    return (
        f"Voice is not enabled on this bot: it needs {', '.join(missing)}. "
        f"Whoever runs the bot can enable it with {how}, then a restart."
    )
