"""Journals (DESIGN "Journals"): daily logs and MEMORY.md snapshots, on real files."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from memory.ingest import IngestQueue
from memory.models import Author, StoredMessage
from memory.storage.store import Store
from memory_journals import Journals, snapshot
from memory_journals.daily import DailyLogWriter
from tests.helpers import (
    CHANNEL_A,
    CHANNEL_B,
    GUILD_A,
    GUILD_B,
    MIKE,
    SARAH,
    RecordingExtractor,
    item,
)

TIME = "2026-10-12T18:03:11.123+00:00"
DAY = "2026-10-12"
SNAPSHOT_HEADINGS = [
    "# Durable Memory Snapshot",
    "## People (Durable Facts)",
    "## Ongoing Lore",
    "## Recent Journal Highlights",
    "## Source Daily Logs",
]


def journal_dir(data_dir: Path, guild_id: str = GUILD_A) -> Path:
    return data_dir / "journals" / guild_id


def day_file(data_dir: Path, day: str = DAY, guild_id: str = GUILD_A) -> Path:
    return journal_dir(data_dir, guild_id) / f"{day}.md"


def entries(data_dir: Path, day: str = DAY, guild_id: str = GUILD_A) -> list[str]:
    """The message lines of one daily log (header and blank line left out)."""
    lines = day_file(data_dir, day, guild_id).read_text(encoding="utf-8").split("\n")
    assert lines[:2] == [f"# Daily Memory Log {day}", ""]
    assert lines[-1] == ""  # the file ends with a newline
    return lines[2:-1]


def line(
    text: str,
    *,
    at: str = TIME,
    author: Author = SARAH,
    guild_id: str = GUILD_A,
    channel_id: str = CHANNEL_A,
) -> str:
    return f"- {at} | {author.name} ({author.id}) | [guild:{guild_id} channel:{channel_id}] {text}"


def sections(markdown: str) -> dict[str, list[str]]:
    """``#``/``##`` heading → its lines, trailing blank lines dropped."""
    out: dict[str, list[str]] = {}
    current: list[str] = []
    for text in markdown.split("\n"):
        if text.startswith("# ") or text.startswith("## "):
            current = out.setdefault(text, [])
        else:
            current.append(text)
    for body in out.values():
        while body and body[0] == "":
            body.pop(0)
        while body and body[-1] == "":
            body.pop()
    return out


def stored(row_id: int, message_id: str, content: str, *, created_at: str = TIME) -> StoredMessage:
    return StoredMessage(
        row_id, GUILD_A, CHANNEL_A, message_id, SARAH.id, SARAH.name, content, "text", created_at
    )


async def submit_all(queue: IngestQueue, *items: object) -> None:
    for one in items:
        await queue.submit(one)  # type: ignore[arg-type]
    await queue.join()


def is_file(path: Path) -> bool:
    return path.is_file()


async def wait_for(path: Path, within: float) -> None:
    """Wait until ``path`` exists; fail if it does not within ``within`` seconds."""
    deadline = time.monotonic() + within
    while not is_file(path):
        assert time.monotonic() < deadline, f"{path} never appeared"
        await asyncio.sleep(0.01)


def write_big_log(data_dir: Path, guild_id: str, lines: int = 60_000) -> None:
    """A large daily log: rendering this guild's MEMORY.md takes a while."""
    entry = line("x" * 200, guild_id=guild_id) + "\n"
    path = day_file(data_dir, guild_id=guild_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Daily Memory Log {DAY}\n\n" + entry * lines, encoding="utf-8")


def guild_line(path: Path) -> str:
    (title,) = [t for t in path.read_text(encoding="utf-8").split("\n") if t.startswith("Guild:")]
    return title.split(" · ")[0]


def generated_line(path: Path) -> str:
    (stamp,) = [t for t in path.read_text(encoding="utf-8").split("\n") if "generated" in t]
    return stamp


# --- daily logs ---------------------------------------------------------------------------


async def test_daily_log_has_its_header_and_one_documented_line_per_message(
    queue: IngestQueue, data_dir: Path
) -> None:
    await submit_all(queue, item(1, "my corgi is called Biscuit"))
    assert day_file(data_dir).read_text(encoding="utf-8") == (
        "# Daily Memory Log 2026-10-12\n"
        "\n"
        "- 2026-10-12T18:03:11.123+00:00 | Sarah (300000000000000001) | "
        "[guild:111111111111111111 channel:111111111111111112] my corgi is called Biscuit\n"
    )


async def test_a_message_goes_to_the_log_of_its_utc_day(queue: IngestQueue, data_dir: Path) -> None:
    await submit_all(
        queue,
        item(1, "late evening west of utc", created_at="2026-10-12T23:30:00.000-02:00"),
        item(2, "just after midnight in paris", created_at="2026-10-13T00:30:00.000+01:00"),
    )
    assert entries(data_dir, "2026-10-13") == [
        line("late evening west of utc", at="2026-10-13T01:30:00.000+00:00")
    ]
    assert entries(data_dir, "2026-10-12") == [
        line("just after midnight in paris", at="2026-10-12T23:30:00.000+00:00")
    ]


async def test_a_voice_message_is_marked_voice_inside_the_bracket(
    queue: IngestQueue, data_dir: Path
) -> None:
    await submit_all(queue, item(1, "we said this out loud", source="voice"))
    assert entries(data_dir) == [
        "- 2026-10-12T18:03:11.123+00:00 | Sarah (300000000000000001) | "
        "[guild:111111111111111111 channel:111111111111111112 voice] we said this out loud"
    ]


async def test_submitting_the_same_messages_again_adds_no_line(
    queue: IngestQueue, data_dir: Path
) -> None:
    batch = [item(n, f"message number {n}") for n in range(1, 4)]
    await submit_all(queue, *batch)
    before = day_file(data_dir).read_text(encoding="utf-8")
    await submit_all(queue, *batch)
    assert day_file(data_dir).read_text(encoding="utf-8") == before
    assert entries(data_dir) == [line(f"message number {n}") for n in range(1, 4)]


async def test_submitting_again_after_a_restart_adds_no_line(
    queue: IngestQueue, store: Store, data_dir: Path
) -> None:
    batch = [item(n, f"message number {n}") for n in range(1, 4)]
    await submit_all(queue, *batch)
    await queue.close()
    journals = Journals(data_dir / "journals", store, debounce=0.05, refresh_interval=3600)
    async with journals, IngestQueue(store, journal=journals) as restarted:
        await submit_all(restarted, *batch, item(4, "message number 4"))
    assert entries(data_dir) == [line(f"message number {n}") for n in range(1, 5)]


def test_a_fresh_writer_does_not_repeat_lines_already_in_the_file(data_dir: Path) -> None:
    root = data_dir / "journals"
    first, second, third = (stored(n, str(n), f"message number {n}") for n in (1, 2, 3))
    DailyLogWriter(root).append([first, second])
    # A new process (crash after the lines were written, before they were marked journaled)
    # appends the same messages again, followed by a new one.
    DailyLogWriter(root).append([first, second, third])
    assert entries(data_dir) == [line(f"message number {n}") for n in (1, 2, 3)]


HOSTILE = [
    pytest.param("line one\nline two\r\nline three", "line one line two line three", id="newlines"),
    pytest.param("one\u2028two\u2029three", "one two three", id="unicode-line-separators"),
    pytest.param("# I am a heading", "# I am a heading", id="leading-hash"),
    pytest.param("## heading\nbody text", "## heading body text", id="markdown-heading"),
    pytest.param("a | b || c", "a / b // c", id="pipes"),
    pytest.param("مرحبا بالجميع في الخادم", "مرحبا بالجميع في الخادم", id="arabic"),
    pytest.param("שלום לכולם כאן", "שלום לכולם כאן", id="hebrew"),
    pytest.param("invoice \u202egnp.exe", "invoice gnp.exe", id="bidi-override"),
    pytest.param("game night 🎲🔥 tonight", "game night 🎲🔥 tonight", id="emoji"),
    pytest.param(
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467 photo",
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467 photo",
        id="zwj-family-emoji",
    ),
    pytest.param("zero\u200bwidth \ufeffhere", "zerowidth here", id="zero-width"),
]


@pytest.mark.parametrize(("content", "text"), HOSTILE)
@pytest.mark.slow
async def test_hostile_text_becomes_one_clean_line(
    queue: IngestQueue, data_dir: Path, content: str, text: str
) -> None:
    await submit_all(queue, item(1, content))
    assert entries(data_dir) == [line(text)]


async def test_a_long_message_is_capped_in_the_log_but_kept_whole_in_the_store(
    queue: IngestQueue, store: Store, data_dir: Path
) -> None:
    content = "x" * 4000
    await submit_all(queue, item(1, content))
    assert entries(data_dir) == [line("x" * 319 + "…")]
    message = await store.get_message(GUILD_A, "1")
    assert message is not None
    assert message.content == content


async def test_an_author_name_with_pipes_and_newlines_stays_on_its_line(
    queue: IngestQueue, data_dir: Path
) -> None:
    evil = Author("300000000000000009", "Evil | Name\n# Injected\r\nHeading", "evil")
    await submit_all(queue, item(1, "hello from a strange name", author=evil))
    assert entries(data_dir) == [
        "- 2026-10-12T18:03:11.123+00:00 | Evil / Name # Injected Heading (300000000000000009) | "
        "[guild:111111111111111111 channel:111111111111111112] hello from a strange name"
    ]


async def test_no_mix_of_hostile_messages_and_names_breaks_the_file_structure(
    queue: IngestQueue, data_dir: Path
) -> None:
    contents = [content for content, _ in (p.values for p in HOSTILE)]
    contents += [
        "x" * 4000,
        "\n\n# top\n\n## sub\n- fake entry | 2026 | [guild:1 channel:2] spoof\n",
        "vertical\x0btab\x0cfeed\x1cfile\x1dgroup\x1erecord\x1funit\x85nel end",
        "\r\r\rcarriage returns\r",
    ]
    names = ["Sarah", "Evil | Name", "multi\nline\r\nname", "# Boss", "\u202eemanlive"]
    await submit_all(
        queue,
        *(
            item(n, content, author=Author(f"3000000000000001{n:02d}", names[n % len(names)]))
            for n, content in enumerate(contents)
        ),
    )
    text = day_file(data_dir).read_text(encoding="utf-8")
    lines = text.splitlines()  # splits on every line boundary Python knows, not only \n
    assert lines == text.split("\n")[:-1]
    assert lines[:2] == [f"# Daily Memory Log {DAY}", ""]
    assert len(lines) == 2 + len(contents)
    assert all(entry.startswith("- ") for entry in lines[2:])
    assert all(entry.count("|") == 2 for entry in lines[2:])
    assert all("\u202e" not in entry for entry in lines)


@pytest.mark.parametrize("content", ["k", "   ", "\u200b", "\u200bk\ufeff", "\n\r\n"])
@pytest.mark.slow
async def test_a_message_too_short_after_cleaning_is_not_stored_and_not_logged(
    queue: IngestQueue, store: Store, data_dir: Path, content: str
) -> None:
    handle = await queue.submit(item(1, content))
    await submit_all(queue, item(2, "a real message"))
    assert handle.stored is False
    assert await handle is False
    assert await store.get_message(GUILD_A, "1") is None
    assert entries(data_dir) == [line("a real message")]


# --- MEMORY.md ----------------------------------------------------------------------------


async def test_snapshot_has_its_sections_in_order_and_lists_people_with_their_facts(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    async with IngestQueue(store, extractor=RecordingExtractor(), journal=journals) as queue:
        await submit_all(
            queue,
            item(1, "my corgi is called Biscuit"),
            item(2, "I work nights at the depot", author=MIKE),
        )
    text = await journals.refresh(GUILD_A)
    headings = [t for t in text.split("\n") if t.startswith("# ") or t.startswith("## ")]
    assert headings == SNAPSHOT_HEADINGS
    assert sections(text)["## People (Durable Facts)"] == [
        "### Mike (300000000000000002)",
        "- Mike said: I work nights at the depot. _(other, confidence 0.80)_ · said 2026-10-12",
        "",
        "### Sarah (300000000000000001)",
        "- Sarah said: my corgi is called Biscuit. _(other, confidence 0.80)_ · said 2026-10-12",
    ]
    assert sections(text)["## Ongoing Lore"] == ["_No lore yet._"]


async def test_snapshot_shows_three_days_of_highlights_and_links_the_five_newest_logs(
    queue: IngestQueue, journals: Journals, data_dir: Path
) -> None:
    days = [f"2026-10-0{n}" for n in range(1, 8)]
    await submit_all(
        queue,
        *(
            item(n, f"news of day {n}", created_at=f"{day}T12:00:00.000+00:00")
            for n, day in enumerate(days, start=1)
        ),
    )
    text = await journals.refresh(GUILD_A)
    assert sections(text)["## Recent Journal Highlights"] == [
        "### 2026-10-07",
        line("news of day 7", at="2026-10-07T12:00:00.000+00:00"),
        "",
        "### 2026-10-06",
        line("news of day 6", at="2026-10-06T12:00:00.000+00:00"),
        "",
        "### 2026-10-05",
        line("news of day 5", at="2026-10-05T12:00:00.000+00:00"),
    ]
    assert sections(text)["## Source Daily Logs"] == [
        f"- [2026-10-0{n}.md](2026-10-0{n}.md)" for n in (7, 6, 5, 4, 3)
    ]


async def test_root_index_links_every_guild_snapshot(
    queue: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    await store.record_guild(GUILD_A, "Alpha Guild")
    await store.record_guild(GUILD_B, "Beta Guild")
    await submit_all(
        queue,
        item(1, "hello alpha"),
        item(2, "hello beta", guild_id=GUILD_B, channel_id=CHANNEL_B),
        item(3, "more beta", guild_id=GUILD_B, channel_id=CHANNEL_B),
    )
    await journals.refresh_all()
    index = (data_dir / "journals" / "MEMORY.md").read_text(encoding="utf-8")
    guild_lines = [t for t in index.split("\n") if t.startswith("- ")]
    assert guild_lines == [
        f"- [Alpha Guild]({GUILD_A}/MEMORY.md) ({GUILD_A}): 1 messages, 0 active facts",
        f"- [Beta Guild]({GUILD_B}/MEMORY.md) ({GUILD_B}): 2 messages, 0 active facts",
    ]
    assert (data_dir / "journals" / GUILD_A / "MEMORY.md").is_file()
    assert (data_dir / "journals" / GUILD_B / "MEMORY.md").is_file()


async def test_refresh_writes_the_snapshot_atomically_and_returns_its_text(
    queue: IngestQueue, journals: Journals, data_dir: Path
) -> None:
    await submit_all(queue, item(1, "something worth remembering"))
    await journals.flush()  # no debounced rewrite may land after ours
    text = await journals.refresh(GUILD_A)
    assert (journal_dir(data_dir) / "MEMORY.md").read_text(encoding="utf-8") == text
    assert sorted(p.name for p in journal_dir(data_dir).iterdir()) == [f"{DAY}.md", "MEMORY.md"]
    assert sorted(p.name for p in (data_dir / "journals").iterdir()) == [GUILD_A, "MEMORY.md"]


@pytest.mark.slow
async def test_changes_within_the_debounce_window_share_one_rewrite(
    store: Store, data_dir: Path
) -> None:
    journals = Journals(data_dir / "journals", store, debounce=1.0, refresh_interval=3600)
    snapshot = journal_dir(data_dir) / "MEMORY.md"
    async with journals:
        for _ in range(5):
            journals.guild_changed(GUILD_A)
            await asyncio.sleep(0.04)
        assert not snapshot.exists()  # ~0.2 s in: well inside the 1 s window
        await wait_for(snapshot, within=3)
        first = snapshot.read_text(encoding="utf-8")
        await asyncio.sleep(1.5)  # a second rewrite would have changed the generated time
        assert snapshot.read_text(encoding="utf-8") == first


async def test_a_change_during_a_snapshot_rewrite_gets_its_own_rewrite(
    store: Store, data_dir: Path
) -> None:
    await store.record_guild(GUILD_A, "Old Name")
    write_big_log(data_dir, GUILD_B)  # guild B's rewrite (after A's) is slow
    snapshot_a = journal_dir(data_dir, GUILD_A) / "MEMORY.md"
    async with Journals(data_dir / "journals", store, debounce=0.01, refresh_interval=3600) as j:
        j.guild_changed(GUILD_A)
        j.guild_changed(GUILD_B)
        await wait_for(snapshot_a, within=2)  # A is written; the same flush now renders B
        await store.record_guild(GUILD_A, "New Name")
        j.guild_changed(GUILD_A)
        deadline = time.monotonic() + 2
        while guild_line(snapshot_a) != f"Guild: New Name ({GUILD_A})":
            assert time.monotonic() < deadline, f"still {guild_line(snapshot_a)!r}"
            await asyncio.sleep(0.02)


async def test_closing_during_a_snapshot_rewrite_still_writes_every_pending_snapshot(
    store: Store, data_dir: Path
) -> None:
    write_big_log(data_dir, GUILD_B)  # guild B's rewrite (after A's) is slow
    journals = Journals(data_dir / "journals", store, debounce=0.01, refresh_interval=3600)
    await journals.start()
    journals.guild_changed(GUILD_A)
    journals.guild_changed(GUILD_B)
    await wait_for(journal_dir(data_dir, GUILD_A) / "MEMORY.md", within=2)
    await journals.close()  # while B's snapshot is being rendered
    assert (journal_dir(data_dir, GUILD_B) / "MEMORY.md").is_file()
    assert (data_dir / "journals" / "MEMORY.md").is_file()


async def test_closing_the_journals_writes_pending_snapshots(store: Store, data_dir: Path) -> None:
    journals = Journals(data_dir / "journals", store, debounce=30, refresh_interval=3600)
    await journals.start()
    journals.guild_changed(GUILD_A)
    await asyncio.sleep(0.05)
    assert not (journal_dir(data_dir) / "MEMORY.md").exists()
    await journals.close()
    assert (journal_dir(data_dir) / "MEMORY.md").is_file()
    assert (data_dir / "journals" / "MEMORY.md").is_file()


@pytest.mark.slow
async def test_snapshots_are_rewritten_periodically_without_any_change(
    store: Store, data_dir: Path
) -> None:
    await store.record_guild(GUILD_A, "Alpha Guild")
    snapshot = journal_dir(data_dir) / "MEMORY.md"
    async with Journals(data_dir / "journals", store, debounce=30, refresh_interval=0.2):
        await wait_for(snapshot, within=2)
        first = generated_line(snapshot)
        deadline = time.monotonic() + 2
        while generated_line(snapshot) == first:
            assert time.monotonic() < deadline, "MEMORY.md was not rewritten periodically"
            await asyncio.sleep(0.02)


async def test_look_alike_guilds_keep_their_own_logs_and_snapshots(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    async with IngestQueue(store, extractor=RecordingExtractor(), journal=journals) as queue:
        await submit_all(
            queue,
            item(1, "I love pizza with pineapple"),
            item(
                1,
                "I love pizza with pineapple",
                guild_id=GUILD_B,
                channel_id=CHANNEL_B,
                author=MIKE,
            ),
        )
    assert entries(data_dir, guild_id=GUILD_A) == [line("I love pizza with pineapple")]
    assert entries(data_dir, guild_id=GUILD_B) == [
        line("I love pizza with pineapple", author=MIKE, guild_id=GUILD_B, channel_id=CHANNEL_B)
    ]
    snapshot_a = await journals.refresh(GUILD_A)
    snapshot_b = await journals.refresh(GUILD_B)
    assert sections(snapshot_a)["## People (Durable Facts)"] == [
        "### Sarah (300000000000000001)",
        "- Sarah said: I love pizza with pineapple. _(other, confidence 0.80)_ · said 2026-10-12",
    ]
    assert sections(snapshot_b)["## People (Durable Facts)"] == [
        "### Mike (300000000000000002)",
        "- Mike said: I love pizza with pineapple. _(other, confidence 0.80)_ · said 2026-10-12",
    ]
    assert GUILD_B not in snapshot_a and MIKE.id not in snapshot_a
    assert GUILD_A not in snapshot_b and SARAH.id not in snapshot_b


def test_a_log_ending_in_a_torn_line_loses_it_and_gets_whole_lines(tmp_path: Path) -> None:
    """After a power cut the last line may lack its newline: it is cut away (its message gets
    a whole line when its log is next checked), and the next line does not glue on."""
    writer = DailyLogWriter(tmp_path)
    message = StoredMessage(
        1,
        GUILD_A,
        "5",
        "9",
        "300",
        "Sarah",
        "hello again",
        "text",
        "2026-10-12T18:03:11.123+00:00",
    )
    path = writer.path_for(GUILD_A, "2026-10-12")
    path.parent.mkdir(parents=True)
    path.write_text(
        "# Daily Memory Log 2026-10-12\n\n- 2026-10-12T18:00:00.000+00:00 | Sa", "utf-8"
    )
    writer.append([message])
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[:2] == ["# Daily Memory Log 2026-10-12", ""]
    assert len(lines) == 3 and "| Sa\n" not in text and text.endswith("\n")
    assert lines[-1].startswith("- 2026-10-12T18:03:11.123+00:00 | Sarah (300) |")


def test_overlapping_atomic_writes_of_one_file_never_lose_it(tmp_path: Path) -> None:
    """A cancelled rewrite's thread may still run beside the next rewrite of the same file."""
    from concurrent.futures import ThreadPoolExecutor

    from memory_journals.files import write_atomic

    target = tmp_path / "guild" / "MEMORY.md"
    texts = [f"version {n}\n" * 2000 for n in range(40)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda text: write_atomic(target, text), texts))  # raises if one fails
    assert target.read_text(encoding="utf-8") in texts
    assert [p.name for p in target.parent.iterdir()] == ["MEMORY.md"]  # no temporary left


async def test_a_big_guild_snapshot_lists_its_most_recent_facts(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MEMORY.md is for people: a guild of 100k facts lists the newest ones and says so."""
    from memory_journals import journals as journals_module
    from tests.helpers import add_fact

    monkeypatch.setattr(journals_module, "SNAPSHOT_FACTS", 3)
    for n in range(5):
        await add_fact(store, SARAH.id, f"Sarah fact number {n}.", source=str(n))
    journals = Journals(tmp_path / "journals", store)
    text = await journals.refresh(GUILD_A)
    assert "_The 3 most recently updated of 5 active facts" in text
    listed = [n for n in range(5) if f"Sarah fact number {n}." in text]
    assert len(listed) == 3


@pytest.mark.parametrize("block", [7, 64, 1 << 16])
def test_highlights_are_read_from_the_end_of_a_long_daily_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """The last lines of a log of many blocks, as reading it whole gives them: a block
    that starts inside a line (or inside a character) never yields a partial entry."""
    monkeypatch.setattr(snapshot, "TAIL_BLOCK", block)
    lines = ["# Daily Memory Log 2026-10-12", ""]
    lines += [
        f"- 12:{n % 60:02d} **Sarah**: café ☕ — entry {n} - with - dashes" for n in range(500)
    ]
    lines += ["", "- the last line has no newline after it"]
    log_path = tmp_path / "2026-10-12.md"
    log_path.write_text("\n".join(lines), encoding="utf-8")
    whole = [t for t in lines if t.startswith("- ")]
    assert snapshot.last_entries(log_path) == whole[-8:]
    assert snapshot.last_entries(log_path, 3) == whole[-3:]
    assert snapshot.last_entries(log_path, 900) == whole  # fewer than asked: all of them

    short = tmp_path / "2026-10-13.md"
    short.write_text("# Daily Memory Log 2026-10-13\n\n- only one\n", encoding="utf-8")
    assert snapshot.last_entries(short) == ["- only one"]
    empty = tmp_path / "2026-10-14.md"
    empty.write_bytes(b"")
    assert snapshot.last_entries(empty) == []
