"""The audit log (issue 19, item 6): what memory did and who asked, through the real paths —
the ingest queue with the offline extractor and with an LLM extractor on the fake
OpenAI-compatible server, forgetting, opting out, the moderators' controls, imports — in real
SQLite; the admin-only API on a real aiohttp server; ``memorybot events``; pruning by age.
No event ever carries what a member wrote."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

from memory import audit
from memory.audit import EventPruner, MemoryEvent, StoredEvent
from memory.runtime import open_memory
from memory.settings import load_settings
from memory.storage.store import Store
from tests.api_helpers import TOKEN, Api, served
from tests.fake_openai import API_KEY, FakeOpenAI, reply, status
from tests.helpers import (
    CHANNEL_A,
    GUILD_A,
    GUILD_B,
    MIKE,
    SARAH,
    add_fact,
    export_message,
    item,
    run_cli,
    sql,
    write_export,
)

ADMIN = "admin-token-for-the-audit-tests"
NURSE = "i work as a nurse at the children's hospital"
SECRET = "my grandmother's secret recipe uses saffron and cardamom"


def kinds(events: Sequence[StoredEvent]) -> list[str]:
    return [e.kind for e in events]


def assert_no_text(events: Sequence[StoredEvent], *phrases: str) -> None:
    for event in events:
        for phrase in phrases:
            for word in phrase.split():
                if len(word) > 6:  # the distinctive words of what members wrote
                    assert word not in event.detail, (word, event)


# --- what the queue records -----------------------------------------------------------------


async def test_a_stored_fact_is_logged_once_with_its_provenance_and_no_text(
    tmp_path: Path,
) -> None:
    async with open_memory(load_settings(data_dir=tmp_path)) as memory:
        await memory.ingest(item(1, NURSE))
        await memory.ingest(item(2, "i play bass in a ska band", author=MIKE, guild_id=GUILD_B))
        await memory.join()
        (fact,) = await memory.active_facts(GUILD_A)
        (event,) = await memory.events(GUILD_A)
        assert (event.kind, event.actor, event.object_id, event.subject) == (
            "fact.stored", audit.SYSTEM, str(fact.id), SARAH.id,
        )  # fmt: skip
        assert event.detail == f"{fact.fact_type}, confidence {fact.confidence:.2f}, from message 1"
        assert event.guild_id == GUILD_A and event.at.startswith("20")
        assert kinds(await memory.events(GUILD_B)) == ["fact.stored"]  # each guild its own

        await memory.ingest(item(3, NURSE))  # said again: the same fact, reinforced
        await memory.join()
        again, _stored = await memory.events(GUILD_A)
        assert (again.kind, again.object_id) == ("fact.reinforced", str(fact.id))
        assert again.detail == "said again in message 3, in the same words"
        (fact,) = await memory.active_facts(GUILD_A)
        assert fact.times_seen == 2 and fact.confidence > 0.9


async def test_facts_past_a_members_cap_are_logged_as_archived(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "memory.db") as store:
        for n in range(81):  # stored as extraction stores them
            await add_fact(store, SARAH.id, f"Sarah owns board game number {n}.", source=str(n))
        archived = await store.events(GUILD_A, kinds=["fact.archived"])
        (oldest,) = [f for f in await store.review_facts(GUILD_A, archived=True) if not f.is_active]
        assert [(e.object_id, e.subject) for e in archived] == [(str(oldest.id), SARAH.id)]
        assert archived[0].detail == "least valued past the cap of 80 active facts of a member"
        assert len(await store.events(GUILD_A, kinds=["fact.stored"], limit=500)) == 81


async def test_llm_extraction_calls_and_errors_are_logged_without_member_text(
    tmp_path: Path,
) -> None:
    facts = {"facts": [{"message_id": "1", "subject": "author", "type": "profile",
                        "fact": "Sarah works as a nurse.", "confidence": 0.9,
                        "evidence": "i work as a nurse"}]}  # fmt: skip
    async with FakeOpenAI(api_key=API_KEY) as fake:
        settings = load_settings(
            data_dir=tmp_path, llm_model="fake-model", llm_base_url=fake.base_url,
            llm_api_key=API_KEY, llm_max_retries=0, extraction_batch_gap=0,
        )  # fmt: skip
        # the model echoes the message in an answer that is no JSON
        fake.script(reply(json.dumps(facts)), reply(f"Sure! '{SECRET}' is lovely"), status(500))
        async with open_memory(settings) as memory:
            await memory.ingest(item(1, NURSE))
            await memory.join()
            await memory.ingest(item(2, SECRET))
            await memory.join()
            await memory.ingest(item(3, "we are repainting the shed this weekend", author=MIKE))
            await memory.join()
            found = await memory.events(GUILD_A)
    assert kinds(found) == [
        "extraction.error", "extraction.error", "fact.stored", "extraction.call",
    ]  # fmt: skip
    call = found[-1]
    assert (call.actor, call.object_id) == (audit.SYSTEM, CHANNEL_A)
    assert call.detail.startswith(f"llm: 1 message(s) of channel {CHANNEL_A}, 1 fact(s) kept, ")
    assert "HTTP 500" in found[0].detail and "not extracted" in found[0].detail
    assert "not JSON" in found[1].detail and "'…'" in found[1].detail
    assert_no_text(found, SECRET, NURSE)


async def test_an_embedding_error_is_logged_once_per_distinct_error(tmp_path: Path) -> None:
    async with FakeOpenAI(api_key=API_KEY) as fake:
        settings = load_settings(
            data_dir=tmp_path, embedding_model="fake-embedding", llm_base_url=fake.base_url,
            llm_api_key=API_KEY, llm_max_retries=0,
        )  # fmt: skip
        fake.script(*[status(503)] * 20, endpoint="embeddings")
        async with open_memory(settings) as memory:
            await memory.ingest(item(1, NURSE))
            await memory.settle()  # the fact embedder tried, and failed
            await memory.ingest(item(2, "i play bass in a ska band"))  # a new fact: tried again
            await memory.settle()
            errors = await memory.events(GUILD_A, kinds=["embedding.error"])
            assert fake.pending("embeddings") < 20  # it did try
    assert len(errors) == 1
    assert errors[0].detail.startswith("fake-embedding: ") and "503" in errors[0].detail


async def fake_sleep() -> None:
    await asyncio.sleep(0.05)


# --- what members and moderators do ------------------------------------------------------


async def test_forget_opt_out_and_the_guilds_settings_record_who_asked(tmp_path: Path) -> None:
    async with open_memory(load_settings(data_dir=tmp_path)) as memory:
        await memory.ingest(item(1, NURSE))
        await memory.ingest(item(2, SECRET))
        await memory.join()
        await memory.opt_out(GUILD_A, SARAH.id, actor=SARAH.id)
        await memory.opt_in(GUILD_A, SARAH.id, actor=SARAH.id)
        assert not await memory.opt_in(GUILD_A, SARAH.id, actor=SARAH.id)  # no change: no event
        await memory.forget_member(GUILD_A, MIKE.id, actor=audit.CLI)
        await memory.ignore_channel(GUILD_A, CHANNEL_A, actor=MIKE.id)
        await memory.ignore_channel(GUILD_A, CHANNEL_A, actor=MIKE.id)  # already: no event
        await memory.ignore_channel(GUILD_A, CHANNEL_A, ignored=False, actor=MIKE.id)
        await memory.set_guild_setting(GUILD_A, "about_others", True, actor=MIKE.id)
        found = await memory.events(GUILD_A)
    rows = [(e.kind, e.actor, e.object_id) for e in found if not e.kind.startswith("fact.")]
    assert rows == [
        ("setting.changed", MIKE.id, "about_others"),
        ("channel.unignored", MIKE.id, CHANNEL_A),
        ("channel.ignored", MIKE.id, CHANNEL_A),
        ("member.forgotten", audit.CLI, MIKE.id),
        ("member.optin", SARAH.id, SARAH.id),
        ("member.forgotten", SARAH.id, SARAH.id),
        ("member.optout", SARAH.id, SARAH.id),
    ]
    forgotten = next(e for e in found if e.kind == "member.forgotten" and e.actor == SARAH.id)
    assert forgotten.detail.startswith("deleted 2 messages, ") and forgotten.subject == SARAH.id
    assert found[0].detail == "about_others = true"
    assert_no_text(found, SECRET, NURSE)
    # the forgotten member's words are nowhere in the log's table
    rows_text = json.dumps(sql(tmp_path / "memory.db", "SELECT * FROM memory_events"))
    assert "saffron" not in rows_text and "nurse" not in rows_text


async def test_discord_deletes_and_edits_are_logged(tmp_path: Path) -> None:
    async with open_memory(load_settings(data_dir=tmp_path)) as memory:
        await memory.ingest(item(1, NURSE))
        await memory.ingest(item(2, "i play bass in a ska band"))
        await memory.join()
        await memory.delete_message(GUILD_A, "1")
        await memory.delete_message(GUILD_A, "404")  # not stored: nothing to log
        await memory.edit_message(GUILD_A, "2", "i play drums in a ska band")
        await memory.join()
        found = await memory.events(GUILD_A, kinds=["message.deleted", "message.edited"])
    assert [(e.kind, e.actor, e.object_id, e.detail) for e in found] == [
        (
            "message.edited",
            audit.DISCORD,
            "2",
            "1 fact(s) of the old text deleted; extracted again",
        ),
        ("message.deleted", audit.DISCORD, "1", "1 fact(s) from it deleted"),
    ]


async def test_an_import_is_logged_per_file_with_its_counts(tmp_path: Path) -> None:
    export = write_export(tmp_path / "night-shift.json", [
        export_message(1, NURSE), export_message(2, "i play bass in a ska band", author=MIKE),
        export_message(3, ""),
    ])  # fmt: skip
    assert run_cli(tmp_path / "data", "import", str(export)).returncode == 0
    assert run_cli(tmp_path / "data", "import", str(export)).returncode == 0
    out = run_cli(tmp_path / "data", "events", "--kind", "import", "--json")
    assert out.returncode == 0, out.stderr
    events = json.loads(out.stdout)["events"]
    assert [(e["kind"], e["actor"], e["detail"]) for e in events] == [
        ("import", "cli", "night-shift.json: read 3, stored 0, skipped 2 already stored, 1 empty"),
        ("import", "cli", "night-shift.json: read 3, stored 2, skipped 1 empty"),
    ]
    table = run_cli(tmp_path / "data", "events", "--limit", "10")
    assert table.returncode == 0 and len(table.stdout.splitlines()) == 4  # 2 facts, 2 imports
    assert "fact.stored" in table.stdout and "about Sarah" in table.stdout
    bad = run_cli(tmp_path / "data", "events", "--kind", "fact.vanished")
    assert bad.returncode == 2 and "fact.stored" in bad.stderr


# --- retention ------------------------------------------------------------------------------


async def test_events_older_than_the_retention_are_pruned(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with await Store.open(path) as store:
        await store.record_events([MemoryEvent(GUILD_A, "member.optout", SARAH.id, SARAH.id)] * 3)
        await store.record_events([MemoryEvent(GUILD_A, "member.optin", SARAH.id, SARAH.id)])
    sql(path, "UPDATE memory_events SET at = ? WHERE kind = 'member.optout'",
        (audit.cutoff(91),))  # fmt: skip
    async with await Store.open(path) as store:
        assert await EventPruner(store, days=0).prune() == 0  # 0: kept for ever
        assert await EventPruner(store, days=90).prune() == 3
        assert kinds(await store.events(GUILD_A)) == ["member.optin"]
    # opening memory prunes at once
    sql(path, "UPDATE memory_events SET at = ?", (audit.cutoff(200),))
    async with open_memory(load_settings(data_dir=tmp_path)) as memory:
        for _ in range(100):
            if not await memory.events(GUILD_A):
                break
            await fake_sleep()
        assert await memory.events(GUILD_A) == []


# --- the API ----------------------------------------------------------------------------


async def seed(store: Store) -> None:
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    await add_fact(store, SARAH.id, "Sarah works as a nurse.", source="1")
    await add_fact(store, SARAH.id, "Sarah plays bass.", source="2", guild=GUILD_B)
    for n in range(5):
        event = MemoryEvent(GUILD_A, "member.optin", SARAH.id, SARAH.id, SARAH.id, f"number {n}")
        await store.record_events([event])


async def get_events(api: Api, token: str = ADMIN, **query: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.get(
        f"{api.url}api/memory/events", params={k: str(v) for k, v in query.items()},
        headers=api.headers(token),
    ) as response:  # fmt: skip
        return response.status, await response.json()


async def test_the_api_pages_through_a_guilds_events_with_the_admin_token(tmp_path: Path) -> None:
    async with served(tmp_path, seed=seed, api_admin_token=ADMIN) as api:
        code, body = await get_events(api, guildId=GUILD_A, limit=4)
        assert code == 200, body
        events = body["events"]
        assert [e["detail"] for e in events] == ["number 4", "number 3", "number 2", "number 1"]
        assert events[0]["actorName"] == "Sarah" and events[0]["subjectName"] == "Sarah"
        assert set(events[0]) == {"id", "guildId", "at", "kind", "actor", "actorName",
                                  "objectId", "subject", "subjectName", "detail"}  # fmt: skip
        code, rest = await get_events(api, guildId=GUILD_A, limit=4, before=body["nextBefore"])
        assert [e["detail"] for e in rest["events"]] == [
            "number 0", "other, confidence 0.90, from message 1",
        ]  # fmt: skip
        assert rest["nextBefore"] is None
        code, stored = await get_events(api, guildId=GUILD_A, kind="fact.stored")
        assert [e["kind"] for e in stored["events"]] == ["fact.stored"]

        # an edit and a delete through the API are logged as the API's
        fact_id = int(stored["events"][0]["objectId"])
        async with aiohttp.ClientSession() as session:
            url = f"{api.url}api/memory/facts/{fact_id}"
            async with session.patch(url, params={"guildId": GUILD_A}, headers=api.headers(ADMIN),
                                     json={"fact": "Sarah works as a midwife.", "type": "profile",
                                           "active": False}) as r:  # fmt: skip
                assert r.status == 200
            async with session.delete(url, params={"guildId": GUILD_A},
                                      headers=api.headers(ADMIN)) as r:  # fmt: skip
                assert r.status == 200
        code, moderated = await get_events(api, guildId=GUILD_A, limit=3)
        assert [
            (e["kind"], e["actor"], e["objectId"], e["detail"]) for e in moderated["events"]
        ] == [
            ("fact.deleted", "api", str(fact_id), "profile, confidence 0.90"),
            ("fact.archived", "api", str(fact_id), "by a moderator"),
            ("fact.edited", "api", str(fact_id), "text changed, type other → profile"),
        ]
        assert "midwife" not in json.dumps(moderated) and "nurse" not in json.dumps(moderated)


async def test_the_api_refuses_what_it_should(tmp_path: Path) -> None:
    async with served(tmp_path, seed=seed, api_admin_token=ADMIN) as api:
        code, body = await get_events(api, TOKEN, guildId=GUILD_A)
        assert (code, body["error"]["code"]) == (403, "admin_required")
        code, body = await get_events(api, "wrong", guildId=GUILD_A)
        assert code == 401
        code, body = await get_events(api, guildId=GUILD_A, kind="fact.stored,<b>x</b>")
        assert code == 400 and "unknown kind" in body["error"]["message"]
        for before in ("-1", "abc", "9" * 40):
            code, body = await get_events(api, guildId=GUILD_A, before=before)
            assert code == 400, before
        code, body = await get_events(api)
        assert code == 400  # guildId is required
        code, body = await get_events(api, guildId=GUILD_B)  # guild B's only event: its fact
        assert [e["guildId"] for e in body["events"]] == [GUILD_B]


async def test_an_admin_token_limited_to_some_guilds_reads_no_other_guilds_log(
    tmp_path: Path,
) -> None:
    async with served(tmp_path, seed=seed, api_admin_token=ADMIN,
                      api_guilds=frozenset({GUILD_A})) as api:  # fmt: skip
        code, body = await get_events(api, guildId=GUILD_B)
        assert (code, body["error"]["code"]) == (403, "forbidden")
        code, body = await get_events(api, guildId=GUILD_A)
        assert code == 200 and {e["guildId"] for e in body["events"]} == {GUILD_A}
