"""Daily-log lines are written exactly once, eventually, whatever failed in between, and
``refresh-journals`` finds the ones missing by the messages table (DESIGN "Journals")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.gen_export import write_export
from memory.storage.store import Store
from memory_journals.daily import format_line
from memory_journals.files import DATE_FILE, guild_dir
from tests.helpers import MEMORYBOT, cli_env, export_message, run_cli
from tests.helpers import write_export as write_messages
from tests.mounts import in_namespace

GUILD = "700000000000000001"  # bench.gen_export's

# Binds the journals folder read-only over itself, imports, and makes it writable again once
# every message of the export is stored (the import then waits for its daily-log lines).
READ_ONLY_FOR_A_WHILE = """
journals = ARGS["journals"]
subprocess.run(["mount", "--bind", "-o", "ro", journals, journals], check=True)
import threading
outcome = {}
worker = threading.Thread(target=lambda: outcome.update(run(ARGS["argv"], ARGS["env"], 180)))
worker.start()
deadline = time.monotonic() + 120
while worker.is_alive() and time.monotonic() < deadline:
    if count(ARGS["db"]) >= ARGS["stored"]:
        break
    time.sleep(0.1)
stored_while_read_only = count(ARGS["db"])
subprocess.run(["umount", journals], check=True)
worker.join()
print(json.dumps({**outcome, "stored_while_read_only": stored_while_read_only}))
"""


async def stored_lines(db: Path, journals: Path) -> dict[Path, Counter[str]]:
    """Per daily log, the line each stored message should have there (one each)."""
    expected: dict[Path, Counter[str]] = {}
    async with await Store.open(db) as store:
        after = 0
        while page := await store.messages_after(after, 5000):
            after = page[-1].row_id
            for message in page:
                path = guild_dir(journals, message.guild_id) / f"{message.created_at[:10]}.md"
                expected.setdefault(path, Counter())[format_line(message)] += 1
    return expected


def written_lines(journals: Path) -> dict[Path, Counter[str]]:
    """Per daily log, its message lines."""
    found: dict[Path, Counter[str]] = {}
    for path in journals.rglob("*.md"):
        if DATE_FILE.match(path.name):
            with open(path, encoding="utf-8", newline="\n") as handle:
                found[path] = Counter(line for line in handle if line.startswith("- "))
    return found


async def assert_one_line_per_message(data: Path) -> int:
    expected = await stored_lines(data / "memory.db", data / "journals")
    assert written_lines(data / "journals") == expected
    return sum(sum(c.values()) for c in expected.values())


async def test_lines_of_an_import_while_the_journals_were_read_only_are_written_once(
    tmp_path: Path,
) -> None:
    export = tmp_path / "export.json"
    write_export(export, 6000, seed=11)
    data = tmp_path / "data"
    (data / "journals").mkdir(parents=True)
    outcome = in_namespace(
        READ_ONLY_FOR_A_WHILE,
        {
            "journals": str(data / "journals"),
            "db": str(data / "memory.db"),
            "stored": 6000,
            "argv": [str(MEMORYBOT), "--data-dir", str(data), "import", str(export)],
            "env": cli_env(),  # offline extraction: messages are stored over several seconds
        },
    )
    assert outcome["code"] == 0, outcome["stderr"]
    assert outcome["stored_while_read_only"] == 6000  # every line was refused at first
    assert await assert_one_line_per_message(data) == 6000
    assert "Traceback" not in outcome["stderr"]  # a line of warning, not one per retry

    again = run_cli(data, "refresh-journals")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("wrote 0 missing daily-log line(s);")


async def test_refresh_journals_writes_the_lines_missing_from_the_logs(tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    write_export(export, 3000, seed=12)
    data = tmp_path / "data"
    imported = run_cli(data, "import", str(export), env=cli_env(MEMORYBOT_EXTRACTOR="none"))
    assert imported.returncode == 0, imported.stderr
    (log,) = [p for p in (data / "journals" / GUILD).iterdir() if DATE_FILE.match(p.name)]
    # Lines cut out of the log (the journal cursor is past all of them) …
    lines = log.read_text().splitlines(keepends=True)
    message_lines = [n for n, line in enumerate(lines) if line.startswith("- ")]
    cut = set(message_lines[1::3])
    log.write_text("".join(line for n, line in enumerate(lines) if n not in cut))
    refreshed = run_cli(data, "refresh-journals")
    assert refreshed.returncode == 0, refreshed.stderr
    assert refreshed.stdout.startswith(f"wrote {len(cut)} missing daily-log line(s);")
    assert await assert_one_line_per_message(data) == 3000

    # … its last line torn in half (a write cut short by a power loss) …
    text = log.read_text()
    last = text.rstrip("\n").rsplit("\n", 1)[1]
    log.write_text(text[: len(text) - len(last) // 2 - 1])
    refreshed = run_cli(data, "refresh-journals")
    assert refreshed.stdout.startswith("wrote 1 missing daily-log line(s);")
    assert await assert_one_line_per_message(data) == 3000  # whole again, no fragment left
    assert log.read_text().endswith(last + "\n")

    # … and the log deleted.
    log.unlink()
    refreshed = run_cli(data, "refresh-journals")
    assert refreshed.stdout.startswith("wrote 3000 missing daily-log line(s);")
    assert log.read_text().startswith(f"# Daily Memory Log {log.stem}\n\n- ")
    assert await assert_one_line_per_message(data) == 3000

    again = run_cli(data, "refresh-journals")
    assert again.stdout.startswith("wrote 0 missing daily-log line(s);")
    assert await assert_one_line_per_message(data) == 3000


def test_refresh_journals_writes_a_line_for_each_of_two_messages_that_read_the_same(
    tmp_path: Path,
) -> None:
    """Two messages can make the same line (same author, channel, time and text): each has
    its line, and the one missing is found although the other's is there."""
    same = "2026-03-01T10:00:00.000+00:00"
    export = write_messages(
        tmp_path / "twins.json",
        [export_message(n, "we meet at the docks tonight", timestamp=same) for n in (1, 2)]
        + [export_message(3, "bring the lantern please")],
    )
    data = tmp_path / "data"
    imported = run_cli(data, "import", str(export), env=cli_env(MEMORYBOT_EXTRACTOR="none"))
    assert imported.returncode == 0, imported.stderr
    (log,) = [p for p in data.rglob("2026-03-01.md")]
    lines = log.read_text().splitlines(keepends=True)
    twins = [line for line in lines if "docks" in line]
    assert len(twins) == 2 and twins[0] == twins[1]
    lines.remove(twins[0])
    log.write_text("".join(lines))

    refreshed = run_cli(data, "refresh-journals")
    assert refreshed.stdout.startswith("wrote 1 missing daily-log line(s);"), refreshed.stdout
    assert sum("docks" in line for line in log.read_text().splitlines()) == 2
