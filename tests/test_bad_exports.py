"""One bad value in an export stops nothing: a message whose text JSON gave a lone UTF-16
surrogate is stored repaired, one whose time is out of range is skipped, one longer than
Discord allows is stored cut — each named in one line, counted in the summary — and the rest
of the export is imported. Real exports through the CLI in subprocesses."""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

from memory.ingest import IngestQueue
from memory.text import MAX_MESSAGE_CHARS
from tests.helpers import (
    GUILD_A,
    MIKE,
    SARAH,
    export_id,
    export_message,
    item,
    run_cli,
    sql,
    write_export,
)

SURROGATE_MARK = "SURROGATE-HERE"


def _contents(data_dir: Path) -> dict[str, str]:
    rows = sql(data_dir / "memory.db", "SELECT message_id, content FROM messages")
    return {message_id: content for message_id, content in rows}


def _bad_export(path: Path, *, bom: bool) -> Path:
    messages: list[dict[str, Any]] = [
        export_message(1, "I love hiking in the alps"),
        export_message(2, f"I like {SURROGATE_MARK} green tea", author=MIKE),
        export_message(3, "I own a red bicycle", timestamp="9999-12-31T23:59:59.000-05:00"),
        export_message(4, "my first name is " + "Bartholomew " * 1000),
        export_message(5, "I play the violin every day", author=MIKE),
    ]
    write_export(path, messages)
    # The escape as an exporter writes it: json.dumps would refuse to encode the character.
    text = path.read_text(encoding="utf-8").replace(SURROGATE_MARK, "\\ud800")
    path.write_bytes((codecs.BOM_UTF8 if bom else b"") + text.encode("utf-8"))
    return path


def test_bad_messages_are_named_and_counted_and_the_rest_is_imported(
    data_dir: Path, tmp_path: Path
) -> None:
    export = _bad_export(tmp_path / "export.json", bom=True)

    first = run_cli(data_dir, "import", str(export))

    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr
    assert "read 5, new 4, skipped 1 (1 invalid), queued 4, repaired 2" in first.stdout
    warnings = [line for line in first.stderr.splitlines() if line.startswith("warning: ")]
    assert warnings == [
        f"warning: export.json: message {export_id(2)}: stored with 1 lone surrogate(s) in "
        "its text replaced with U+FFFD",
        f"warning: export.json: message {export_id(3)}: skipped: its timestamp is not a time "
        "memorybot can store: '9999-12-31T23:59:59.000-05:00'",
        f"warning: export.json: message {export_id(4)}: stored with its text (12,017 "
        f"characters) cut to {MAX_MESSAGE_CHARS:,}",
    ]
    stored = _contents(data_dir)
    assert sorted(stored) == [export_id(n) for n in (1, 2, 4, 5)]
    assert stored[export_id(2)] == "I like \ufffd green tea"
    assert stored[export_id(5)] == "I play the violin every day"
    long = stored[export_id(4)]
    assert long.startswith("my first name is Bartholomew")
    assert long.endswith(" … [truncated: 8,065 characters]")
    assert len(long) <= MAX_MESSAGE_CHARS

    again = run_cli(data_dir, "import", "--json", str(export))  # a re-run goes past them too
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert (summary["read"], summary["new"], summary["skippedByReason"]) == (
        5,
        0,
        {"already stored": 4, "invalid": 1},
    )
    assert summary["errors"] == [] and len(summary["notes"]) == 3


def test_an_export_with_a_byte_order_mark_is_read_like_one_without(
    data_dir: Path, tmp_path: Path
) -> None:
    plain = write_export(tmp_path / "plain.json", [export_message(1, "I love hiking")])
    marked = tmp_path / "marked.json"
    marked.write_bytes(codecs.BOM_UTF8 + plain.read_bytes().replace(b"hiking", b"sailing"))

    result = run_cli(data_dir, "import", str(marked))

    assert result.returncode == 0, result.stderr
    assert _contents(data_dir) == {export_id(1): "I love sailing"}


def test_a_message_of_megabytes_is_stored_cut_and_the_rest_imported(
    data_dir: Path, tmp_path: Path
) -> None:
    """Big enough that the export is parsed in a reader child process."""
    huge = "I went to the market and bought apples. " * 150_000  # 6 MB
    export = write_export(
        tmp_path / "huge.json",
        [
            export_message(1, huge),
            export_message(2, "I play the violin every day", author=MIKE),
        ],
    )
    assert export.stat().st_size > 6_000_000

    result = run_cli(data_dir, "import", str(export))

    assert result.returncode == 0, result.stderr
    assert "read 2, new 2, skipped 0 (none), queued 2, repaired 1" in result.stdout
    stored = _contents(data_dir)
    kept = stored[export_id(1)]
    assert len(kept) <= MAX_MESSAGE_CHARS
    assert kept.endswith(f" … [truncated: {len(huge) - len(kept.split(' … [')[0]):,} characters]")
    assert huge.startswith(kept.split(" … [")[0])
    assert stored[export_id(2)] == "I play the violin every day"
    journal = (data_dir / "journals" / GUILD_A / "2026-10-12.md").read_text(encoding="utf-8")
    assert "I play the violin every day" in journal


async def test_live_messages_are_repaired_and_cut_the_same_way(
    queue: IngestQueue, data_dir: Path
) -> None:
    await (await queue.submit(item(1, "I like \ud800 tea", author=SARAH)))
    await (await queue.submit(item(2, "x" * (MAX_MESSAGE_CHARS + 5))))

    stored = _contents(data_dir)
    assert stored["1"] == "I like \ufffd tea"
    assert stored["2"] == "x" * (MAX_MESSAGE_CHARS - 48) + " … [truncated: 53 characters]"
