"""Forgetting (DESIGN "Discord bot": /memory forget, purge-user; Discord deletes and edits):
end to end on a real store, real journals and the real queue. Nothing forgotten may come
back through search, a slice, MEMORY.md or the daily logs; nothing else may change."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from memory.forgetting import (
    EditSummary,
    ForgetSummary,
    delete_message,
    edit_message,
    forget_member,
)
from memory.ingest import IngestQueue, keep_fact
from memory.models import IngestItem, StoredMessage
from memory.search.embeddings import content_hash
from memory.search.results import fact_json, slice_json
from memory.search.retriever import Retriever
from memory.storage.db import connect_sync
from memory.storage.store import Store
from memory.storage.vectors_sql import fact_embedding_text
from memory_journals import Journals
from tests.helpers import (
    CHANNEL_A,
    CHANNEL_B,
    GUILD_A,
    GUILD_B,
    MEMORYBOT,
    MIKE,
    SARAH,
    RecordingExtractor,
    add_fact,
    cli_env,
    export_id,
    export_message,
    item,
    run_cli,
    stats_json,
    write_export,
)

DAY1 = "2026-10-11"
DAY2 = "2026-10-12"
MODEL = "test-model"
SAILING = "I adore sailing on the fjord every summer"
PIXEL = "My cat Pixel hates thunderstorms and hides under the sofa"
VOICE = "I am learning the cello at the conservatory"
BEES = "Sarah told me she keeps bees on her roof terrace"
MOTOR = "I restore vintage motorbikes in my garage"
SARAH_IDS = ("101", "102", "103")


def at(day: str, minute: int) -> str:
    return f"{day}T10:{minute:02d}:00.000+00:00"


def community() -> list[IngestItem]:
    """Sarah and Mike in guild A (Sarah over two days, once by voice; Mike mentions her),
    and a look-alike guild B: the same message ids, the same member, similar texts."""
    mentions = {"mentions": [[SARAH.id, SARAH.name]]}
    return [
        item(101, SAILING, created_at=at(DAY1, 1)),
        item(201, BEES, author=MIKE, created_at=at(DAY1, 2))._replace(trace=mentions),
        item(102, PIXEL, created_at=at(DAY2, 3)),
        item(202, MOTOR, author=MIKE, created_at=at(DAY2, 4)),
        item(103, VOICE, channel_id=CHANNEL_B, created_at=at(DAY2, 5), source="voice"),
        item(101, SAILING + " too", guild_id=GUILD_B, created_at=at(DAY1, 1)),
        item(102, PIXEL, guild_id=GUILD_B, created_at=at(DAY2, 3)),
        item(555, "a message that only guild B has", guild_id=GUILD_B, created_at=at(DAY2, 6)),
    ]


@pytest.fixture
async def extractor() -> RecordingExtractor:
    return RecordingExtractor()


@pytest.fixture
async def rqueue(
    store: Store, journals: Journals, extractor: RecordingExtractor
) -> AsyncIterator[IngestQueue]:
    """A running queue whose extractor makes one fact per message ("<name> said: …")."""
    running = IngestQueue(store, extractor=extractor, journal=journals, fact_filter=keep_fact)
    await running.start()
    try:
        yield running
    finally:
        await running.close()


async def ingest(queue: IngestQueue, items: list[IngestItem]) -> None:
    for one in items:
        await queue.submit(one)
    await queue.join()


@pytest.fixture
async def seeded(rqueue: IngestQueue, store: Store, journals: Journals) -> IngestQueue:
    """The community ingested and journaled, a few more facts, vectors for every fact."""
    await ingest(rqueue, community())
    await journals.flush()  # no debounced rewrite of MEMORY.md is left to come
    await add_fact(store, SARAH.id, "Sarah keeps bees on her roof terrace", source="201")
    await add_fact(store, MIKE.id, "Mike lent his sailing boat to a friend", source="101")
    await store.remember_line(GUILD_A, "Pixel the cat hates thunder", source_message_id="102")
    await add_fact(store, SARAH.id, "Sarah keeps bees on her roof terrace", guild=GUILD_B)
    for guild in (GUILD_A, GUILD_B):
        await embed_all(store, guild)
        await journals.refresh(guild)
    return rqueue


async def embed_all(store: Store, guild_id: str) -> None:
    """A vector (and an embedding-cache entry) for every fact, as the embedder would."""
    missing = await store.facts_missing_vectors(guild_id, MODEL, 1000)
    blob = b"\x00\x00\x80\x3f" * 4
    await store.cache_vectors(MODEL, [(content_hash(MODEL, text), blob) for _, text in missing])
    await store.store_fact_vectors(guild_id, MODEL, [(fid, 4, blob) for fid, _ in missing])


# The vectors of MODEL, the only model these tests embed with (its vec0 table is the first).
VECTORS = (
    "SELECT rowid, guild_id, is_active, embedding FROM memory_fact_vec_1 "
    "WHERE guild_id = ? ORDER BY rowid"
)


def db(data_dir: Path) -> Any:
    return connect_sync(data_dir / "memory.db")


def rows(data_dir: Path, query: str, *params: object) -> list[tuple[Any, ...]]:
    conn = db(data_dir)
    try:
        return [tuple(r) for r in conn.execute(query, params).fetchall()]
    finally:
        conn.close()


def logs(data_dir: Path, guild_id: str = GUILD_A) -> dict[str, str]:
    folder = data_dir / "journals" / guild_id
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("????-??-??.md"))}


def snapshot(data_dir: Path, guild_id: str = GUILD_A) -> str:
    return (data_dir / "journals" / guild_id / "MEMORY.md").read_text(encoding="utf-8")


def without_lines(texts: dict[str, str], *needles: str) -> dict[str, str]:
    """The daily logs with every line containing one of ``needles`` taken out."""
    return {
        name: "".join(
            line for line in text.splitlines(keepends=True) if not any(n in line for n in needles)
        )
        for name, text in texts.items()
    }


async def everything_said(store: Store, guild_id: str, query: str, user_id: str) -> str:
    """All a reply or a moderator could get back for ``query``, as one text."""
    retriever = Retriever(store)
    memory = await retriever.slice(guild_id, query, channel_id=CHANNEL_A, user_id=user_id)
    hits = await retriever.search(guild_id, query, strict=False, limit=24)
    return repr((slice_json(memory), [fact_json(h) for h in hits]))


# --- forget a member ------------------------------------------------------------------------


async def test_forget_member_leaves_nothing_of_them_anywhere(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    before_a, before_b = logs(data_dir), logs(data_dir, GUILD_B)
    facts_b = await store.active_facts(GUILD_B)
    vectors_b = rows(data_dir, VECTORS, GUILD_B)
    hers = [
        content_hash(MODEL, fact_embedding_text(f.fact_type, f.fact, f.evidence))
        for f in await store.active_facts(GUILD_A)
        if f.subject == SARAH.id or f.source_message_id in SARAH_IDS
    ]
    versions = store.data_version

    summary = await forget_member(store, journals, GUILD_A, SARAH.id, queue=seeded)

    # 3 messages; facts: her 3 "said" facts, the bees fact about her, Mike's fact sourced
    # from her message, the lore line sourced from her message.
    assert summary == ForgetSummary(
        messages=3, facts=6, vectors=6, journal_lines=3, members=1, message_ids=SARAH_IDS
    )
    assert summary.describe() == "deleted 3 messages, 6 facts and 3 journal lines"
    for message_id in SARAH_IDS:
        assert await store.get_message(GUILD_A, message_id) is None
        assert await store.job_status(GUILD_A, message_id) is None
    facts = await store.active_facts(GUILD_A)
    assert [(f.subject, f.source_message_id) for f in facts] == [
        (MIKE.id, "201"),
        (MIKE.id, "202"),
    ]
    assert SARAH.id not in await store.member_names(GUILD_A)
    all_versions = zip(store.data_version, versions, strict=True)
    assert all(now > then for now, then in all_versions)

    for query in ("sailing fjord", "Pixel thunderstorms cat", "cello conservatory", "bees roof"):
        said = await everything_said(store, GUILD_A, query, SARAH.id)
        for text in (SAILING, PIXEL, VOICE, "keeps bees on her roof terrace", "Pixel the cat"):
            assert text not in said.replace(BEES, "")  # Mike's own message stays his
        assert SARAH.id not in said
    assert "motorbikes" in await everything_said(store, GUILD_A, "vintage motorbikes", MIKE.id)

    memory_md = snapshot(data_dir)
    assert SARAH.id not in memory_md
    for text in (SAILING, PIXEL, VOICE, "Pixel the cat"):
        assert text not in memory_md
    assert MOTOR in memory_md

    after = logs(data_dir)
    assert after == without_lines(before_a, f"({SARAH.id})")
    joined = "".join(after.values())
    for text in (SAILING, PIXEL, VOICE, *(f" {i} " for i in SARAH_IDS)):
        assert text not in joined
    assert BEES in joined and MOTOR in joined  # Mike's lines, byte for byte

    # no vector, cache entry, full-text row or mention of hers is left in guild A
    assert len(rows(data_dir, VECTORS, GUILD_A)) == 2
    cached = {digest for (digest,) in rows(data_dir, "SELECT sha256 FROM embedding_cache")}
    assert len(hers) == 6 and not cached & set(hers)  # shared texts re-embed: a cost, no leak
    assert rows(data_dir, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'fjord'") == [
        (6,)
    ]  # guild B's look-alike
    (trace,) = rows(data_dir, "SELECT trace FROM ingest_jobs WHERE message_row = 2")
    assert SARAH.id not in trace[0] and "Sarah" not in trace[0]

    # guild B: the same member and message ids, untouched
    assert logs(data_dir, GUILD_B) == before_b
    assert await store.active_facts(GUILD_B) == facts_b
    assert rows(data_dir, VECTORS, GUILD_B) == vectors_b
    assert (await store.get_message(GUILD_B, "101")) is not None
    assert SARAH.id in await store.member_names(GUILD_B)
    assert SARAH.id in snapshot(data_dir, GUILD_B)


async def test_forget_member_again_changes_nothing(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    await forget_member(store, journals, GUILD_A, SARAH.id)
    files = logs(data_dir)
    facts = await store.active_facts(GUILD_A)

    again = await forget_member(store, journals, GUILD_A, SARAH.id)

    assert again == ForgetSummary()
    assert again.describe() == "nothing was stored, nothing deleted"
    assert logs(data_dir) == files
    assert await store.active_facts(GUILD_A) == facts


async def test_forget_member_removes_lines_an_interrupted_forget_left(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    await store.forget_member(GUILD_A, SARAH.id)  # the store only: then the process died
    assert f"({SARAH.id})" in "".join(logs(data_dir).values())

    summary = await forget_member(store, journals, GUILD_A, SARAH.id)

    assert summary.journal_lines == 3 and summary.messages == 0
    assert f"({SARAH.id})" not in "".join(logs(data_dir).values())


async def test_forget_member_keeps_messages_sent_after_it(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    await forget_member(store, journals, GUILD_A, SARAH.id, queue=seeded)
    await ingest(seeded, [item(104, "back again and I now like rowing", created_at=at(DAY2, 9))])
    await forget_member(store, journals, GUILD_A, MIKE.id, queue=seeded)  # sweeps Mike only

    assert "back again and I now like rowing" in logs(data_dir)[f"{DAY2}.md"]
    assert SARAH.id in await store.member_names(GUILD_A)  # a member again, by speaking


async def test_forget_of_unknown_or_foreign_ids_touches_nothing(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    files_a, files_b = logs(data_dir), logs(data_dir, GUILD_B)
    stranger = "399999999999999999"
    assert await forget_member(store, journals, GUILD_A, stranger) == ForgetSummary()
    assert await forget_member(store, journals, "499999999999999999", SARAH.id) == ForgetSummary()
    assert not (data_dir / "journals" / "499999999999999999").exists()
    assert logs(data_dir) == files_a and logs(data_dir, GUILD_B) == files_b
    assert (await store.stats(GUILD_A)).messages == 5


# --- a deleted message ------------------------------------------------------------------------


async def test_delete_message_removes_it_its_facts_and_its_line(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    before, before_b = logs(data_dir), logs(data_dir, GUILD_B)
    facts_b = await store.active_facts(GUILD_B)
    version = store.vector_version

    summary = await delete_message(store, journals, GUILD_A, "102", queue=seeded)

    assert summary == ForgetSummary(
        messages=1, facts=2, vectors=2, journal_lines=1, message_ids=("102",)
    )  # "Sarah said: My cat Pixel…" and the lore line sourced from it
    assert await store.get_message(GUILD_A, "102") is None
    assert all(f.source_message_id != "102" for f in await store.active_facts(GUILD_A))
    assert store.vector_version > version
    assert logs(data_dir) == without_lines(before, PIXEL)
    assert "Pixel" not in snapshot(data_dir)
    assert "Pixel" not in await everything_said(store, GUILD_A, "Pixel cat thunderstorms", "")
    assert SAILING in logs(data_dir)[f"{DAY1}.md"]  # her other messages stay
    assert logs(data_dir, GUILD_B) == before_b  # B has a message 102 too: untouched
    assert await store.active_facts(GUILD_B) == facts_b
    assert await store.get_message(GUILD_B, "102") is not None


async def test_delete_of_unknown_or_other_guilds_message_does_nothing(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    files_a, files_b = logs(data_dir), logs(data_dir, GUILD_B)
    memory_md = snapshot(data_dir)
    versions = store.data_version

    for message_id in ("999", "555", "", "101' OR 1=1 --"):
        assert await delete_message(store, journals, GUILD_A, message_id) == ForgetSummary()

    assert await store.get_message(GUILD_B, "555") is not None
    assert logs(data_dir) == files_a and logs(data_dir, GUILD_B) == files_b
    assert snapshot(data_dir) == memory_md
    assert store.data_version == versions
    assert (await store.stats(GUILD_A)).messages == 5


async def test_delete_twice_is_harmless(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    await delete_message(store, journals, GUILD_A, "101")
    files = logs(data_dir)
    assert await delete_message(store, journals, GUILD_A, "101") == ForgetSummary()
    assert logs(data_dir) == files


async def test_a_message_deleted_while_it_is_extracted_leaves_no_fact(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    gate = asyncio.Event()
    extractor = RecordingExtractor(gate=gate)
    async with IngestQueue(
        store, extractor=extractor, journal=journals, fact_filter=keep_fact
    ) as q:
        handle = await q.submit(item(301, "I collect antique maps of the arctic"))
        await extractor.started.wait()
        summary = await delete_message(store, journals, GUILD_A, "301", queue=q)
        gate.set()
        assert await handle is False
        await q.join()
    assert summary.messages == 1
    assert await store.active_facts(GUILD_A) == []
    assert "antique maps" not in "".join(logs(data_dir).values())
    assert await store.get_message(GUILD_A, "301") is None


# --- an edited message ------------------------------------------------------------------------

EDITED = "I now prefer kayaking on the lake\n# not a heading | and a pipe"


async def test_edit_updates_text_search_facts_line_and_extracts_again(
    seeded: IngestQueue,
    store: Store,
    journals: Journals,
    extractor: RecordingExtractor,
    data_dir: Path,
) -> None:
    before = logs(data_dir)
    summary = await edit_message(store, journals, seeded, GUILD_A, "101", EDITED)
    assert summary == EditSummary(
        found=True, changed=True, facts=2, journal_lines=1, requeued=True
    )  # "Sarah said: I adore sailing…" and Mike's fact sourced from it
    await seeded.join()

    stored = await store.get_message(GUILD_A, "101")
    assert stored is not None and stored.content == EDITED
    assert await store.job_status(GUILD_A, "101") == ("done", None)
    assert extractor.messages[-1].text == EDITED
    facts = {f.fact for f in await store.active_facts(GUILD_A) if f.source_message_id == "101"}
    assert facts == {f"Sarah said: {EDITED[:60]}"}

    line = "I now prefer kayaking on the lake # not a heading / and a pipe"
    assert logs(data_dir) == {
        name: text.replace(SAILING, line) for name, text in before.items()
    }  # in place, everything else byte for byte
    assert all(
        not t.startswith("#") or t.startswith("# Daily")
        for t in logs(data_dir)[f"{DAY1}.md"].split("\n")
    )
    found = await Retriever(store).messages(GUILD_A, "kayaking")
    assert [h.message.message_id for h in found] == ["101"]
    assert await Retriever(store).messages(GUILD_A, "fjord") == []
    assert "fjord" not in snapshot(data_dir) and "kayaking" in snapshot(data_dir)
    assert "fjord" in "".join(logs(data_dir, GUILD_B).values())  # B's 101 is another message


async def test_edit_without_a_running_queue_leaves_the_job_pending(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    async with IngestQueue(store, journal=journals) as running:
        await ingest(running, [item(101, SAILING)])
    await store.requeue_jobs(GUILD_A, ["done"])  # attempts count up: reset by the edit
    await store.finish_jobs([], [(1, "boom")])
    idle = IngestQueue(store, journal=journals)  # never started (like the CLI)

    outcome = await idle.edit_message(GUILD_A, "101", "I sail no more")

    assert outcome is not None and outcome.changed
    assert rows(data_dir, "SELECT status, attempts, last_error FROM ingest_jobs") == [
        ("pending", 0, None)
    ]
    assert await store.pending_count(GUILD_A) == 1


async def test_edit_of_unknown_foreign_or_unchanged_messages(
    seeded: IngestQueue, store: Store, journals: Journals, data_dir: Path
) -> None:
    files_a, files_b = logs(data_dir), logs(data_dir, GUILD_B)
    facts = await store.active_facts(GUILD_A)

    assert await edit_message(store, journals, seeded, GUILD_A, "999", "x y z") == EditSummary()
    assert await edit_message(store, journals, seeded, GUILD_A, "555", "hijack") == EditSummary()
    unchanged = await edit_message(store, journals, seeded, GUILD_A, "101", SAILING)
    assert unchanged == EditSummary(found=True)
    assert await store.edit_message(GUILD_A, "999", "x") is None

    only_b = await store.get_message(GUILD_B, "555")
    assert only_b is not None and only_b.content == "a message that only guild B has"
    assert logs(data_dir) == files_a and logs(data_dir, GUILD_B) == files_b
    assert await store.active_facts(GUILD_A) == facts
    assert await store.job_status(GUILD_A, "101") == ("done", None)


async def test_an_edit_during_extraction_wins_over_the_old_text(
    store: Store, journals: Journals, data_dir: Path
) -> None:
    gate = asyncio.Event()
    extractor = RecordingExtractor(gate=gate)
    async with IngestQueue(
        store, extractor=extractor, journal=journals, fact_filter=keep_fact
    ) as q:
        await q.submit(item(301, "I collect antique maps of the arctic"))
        await extractor.started.wait()
        await edit_message(store, journals, q, GUILD_A, "301", "I collect old train tickets")
        gate.set()
        await q.join()
    assert [m.text for m in extractor.messages] == [
        "I collect antique maps of the arctic",
        "I collect old train tickets",
    ]
    assert [f.fact for f in await store.active_facts(GUILD_A)] == [
        "Sarah said: I collect old train tickets"
    ]
    assert await store.job_status(GUILD_A, "301") == ("done", None)
    assert "antique" not in "".join(logs(data_dir).values())
    assert "old train tickets" in "".join(logs(data_dir).values())


# --- the store's guards -------------------------------------------------------------------------


async def test_facts_of_a_job_whose_message_went_are_not_stored(store: Store) -> None:
    from memory.extraction import SourceMessage
    from memory.models import CandidateFact

    outcome = await store.insert_messages([item(1, "I bake sourdough bread")], live=True)
    (row_id,) = outcome.row_ids.values()
    await store.delete_message(GUILD_A, "1")
    origin = SourceMessage("1", GUILD_A, CHANNEL_A, SARAH.id, SARAH.name, "x", "t")
    fact = CandidateFact(SARAH.id, "Sarah bakes sourdough bread", "other", 0.9, "", "1")

    await store.finish_jobs([row_id], [], [(origin, fact)])

    assert await store.active_facts(GUILD_A) == []


# --- the journals' side -------------------------------------------------------------------------


def stored_message(row_id: int, text: str, day: str = DAY2) -> StoredMessage:
    return StoredMessage(
        row_id, GUILD_A, CHANNEL_A, str(row_id), SARAH.id, SARAH.name, text, "text", at(day, row_id)
    )


async def test_a_copy_the_queue_has_not_journaled_yet_is_never_written(
    journals: Journals, data_dir: Path
) -> None:
    one, two, three = (stored_message(i, f"message number {i}") for i in (1, 2, 3))
    edited = two._replace(content="message number two, edited")

    assert await journals.forget_lines(GUILD_A, [one]) == 0  # no log yet: nothing, no error
    assert await journals.rewrite_line(GUILD_A, two, edited) is False
    await journals.append([one, two, three])

    assert logs(data_dir) == {
        f"{DAY2}.md": f"# Daily Memory Log {DAY2}\n\n"
        f"- {two.created_at} | Sarah ({SARAH.id}) | [guild:{GUILD_A} channel:{CHANNEL_A}] "
        "message number two, edited\n"
        f"- {three.created_at} | Sarah ({SARAH.id}) | [guild:{GUILD_A} channel:{CHANNEL_A}] "
        "message number 3\n"
    }
    await journals.append([stored_message(4, "message number 4")])  # overrides are done with
    assert "message number 4" in logs(data_dir)[f"{DAY2}.md"]


async def test_forget_lines_of_another_guild_are_ignored(
    journals: Journals, data_dir: Path
) -> None:
    message = stored_message(1, "message number 1")
    await journals.append([message])
    before = logs(data_dir)
    assert await journals.forget_lines(GUILD_B, [message]) == 0
    assert logs(data_dir) == before


# --- the command line -----------------------------------------------------------------------


def forget_cli(data: Path, *args: str, answer: str | None = None) -> Any:
    """``memorybot --data-dir D forget …``, answering the confirmation with ``answer``."""
    return subprocess.run(
        [str(MEMORYBOT), "--data-dir", str(data), "forget", *args],
        env=cli_env(),
        input=answer,
        stdin=subprocess.DEVNULL if answer is None else None,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_cli_forget_asks_then_deletes_and_reports(tmp_path: Path) -> None:
    data = tmp_path / "data"
    export = write_export(
        tmp_path / "export.json",
        [
            export_message(1, "I work as a nurse at the children's hospital"),
            export_message(2, "I work as a carpenter in the old town", author=MIKE),
        ],
    )
    assert run_cli(data, "import", str(export)).returncode == 0
    who = ("--guild", GUILD_A, "--user", SARAH.id)

    declined = forget_cli(data, *who, answer="n\n")
    assert declined.returncode == 1
    assert "aborted: nothing was deleted" in declined.stderr
    no_answer = forget_cli(data, *who)  # end of input: a no
    assert no_answer.returncode == 1
    assert stats_json(data)[GUILD_A]["messages"] == 2

    bad = forget_cli(data, "--guild", GUILD_A, "--user", "sarah", "--yes")
    assert bad.returncode == 2 and "not a Discord id" in bad.stderr

    done = forget_cli(data, *who, "--yes", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["messages"] == 1 and report["messageIds"] == [export_id(1)]
    assert report["facts"] >= 1 and report["journalLines"] == 1 and report["members"] == 1
    assert stats_json(data)[GUILD_A]["messages"] == 1
    journals_dir = data / "journals" / GUILD_A
    for path in journals_dir.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        assert "nurse" not in text and SARAH.id not in text
    assert "carpenter" in (journals_dir / "MEMORY.md").read_text(encoding="utf-8")

    again = forget_cli(data, *who, answer="y\n")
    assert again.returncode == 0, again.stderr
    assert "nothing was stored, nothing deleted" in again.stdout
