"""Search by kind — facts, messages or both — through the API on a real server on loopback
over chats imported by the real importer: the shapes, the relevance gates of both kinds,
names in queries, guild isolation and the cache; and ``memorybot search --kind``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.api_helpers import Api, served, settled
from tests.helpers import CHANNEL_A, CHANNEL_B, GUILD_A, GUILD_B, MIKE, SARAH, export_id, run_cli
from tests.search_helpers import (
    ANSWER,
    GUILD_B_POTTERY,
    NURSE,
    POTTERY,
    POTTERY_TIME,
    import_chats,
    link,
    seed_facts,
)

pytestmark = pytest.mark.usefixtures("each_backend")  # on SQLite and PostgreSQL

MESSAGE_KEYS = {"kind", "id", "channelId", "authorId", "authorName", "content", "createdAt",
                "source", "score", "context", "link"}  # fmt: skip
TURN_KEYS = {"id", "channelId", "authorId", "authorName", "content", "createdAt", "source"}


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    await import_chats(tmp_path / "data")
    async with served(tmp_path / "data", seed=seed_facts, api_rate_limit=0) as running:
        yield running


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def search(http: aiohttp.ClientSession, api: Api, q: str, **query: str
                 ) -> tuple[int, Any, str]:  # fmt: skip
    params = {"q": q, "guildId": GUILD_A, **query}
    async with http.get(api.url + "api/memory/search", params=params,
                        headers=api.headers()) as response:  # fmt: skip
        return response.status, await response.json(), response.headers.get("X-Memorybot-Cache", "")


async def test_messages_are_found_with_author_time_channel_link_and_turns(
    api: Api, http: aiohttp.ClientSession
) -> None:
    status, body, _ = await search(http, api, "pottery class", kind="messages")
    assert status == 200
    assert set(body) == {"queryText", "guildId", "channelId", "limit", "kind", "messages"}
    assert body["kind"] == "messages" and body["limit"] == 10
    (hit,) = body["messages"]  # guild B's pottery class is not guild A's
    assert set(hit) == MESSAGE_KEYS
    assert hit["kind"] == "message" and hit["id"] == export_id(POTTERY)
    assert hit["content"] == "my pottery class moved to thursday evenings"
    assert (hit["authorId"], hit["authorName"]) == (SARAH.id, "Sarah")
    assert hit["createdAt"] == POTTERY_TIME and hit["channelId"] == CHANNEL_A
    assert hit["link"] == link(POTTERY) and hit["score"] > 0
    # the turns around it, itself included, in order, each in the slice's message shape
    turns = hit["context"]
    assert all(set(t) == TURN_KEYS for t in turns)
    assert [t["id"] for t in turns] == [export_id(n) for n in (POTTERY, ANSWER, 3)]
    assert turns[1]["authorName"] == "Mike"


async def test_all_gives_facts_and_messages(api: Api, http: aiohttp.ClientSession) -> None:
    status, body, _ = await search(http, api, "nurse", kind="all")
    assert status == 200 and body["kind"] == "all"
    (fact,) = body["results"]
    assert fact["kind"] == "fact" and fact["fact"] == "Sarah works as a nurse."
    (message,) = body["messages"]
    assert message["kind"] == "message" and message["id"] == export_id(NURSE)
    assert message["link"] == link(NURSE)


async def test_the_default_is_facts_as_before(api: Api, http: aiohttp.ClientSession) -> None:
    status, body, _ = await search(http, api, "nurse")
    assert status == 200
    assert set(body) == {"queryText", "guildId", "channelId", "limit", "kind", "results"}
    assert body["kind"] == "facts"
    (fact,) = body["results"]
    assert fact["kind"] == "fact" and fact["subjectName"] == "Sarah"
    assert (await search(http, api, "nurse", kind="facts"))[1] == body
    assert (await search(http, api, "nurse", kind=""))[1] == body


@pytest.mark.parametrize("kind", ["bogus", "fact", "Facts", "facts,messages", "0"])
async def test_a_bad_kind_is_400(api: Api, http: aiohttp.ClientSession, kind: str) -> None:
    status, body, _ = await search(http, api, "nurse", kind=kind)
    assert status == 400, body
    assert body["error"]["code"] == "invalid_parameter" and "kind" in body["error"]["message"]


@pytest.mark.parametrize(
    "query",
    ["quantum chromodynamics", "what does Mike think about quantum chromodynamics",
     "what does Sarah think about medieval tax law", "zeppelin maintenance schedule"],
)  # fmt: skip
async def test_an_unrelated_query_finds_nothing(
    api: Api, http: aiohttp.ClientSession, query: str
) -> None:
    status, body, _ = await search(http, api, query, kind="all")
    assert status == 200
    assert body["results"] == [] and body["messages"] == []


async def test_a_name_with_other_words_needs_those_words(
    api: Api, http: aiohttp.ClientSession
) -> None:
    """Naming a member says whose facts, not which: the rest of the query must match."""
    for query in ("what does Sarah think about the opera", "Sarah and volcanoes"):
        assert (await search(http, api, query))[1]["results"] == []
    facts = (await search(http, api, "does Sarah have cats?"))[1]["results"]
    assert [f["fact"] for f in facts] == ["Sarah has two cats named Miso and Tofu."]
    for query in ("tell me about Sarah", "Sarah", f"<@{SARAH.id}>"):
        facts = (await search(http, api, query))[1]["results"]
        assert {f["fact"] for f in facts} == {
            "Sarah works as a nurse.", "Sarah has two cats named Miso and Tofu."
        }, query  # fmt: skip


async def test_a_named_members_message_on_the_topic(api: Api, http: aiohttp.ClientSession) -> None:
    _, body, _ = await search(http, api, "what did Mike say about the bass amp", kind="messages")
    assert [m["id"] for m in body["messages"]] == [export_id(4)]
    assert body["messages"][0]["authorId"] == MIKE.id


async def test_guild_b_messages_stay_in_guild_b(api: Api, http: aiohttp.ClientSession) -> None:
    _, mine, _ = await search(http, api, "pottery class", kind="all")
    _, theirs, _ = await search(http, api, "pottery class", kind="all", guildId=GUILD_B)
    assert [m["id"] for m in mine["messages"]] == [export_id(POTTERY)]
    assert [m["id"] for m in theirs["messages"]] == [export_id(GUILD_B_POTTERY)]
    assert theirs["messages"][0]["link"] == link(GUILD_B_POTTERY, GUILD_B, CHANNEL_B)
    _, nurses, _ = await search(http, api, "nurse", kind="all", guildId=GUILD_B)
    assert [f["fact"] for f in nurses["results"]] == ["Mike works as a nurse too."]
    assert nurses["messages"] == []  # guild A's nurse message is not guild B's


async def test_limit_applies_to_each_kind(api: Api, http: aiohttp.ClientSession) -> None:
    _, body, _ = await search(http, api, "pottery bass", kind="all", limit="1")
    assert body["limit"] == 1 and len(body["results"]) == len(body["messages"]) == 1
    _, two, _ = await search(http, api, "pottery bass", kind="all", limit="2")
    assert {m["id"] for m in two["messages"]} == {export_id(POTTERY), export_id(4)}


async def test_the_cache_keys_on_the_kind(api: Api, http: aiohttp.ClientSession) -> None:
    await api.memory.embed_missing(GUILD_A)  # (a new vector is a change too)
    await settled(api)
    _, facts, cache = await search(http, api, "nurse")
    assert cache == "miss"
    _, messages, cache = await search(http, api, "nurse", kind="messages")
    assert cache == "miss" and "results" not in messages and messages["messages"]
    _, again, cache = await search(http, api, "nurse", kind="messages")
    assert cache == "hit" and again == messages
    assert (await search(http, api, "nurse"))[1:] == (facts, "hit")


# --- the command line -------------------------------------------------------------------------


@pytest.mark.slow
async def test_cli_search_kind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    await import_chats(data)
    found = run_cli(data, "search", "pottery class", "--guild", GUILD_A, "--kind", "messages",
                    "--json")  # fmt: skip
    assert found.returncode == 0, found.stderr
    body = json.loads(found.stdout)
    assert body["kind"] == "messages" and "results" not in body
    assert [m["id"] for m in body["messages"]] == [export_id(POTTERY)]
    assert body["messages"][0]["link"] == link(POTTERY)

    text = run_cli(data, "search", "pottery class", "--guild", GUILD_A, "--kind", "all")
    assert text.returncode == 0, text.stderr
    assert "no relevant facts" in text.stdout
    assert f"Sarah at 2026-10-12T18:03  [{link(POTTERY)}]" in text.stdout
    assert "  > 2026-10-12T18:03 Sarah: my pottery class moved to thursday evenings" in text.stdout
    assert "    2026-10-12T18:04 Mike: nice, is it still at the community centre?" in text.stdout

    facts = run_cli(data, "search", "pottery class", "--guild", GUILD_A)  # facts, as before
    assert facts.returncode == 0 and facts.stdout == "no relevant facts\n"
    nothing = run_cli(data, "search", "zeppelin", "--guild", GUILD_A, "--kind", "messages")
    assert nothing.stdout == "no relevant messages\n"
    bad = run_cli(data, "search", "x", "--guild", GUILD_A, "--kind", "everything")
    assert bad.returncode == 2 and "--kind" in bad.stderr
