"""The README tells the truth: its settings table and its test command."""

from __future__ import annotations

import re
from pathlib import Path

from memory.settings import Settings, env_name

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def _settings_table() -> dict[str, str]:
    rows = re.findall(r"^\| `([A-Z][A-Z_]+)` \| ([^|]+) \|", README, flags=re.MULTILINE)
    return {name: default.strip() for name, default in rows}


def _shown(value: object) -> str:
    if value is None:
        return "*(none)*"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, frozenset | tuple) and not value:
        return "*(empty)*"
    if isinstance(value, Path):
        return f"`./{value}`"
    return f"`{value}`"


def test_every_setting_is_in_the_readme_with_its_default() -> None:
    expected = {
        env_name(name): _shown(field.default) for name, field in Settings.model_fields.items()
    }
    assert _settings_table() == expected


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n(.+?)\n```", README)
    test_command = next(c for c in commands if "pytest" in c)
    assert test_command in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_the_quick_start_runs_the_main_job() -> None:
    commands = re.findall(r"```sh\n(.+?)\n```", README)
    main_job = commands[0]
    assert "pip install -e ." in main_job and main_job.endswith("memorybot demo")


def _cells(row: str) -> int:
    """The cells of a markdown table row (a pipe inside backticks is no border)."""
    return len(re.sub(r"`[^`]*`", "``", row).strip().strip("|").split("|"))


def test_every_table_row_has_as_many_cells_as_its_header() -> None:
    uneven = []
    header = 0
    for line in README.splitlines():
        if not line.startswith("|"):
            header = 0
        elif not header:
            header = _cells(line)
        elif _cells(line) != header:
            uneven.append(line[:80])
    assert uneven == []
