"""What this machine has for the tests that need more than Python: Chromium for the page
tests, the voice extra and libopus for the voice tests.

Without them those tests are skipped, the reason naming what to install
(``python3 tests/prepare.py`` installs it all when run as root). With
``MEMORYBOT_TESTS_REQUIRE_ALL=1`` (CI sets it) a missing part fails the run instead.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

from voice.availability import ENABLE_LIBOPUS, ENABLE_VOICE, LIBOPUS, missing_voice_parts

REQUIRE_ALL = "MEMORYBOT_TESTS_REQUIRE_ALL"
PREPARE = "python3 tests/prepare.py"
_ALL_REQUIRED = os.environ.get(REQUIRE_ALL) == "1"  # read before tests clear MEMORYBOT_*


def unavailable(reason: str) -> NoReturn:
    """Skip the test (or its module) for ``reason``; fail instead when all must run."""
    if _ALL_REQUIRED:
        pytest.fail(f"{reason} ({REQUIRE_ALL}=1)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def chromium_path() -> str:
    """Debian's Chromium (the page tests drive it through playwright, which never downloads
    a browser); skips when it is not installed."""
    found = shutil.which("chromium")
    if found is None:
        unavailable(f"Chromium is not installed: sudo apt-get install chromium (or {PREPARE})")
    return found


def require_voice(*, opus: bool = False) -> None:
    """Skip the calling test module unless the voice extra (and libopus, with ``opus``) is
    installed."""
    missing = [part for part in missing_voice_parts() if opus or part != LIBOPUS]
    if missing:
        fixes = []
        if any(part != LIBOPUS for part in missing):
            fixes.append(ENABLE_VOICE)
        if LIBOPUS in missing:
            fixes.append(f"sudo {ENABLE_LIBOPUS}")
        unavailable(f"voice tests need {', '.join(missing)}: {' and '.join(fixes)} (or {PREPARE})")
