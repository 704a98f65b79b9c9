"""One set of behaviour tests for every storage backend: the SQLite ``Store`` and the
PostgreSQL backend (``memory.storage.postgres``, against a real server started by the
``postgres`` fixture). Tests of memory as a whole run on both through
``conftest.each_backend``."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import numpy as np
import pytest

from memory.audit import MAX_DETAIL, MemoryEvent
from memory.errors import StoreError
from memory.extraction.lore import Origin
from memory.models import LORE_SUBJECT, CandidateFact, MemberProfile, canonical_time, utc_iso
from memory.search.fts import query_tokens, term_groups
from memory.storage.placing import FACT_CAP, LORE_FACT_CAP, Lifecycle
from memory.storage.postgres.connection import shown
from memory.storage.postgres.store import PostgresStore
from memory.storage.store import Store
from memory.storage.windows import Narrow, Window
from tests.helpers import CHANNEL_A, CHANNEL_B, GUILD_A, GUILD_B, MIKE, SARAH, item
from tests.test_fact_lifecycle import EARLY, LATE, MIDDLE, judge

GUILD, OTHER = "111111111111111111", "222222222222222222"
KAI, MIA = "333333333333333333", "444444444444444444"


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, data_dir: Path) -> AsyncIterator[Any]:
    store = await _opener(request, data_dir)()
    try:
        yield store
    finally:
        await store.close()


def _opener(request: pytest.FixtureRequest, data_dir: Path) -> Callable[[], Awaitable[Any]]:
    """Opens a store of the backend ``request`` names, on one database each time."""
    if request.param == "sqlite":
        return lambda: Store.open(data_dir / "memory.db")
    url = request.getfixturevalue("postgres_url")
    return lambda: PostgresStore.open(url)


async def test_guilds_are_listed_with_their_names(backend: Any) -> None:
    assert await backend.guild_ids() == []
    await backend.record_guild(OTHER, "Other place")
    await backend.record_guild(GUILD, "Book club")
    await backend.record_guild(GUILD, "Book club (renamed)")
    assert await backend.guild_ids() == [GUILD, OTHER]
    assert await backend.guild_name(GUILD) == "Book club (renamed)"
    assert await backend.guild_name("555555555555555555") == "555555555555555555"


async def test_members_are_upserted_per_guild_keeping_a_known_username(backend: Any) -> None:
    before = backend.members_version
    await backend.record_members(GUILD, [(KAI, "Kai", "kai_k"), (MIA, "Mia", "")])
    await backend.record_members(GUILD, [(KAI, "Kai R.", "")])  # no username: keep kai_k
    await backend.record_members(OTHER, [(KAI, "Kai elsewhere", "kai_k")])
    assert backend.members_version > before
    assert sorted(await backend.members(GUILD)) == [(KAI, "Kai R.", "kai_k"), (MIA, "Mia", "")]
    assert await backend.member_names(GUILD) == {KAI: "Kai R.", MIA: "Mia"}
    assert await backend.member_names(OTHER) == {KAI: "Kai elsewhere"}
    version = backend.members_version
    await backend.record_members(GUILD, [])
    assert backend.members_version == version  # nothing written, nothing moved


async def test_opting_out_and_in_is_per_guild_and_says_whether_it_changed(backend: Any) -> None:
    assert await backend.opted_out(GUILD) == frozenset()
    assert await backend.opt_out(GUILD, KAI) is True
    assert await backend.opt_out(GUILD, KAI) is False  # already
    assert await backend.opted_out(GUILD) == {KAI}
    assert await backend.opted_out(OTHER) == frozenset()
    assert await backend.opt_in(GUILD, KAI) is True
    assert await backend.opt_in(GUILD, KAI) is False
    assert await backend.opted_out(GUILD) == frozenset()


async def test_guild_settings_keep_json_values(backend: Any) -> None:
    assert await backend.guild_settings(GUILD) == {}
    await backend.set_guild_setting(GUILD, "ignored_channels", ["1", "2"])
    await backend.set_guild_setting(GUILD, "notice_posted", True)
    await backend.set_guild_setting(GUILD, "ignored_channels", ["3"])
    await backend.set_guild_setting(OTHER, "limits", {"a": 1, "b": None})
    settings = await backend.guild_settings(GUILD)
    assert settings == {"ignored_channels": ["3"], "notice_posted": True}
    settings["notice_posted"] = False  # a copy: the store's own is untouched
    assert (await backend.guild_settings(GUILD))["notice_posted"] is True
    assert await backend.guild_settings(OTHER) == {"limits": {"a": 1, "b": None}}


async def test_versions_name_the_database(backend: Any) -> None:
    versions = await backend.versions()
    assert versions and all(isinstance(v, str) and v for v in versions.values())


def at(minute: int) -> str:
    return f"2026-10-12T18:{minute:02d}:00.000+00:00"


async def test_a_stored_batch_gets_rows_in_order_and_pending_jobs(backend: Any) -> None:
    authors = [MIKE, SARAH]
    batch = [item(n, f"message {n}", created_at=at(n), author=authors[n % 2])
             for n in range(1, 21)]  # fmt: skip
    # (more than a live batch: the bulk path; a message twice in one call is stored once)
    outcome = await backend.insert_messages([*batch, batch[3]], live=False)
    assert [i.message_id for i in outcome.new] == [str(n) for n in range(1, 21)]
    assert list(outcome.rows) == sorted(outcome.rows) and len(set(outcome.rows)) == 20
    assert outcome.existing == {}
    assert await backend.count_messages(GUILD_A) == 20
    assert await backend.pending_count(GUILD_A) == 20
    assert await backend.job_status(GUILD_A, "7") == ("pending", None)
    stored = await backend.get_message(GUILD_A, "7")
    assert stored is not None and stored.content == "message 7" and stored.created_at == at(7)
    assert stored.author_id == SARAH.id and stored.author_name == "Sarah"
    assert stored.row_id == outcome.rows[6] and stored.source == "text"
    assert await backend.member_names(GUILD_A) == {SARAH.id: "Sarah", MIKE.id: "Mike"}
    assert GUILD_A in await backend.guild_ids()


async def test_messages_stored_before_are_reported_with_their_job_status(backend: Any) -> None:
    first = await backend.insert_messages([item(1), item(2)], live=True, closed={(GUILD_A, "2")})
    assert len(first.new) == 2
    assert await backend.job_status(GUILD_A, "2") == ("done", None)
    again = await backend.insert_messages([item(1), item(2), item(3)], live=True)
    assert [i.message_id for i in again.new] == ["3"]
    assert again.existing == {(GUILD_A, "1"): "pending", (GUILD_A, "2"): "done"}
    closed = await backend.insert_messages([item(n) for n in range(4, 14)], live=False,
                                           closed="all")  # fmt: skip
    assert len(closed.new) == 10 and await backend.pending_count(GUILD_A) == 2
    assert await backend.job_status(GUILD_A, "missing") is None


async def test_messages_are_read_by_row_and_kept_per_guild(backend: Any) -> None:
    here = await backend.insert_messages([item(1, "ours"), item(2, "ours too")], live=True)
    there = await backend.insert_messages([item(1, "theirs", guild_id=GUILD_B)], live=True)
    assert await backend.get_message(GUILD_B, "1") is not None
    assert (await backend.get_message(GUILD_A, "1")).content == "ours"
    assert await backend.get_message(GUILD_A, "3") is None
    found = await backend.messages_by_rows(GUILD_A, [*here.rows, *there.rows])
    assert sorted(m.content for m in found) == ["ours", "ours too"]  # not the other guild's
    assert await backend.count_messages(GUILD_B) == 1


async def test_recent_messages_and_neighbours_follow_the_channel_in_time(backend: Any) -> None:
    # said out of order; two at the same minute (then by arrival); another channel between
    said = [5, 1, 3, 2, 4, 3]
    items = [item(f"a{n}-{i}", f"turn {n}", created_at=at(n)) for i, n in enumerate(said)]
    items.append(item("b", "elsewhere", channel_id=CHANNEL_B, created_at=at(3)))
    await backend.insert_messages(items, live=False)
    recent = await backend.recent_messages(GUILD_A, CHANNEL_A, 4)
    assert [m.message_id for m in recent] == ["a3-2", "a3-5", "a4-4", "a5-0"]
    older = await backend.recent_messages(GUILD_A, CHANNEL_A, 2, before="a3-5")
    assert [m.message_id for m in older] == ["a2-3", "a3-2"]
    middle = await backend.get_message(GUILD_A, "a3-5")
    first = await backend.get_message(GUILD_A, "a1-1")
    (around, edge) = await backend.neighbours(GUILD_A, [middle, first], before=2, after=1)
    assert [m.message_id for m in around[0]] == ["a2-3", "a3-2"]
    assert [m.message_id for m in around[1]] == ["a4-4"]
    assert edge[0] == [] and [m.message_id for m in edge[1]] == ["a2-3"]
    assert await backend.neighbours(GUILD_A, [], before=2, after=2) == []


async def searchable(backend: Any, rows: Sequence[int]) -> None:
    """SQLite indexes messages as the journal cursor passes them; PostgreSQL as they come."""
    if isinstance(backend, Store):
        await backend.mark_journaled_through(max(rows))


def words(query: str) -> tuple[frozenset[str], ...]:
    """A query's term groups, as the search asks for them."""
    return tuple(g.forms for g in term_groups(query_tokens(query)))


async def test_the_queue_takes_the_oldest_jobs_and_journals_each_message_once(
    backend: Any,
) -> None:
    trace = {"source": "import", "file": "export.json"}
    rows = list((await backend.insert_messages(
        [item(n, f"message {n}")._replace(trace=trace) for n in range(1, 6)], live=False,
        closed={(GUILD_A, "2")},
    )).rows)  # fmt: skip
    jobs = await backend.claim_pending(3)
    assert [j.job_id for j in jobs] == [rows[0], rows[2], rows[3]]  # 2 was closed
    assert jobs[0].trace == trace and not jobs[0].live and jobs[0].message.content == "message 1"
    assert [m.row_id for m in await backend.unjournaled_messages(10)] == rows
    await backend.mark_journaled(await backend.unjournaled_messages(3))
    assert [m.message_id for m in await backend.unjournaled_messages(10)] == ["4", "5"]
    await backend.mark_journaled(await backend.unjournaled_messages(10))
    assert await backend.unjournaled_messages(10) == []


async def test_pending_jobs_are_listed_in_order_and_dropped_by_key(backend: Any) -> None:
    await backend.insert_messages([item(1), item(2)], live=True)
    await backend.insert_messages([item(3), item(1, guild_id=GUILD_B)], live=False)
    await backend.insert_messages([item(4)], live=False, closed="all")
    assert await backend.pending_keys() == [
        (GUILD_A, "1", True), (GUILD_A, "2", True), (GUILD_A, "3", False), (GUILD_B, "1", False)
    ]  # fmt: skip
    await backend.drop_jobs([(GUILD_A, "2"), (GUILD_B, "1"), (GUILD_A, "4"), (GUILD_A, "9")],
                            "too long")  # fmt: skip
    assert await backend.job_status(GUILD_A, "2") == ("dropped", "too long")
    assert await backend.job_status(GUILD_A, "4") == ("done", None)  # only pending ones
    assert [k[:2] for k in await backend.pending_keys()] == [(GUILD_A, "1"), (GUILD_A, "3")]
    assert await backend.count_messages(GUILD_A) == 4  # the messages stay


async def test_every_message_is_read_a_page_at_a_time(backend: Any) -> None:
    rows = list((await backend.insert_messages([item(n) for n in range(5)], live=False)).rows)
    await backend.insert_messages([item(9, guild_id=GUILD_B)], live=False)
    first = await backend.messages_after(0, 3, GUILD_A)
    rest = await backend.messages_after(first[-1].row_id, 3, GUILD_A)
    assert [m.row_id for m in first + rest] == rows
    everyone = await backend.messages_after(rows[-1], 10)
    assert [(m.guild_id, m.message_id) for m in everyone] == [(GUILD_B, "9")]
    await backend.optimize_search()


async def test_full_text_windows_find_the_newest_matches_of_any_script(backend: Any) -> None:
    said = [
        item(1, "I love pottery"), item(2, "pottery class on tuesday"), item(3, "fresh bread"),
        item(4, "Café crème at noon"), item(5, "東京で働く看護師です"),
        item(6, "pottery in the other channel", channel_id=CHANNEL_B, author=MIKE),
        item(7, "j'adore la poterie d'été"),
    ]  # fmt: skip
    rows = list((await backend.insert_messages(said, live=False)).rows)
    theirs = await backend.insert_messages([item(1, "pottery", guild_id=GUILD_B)], live=False)
    await searchable(backend, [*rows, *theirs.rows])
    r = dict(zip(range(1, 8), rows, strict=True))
    asked = [
        Window(None, 100), Window(None, 1, ascending=True), Window(words("pottery"), 2),
        Window(words("cafe"), 5), Window(words("東京"), 5), Window(words("ete"), 5),
        Window(words("pottery bread"), 10, narrow=Narrow("channel_id", (CHANNEL_B,))),
        Window(words("pottery"), 10, narrow=Narrow("author_id", (SARAH.id, "x' OR '1"))),
        Window(words("potteries"), 10), Window((frozenset({"it's", "a\\b", '"'}),), 10),
    ]  # fmt: skip
    found = await backend.fts_windows("messages", GUILD_A, asked)
    assert found == [
        sorted(rows, reverse=True), [r[1]], [r[6], r[2]], [r[4]], [r[5]], [r[7]], [r[6]],
        [r[2], r[1]], [r[6], r[2], r[1]], [],
    ]  # fmt: skip
    assert await backend.fts_windows("messages", GUILD_B, [Window(words("pottery"), 5)]) == [
        list(theirs.rows)
    ]


async def test_windows_over_a_long_history_find_every_span_newest_first(backend: Any) -> None:
    # 6,000 messages: row ids past several of PostgreSQL's spans (``words.SPANS``); a word
    # said all along, one said a few times long ago and once lately, one said once, first;
    # another guild's messages between them.
    said = []
    for n in range(6000):
        text = "daily chatter" + (" pottery" if n % 3 == 0 else "")
        text += " kiln" if n in (5, 40, 2500, 5990) else ""
        said.append(item(n, text + (" glaze" if n == 0 else "")))
        if n % 1000 == 500:
            said.append(item(n, "pottery kiln glaze", guild_id=GUILD_B))
    rows = list((await backend.insert_messages(said, live=False)).rows)
    await searchable(backend, rows)
    mine = [row for row, item_ in zip(rows, said, strict=True) if item_.guild_id == GUILD_A]
    pottery = [row for n, row in enumerate(mine) if n % 3 == 0][::-1]
    asked = [
        Window(words("pottery"), 50), Window(words("pottery"), 5000), Window(words("kiln"), 10),
        Window(words("kiln"), 2), Window(words("glaze"), 10), Window(words("nothing"), 10),
        Window(words("kiln"), 10, narrow=Narrow("author_id", (SARAH.id,))),
    ]  # fmt: skip
    found = await backend.fts_windows("messages", GUILD_A, asked)
    kiln = [mine[5990], mine[2500], mine[40], mine[5]]
    assert found == [pottery[:50], pottery, kiln, kiln[:2], [mine[0]], [], kiln]


async def test_lore_is_stored_said_again_and_capped(backend: Any) -> None:
    said = "2026-10-12T18:03:11.123+00:00"
    first = await backend.remember_line(
        GUILD_A,
        "The book club meets on Tuesdays.",
        channel_id=CHANNEL_A,
        said_at=said,
        author_id=SARAH.id,
    )
    assert "book club meets on Tuesdays" in first.fact
    await backend.remember_line(GUILD_A, "The book club meets on Tuesdays.")  # the same again
    (kept,) = await backend.active_facts(GUILD_A)
    assert (kept.subject, kept.fact, kept.said_at, kept.times_seen) == (
        LORE_SUBJECT, first.fact, said, 1
    )  # fmt: skip
    assert kept.channel_id == CHANNEL_A and kept.is_active and kept.last_seen_at > said
    again = await backend.remember_line(
        GUILD_A, "The book club meets on Tuesdays", source_message_id="900"
    )  # another message says it
    (kept,) = await backend.active_facts(GUILD_A)
    assert kept.times_seen == 2 and kept.confidence > first.confidence
    assert kept.source_message_id is None and again.source_message_id == "900"
    stored = [e for e in await backend.events(GUILD_A) if e.kind == "fact.stored"]
    assert [(e.object_id, e.actor) for e in stored] == [(str(kept.id), SARAH.id)]
    for n in range(LORE_FACT_CAP + 1):
        await backend.remember_line(
            GUILD_A,
            f"Rule number {n} of the server",
            said_at=f"2026-10-{1 + n % 28:02d}T00:00:00.000+00:00",
        )
    assert await backend.count_active_facts(GUILD_A) == LORE_FACT_CAP
    assert await backend.count_subjects(GUILD_A) == 1 and await backend.count_subjects(GUILD_B) == 0
    archived = [e for e in await backend.events(GUILD_A, limit=500) if e.kind == "fact.archived"]
    assert len(archived) == 2
    gone = [int(e.object_id) for e in archived]
    assert await backend.facts_by_ids(GUILD_A, gone) == []
    old = await backend.facts_by_ids(GUILD_A, gone, archived=True)
    assert sorted(f.id for f in old) == sorted(gone) and not any(f.is_active for f in old)
    assert len(await backend.facts_of(GUILD_A, [LORE_SUBJECT, SARAH.id])) == LORE_FACT_CAP
    assert await backend.facts_by_ids(GUILD_B, [kept.id], archived=True) == []  # other guild
    ordered = await backend.active_facts(GUILD_A)
    assert [(f.subject, -f.confidence, f.id) for f in ordered] == sorted(
        (f.subject, -f.confidence, f.id) for f in ordered
    )


def said(text: str, when: str, source: str, who: str = SARAH.id) -> tuple[Origin, CandidateFact]:
    return Origin(GUILD_A, CHANNEL_A, when), CandidateFact(who, text, "profile", 0.8, text, source)


async def test_extracted_facts_supersede_merge_and_close_their_jobs(backend: Any) -> None:
    backend.lifecycle = Lifecycle(judge=judge)
    stored = await backend.insert_messages([item(1), item(2), item(3)], live=True)
    job = list(stored.rows)
    await backend.finish_jobs([job[0]], facts=[said("Sarah lives in Boston", EARLY, "1")])
    await backend.finish_jobs([job[1]], facts=[said("Sarah lives in Denver", LATE, "2")])
    await backend.finish_jobs([job[2]], facts=[said("Sarah lives in Austin", MIDDLE, "3")])
    await backend.finish_jobs([], facts=[said("Sarah plays the clarinet", EARLY, "4")])
    await backend.finish_jobs([], facts=[said("Sarah plays clarinet", LATE, "5")])
    await backend.finish_jobs([job[0]], facts=[said("Sarah lives in Paris", LATE, "1")])
    assert await backend.job_status(GUILD_A, "1") == ("done", None)
    active = {f.fact: f for f in await backend.active_facts(GUILD_A)}
    assert set(active) == {"Sarah lives in Denver", "Sarah plays the clarinet"}  # not Paris:
    assert active["Sarah plays the clarinet"].times_seen == 2  # its job was closed already
    denver = active["Sarah lives in Denver"].id
    events = await backend.events(GUILD_A, limit=100)
    gone = [int(e.object_id) for e in events if e.kind == "fact.superseded"]
    old = {f.fact: f for f in await backend.facts_by_ids(GUILD_A, gone, archived=True)}
    assert set(old) == {"Sarah lives in Boston", "Sarah lives in Austin"}  # Austin: said earlier
    assert all((f.superseded_by, f.valid_until) == (denver, LATE) for f in old.values())
    assert any(e.kind == "fact.reinforced" for e in events)


async def test_an_imports_facts_are_judged_whole_once_idle(backend: Any) -> None:
    backend.lifecycle = Lifecycle(judge=judge)
    facts = [said("Mike lives in Oslo", EARLY, "1", MIKE.id),
             said("Mike lives in Rome", LATE, "2", MIKE.id),
             said("Sarah lives in Lima", EARLY, "3")]  # fmt: skip
    changed = await backend.finish_jobs([], facts=facts, judge_later=True)
    assert changed == {(GUILD_A, MIKE.id), (GUILD_A, SARAH.id)}
    assert await backend.count_active_facts(GUILD_A) == 3  # not judged yet
    assert await backend.count_waiting(GUILD_A) == 2 == await backend.count_waiting()
    settled = await backend.settle_waiting(8)
    assert sorted(settled) == sorted(changed)
    assert await backend.count_waiting() == 0 and await backend.settle_waiting(8) == []
    active = sorted(f.fact for f in await backend.active_facts(GUILD_A))
    assert active == ["Mike lives in Rome", "Sarah lives in Lima"]


async def test_moderators_review_edit_and_delete_facts(backend: Any) -> None:
    await backend.finish_jobs([], facts=[
        said("Sarah works as a nurse", EARLY, "1"), said("Sarah owns a kiln", MIDDLE, "2"),
        said("Mike plays bass", LATE, "3", MIKE.id),
    ])  # fmt: skip
    await backend.remember_line(GUILD_A, "Movie night is on Fridays", author_id=SARAH.id)
    newest = await backend.review_facts(GUILD_A)
    assert [f.id for f in newest] == sorted((f.id for f in newest), reverse=True)
    assert len(newest) == 4 and len(await backend.review_facts(GUILD_A, limit=2)) == 2
    page = await backend.review_facts(GUILD_A, before_id=newest[1].id)
    assert [f.id for f in page] == [f.id for f in newest[2:]]
    sarahs = await backend.review_facts(GUILD_A, subject=SARAH.id)
    assert sorted(f.fact for f in sarahs) == ["Sarah owns a kiln", "Sarah works as a nurse"]
    kiln = next(f for f in sarahs if "kiln" in f.fact)
    nurse = next(f for f in sarahs if "nurse" in f.fact)
    edited = await backend.edit_fact(GUILD_A, kiln.id, text="Sarah owns two kilns",
                                     fact_type="project")  # fmt: skip
    assert edited is not None and (edited.fact, edited.fact_type) == ("Sarah owns two kilns",
                                                                      "project")  # fmt: skip
    by_word = await backend.fts_windows(
        "facts", GUILD_A, [Window(words("kilns"), 5), Window(words("nurse"), 5)]
    )
    assert by_word == [[kiln.id], [nurse.id]]  # the new text's words; the evidence's
    with pytest.raises(ValueError, match="another fact"):
        await backend.edit_fact(GUILD_A, kiln.id, text="Sarah works as a nurse")
    assert await backend.edit_fact(GUILD_B, kiln.id, active=False) is None  # not that guild's
    archived = await backend.edit_fact(GUILD_A, nurse.id, active=False)
    assert archived is not None and not archived.is_active
    assert len(await backend.review_facts(GUILD_A)) == 3
    assert len(await backend.review_facts(GUILD_A, archived=True)) == 4
    about, wrote = await backend.member_facts(GUILD_A, SARAH.id)
    assert [f.fact for f in about] == ["Sarah works as a nurse", "Sarah owns two kilns"]
    assert [f.subject for f in wrote] == [LORE_SUBJECT]
    snapshot = await backend.snapshot_facts(GUILD_A, 2)
    assert len(snapshot) == 2 and all(f.is_active for f in snapshot)
    assert await backend.delete_fact(GUILD_B, kiln.id) is False
    assert await backend.delete_fact(GUILD_A, kiln.id) is True
    assert await backend.delete_fact(GUILD_A, kiln.id) is False
    assert await backend.facts_by_ids(GUILD_A, [kiln.id], archived=True) == []


async def test_stats_count_and_jobs_go_back_to_the_queue(backend: Any) -> None:
    await backend.record_guild(GUILD_A, "Book club")
    rows = list((await backend.insert_messages([item(n) for n in range(1, 6)], live=True)).rows)
    await backend.finish_jobs([rows[0]], facts=[said("Sarah works as a nurse", EARLY, "1")])
    await backend.finish_jobs([], [(rows[1], "the model answered nonsense")])
    await backend.drop_jobs([(GUILD_A, "3")], "too long")
    await backend.remember_line(GUILD_A, "Movie night is on Fridays")
    stats = await backend.stats(GUILD_A)
    assert (stats.name, stats.messages, stats.facts, stats.active_facts) == (
        "Book club", 5, 2, 2
    )  # fmt: skip
    assert (stats.pending_jobs, stats.dropped_jobs, stats.failed_jobs) == (2, 1, 1)
    assert await backend.job_status(GUILD_A, "2") == ("failed", "the model answered nonsense")
    with pytest.raises(ValueError, match="not job statuses"):
        await backend.requeue_jobs(GUILD_A, ["lost"])
    assert await backend.requeue_jobs(GUILD_A, ["failed", "dropped"]) == 2
    assert await backend.requeue_jobs(GUILD_B, ["done"]) == 0
    assert await backend.requeue_jobs(GUILD_A, ["done"]) == 1  # extracted again: its fact
    assert [f.subject for f in await backend.active_facts(GUILD_A)] == [LORE_SUBJECT]  # goes
    assert (await backend.stats(GUILD_A)).pending_jobs == 5


async def test_a_members_paragraph_is_current_while_its_facts_are(backend: Any) -> None:
    await backend.finish_jobs([], facts=[
        said("Sarah works as a nurse", EARLY, "1"), said("Sarah owns a kiln", MIDDLE, "2"),
    ])  # fmt: skip
    ids = tuple(sorted(f.id for f in await backend.active_facts(GUILD_A)))
    written = utc_iso()
    profile = MemberProfile(GUILD_A, SARAH.id, "Sarah is a nurse who owns a kiln.", ids,
                            "digest-1", "model-x", written)  # fmt: skip
    event = MemoryEvent(GUILD_A, "profile.written", subject=SARAH.id)
    with pytest.raises(ValueError, match="belongs to its guild"):
        await backend.write_member_profile(profile, event._replace(guild_id=GUILD_B))
    await backend.write_member_profile(profile, event)
    (shown,) = await backend.member_profiles(GUILD_A)
    assert shown == profile and shown.current
    assert [e.kind for e in await backend.events(GUILD_A, kinds=["profile.written"])] == [
        "profile.written"
    ]  # fmt: skip
    await backend.edit_fact(GUILD_A, ids[1], active=False)  # a cited fact archived
    (shown,) = await backend.member_profiles(GUILD_A)
    assert not shown.current
    await backend.write_member_profile(
        replace(profile, fact_ids=ids[:1], paragraph="Sarah is a nurse."), event
    )
    (shown,) = await backend.member_profiles(GUILD_A)
    assert shown.current and shown.paragraph == "Sarah is a nurse." and shown.fact_ids == ids[:1]
    assert await backend.member_profiles(GUILD_B) == []


async def test_fact_vectors_are_stored_found_nearest_and_dropped_with_their_text(
    backend: Any,
) -> None:
    await backend.finish_jobs([], facts=[said(f"Sarah likes thing {n}", EARLY, str(n))
                                         for n in range(6)])  # fmt: skip
    await backend.finish_jobs([], facts=[(Origin(GUILD_B, CHANNEL_A, EARLY), CandidateFact(
        MIKE.id, "Mike likes maps", "preference", 0.8, "", "9"))])  # fmt: skip
    ids = sorted(f.id for f in await backend.active_facts(GUILD_A))
    (theirs,) = [f.id for f in await backend.active_facts(GUILD_B)]
    assert await backend.count_missing_vectors(GUILD_A, "m") == 6
    missing = await backend.facts_missing_vectors(GUILD_A, "m", 2)
    assert [i for i, _ in missing] == ids[:2] and "Sarah likes thing 0" in missing[0][1]
    rng = np.random.default_rng(3)
    vectors = {i: rng.normal(size=8).astype(np.float32) for i in [*ids, theirs]}
    with pytest.raises(ValueError, match="multiple of 4"):
        await backend.store_fact_vectors(GUILD_A, "m", [(ids[0], 8, b"abc")])
    stored = await backend.store_fact_vectors(
        GUILD_A, "m", [(i, 8, vectors[i].tobytes()) for i in [*ids[:5], theirs]]
    )
    assert stored == 5  # not the other guild's fact
    with pytest.raises(ValueError, match="dims"):
        await backend.store_fact_vectors(GUILD_A, "m", [(ids[5], 4, vectors[ids[5]][:4].tobytes())])
    assert await backend.missing_vector_ids(GUILD_A, "m", 10) == [ids[5]]
    assert dict(await backend.fact_vectors(GUILD_A, "m")) == {
        i: vectors[i].tobytes() for i in ids[:5]
    }  # fmt: skip
    assert dict(await backend.fact_vectors_of(GUILD_A, "m", [ids[0], theirs])) == {
        ids[0]: vectors[ids[0]].tobytes()
    }  # fmt: skip
    query = vectors[ids[2]] + 0.01
    for exact in (True, False):
        found = await backend.nearest_facts(GUILD_A, "m", query.tobytes(), 3, exact=exact)
        assert next(iter(found.similarities)) == ids[2] and len(found.similarities) == 3
        assert found.similarities[ids[2]] == pytest.approx(1.0, abs=0.01)
    assert (await backend.nearest_facts(GUILD_A, "m", b"1234", 3)).similarities == {}
    assert (await backend.nearest_facts(GUILD_A, "other", query.tobytes(), 3)).similarities == {}
    await backend.edit_fact(GUILD_A, ids[2], text="Sarah likes something else")
    assert ids[2] in await backend.missing_vector_ids(GUILD_A, "m", 10)  # embedded again
    await backend.delete_fact(GUILD_A, ids[3])
    assert ids[3] not in dict(await backend.fact_vectors(GUILD_A, "m"))


async def test_a_backfill_settles_facts_stored_before_the_rules(backend: Any) -> None:
    await backend.insert_messages([item(1), item(2, author=MIKE), item(3)], live=False)
    await backend.finish_jobs([], facts=[  # stored with the rules off: nothing judged
        said("Sarah lives in Oslo", EARLY, "1"), said("Sarah lives in Rome", LATE, "2"),
        said("Sarah plays the oboe", EARLY, "3"), said("Sarah plays oboe", MIDDLE, "4"),
        said("Mike lives in Lima", EARLY, "5", MIKE.id),
    ])  # fmt: skip
    lore = await backend.remember_line(GUILD_A, "Movie night is on Fridays")
    assert await backend.count_active_facts(GUILD_A) == 6
    backend.lifecycle = Lifecycle(judge=judge)
    done: list[int] = []
    counts = await backend.settle_facts(GUILD_A, done.append)
    assert counts == {"merged": 1, "superseded": 1, "archived": 0} and len(done) == 3
    active = sorted(f.fact for f in await backend.active_facts(GUILD_A))
    assert active == sorted(
        [lore.fact, "Mike lives in Lima", "Sarah lives in Rome", "Sarah plays the oboe"]
    )
    (oboe,) = [f for f in await backend.active_facts(GUILD_A) if "oboe" in f.fact]
    assert oboe.times_seen == 2  # the paraphrase said later, merged into it
    by_sarah = await backend.messages_by_author(GUILD_A, SARAH.id)
    assert [m.message_id for m in by_sarah] == ["1", "3"]


async def test_deleting_editing_and_forgetting_take_what_came_from_it(backend: Any) -> None:
    from memory.search.embeddings import content_hash
    from memory.storage.vectors_sql import fact_embedding_text

    backend.lifecycle = Lifecycle(judge=judge)
    mention = {"mentions": [[SARAH.id, "Sarah"], [KAI, "Kai"]]}
    await backend.insert_messages([
        item(1, "I work as a nurse"), item(2, "hi @Sarah", author=MIKE)._replace(trace=mention),
        item(3, "I moved to Oslo", author=MIKE), item(4, "now Rome", author=MIKE),
        item(5, "I keep bees"),
    ], live=False, closed="all")  # fmt: skip
    await backend.finish_jobs([], facts=[
        said("Sarah works as a nurse", EARLY, "1"), said("Mike lives in Oslo", EARLY, "3", MIKE.id),
        said("Mike lives in Rome", LATE, "4", MIKE.id), said("Sarah keeps bees", EARLY, "5"),
    ])  # fmt: skip
    await backend.remember_line(GUILD_A, "Sarah's rule: no spoilers", author_id=SARAH.id)
    facts = {f.fact: f for f in await backend.review_facts(GUILD_A, archived=True)}
    texts = {f.id: fact_embedding_text(f.fact_type, f.fact, f.evidence) for f in facts.values()}
    vector = np.ones(4, dtype=np.float32).tobytes()
    await backend.store_fact_vectors(GUILD_A, "m", [(i, 4, vector) for i in texts])
    await backend.cache_vectors("m", [(content_hash("m", t), vector) for t in texts.values()])

    gone = await backend.delete_message(GUILD_A, "4")  # Rome's source: Oslo holds again
    assert (gone.message_ids, gone.facts, gone.subjects) == (("4",), 1, (MIKE.id,))
    assert gone.vectors == 1 and await backend.get_message(GUILD_A, "4") is None
    active = {f.fact for f in await backend.active_facts(GUILD_A)}
    assert "Mike lives in Oslo" in active and "Mike lives in Rome" not in active
    rome = content_hash("m", texts[facts["Mike lives in Rome"].id])
    assert await backend.cached_vectors("m", [rome]) == {}  # "was this ever said?": no
    assert (await backend.delete_message(GUILD_A, "404")).message_ids == ()

    same = await backend.edit_message(GUILD_A, "5", "I keep bees")
    assert same is not None and not same.changed and same.facts == 0
    edited = await backend.edit_message(GUILD_A, "5", "I gave my bees away")
    assert edited is not None and edited.changed and (edited.facts, edited.vectors) == (1, 1)
    assert (await backend.get_message(GUILD_A, "5")).content == "I gave my bees away"
    assert await backend.job_status(GUILD_A, "5") == ("pending", None)
    assert await backend.edit_message(GUILD_B, "5", "x") is None

    forgot = await backend.forget_member(GUILD_A, SARAH.id)
    assert forgot.message_ids == ("1", "5") and forgot.members == 1 and forgot.mentions == 1
    assert forgot.facts == 2 and forgot.vectors == 2  # her nurse fact and her lore line
    assert await backend.messages_by_author(GUILD_A, SARAH.id) == []
    assert SARAH.id not in await backend.member_names(GUILD_A)
    left = {f.fact for f in await backend.review_facts(GUILD_A, archived=True)}
    assert left == {"Mike lives in Oslo"}
    assert (await backend.get_message(GUILD_A, "2")) is not None  # Mike's message stays
    assert await backend.cached_vectors("m", [content_hash("m", t) for t in texts.values()]) == {
        content_hash("m", texts[facts["Mike lives in Oslo"].id]): vector
    }  # fmt: skip


async def test_the_audit_log_reads_newest_first_by_kind_and_prunes_by_age(backend: Any) -> None:
    await backend.record_events([])
    await backend.record_events([
        MemoryEvent(GUILD_A, "fact.superseded", object_id="1"),
        MemoryEvent(GUILD_A, "member.forgotten", actor=SARAH.id, subject=MIKE.id),
        MemoryEvent(GUILD_B, "fact.superseded", object_id="9"),
        MemoryEvent(GUILD_A, "fact.merged", object_id="2", detail="x" * (MAX_DETAIL + 50)),
    ])  # fmt: skip
    newest = await backend.events(GUILD_A)
    assert [e.kind for e in newest] == ["fact.merged", "member.forgotten", "fact.superseded"]
    assert len(newest[0].detail) == MAX_DETAIL and newest[1].actor == SARAH.id
    assert newest[1].subject == MIKE.id and canonical_time(newest[0].at) == newest[0].at
    assert [e.object_id for e in await backend.events(GUILD_A, kinds=["fact.superseded"])] == ["1"]
    page = await backend.events(GUILD_A, limit=1, before=newest[0].id)
    assert [e.kind for e in page] == ["member.forgotten"]
    assert await backend.prune_events("2000-01-01T00:00:00.000+00:00") == 0
    assert await backend.prune_events("2999-01-01T00:00:00.000+00:00") == 4
    assert await backend.events(GUILD_A) == [] == await backend.events(GUILD_B)


async def test_the_embedding_cache_keeps_vectors_by_text_hash_and_model(backend: Any) -> None:
    one, two, three = (np.arange(n, n + 4, dtype=np.float32).tobytes() for n in (1, 5, 9))
    await backend.cache_vectors("model-a", [])
    await backend.cache_vectors("model-a", [("h1", one), ("h2", two), ("h1", three)])
    await backend.cache_vectors("model-b", [("h1", two)])
    assert await backend.cached_vectors("model-a", ["h1", "h2", "h3", "h1"]) == {
        "h1": three, "h2": two
    }  # fmt: skip
    assert await backend.cached_vectors("model-b", ["h1", "h2"]) == {"h1": two}
    assert await backend.cached_vectors("model-c", ["h1"]) == {}
    with pytest.raises(ValueError, match="multiple of 4"):
        await backend.cache_vectors("model-a", [("h4", b"abc")])


@pytest.fixture(params=["sqlite", "postgres"])
async def two_processes(
    request: pytest.FixtureRequest, data_dir: Path
) -> AsyncIterator[tuple[Any, Any]]:
    """Two stores of one database, as two processes hold them."""
    opener = _opener(request, data_dir)
    stores = [await opener(), await opener()]
    try:
        yield stores[0], stores[1]
    finally:
        for store in stores:
            await store.close()


async def test_another_process_commit_moves_data_version(two_processes: tuple[Any, Any]) -> None:
    import asyncio

    writer, reader = two_processes
    reader.watch_outside_commits()
    await asyncio.sleep(0.05)
    before = reader.data_version
    assert reader.data_version == before  # nothing new: the same
    await writer.record_members(GUILD_A, [(KAI, "Kai", "kai")])
    for _ in range(200):  # a notice takes a moment to arrive
        if reader.data_version != before:
            break
        await asyncio.sleep(0.01)
    moved = reader.data_version
    assert moved != before and reader.data_version == moved
    await writer.set_guild_setting(GUILD_A, "ignored_channels", ["1"])
    for _ in range(200):
        if reader.data_version != moved:
            break
        await asyncio.sleep(0.01)
    assert reader.data_version != moved


async def test_search_and_the_slice_find_the_same_memory_on_both(backend: Any) -> None:
    """The real retriever with the bundled embedder: facts by meaning and words, messages by
    words, the slice within its budget — the same answers whichever store holds them."""
    from memory.search.embeddings import LocalEmbedder
    from memory.search.retriever import Retriever
    from memory.search.semantic import Semantic

    said_here = [
        item(1, "I work as a nurse at the children's hospital", created_at=at(1)),
        item(2, "my dog Biscuit keeps stealing socks", created_at=at(2)),
        item(3, "anyone up for pottery on tuesday?", author=MIKE, created_at=at(3)),
        item(4, "東京で看護師をしています", author=MIKE, created_at=at(4)),
    ]  # fmt: skip
    rows = list((await backend.insert_messages(said_here, live=False)).rows)
    await searchable(backend, rows)
    await backend.finish_jobs([], facts=[
        said("Sarah works as a nurse at the children's hospital", EARLY, "1"),
        said("Sarah has a dog named Biscuit", EARLY, "2"),
        said("Mike makes pottery", EARLY, "3", MIKE.id),
    ])  # fmt: skip
    retriever = Retriever(backend, Semantic(backend, LocalEmbedder()))
    (nurse,) = await retriever.search(GUILD_A, "who works in healthcare?")
    assert "nurse" in nurse.fact.fact and nurse.scores.semantic is not None
    assert (await retriever.search(GUILD_A, "puppy", strict=False))[0].fact.fact == (
        "Sarah has a dog named Biscuit"
    )  # fmt: skip
    found = await retriever.search_messages(GUILD_A, "pottery")
    assert [m.message.content for m in found] == ["anyone up for pottery on tuesday?"]
    assert [m.message.author_id for m in await retriever.search_messages(GUILD_A, "看護師")] == [
        MIKE.id
    ]  # fmt: skip
    shown = await retriever.slice(GUILD_A, "is anyone a nurse?", channel_id=CHANNEL_A,
                                  user_id=MIKE.id, budget=600)  # fmt: skip
    assert 0 < shown.shown_chars() <= 600
    assert any("nurse" in f.fact.fact for f in shown.relevant_facts)


# --- PostgreSQL only: reaching the server, and its migrations -----------------------------


async def test_a_second_open_applies_no_migration_twice(postgres_url: str) -> None:
    first = await PostgresStore.open(postgres_url)
    await first.record_guild(GUILD, "Book club")
    second = await PostgresStore.open(postgres_url)  # the schema is there: nothing redone
    try:
        assert await second.guild_name(GUILD) == "Book club"
        names = await second.pool.fetch("SELECT name FROM schema_migrations")
        assert len(names) == len({r[0] for r in names}) >= 1
    finally:
        await first.close()
        await second.close()


async def test_stores_opened_at_once_migrate_once(postgres_url: str) -> None:
    import asyncio

    stores = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(4)))
    try:
        count = await stores[0].pool.fetchval("SELECT count(*) FROM schema_migrations")
        from memory.storage.postgres.schema import MIGRATIONS

        assert count == len(MIGRATIONS)
    finally:
        for store in stores:
            await store.close()


async def test_a_message_another_process_is_storing_is_reported_stored_once(
    postgres_url: str,
) -> None:
    import asyncio

    one = await PostgresStore.open(postgres_url)  # the pools of two processes
    two = await PostgresStore.open(postgres_url)
    try:
        await one.insert_messages([item(0)], live=True)
        async with one.pool.acquire() as conn, conn.transaction():  # one, mid-way through 1
            (row,) = (await conn.fetchrow(
                "INSERT INTO messages (guild_id, channel_id, message_id, author_id, "
                "author_name, content, source, created_at) SELECT guild_id, channel_id, '1', "
                "author_id, author_name, content, source, created_at FROM messages RETURNING id"
            ))  # fmt: skip
            await conn.execute(
                "INSERT INTO ingest_jobs (message_row, guild_id, created_at, updated_at) "
                "VALUES ($1, $2, now(), now())", row, GUILD_A,
            )  # fmt: skip
            storing = asyncio.create_task(two.insert_messages([item(1), item(2)], live=True))
            await asyncio.sleep(0.3)
            assert not storing.done()  # it waits for one's commit
        outcome = await storing
        assert [i.message_id for i in outcome.new] == ["2"]
        assert outcome.existing == {(GUILD_A, "1"): "pending"}
        assert await two.count_messages(GUILD_A) == 3 == await two.pending_count(GUILD_A)
    finally:
        await one.close()
        await two.close()


async def test_two_processes_placing_one_members_facts_take_turns(postgres_url: str) -> None:
    import asyncio

    one = await PostgresStore.open(postgres_url)  # the pools of two processes
    two = await PostgresStore.open(postgres_url)
    try:
        batches = [[said(f"Sarah likes thing {n}", EARLY, str(n)) for n in range(start, start + 50)]
                   for start in (0, 50)]  # fmt: skip
        await asyncio.gather(
            one.finish_jobs([], facts=batches[0]), two.finish_jobs([], facts=batches[1])
        )
        assert await one.count_active_facts(GUILD_A) == FACT_CAP  # each saw the other's
    finally:
        await one.close()
        await two.close()


async def test_a_pool_of_one_connection_is_all_the_store_s(postgres_url: str) -> None:
    import asyncio

    store = await PostgresStore.open(postgres_url, pool_size=1)  # the listener has its own
    try:
        await asyncio.wait_for(store.record_guild(GUILD, "Book club"), 10)
        assert await asyncio.wait_for(store.guild_ids(), 10) == [GUILD]
    finally:
        await store.close()


async def test_an_unreachable_server_is_a_clear_error_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql://bot:s3cret@/memory?host={tmp_path}&port=1"
    with pytest.raises(StoreError) as caught:
        await PostgresStore.open(url)
    assert "cannot reach PostgreSQL" in str(caught.value)
    assert "s3cret" not in str(caught.value) and "***" in str(caught.value)


async def test_a_url_that_is_not_postgresql_is_refused() -> None:
    with pytest.raises(StoreError, match="not a PostgreSQL URL"):
        await PostgresStore.open("mysql://bot:pw@localhost/memory")


def test_shown_urls_hide_only_the_password() -> None:
    assert (
        shown("postgresql://bot:pw@db.example:5432/m") == "postgresql://bot:***@db.example:5432/m"
    )
    assert shown("postgresql://db.example/m") == "postgresql://db.example/m"


async def test_a_window_reaches_rows_far_older_than_every_span(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    try:
        far = [10, (1 << 21) + 5, (1 << 23) + 7, (1 << 23) + 9]  # past 2^20 spans of each other
        for n, row in enumerate(far):
            await store.pool.execute(
                "INSERT INTO messages (id, guild_id, channel_id, message_id, author_id, "
                "author_name, content, source, created_at, words) OVERRIDING SYSTEM VALUE "
                "VALUES ($1, $2, $3, $4, 'u', 'U', 'kiln', 'import', now(), 'kiln'::tsvector)",
                row, GUILD_A, CHANNEL_A, str(n),
            )  # fmt: skip
        asked = [Window(words("kiln"), 10), Window(words("kiln"), 3)]
        found = await store.fts_windows("messages", GUILD_A, asked)
        assert found == [far[::-1], far[::-1][:3]]
    finally:
        await store.close()


async def test_a_user_who_may_not_create_the_vector_extension_is_told_what_to_do(
    postgres: Any,
) -> None:
    suffix = uuid.uuid4().hex[:8]
    admin = await asyncpg.connect(postgres.url())
    try:
        await admin.execute(f"CREATE ROLE plain_{suffix} LOGIN")
        await admin.execute(f"CREATE DATABASE plain_{suffix} OWNER plain_{suffix}")
    finally:
        await admin.close()
    url = postgres.url(f"plain_{suffix}").replace("postgres@", f"plain_{suffix}@")
    with pytest.raises(StoreError) as caught:
        await PostgresStore.open(url)
    said = str(caught.value)
    assert "cannot update the PostgreSQL schema (p010_vector_models)" in said
    assert "CREATE EXTENSION vector" in said and "superuser" in said
