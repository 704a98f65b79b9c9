"""The ingest queue (DESIGN "Ingest" 1-5), on real SQLite, with test extractors."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from memory.errors import InvalidMessageError, QueueClosedError
from memory.extraction import BaseExtractor, ContextTurn, SourceMessage
from memory.ingest import JOURNAL_BATCH, IngestQueue, keep_fact
from memory.models import CandidateFact, StoredMessage
from memory.storage.db import connect_sync
from memory.storage.store import Store
from memory_journals import Journals
from tests.helpers import CHANNEL_B, GUILD_A, GUILD_B, MIKE, RecordingExtractor, item, sql


def daily_lines(data_dir: Path, guild_id: str = GUILD_A) -> list[str]:
    folder = data_dir / "journals" / guild_id
    lines: list[str] = []
    for path in sorted(folder.glob("????-??-??.md")):
        lines += [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("- ")]
    return lines


def job_rows(data_dir: Path) -> dict[str, str]:
    """message_id -> job status, read through a second connection (what is on disk)."""
    conn = connect_sync(data_dir / "memory.db")
    try:
        rows = conn.execute(
            "SELECT m.message_id, j.status FROM messages m JOIN ingest_jobs j "
            "ON j.message_row = m.id ORDER BY m.id"
        ).fetchall()
    finally:
        conn.close()
    return dict(rows)


@pytest.fixture
async def gated(store: Store, journals: Journals) -> tuple[IngestQueue, asyncio.Event]:
    """A running queue whose extractor waits for the gate before finishing each batch."""
    gate = asyncio.Event()
    extractor = RecordingExtractor(gate=gate)
    queue = IngestQueue(store, extractor=extractor, journal=journals, max_queue=400)
    await queue.start()
    yield queue, gate  # type: ignore[misc]
    gate.set()
    await queue.close(timeout=2)


async def test_submit_stores_message_and_job_before_it_returns(
    gated: tuple[IngestQueue, asyncio.Event], data_dir: Path
) -> None:
    queue, _gate = gated
    handle = await queue.submit(item(1, "I work as a nurse at the children's hospital"))
    assert handle.stored and not handle.done()
    assert job_rows(data_dir) == {"1": "pending"}


async def test_a_processed_message_resolves_true_and_its_job_is_done(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as queue:
        handle = await queue.submit(item(1, "my corgi is called Biscuit"))
        assert await handle is True
    assert job_rows(data_dir) == {"1": "done"}
    (fact,) = await store.active_facts(GUILD_A)
    assert fact.fact == "Sarah said: my corgi is called Biscuit."
    assert fact.source_message_id == "1"


async def test_concurrent_submits_of_one_message_share_one_handle(
    store: Store, journals: Journals
) -> None:
    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as queue:
        first, second = await asyncio.gather(queue.submit(item(9)), queue.submit(item(9)))
        assert [first.stored, second.stored].count(True) == 1
        assert await first is True and await second is True
    assert extractor.seen == ["9"]
    assert await store.count_messages(GUILD_A) == 1


async def test_resubmitting_a_processed_message_adds_nothing(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as queue:
        await (await queue.submit(item(1)))
        again = await queue.submit(item(1, "edited text that must not replace the row"))
        assert (again.stored, await again) == (False, True)
        await queue.join()
    assert extractor.seen == ["1"]
    assert len(daily_lines(data_dir)) == 1


async def test_without_an_extractor_a_job_is_done_as_it_is_written(
    queue: IngestQueue, store: Store, data_dir: Path
) -> None:
    """Nothing can be extracted: the job is closed in the write that stores the message,
    so the worker never handles it; its daily-log line and search row still follow."""
    handle = await queue.submit(item(1, "I work as a nurse at the children's hospital"))
    assert handle.stored and handle.done() and handle.result() is True
    assert queue.depth == 0
    assert job_rows(data_dir) == {"1": "done"}
    # Bulk: more than the bound at once, with no room to wait for.
    outcome = await queue.submit_many([item(n) for n in range(2, 902)])
    assert (outcome.new, queue.depth) == (900, 0)
    assert set(job_rows(data_dir).values()) == {"done"}
    await queue.join()
    assert len(daily_lines(data_dir)) == 901
    found = sql(store.path, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'nurse'")
    assert found == [(1,)]


async def test_messages_with_nothing_to_extract_are_closed_as_they_are_written(
    gated: tuple[IngestQueue, asyncio.Event], store: Store, data_dir: Path
) -> None:
    """Too short to extract from (under 4 characters once cleaned): done at once, while the
    extractor (held at its gate) still has the others."""
    queue, gate = gated
    extractor = queue.extractor
    assert isinstance(extractor, RecordingExtractor)
    short = await queue.submit(item(1, "ok!"))
    long = await queue.submit(item(2, "my corgi is called Biscuit"))
    assert short.done() and short.result() is True
    assert not long.done()
    batch = [item(n, "lol" if n % 2 else f"I moved to Lisbon in year {n}") for n in range(3, 23)]
    await queue.submit_many(batch)
    statuses = job_rows(data_dir)
    assert [m for m, s in statuses.items() if s == "done"] == [
        str(n) for n in (1, *range(3, 23, 2))
    ]
    assert [m for m, s in statuses.items() if s == "pending"] == ["2", *map(str, range(4, 23, 2))]
    assert queue.depth == 11
    gate.set()
    assert await long is True
    await queue.join()
    seen = [m.message_id for m in extractor.messages]
    assert seen == ["2", *map(str, range(4, 23, 2))]  # never the short ones
    assert set(job_rows(data_dir).values()) == {"done"}
    assert len(daily_lines(data_dir)) == 22


async def test_live_overflow_drops_the_oldest_waiting_job_and_keeps_its_message(
    gated: tuple[IngestQueue, asyncio.Event], store: Store, data_dir: Path
) -> None:
    queue, gate = gated
    extractor = queue.extractor
    assert isinstance(extractor, RecordingExtractor)
    first = await queue.submit(item(1))
    await extractor.started.wait()  # message 1 is being extracted: it cannot be dropped
    handles = [await queue.submit(item(n)) for n in range(2, 406)]  # 405 in all, bound 400
    assert queue.depth == 400
    dropped = [h.key[1] for h in handles if h.done()]
    assert dropped == ["2", "3", "4", "5", "6"]
    assert all(h.result() is False for h in handles[:5])
    gate.set()
    assert await first is True
    assert all([await h for h in handles[5:]])
    await queue.join()
    statuses = job_rows(data_dir)
    assert [m for m, s in statuses.items() if s == "dropped"] == ["2", "3", "4", "5", "6"]
    assert list(statuses.values()).count("done") == 400
    assert await store.count_messages(GUILD_A) == 405
    assert len(daily_lines(data_dir)) == 405  # dropped messages keep their journal line
    assert queue.dropped == 5
    assert (await store.job_status(GUILD_A, "2")) == ("dropped", "dropped: ingest queue full")


async def test_bulk_submits_wait_for_room_and_never_drop(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals, max_queue=20) as queue:
        depths: list[int] = []
        for start in range(0, 200, 50):  # batches larger than the room are split up
            outcome = await queue.submit_many([item(n) for n in range(start, start + 50)])
            depths.append(queue.depth)
            assert outcome.new == 50
        await queue.join()
    assert max(depths) <= 20
    assert extractor.seen == [str(n) for n in range(200)]
    assert set(job_rows(data_dir).values()) == {"done"}


async def test_the_worker_processes_jobs_in_submit_order(store: Store, journals: Journals) -> None:
    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as queue:
        for n in range(30):
            await queue.submit(item(n))
        await queue.join()
    assert extractor.seen == [str(n) for n in range(30)]


async def test_pending_jobs_are_resumed_after_a_restart(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    stuck = IngestQueue(store, extractor=RecordingExtractor(gate=asyncio.Event()), journal=journals)
    await stuck.start()
    handles = [await stuck.submit(item(n)) for n in range(5)]
    await stuck.close(timeout=0.2)  # drain times out: the jobs stay pending
    assert [h.result() for h in handles] == [False] * 5
    assert set(job_rows(data_dir).values()) == {"pending"}

    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as resumed:
        assert resumed.depth == 5
        again = await resumed.submit(item(3))  # shares the resumed job's handle
        assert again.stored is False
        await resumed.join()
        assert await again is True
    assert extractor.seen == ["0", "1", "2", "3", "4"]
    assert set(job_rows(data_dir).values()) == {"done"}


async def test_a_drain_that_times_out_says_what_waits_and_the_next_run_writes_it(
    store: Store, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    gate = asyncio.Event()  # the daily logs cannot be written for now

    class Held(Journals):
        async def append(self, messages: Sequence[StoredMessage], *, recheck: bool = False) -> None:
            await gate.wait()
            await super().append(messages, recheck=recheck)

    held = Held(data_dir / "journals", store)
    queue = IngestQueue(store, extractor=RecordingExtractor(), journal=held)
    await queue.start()
    assert await (await queue.submit(item(1, "my corgi is called Biscuit"))) is True
    with caplog.at_level(logging.WARNING, logger="memory.ingest.queue"):
        await queue.close(timeout=0.3)
    assert "drain timed out: 0 job(s) and the latest messages' logs wait" in caplog.text
    assert daily_lines(data_dir) == []

    journals = Journals(data_dir / "journals", store)
    again = IngestQueue(store, extractor=RecordingExtractor(), journal=journals)
    async with journals, again:
        await again.join()
    assert len(daily_lines(data_dir)) == 1 and "Biscuit" in daily_lines(data_dir)[0]


async def test_shutdown_drains_what_it_can_within_the_timeout(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    class Slow(RecordingExtractor):
        async def extract(
            self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
        ) -> list[CandidateFact]:
            await asyncio.sleep(0.01)
            return await super().extract(messages)

    queue = IngestQueue(store, extractor=Slow(), journal=journals)
    await queue.start()
    handles = [await queue.submit(item(n)) for n in range(10)]
    await queue.close(timeout=4)
    assert [h.result() for h in handles] == [True] * 10
    assert set(job_rows(data_dir).values()) == {"done"}


async def test_a_failed_extraction_fails_the_job_but_keeps_the_message(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    async with IngestQueue(
        store, extractor=RecordingExtractor(fail=True), journal=journals
    ) as queue:
        handle = await queue.submit(item(1, "I am allergic to shellfish"))
        assert await handle is False
        await queue.join()
    assert await store.job_status(GUILD_A, "1") == (
        "failed",
        "RuntimeError: the model answered nonsense",
    )
    assert (await store.get_message(GUILD_A, "1")).content == "I am allergic to shellfish"
    assert len(daily_lines(data_dir)) == 1

    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as queue:
        assert await queue.requeue(GUILD_A) == 1
        await queue.join()
    assert extractor.seen == ["1"]
    assert job_rows(data_dir) == {"1": "done"}


async def test_messages_too_short_to_keep_are_not_stored(queue: IngestQueue, store: Store) -> None:
    for n, text in enumerate(["k", "   ", "\u200b\u200b", "\n\n"]):
        handle = await queue.submit(item(n, text))
        assert (handle.stored, await handle) == (False, False)
    assert await store.count_messages(GUILD_A) == 0


async def test_short_messages_are_stored_but_not_extracted(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as queue:
        assert await (await queue.submit(item(1, "ok!"))) is True
        assert await (await queue.submit(item(2, "okay then"))) is True
    assert extractor.seen == ["2"]
    assert job_rows(data_dir) == {"1": "done", "2": "done"}


async def test_at_most_four_facts_per_message_and_only_for_messages_of_the_batch(
    store: Store, journals: Journals
) -> None:
    class Chatty(BaseExtractor):
        name = "chatty"

        async def extract(
            self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
        ) -> list[CandidateFact]:
            (m,) = messages
            facts = [
                CandidateFact(m.author_id, f"Sarah fact {n}.", "other", 0.9, "x", m.message_id)
                for n in range(6)
            ]
            return [*facts, CandidateFact(m.author_id, "stray.", "other", 0.9, "x", "999")]

    async with IngestQueue(
        store, extractor=Chatty(), journal=journals, fact_filter=keep_fact
    ) as queue:
        await (await queue.submit(item(1)))
    facts = sorted(f.fact for f in await store.active_facts(GUILD_A))
    assert facts == [f"Sarah fact {n}." for n in range(4)]


async def test_facts_stay_in_the_guild_of_their_message(store: Store, journals: Journals) -> None:
    async with IngestQueue(store, extractor=RecordingExtractor(), journal=journals) as queue:
        await queue.submit(item(1, "I prefer tea over coffee"))
        await queue.submit(
            item(1, "I prefer tea over coffee", guild_id=GUILD_B, channel_id=CHANNEL_B, author=MIKE)
        )
        await queue.join()
    a, b = await store.active_facts(GUILD_A), await store.active_facts(GUILD_B)
    assert [(f.guild_id, f.fact) for f in a] == [(GUILD_A, "Sarah said: I prefer tea over coffee.")]
    assert [(f.guild_id, f.fact) for f in b] == [(GUILD_B, "Mike said: I prefer tea over coffee.")]


async def test_submitting_to_a_closed_queue_is_an_error(store: Store, journals: Journals) -> None:
    queue = IngestQueue(store, journal=journals)
    await queue.start()
    await queue.close()
    with pytest.raises(QueueClosedError):
        await queue.submit(item(1))
    with pytest.raises(QueueClosedError):
        await queue.submit_many([item(2)])


async def test_a_bulk_submit_waiting_for_room_when_the_queue_closes_stores_nothing(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    """A bulk batch still waiting for room at shutdown is refused, and a live submit of one
    of its messages, which shares that batch's write, gets the same error; nothing is lost."""
    gate = asyncio.Event()
    queue = IngestQueue(
        store, extractor=RecordingExtractor(gate=gate), journal=journals, max_queue=8
    )
    await queue.start()
    first = await queue.submit_many([item(n) for n in range(6)])  # fills the bulk room (6)
    assert first.new == 6
    waiting = asyncio.create_task(queue.submit_many([item(n) for n in range(6, 9)]))
    await asyncio.sleep(0.05)
    assert not waiting.done()  # the worker holds the first three, three more wait
    shared = await queue.submit(item(7))  # the waiting batch's message: same write
    await queue.close(timeout=0.1)
    with pytest.raises(QueueClosedError):
        await waiting
    with pytest.raises(QueueClosedError):
        await shared
    assert sorted(job_rows(data_dir)) == [str(n) for n in range(6)]  # stays, pending
    assert set(job_rows(data_dir).values()) == {"pending"}


async def test_journal_lines_missing_after_a_crash_are_written_on_start(
    store: Store, data_dir: Path
) -> None:
    """Messages stored by a run that died before journaling get their lines next time."""
    await store.insert_messages([item(1), item(2)], live=True)  # stored, never journaled
    journals = Journals(data_dir / "journals", store, debounce=0.01)
    async with journals, IngestQueue(store, journal=journals) as queue:
        await queue.join()
    assert len(daily_lines(data_dir)) == 2
    assert await store.journal_cursor() == 2


async def test_a_bad_message_is_refused_alone_and_clearly(queue: IngestQueue, store: Store) -> None:
    good = asyncio.ensure_future(queue.submit(item(1)))
    with pytest.raises(InvalidMessageError, match="created_at is not an ISO 8601 time"):
        await queue.submit(item(2, created_at="yesterday at noon"))
    with pytest.raises(InvalidMessageError, match="no id"):
        await queue.submit(item(""))
    assert (await good).stored is True
    assert await store.count_messages(GUILD_A) == 1


async def test_concurrent_live_submits_share_transactions(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    extractor = RecordingExtractor()
    async with IngestQueue(store, extractor=extractor, journal=journals) as queue:
        handles = await asyncio.gather(*(queue.submit(item(n)) for n in range(100)))
        assert all(h.stored for h in handles)
        assert all([await h for h in handles])
    assert await store.count_messages(GUILD_A) == 100
    assert sorted(extractor.seen, key=int) == [str(n) for n in range(100)]
    assert len(daily_lines(data_dir)) == 100


async def test_a_fact_filter_that_raises_fails_its_jobs_like_the_extractor(
    store: Store, journals: Journals
) -> None:
    def broken_filter(message: SourceMessage, candidate: CandidateFact) -> CandidateFact | None:
        raise ValueError("filter exploded")

    async with IngestQueue(
        store, extractor=RecordingExtractor(), journal=journals, fact_filter=broken_filter
    ) as queue:
        handle = await queue.submit(item(1, "I work as a paediatric nurse"))
        assert await handle is False
        ok = await queue.submit(item(2, "k?"))  # too short to extract: unaffected
        assert await ok is True
    assert await store.job_status(GUILD_A, "1") == ("failed", "ValueError: filter exploded")
    assert await store.count_messages(GUILD_A) == 2


async def test_a_bulk_import_journals_in_big_steps_and_everything_when_it_ends(
    queue: IngestQueue, store: Store, data_dir: Path
) -> None:
    await queue.join()  # the journal has caught up with the database: it follows the queue
    async with queue.bulk():
        for start in range(0, 900, 300):
            await queue.submit_many([item(n) for n in range(start, start + 300)])
        await asyncio.sleep(0.2)  # the journal would have written each batch by now
        assert await store.journal_cursor() == 0  # held: fewer than a full step waits
        more = [item(n) for n in range(900, 2300)]
        await queue.submit_many(more)
        await wait_until_cursor(store, JOURNAL_BATCH)  # a full step is written at once
    await queue.join()
    assert await store.journal_cursor() == 2300  # the rest, once the import ended
    logs = (data_dir / "journals" / GUILD_A).glob("*-*-*.md")
    lines = [line for log in logs for line in log.read_text().splitlines() if line[:2] == "- "]
    assert len(lines) == 2300


@pytest.mark.slow
async def test_a_bulk_import_refreshes_memory_md_when_it_ends_not_while_it_runs(
    queue: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    """Journal steps of an import mark their guild changed once, at its end: a snapshot
    rewrite a second (each counting the guild's messages again) would slow the import."""
    snapshot = journals.snapshot_path(GUILD_A)
    await queue.join()
    async with queue.bulk():
        await queue.submit_many([item(n) for n in range(300)])
        more = [item(n) for n in range(300, JOURNAL_BATCH + 300)]
        await queue.submit_many(more)
        await wait_until_cursor(store, JOURNAL_BATCH)  # a step is journaled ...
        await asyncio.sleep(journals.debounce * 6)
        assert not snapshot.exists()  # ... and its guild's snapshot waits
    await queue.join()
    for _ in range(100):
        if snapshot.exists():
            break
        await asyncio.sleep(0.02)
    assert f"{JOURNAL_BATCH + 300} messages" in snapshot.read_text()


async def test_join_inside_a_bulk_import_writes_everything(
    queue: IngestQueue, store: Store
) -> None:
    async with queue.bulk():
        await queue.submit_many([item(n) for n in range(250)])
        await asyncio.wait_for(queue.join(), 10)
        assert await store.journal_cursor() == 250


async def wait_until_cursor(store: Store, row_id: int) -> None:
    for _ in range(200):
        if await store.journal_cursor() >= row_id:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"journal cursor stuck at {await store.journal_cursor()}")
