"""A full disk stops an import within a bound, with one clear line and a non-zero exit, and
loses nothing stored; once there is space, the same import finishes it (DESIGN "CLI")."""

from __future__ import annotations

from pathlib import Path

from bench.gen_export import write_export
from tests.helpers import MEMORYBOT, cli_env, sql
from tests.mounts import in_namespace
from tests.test_journal_faults import assert_one_line_per_message

MESSAGES = 8000

# Imports onto a 4 MiB tmpfs (too small for the export), then makes it bigger and imports
# again; the data directory is copied out for the test to read.
FULL_THEN_FREED = """
import shutil
mount = ARGS["mount"]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount], check=True)
argv = [ARGS["memorybot"], "--data-dir", mount + "/data", "import", ARGS["export"]]
first = run(argv, ARGS["env"], ARGS["bound"])
stored = count(mount + "/data/memory.db")
subprocess.run(["mount", "-o", "remount,size=256m", mount], check=True)
second = run(argv, ARGS["env"], 300)
shutil.copytree(mount + "/data", ARGS["copy"])
print(json.dumps({"first": first, "stored": stored, "second": second}))
"""


async def test_an_import_onto_a_full_disk_stops_then_finishes_once_there_is_space(
    tmp_path: Path,
) -> None:
    export = tmp_path / "export.json"
    write_export(export, MESSAGES, seed=21)
    (tmp_path / "mnt").mkdir()
    copy = tmp_path / "copy"
    outcome = in_namespace(
        FULL_THEN_FREED,
        {
            "mount": str(tmp_path / "mnt"),
            "memorybot": str(MEMORYBOT),
            "export": str(export),
            "env": cli_env(),  # offline extraction: jobs, facts and journals all write
            "bound": 120,
            "copy": str(copy),
        },
    )
    first = outcome["first"]
    assert first["code"] is not None, "the import onto a full disk did not end"
    assert first["code"] == 1
    (line,) = first["stderr"].splitlines()
    assert line.startswith("error: the disk is full: cannot write the ")
    assert line.endswith("free some space there, then run the same command again "
                         "(nothing stored is lost)")  # fmt: skip
    assert 0 < outcome["stored"] < MESSAGES

    second = outcome["second"]
    assert second["code"] == 0, second["stderr"]
    assert f"new {MESSAGES - outcome['stored']}," in second["stdout"]
    db = copy / "memory.db"
    assert sql(db, "SELECT COUNT(*), COUNT(DISTINCT message_id) FROM messages") == [
        (MESSAGES, MESSAGES)
    ]
    assert sql(db, "SELECT COUNT(*) FROM ingest_jobs WHERE status = 'pending'") == [(0,)]
    assert sql(db, "SELECT journaled_through FROM journal_cursor") == sql(
        db, "SELECT MAX(id) FROM messages"
    )
    assert await assert_one_line_per_message(copy) == MESSAGES
