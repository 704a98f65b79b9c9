"""What ``pip install .`` installs: every package and data file of the repo, not only what an
editable install happens to find in the working tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

TOP = ("bot", "memory", "voice", "dashboard_api", "memory_journals")


@pytest.mark.slow
def test_the_wheel_holds_every_package_and_data_file(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: no build/ or egg-info left by an earlier build
    leftovers = shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__")
    shutil.copytree(REPO, source, ignore=leftovers)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("memorybot-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {
        str(p.relative_to(REPO))
        for top in TOP
        for p in (REPO / top).rglob("*")
        if p.is_file() and p.suffix in {".py", ".json", ".js", ".html", ".css", ".typed"}
        and "__pycache__" not in p.parts
    }  # fmt: skip
    assert sources - names == set()
