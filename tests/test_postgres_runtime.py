"""Memory as a whole on PostgreSQL: the bundled sample export imported through the runtime
(the queue, the offline extractor, the fact lifecycle, the embedder, the journals) gives the
same memory and the same journals as on SQLite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memory.runtime import open_memory
from memory.settings import load_settings
from memory.storage.postgres.store import PostgresStore
from tests.conftest import SAMPLE_EXPORT


def _journals(data_dir: Path) -> dict[str, list[str]]:
    """Every journal file's lines but its generated line (it says when)."""
    return {
        str(path.relative_to(data_dir)): [
            line for line in path.read_text().splitlines() if "enerated" not in line
        ]
        for path in sorted((data_dir / "journals").rglob("*.md"))
    }


async def _import(data_dir: Path, store: Any = None) -> dict[str, Any]:
    """The sample export imported into ``data_dir`` (and ``store``, when given): each
    guild's figures and facts, and its journals."""
    settings = load_settings(data_dir=data_dir, notice=False)
    async with open_memory(settings, store=store) as memory:
        errors = await memory.importer().import_files([(SAMPLE_EXPORT, True)])
        assert errors == []
        await memory.settle()
        found: dict[str, Any] = {}
        for guild in await memory.guild_ids():
            stats = await memory.stats(guild)
            facts = sorted((f.subject, f.fact, f.times_seen, f.said_at)
                           for f in await memory.active_facts(guild))  # fmt: skip
            found[guild] = (stats.messages, stats.facts, stats.active_facts, facts)
    return {"memory": found, "journals": _journals(data_dir)}


async def test_an_import_gives_the_same_memory_and_journals_on_both(
    tmp_path: Path, postgres_url: str
) -> None:
    for name in ("sqlite", "postgres"):
        (tmp_path / name).mkdir(mode=0o700)
    on_sqlite = await _import(tmp_path / "sqlite")
    on_postgres = await _import(tmp_path / "postgres", await PostgresStore.open(postgres_url))
    (guild,) = on_sqlite["memory"]
    messages, _, active, _ = on_sqlite["memory"][guild]
    assert messages > 300 and active > 50 and len(on_sqlite["journals"]) > 5  # a real import
    assert on_postgres == on_sqlite
