"""Facts know when they were said: an imported old conversation stays old.

`memorybot import` of an export from 2023 and of one from yesterday (offline extractor, real
SQLite, the command line as a subprocess): each fact is said when its message was written,
recency counts from then, and `search --json`, `slice --json` and MEMORY.md say so."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memory.models import parse_iso, utc_iso
from tests.helpers import GUILD_A, MIKE, SARAH, export_id, export_message, run_cli, write_export

OLD_SAID = "2023-05-07T21:30:00.000+00:00"
OLD_MESSAGE = export_id(7001)  # Mike, in 2023
NEW_MESSAGE = export_id(7002)  # Sarah, yesterday
QUERY = "who is allergic?"


@dataclass(frozen=True)
class Imported:
    data: Path
    new_said: str  # when yesterday's message was written
    imported_at: str  # just before the import ran


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Imported:
    """Both exports imported into one data directory (extracted, embedded, journaled)."""
    root = tmp_path_factory.mktemp("said")
    new_said = utc_iso(datetime.now(UTC) - timedelta(days=1))
    old = write_export(root / "old.json", [
        export_message(7001, "i'm allergic to peanuts btw", author=MIKE,
                       timestamp=OLD_SAID),
    ])  # fmt: skip
    new = write_export(root / "new.json", [
        export_message(7002, "i'm allergic to cats", author=SARAH,
                       timestamp=new_said),
    ])  # fmt: skip
    imported_at = utc_iso()
    result = run_cli(root / "data", "import", str(old), str(new), cwd=root)
    assert result.returncode == 0, result.stderr
    return Imported(root / "data", new_said, imported_at)


def cli_json(imported: Imported, *args: str) -> Any:
    result = run_cli(imported.data, *args, "--json", cwd=imported.data.parent)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def by_source(facts: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {f["sourceMessageId"]: f for f in facts}


@pytest.mark.slow
def test_search_json_says_when_each_fact_was_said_and_ranks_old_ones_as_old(
    imported: Imported,
) -> None:
    found = by_source(cli_json(imported, "search", QUERY)["results"])
    old, new = found[OLD_MESSAGE], found[NEW_MESSAGE]
    assert (old["saidAt"], new["saidAt"]) == (OLD_SAID, imported.new_said)
    for fact in (old, new):  # stored by the import, whenever they were said
        assert fact["createdAt"] >= imported.imported_at
    age = (parse_iso(old["createdAt"]) - parse_iso(OLD_SAID)).days
    assert old["recencyScore"] == pytest.approx(1 / (1 + age / 45), abs=1e-3)
    assert new["recencyScore"] == pytest.approx(1 / (1 + 1 / 45), abs=1e-3)
    assert old["recencyScore"] < 0.05 < 0.95 < new["recencyScore"]


@pytest.mark.slow
def test_slice_json_facts_carry_when_they_were_said(imported: Imported) -> None:
    memory = cli_json(imported, "slice", QUERY, "--user", SARAH.id)
    assert [(f["sourceMessageId"], f["saidAt"]) for f in memory["userFacts"]] == [
        (NEW_MESSAGE, imported.new_said)
    ]
    assert by_source(memory["relevantFacts"])[OLD_MESSAGE]["saidAt"] == OLD_SAID


def test_memory_md_shows_the_day_each_fact_was_said(imported: Imported) -> None:
    snapshot = (imported.data / "journals" / GUILD_A / "MEMORY.md").read_text(encoding="utf-8")
    # each member's section: the profile, then the facts list (each line with its day)
    mike = snapshot.split(f"({MIKE.id})", 1)[1].split("\n- ", 1)[1].split("\n\n", 1)[0]
    sarah = snapshot.split(f"({SARAH.id})", 1)[1].split("\n- ", 1)[1].split("\n\n", 1)[0]
    assert "allergic to peanuts" in mike and mike.endswith(" · said 2023-05-07")
    assert "allergic to cats" in sarah and sarah.endswith(f" · said {imported.new_said[:10]}")
