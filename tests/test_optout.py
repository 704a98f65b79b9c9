"""Opting out of memory sticks: a member who opts out is forgotten, and nothing they write is
stored again — live or imported — across restarts, re-imports and ``forget``, until they opt
in (issue 19, item 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.runtime import open_memory
from memory.settings import load_settings
from tests.helpers import (
    GUILD_A,
    MIKE,
    SARAH,
    export_id,
    export_message,
    item,
    run_cli,
    write_export,
)

pytestmark = pytest.mark.usefixtures("each_backend")  # on SQLite and PostgreSQL


async def stored_texts(data_dir: Path) -> list[str]:
    async with open_memory(load_settings(data_dir=data_dir), start_queue=False) as memory:
        return [m.content for m in await memory.recent_messages(GUILD_A, item(0).channel_id, 50)]


async def test_an_opted_out_member_is_forgotten_and_not_remembered_again(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data")
    async with open_memory(settings) as memory:
        assert await (await memory.ingest(item(1, "i'm a nurse at the children's hospital")))
        await memory.ingest(item(2, "i play bass in a ska band", author=MIKE))
        await memory.join()
        forgot = await memory.opt_out(GUILD_A, SARAH.id)
        assert (forgot.messages, forgot.facts) == (1, 1)
        handle = await memory.ingest(item(3, "i just adopted a corgi named Biscuit"))
        assert (handle.stored, await handle) == (False, False)
        await memory.join()
        assert await memory.opted_out(GUILD_A, SARAH.id)
        assert not await memory.opted_out("222222222222222222", SARAH.id)  # this guild only
    assert await stored_texts(tmp_path / "data") == ["i play bass in a ska band"]

    # a restart and a forget keep the choice
    async with open_memory(settings) as memory:
        await memory.forget_member(GUILD_A, SARAH.id)
        await memory.ingest(item(4, "my corgi Biscuit hates the vacuum"))
        await memory.join()
        assert [f.subject for f in await memory.active_facts(GUILD_A)] == [MIKE.id]
        assert await memory.opt_in(GUILD_A, SARAH.id) is True
        assert await memory.opt_in(GUILD_A, SARAH.id) is False  # not opted out any more
        assert await (await memory.ingest(item(5, "i'm back and i still love pottery")))
        await memory.join()
    assert await stored_texts(tmp_path / "data") == [
        "i play bass in a ska band", "i'm back and i still love pottery",
    ]  # fmt: skip


@pytest.mark.slow
def test_the_operator_command_and_a_reimport(tmp_path: Path) -> None:
    data = tmp_path / "data"
    export = write_export(tmp_path / "export.json", [
        export_message(1, "i'm a nurse at the children's hospital"),
        export_message(2, "i play bass in a ska band", author=MIKE),
        export_message(3, "my corgi Biscuit hates the vacuum"),
    ])  # fmt: skip
    assert run_cli(data, "import", str(export)).returncode == 0
    out = run_cli(data, "optout", "--guild", GUILD_A, "--user", SARAH.id, "--json")
    assert out.returncode == 0, out.stderr
    outcome = json.loads(out.stdout)
    assert (outcome["optedOut"], outcome["messages"]) == (True, 2)
    assert outcome["messageIds"] == [export_id(1), export_id(3)]

    again = run_cli(data, "import", "--json", str(export))
    summary = json.loads(again.stdout)
    assert (summary["new"], summary["skippedByReason"]["opted out"]) == (0, 2)
    daily = "".join(p.read_text() for p in (data / "journals" / GUILD_A).glob("*-*-*.md"))
    assert "nurse" not in daily and "Biscuit" not in daily and "ska band" in daily

    bad = run_cli(data, "optout", "--guild", GUILD_A, "--user", "sarah")
    assert bad.returncode == 2 and "not a Discord id" in bad.stderr
    back = run_cli(data, "optout", "--guild", GUILD_A, "--user", SARAH.id, "--undo")
    assert back.returncode == 0 and "remembered again" in back.stdout
    third = json.loads(run_cli(data, "import", "--json", str(export)).stdout)
    assert third["new"] == 2 and "opted out" not in third["skippedByReason"]


async def test_an_import_skips_what_memory_may_not_keep(tmp_path: Path) -> None:
    """MEMORYBOT_IGNORE_CHANNELS and an opted-out member: their messages are skipped by an
    import, and counted."""
    from bot.commands_ingest import run_import

    other = "111111111111111199"
    export = write_export(tmp_path / "a.json", [
        export_message(1, "i'm a nurse at the children's hospital"),
        export_message(2, "i play bass in a ska band", author=MIKE),
    ])  # fmt: skip
    ignored = write_export(tmp_path / "b.json", [export_message(3, "the secret hideout is here")],
                           channel_id=other)  # fmt: skip
    settings = load_settings(data_dir=tmp_path / "data", ignore_channels=other)
    async with open_memory(settings) as memory:
        await memory.opt_out(GUILD_A, MIKE.id)
    summary, errors = await run_import(settings, [export, ignored], quiet=True)
    assert errors == [] and summary.new == 1
    assert (summary.skipped["opted out"], summary.skipped["ignored channel"]) == (1, 1)
    assert await stored_texts(tmp_path / "data") == ["i'm a nurse at the children's hospital"]
