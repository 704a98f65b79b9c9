"""Importing DiscordChatExporter exports (DESIGN "Ingest": streamed, idempotent, counted)."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import signal
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bench.gen_export import write_export as write_export_of_size
from bot.commands_ingest import IMPORT_GC_THRESHOLD, fewer_collections
from memory.errors import ExportError, NotAnExportError
from memory.imports.importer import ExportImporter, ImportSummary, find_export_files
from memory.imports.reader import read_batches
from memory.ingest import IngestQueue
from memory.models import Author
from memory.storage.db import connect_sync
from memory.storage.store import Store
from memory_journals import Journals
from tests.conftest import SAMPLE_EXPORT
from tests.helpers import (
    CHANNEL_A,
    GUILD_A,
    GUILD_B,
    MIKE,
    SARAH,
    export_id,
    export_message,
    write_export,
)

SAMPLE_GUILD = "584822070181888001"
GEN_GUILD = "700000000000000001"
HELPER_BOT = Author("400000000000000001", "HelperBot", "helperbot")
KEPT_TYPES = ("Default", "Reply")


def query(data_dir: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows as they are on disk, read through a connection of our own."""
    conn = connect_sync(data_dir / "memory.db")
    try:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def message_rows(data_dir: Path, guild_id: str | None = None) -> list[tuple[Any, ...]]:
    """Every message row (of one guild, or of all), in insertion order."""
    rows = query(
        data_dir,
        "SELECT guild_id, channel_id, message_id, author_id, author_name, content, source, "
        "created_at FROM messages ORDER BY id",
    )
    return [row for row in rows if guild_id is None or row[0] == guild_id]


def member_rows(data_dir: Path, guild_id: str) -> list[tuple[Any, ...]]:
    return query(
        data_dir,
        "SELECT user_id, display_name, username FROM members WHERE guild_id = ? ORDER BY user_id",
        (guild_id,),
    )


def daily_logs(data_dir: Path, guild_id: str) -> dict[str, str]:
    folder = data_dir / "journals" / guild_id
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("????-??-??.md"))}


def log_entries(data_dir: Path, guild_id: str) -> list[str]:
    return [
        line
        for text in daily_logs(data_dir, guild_id).values()
        for line in text.split("\n")
        if line.startswith("- ")
    ]


async def import_file(queue: IngestQueue, path: Path, **options: Any) -> ImportSummary:
    importer = ExportImporter(queue, **options)
    await importer.import_file(path)
    await queue.join()
    return importer.summary


async def import_broken(
    queue: IngestQueue, path: Path, **options: Any
) -> tuple[ImportSummary, ExportError]:
    importer = ExportImporter(queue, **options)
    with pytest.raises(ExportError) as caught:
        await importer.import_file(path)
    await queue.join()
    return importer.summary, caught.value


@asynccontextmanager
async def runtime(data_dir: Path) -> AsyncIterator[IngestQueue]:
    """A store, journals and a running queue of their own in ``data_dir`` (which exists)."""
    store = await Store.open(data_dir / "memory.db")
    journals = Journals(data_dir / "journals", store, debounce=0.05, refresh_interval=3600)
    await journals.start()
    queue = IngestQueue(store, journal=journals)
    await queue.start()
    try:
        yield queue
    finally:
        await queue.close()
        await journals.close()
        await store.close()


def expected_from_export(doc: dict[str, Any]) -> tuple[list[str], dict[str, int]]:
    """Ids of the messages people wrote, and why the others are skipped."""
    kept: list[str] = []
    skipped: Counter[str] = Counter()
    for message in doc["messages"]:
        if message["author"].get("isBot"):
            skipped["bot"] += 1
        elif message.get("type") not in KEPT_TYPES:
            skipped["system"] += 1
        elif len(" ".join(message["content"].split())) < 2:
            skipped["empty"] += 1
        else:
            kept.append(message["id"])
    return kept, dict(skipped)


def cut_inside_message(source: Path, target: Path, message_id: str) -> tuple[int, int]:
    """Copy ``source`` cut a few bytes into the message ``message_id``.

    Returns where that message's id starts and the size of the cut file.
    """
    raw = source.read_bytes()
    start = raw.index(f'"id": "{message_id}"'.encode())
    target.write_bytes(raw[: start + 12])
    return start, start + 12


def near_byte(error: ExportError) -> int:
    match = re.search(r"near byte ([\d,]+)", str(error))
    assert match, str(error)
    return int(match.group(1).replace(",", ""))


# --- the sample export --------------------------------------------------------------------


async def test_sample_export_counts_are_consistent_with_the_file(
    queue: IngestQueue, store: Store, data_dir: Path
) -> None:
    doc = json.loads(SAMPLE_EXPORT.read_text(encoding="utf-8"))
    kept, skipped = expected_from_export(doc)
    assert (len(doc["messages"]), len(kept), skipped) == (
        390,
        377,
        {"bot": 4, "system": 3, "empty": 6},
    )

    summary = await import_file(queue, SAMPLE_EXPORT)

    assert summary.as_dict() == {
        "files": 1,
        "notExports": [],
        "read": 390,
        "new": 377,
        "skipped": 13,
        "skippedByReason": {"bot": 4, "empty": 6, "system": 3},
        "queued": 377,
        "repaired": 0,
        "guilds": [SAMPLE_GUILD],
        "notes": [],
        "extracted": 0,  # counted once the queue has processed them (count_extractions)
        "extractionFailed": 0,
    }
    assert await store.count_messages(SAMPLE_GUILD) == 377
    assert [row[2] for row in message_rows(data_dir)] == kept
    assert {row[6] for row in message_rows(data_dir)} == {"import"}
    assert len(log_entries(data_dir, SAMPLE_GUILD)) == 377


async def test_sample_export_records_nicknames_of_authors_and_mentioned_members(
    queue: IngestQueue, store: Store
) -> None:
    await import_file(queue, SAMPLE_EXPORT)
    assert await store.member_names(SAMPLE_GUILD) == {
        "375641455198208005": "Dmitri",
        "425929742483456003": "Sarah",
        "484693317255168008": "Ren",
        "538903610130432007": "Mike",
        "697861364776960006": "Priya",
        "887458518532096004": "Kai",
        "975780364419072009": "Juliette",
        "1561527073112064010": "void",
    }  # DiceBot (676729140019200011) only wrote bot messages: not a member
    assert await store.guild_name(SAMPLE_GUILD) == "Tabletop Tavern"


async def test_importing_the_sample_again_adds_nothing(
    queue: IngestQueue, store: Store, data_dir: Path
) -> None:
    first = await import_file(queue, SAMPLE_EXPORT)
    rows, logs = message_rows(data_dir), daily_logs(data_dir, SAMPLE_GUILD)

    again = await import_file(queue, SAMPLE_EXPORT)

    assert again.new == 0
    assert again.read == first.read
    assert again.skipped == {"bot": 4, "system": 3, "empty": 6, "already stored": first.new}
    assert message_rows(data_dir) == rows
    assert daily_logs(data_dir, SAMPLE_GUILD) == logs
    assert await store.count_messages(SAMPLE_GUILD) == first.new


# --- the reader child process -------------------------------------------------------------


async def test_a_child_reader_imports_exactly_what_the_in_process_reader_does(
    tmp_path: Path,
) -> None:
    export = tmp_path / "gen.json"
    write_export_of_size(export, 1234, guild_id=GEN_GUILD, seed=5)
    results = {}
    for use_child in (False, True):
        data_dir = tmp_path / f"data-child-{use_child}"
        data_dir.mkdir()
        async with runtime(data_dir) as queue:
            summary = await import_file(queue, export, use_child=use_child)
        results[use_child] = (
            summary.as_dict(),
            message_rows(data_dir),
            member_rows(data_dir, GEN_GUILD),
            daily_logs(data_dir, GEN_GUILD),
        )
    in_process, child = results[False], results[True]
    assert in_process[0]["new"] == in_process[0]["read"] == 1234
    assert len(in_process[1]) == 1234
    assert len(in_process[2]) == 40
    assert child == in_process


def reader_children() -> list[int]:
    """Pids of this process's live export-reader children (zombies are not alive)."""
    pids: list[int] = []
    for task in Path("/proc/self/task").iterdir():
        pids += [int(p) for p in (task / "children").read_text().split()]
    alive = []
    for pid in pids:
        with contextlib.suppress(FileNotFoundError):
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if stat.rsplit(")", 1)[1].split()[0] != "Z" and b"memory.imports.child" in cmdline:
                alive.append(pid)
    return alive


async def test_a_reader_left_early_stops_its_child_at_once(tmp_path: Path) -> None:
    """A consumer that stops after the first batch (an error while storing it) while the
    child is still parsing: the child is stopped and the generator closes promptly."""
    export = tmp_path / "gen.json"
    write_export_of_size(export, 5000, guild_id=GEN_GUILD, seed=3)
    reader = read_batches(export, 100, use_child=True)
    first = await anext(reader)
    assert len(first.rows) == 100
    assert len(reader_children()) == 1
    started = time.monotonic()
    await reader.aclose()
    assert time.monotonic() - started < 3
    assert reader_children() == []


@pytest.mark.slow
async def test_a_child_reader_that_dies_is_an_error_naming_the_file(tmp_path: Path) -> None:
    """The child killed from outside half-way: the batches before are kept, then one
    clear error, not a hang."""
    export = tmp_path / "gen.json"
    write_export_of_size(export, 20000, guild_id=GEN_GUILD, seed=4)
    reader = read_batches(export, 100, use_child=True)
    first = await anext(reader)
    assert len(first.rows) == 100
    (pid,) = reader_children()
    os.kill(pid, signal.SIGKILL)
    received = 1
    with pytest.raises(ExportError, match=r"gen\.json: the export reader stopped unexpectedly"):
        async for _ in reader:  # what was already in the pipe still arrives
            received += 1
    assert received < 200
    assert reader_children() == []


# --- broken files -------------------------------------------------------------------------


@pytest.mark.parametrize("use_child", [False, True], ids=["in-process", "child"])
async def test_a_truncated_export_keeps_every_message_before_the_cut(
    queue: IngestQueue, store: Store, data_dir: Path, tmp_path: Path, use_child: bool
) -> None:
    numbers = range(5000, 5400)
    ids = [export_id(n) for n in numbers]
    full = write_export(
        tmp_path / "full.json", [export_message(n, f"message number {n}") for n in numbers]
    )
    complete = 347  # not a multiple of any batch size: the last partial batch counts too
    cut = tmp_path / "cut.json"
    last_start, cut_size = cut_inside_message(full, cut, ids[complete])

    summary, error = await import_broken(queue, cut, use_child=use_child)

    assert not isinstance(error, NotAnExportError)  # inside a folder it must not be skipped
    assert str(error).startswith(f"{cut}: JSON breaks after message #{complete} (id {ids[346]})")
    assert ", near byte " in str(error)
    assert last_start < near_byte(error) <= cut_size
    assert (summary.read, summary.new) == (complete, complete)
    assert [row[2] for row in message_rows(data_dir)] == ids[:complete]
    assert await store.count_messages(GUILD_A) == complete
    assert len(log_entries(data_dir, GUILD_A)) == complete


@pytest.mark.parametrize("use_child", [False, True], ids=["in-process", "child"])
async def test_an_export_cut_before_its_first_message_says_so(
    queue: IngestQueue, store: Store, tmp_path: Path, use_child: bool
) -> None:
    full = write_export(tmp_path / "full.json", [export_message(5000, "the only message")])
    cut = tmp_path / "cut.json"
    cut_inside_message(full, cut, export_id(5000))

    _, error = await import_broken(queue, cut, use_child=use_child)

    assert not isinstance(error, NotAnExportError)
    assert str(error).startswith(f"{cut}: JSON breaks before the first message, near byte ")
    assert await store.count_messages(GUILD_A) == 0


async def test_garbage_in_the_middle_keeps_every_message_before_it(
    queue: IngestQueue, store: Store, data_dir: Path, tmp_path: Path
) -> None:
    numbers = range(5000, 5100)
    ids = [export_id(n) for n in numbers]
    path = write_export(
        tmp_path / "bad.json", [export_message(n, f"message number {n}") for n in numbers]
    )
    raw = path.read_bytes()
    fault = raw.index(f'"id": "{export_id(5060)}"'.encode())
    path.write_bytes(raw[:fault] + b"@@not json@@" + raw[fault:])

    summary, error = await import_broken(queue, path)

    broke = f"{path}: JSON breaks after message #60 (id {ids[59]}), near byte "
    assert str(error).startswith(broke)
    assert summary.new == 60
    assert [row[2] for row in message_rows(data_dir)] == ids[:60]


@pytest.mark.parametrize(
    "content",
    [
        pytest.param('{"foo": 1}', id="object-without-guild"),
        pytest.param("[1, 2, 3]", id="json-list"),
        pytest.param('{"guild": "x", "channel": "y", "messages": []}', id="guild-not-object"),
    ],
)
async def test_json_that_is_not_an_export_is_reported_as_such(
    queue: IngestQueue, store: Store, tmp_path: Path, content: str
) -> None:
    path = tmp_path / "other.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(NotAnExportError) as caught:
        await ExportImporter(queue).import_file(path)
    assert str(caught.value) == (
        f"{path}: not a DiscordChatExporter JSON export (no 'guild' and 'channel' objects)"
    )
    assert await store.guild_ids() == []


async def test_an_export_header_without_messages_is_not_an_export(
    queue: IngestQueue, store: Store, tmp_path: Path
) -> None:
    path = tmp_path / "header-only.json"
    path.write_text(
        json.dumps({"guild": {"id": GUILD_A, "name": "x"}, "channel": {"id": CHANNEL_A}}),
        encoding="utf-8",
    )
    with pytest.raises(NotAnExportError) as caught:
        await ExportImporter(queue).import_file(path)
    assert str(caught.value) == (
        f"{path}: not a DiscordChatExporter JSON export (no 'messages' list)"
    )
    assert await store.count_messages(GUILD_A) == 0


async def test_a_file_that_is_not_json_is_a_clear_export_error(
    queue: IngestQueue, tmp_path: Path
) -> None:
    path = tmp_path / "notes.json"
    path.write_text("these are my notes, not JSON at all\n", encoding="utf-8")
    with pytest.raises(ExportError) as caught:
        await ExportImporter(queue).import_file(path)
    assert str(caught.value).startswith(f"{path}: not valid JSON: ")


async def test_a_missing_file_is_an_export_error(queue: IngestQueue, tmp_path: Path) -> None:
    path = tmp_path / "gone.json"
    with pytest.raises(ExportError) as caught:
        await ExportImporter(queue).import_file(path)
    assert not isinstance(caught.value, NotAnExportError)
    assert str(caught.value) == f"{path}: cannot read: No such file or directory"


@pytest.mark.parametrize(
    ("guild_id", "channel_id", "what"),
    [
        pytest.param("not-a-number", CHANNEL_A, "guild.id", id="words"),
        pytest.param("../../etc", CHANNEL_A, "guild.id", id="path"),
        pytest.param("", CHANNEL_A, "guild.id", id="empty"),
        pytest.param("1" * 21, CHANNEL_A, "guild.id", id="too-long"),
        pytest.param("12 34", CHANNEL_A, "guild.id", id="space"),
        pytest.param("١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨", CHANNEL_A, "guild.id", id="arabic-indic-digits"),
        pytest.param(GUILD_A, "general", "channel.id", id="channel-name"),
    ],
)
@pytest.mark.slow
async def test_ids_in_the_header_that_are_not_snowflakes_are_refused(
    queue: IngestQueue,
    store: Store,
    data_dir: Path,
    tmp_path: Path,
    guild_id: str,
    channel_id: str,
    what: str,
) -> None:
    path = write_export(
        tmp_path / "odd.json",
        [export_message(5000, "a perfectly fine message")],
        guild_id=guild_id,
        channel_id=channel_id,
    )
    with pytest.raises(ExportError) as caught:
        await ExportImporter(queue).import_file(path)
    assert str(caught.value).startswith(f"{path}: {what} is not a Discord id: ")
    assert await store.guild_ids() == []
    assert query(data_dir, "SELECT COUNT(*) FROM messages") == [(0,)]


def test_find_export_files_walks_folders_recursively_in_sorted_order(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    for name in ("b.json", "a.json", "sub/c.json", "sub/deeper/d.json", "notes.txt"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("{}", encoding="utf-8")
    (folder / "dir.json").mkdir()  # a folder named like a file is not a file
    named = tmp_path / "z-named.json"
    named.write_text("{}", encoding="utf-8")

    assert find_export_files([named, folder]) == [
        (named, True),
        (folder / "a.json", False),
        (folder / "b.json", False),
        (folder / "sub" / "c.json", False),
        (folder / "sub" / "deeper" / "d.json", False),
    ]


def test_find_export_files_refuses_a_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ExportError) as caught:
        find_export_files([tmp_path / "nowhere"])
    assert str(caught.value) == f"{tmp_path / 'nowhere'}: no such file or folder"


async def test_a_folder_with_an_export_and_another_json_yields_both_and_imports_the_export(
    queue: IngestQueue, store: Store, tmp_path: Path
) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "a-settings.json").write_text('{"theme": "dark"}', encoding="utf-8")
    write_export(folder / "b-general.json", [export_message(5000, "hello from the export")])

    found = find_export_files([folder])

    assert found == [(folder / "a-settings.json", False), (folder / "b-general.json", False)]
    importer = ExportImporter(queue)
    with pytest.raises(NotAnExportError):
        await importer.import_file(found[0][0])
    await importer.import_file(found[1][0])
    await queue.join()
    assert (importer.summary.files, importer.summary.new) == (1, 1)
    assert await store.count_messages(GUILD_A) == 1


# --- messages inside a valid export -------------------------------------------------------


async def test_malformed_messages_are_skipped_as_invalid_and_the_rest_is_stored(
    queue: IngestQueue, data_dir: Path, tmp_path: Path
) -> None:
    def broken(message_id: int, **changes: Any) -> dict[str, Any]:
        message = export_message(message_id, f"broken message {message_id}")
        for key, value in changes.items():
            if value is None:
                del message[key]
            else:
                message[key] = value
        return message

    messages: list[Any] = [
        export_message(5001, "the first good message"),
        broken(5002, id=None),
        broken(5003, id="not-a-snowflake"),
        broken(5004, author=None),
        broken(5005, author={"name": "nobody", "nickname": "Nobody"}),
        broken(5006, timestamp="yesterday at noon"),
        broken(5007, timestamp=None),
        42,
        export_message(5009, "the second good message", author=MIKE),
        broken(5010, id="٥٠١٠"),  # digits, but not ASCII ones
        broken(5011, timestamp="2026-02-30T10:00:00.000+00:00"),  # no such day
        broken(5012, timestamp="2026-13-01T10:00:00.000+00:00"),
        broken(5013, timestamp="٢٠٢٦-01-01T10:00:00.000+00:00"),
    ]
    summary = await import_file(queue, write_export(tmp_path / "mixed.json", messages))

    assert (summary.read, summary.new, summary.skipped) == (13, 2, {"invalid": 11})
    assert message_rows(data_dir) == [
        (
            GUILD_A,
            CHANNEL_A,
            export_id(5001),
            SARAH.id,
            "Sarah",
            "the first good message",
            "import",
            "2026-10-12T18:03:11.123+00:00",
        ),
        (
            GUILD_A,
            CHANNEL_A,
            export_id(5009),
            MIKE.id,
            "Mike",
            "the second good message",
            "import",
            "2026-10-12T18:03:11.123+00:00",
        ),
    ]


async def test_mentioned_people_become_members_but_mentioned_bots_do_not(
    queue: IngestQueue, store: Store, tmp_path: Path
) -> None:
    message = export_message(5001, "hey @Mike and @HelperBot and @plain", mentions=[MIKE])
    message["mentions"] += [
        {"id": HELPER_BOT.id, "name": "helperbot", "nickname": "HelperBot", "isBot": True},
        {"id": "300000000000000007", "name": "plain.name", "nickname": None, "isBot": False},
        {"id": "not-an-id", "name": "ghost", "nickname": "Ghost", "isBot": False},
    ]
    await import_file(queue, write_export(tmp_path / "mentions.json", [message]))
    assert await store.member_names(GUILD_A) == {
        SARAH.id: "Sarah",
        MIKE.id: "Mike",
        "300000000000000007": "plain.name",
    }


# --- guild isolation ----------------------------------------------------------------------


async def test_importing_another_guild_never_changes_the_first_guilds_rows(
    queue: IngestQueue, store: Store, data_dir: Path, tmp_path: Path
) -> None:
    ids = (6001, 6002, 6003)
    export_a = write_export(
        tmp_path / "a.json", [export_message(i, f"alpha says {i}") for i in ids], guild_id=GUILD_A
    )
    sally = Author(SARAH.id, "Sally", "sally.b")  # same person, another nickname in guild B
    export_b = write_export(
        tmp_path / "b.json",
        [export_message(i, f"beta says {i}", author=sally) for i in ids],
        guild_id=GUILD_B,
        guild_name="Other Guild",
    )
    await import_file(queue, export_a)
    rows_a, members_a, logs_a = (
        message_rows(data_dir, GUILD_A),
        member_rows(data_dir, GUILD_A),
        daily_logs(data_dir, GUILD_A),
    )

    summary_b = await import_file(queue, export_b)

    assert summary_b.new == 3  # same message ids, other guild: new messages
    assert message_rows(data_dir, GUILD_A) == rows_a
    assert member_rows(data_dir, GUILD_A) == members_a == [(SARAH.id, "Sarah", "sarahb")]
    assert daily_logs(data_dir, GUILD_A) == logs_a
    assert await store.guild_name(GUILD_A) == "Test Guild"
    assert await store.member_names(GUILD_B) == {SARAH.id: "Sally"}
    assert [row[5] for row in message_rows(data_dir, GUILD_B)] == [f"beta says {i}" for i in ids]


async def test_import_paths_skips_non_exports_in_folders_but_not_named_ones(
    queue: IngestQueue, store: Store, tmp_path: Path
) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    good = folder / "a.json"
    good.write_text(SAMPLE_EXPORT.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "b-questions.json").write_text('{"questions": []}', encoding="utf-8")
    named = tmp_path / "named.json"
    named.write_text("[1, 2, 3]", encoding="utf-8")
    importer = ExportImporter(queue)
    errors = await importer.import_paths([folder, named])
    assert importer.summary.not_exports == [str(folder / "b-questions.json")]
    assert len(errors) == 1 and errors[0].startswith(f"{named}: ")
    assert importer.summary.files == 1


async def test_a_header_only_file_leaves_no_guild_behind(
    queue: IngestQueue, store: Store, tmp_path: Path
) -> None:
    path = tmp_path / "header-only.json"
    path.write_text(
        json.dumps(
            {"guild": {"id": "123456789012345678"}, "channel": {"id": "223456789012345678"}}
        ),
        encoding="utf-8",
    )
    with pytest.raises(NotAnExportError):
        await ExportImporter(queue).import_file(path)
    assert await store.guild_ids() == []


def test_an_import_raises_the_collectors_threshold_and_restores_it_after() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError, match="the import failed"), fewer_collections():
        assert gc.get_threshold() == (max(before[0], IMPORT_GC_THRESHOLD), *before[1:])
        raise RuntimeError("the import failed")
    assert gc.get_threshold() == before
