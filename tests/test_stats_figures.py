"""``stats`` and ``backfill`` say what is there and what they did: stats creates nothing
and counts the facts left without vectors; backfill counts every job it ran."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bench.gen_export import write_export
from tests.helpers import add_fact, built_once, cli_env, run_cli, seed_store, stats_json

GUILD = "700000000000000001"  # bench.gen_export's


def _import(root: Path) -> None:
    write_export(root / "export.json", 200, seed=31)
    result = run_cli(root / "data", "import", str(root / "export.json"))
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def imported_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated export of 200 messages and the data directory ``memorybot import`` made
    of it, once: shared, never changed (``imported``)."""
    return built_once(tmp_path_factory, "stats-figures", _import)


@pytest.fixture
def imported(imported_once: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A data directory of the test's own with the export imported; the export."""
    return shutil.copytree(imported_once / "data", tmp_path / "data"), imported_once / "export.json"


def test_stats_on_a_data_dir_that_does_not_exist_says_so_and_creates_nothing(
    tmp_path: Path,
) -> None:
    typo = tmp_path / "dta"
    for args in (("stats",), ("stats", "--json")):
        result = run_cli(typo, *args)
        assert result.returncode == 1
        assert result.stderr == (
            f"error: no memory at {typo}: memory.db does not exist there (check --data-dir "
            "or MEMORYBOT_DATA_DIR; import an export or run the bot first)\n"
        )
        assert result.stdout == ""
    assert not typo.exists()

    empty = tmp_path / "empty"  # a folder, but no database in it
    empty.mkdir()
    assert run_cli(empty, "stats").returncode == 1
    assert list(empty.iterdir()) == []


async def test_stats_counts_facts_without_vectors_until_backfill_embeds_them(
    imported: tuple[Path, Path],
) -> None:
    data, _export = imported  # facts embedded as the import ended
    assert stats_json(data)[GUILD]["facts_without_vectors"] == 0
    table = run_cli(data, "stats")
    assert table.stdout.splitlines()[-1] == "facts without vectors: 0"

    async def stored_without_vectors(store: object) -> None:  # as a crash before embedding
        for n in range(3):
            await add_fact(store, f"80000000000000000{n}", f"Member {n} keeps bees.", guild=GUILD)

    await seed_store(data / "memory.db", stored_without_vectors)
    assert stats_json(data)[GUILD]["facts_without_vectors"] == 3
    table = run_cli(data, "stats")
    assert table.stdout.splitlines()[-1] == (
        "facts without vectors: 3 (memorybot backfill --embeddings embeds them)"
    )

    backfill = run_cli(data, "backfill", "--embeddings", "--json")
    assert json.loads(backfill.stdout) == {"guilds": 1, "requeued": 3, "failed": 0}
    assert stats_json(data)[GUILD]["facts_without_vectors"] == 0


def test_backfill_extraction_counts_the_jobs_an_earlier_run_left_pending(tmp_path: Path) -> None:
    data = tmp_path / "data"
    export = tmp_path / "export.json"
    write_export(export, 300, seed=32)
    deferred = run_cli(
        data, "import", "--defer", str(export), env=cli_env(MEMORYBOT_DRAIN_TIMEOUT="0")
    )
    assert deferred.returncode == 0, deferred.stderr
    pending = stats_json(data)[GUILD]["pending_jobs"]
    assert pending > 0

    backfill = run_cli(data, "backfill", "--extraction")
    assert backfill.returncode == 0, backfill.stderr
    assert backfill.stdout.strip() == (
        f"re-ran extraction of {pending} message(s) in 1 guild(s); 0 job(s) failed "
        "(see memorybot stats)"
    )
    assert stats_json(data)[GUILD]["pending_jobs"] == 0


async def test_stats_shows_members_whose_imported_facts_wait_to_be_judged(
    imported: tuple[Path, Path],
) -> None:
    """An import killed before its queue was idle leaves members to judge: stats says how
    many, and the next import judges them."""
    from memory.extraction.lore import Origin
    from memory.lifecycle.judge import FactJudge
    from memory.models import CandidateFact
    from memory.storage.placing import Lifecycle

    data, export = imported
    assert stats_json(data)[GUILD]["members_to_judge"] == 0

    async def stored_unjudged(store: Any) -> None:  # an import's step, then kill -9
        store.lifecycle = Lifecycle(judge=FactJudge())  # as memory sets it up by default
        for n in range(2):
            fact = CandidateFact(f"80000000000000000{n}", f"Member {n} keeps bees.", "profile",
                                 0.9, "i keep bees", "")  # fmt: skip
            origin = Origin(GUILD, "", "2026-11-01T12:00:00.000+00:00")
            await store.finish_jobs([], [], [(origin, fact)], judge_later=True)

    await seed_store(data / "memory.db", stored_unjudged)
    assert stats_json(data)[GUILD]["members_to_judge"] == 2
    lines = run_cli(data, "stats").stdout.splitlines()
    assert lines[-2] == (
        "members whose imported facts wait to be judged: 2 (the next memorybot run, import or "
        "backfill judges them once its queue is idle)"
    )
    assert run_cli(data, "import", str(export)).returncode == 0  # nothing new, judged
    assert stats_json(data)[GUILD]["members_to_judge"] == 0
