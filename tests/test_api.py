"""The moderators' HTTP API on a real server on loopback: every endpoint and error, auth,
the rate limit, guild isolation, the token file, and `memorybot serve` / `demo`."""

from __future__ import annotations

import asyncio
import re
import signal
import stat
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dashboard_api.auth import bearer_matches, check_bind, load_or_create_token
from dashboard_api.ratelimit import RateLimiter, retry_after
from memory.errors import ConfigError
from memory.extraction.lore import Origin
from memory.models import CandidateFact
from memory.settings import load_settings
from memory.storage.store import Store
from tests.api_helpers import TOKEN, Api, served, settled
from tests.helpers import (
    CHANNEL_A,
    CHANNEL_B,
    GUILD_A,
    GUILD_B,
    MEMORYBOT,
    MIKE,
    SARAH,
    cli_env,
    item,
)

pytestmark = pytest.mark.usefixtures("each_backend")  # on SQLite and PostgreSQL

NURSE_SAID = "2023-05-07T21:30:00.000+00:00"  # Sarah said it long before it was stored


async def seed(store: Store) -> None:
    """Guild A: Sarah the nurse; guild B: a look-alike nurse fact."""
    await store.record_guild(GUILD_A, "Guild A")
    await store.record_guild(GUILD_B, "Guild B")
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    await store.record_members(GUILD_B, [(MIKE.id, MIKE.name, MIKE.username)])
    facts = [
        (Origin(GUILD_A, CHANNEL_A, NURSE_SAID),
         CandidateFact(SARAH.id, "Sarah works as a nurse.", "profile", 0.9, "I work as a nurse",
                       "1")),
        (Origin(GUILD_B, CHANNEL_B),
         CandidateFact(MIKE.id, "Mike works as a nurse too.", "profile", 0.9, "nurse too", "2")),
    ]  # fmt: skip
    await store.finish_jobs([], [], facts)


async def say_pottery(api: Api) -> None:
    """Sarah's message, processed and journaled: searchable."""
    await api.memory.ingest(item(1, "my pottery class is on tuesday"))
    await api.memory.join()


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    async with served(tmp_path / "data", seed=seed, api_rate_limit=0) as running:
        await say_pottery(running)
        yield running


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def get(
    http: aiohttp.ClientSession, api: Api, path: str, *, token: str | None = TOKEN,
    **query: str,
) -> tuple[int, Any, Any]:  # fmt: skip
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with http.get(api.url + path, params=query, headers=headers) as response:
        return response.status, await response.json(), response.headers


def assert_error(status: int, body: Any, expected: int, code: str) -> None:
    assert status == expected, body
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code and body["error"]["message"]


# --- endpoints --------------------------------------------------------------------------------


@pytest.mark.slow
async def test_health_needs_no_token(
    api: Api, http: aiohttp.ClientSession, each_backend: str
) -> None:
    status, body, _ = await get(http, api, "api/health", token=None)
    assert status == 200
    assert body["status"] == "ok" and body["queueDepth"] == 0 and body["version"]
    if each_backend == "sqlite":
        assert body["versions"]["fts5"] == "available"
    else:
        assert body["versions"]["pgvector"].startswith("0.8")


async def test_search_returns_the_contract_shape(api: Api, http: aiohttp.ClientSession) -> None:
    status, body, _ = await get(http, api, "api/memory/search", q="nurse", guildId=GUILD_A)
    assert status == 200
    assert body["queryText"] == "nurse" and body["guildId"] == GUILD_A
    assert body["channelId"] is None and body["limit"] == 10
    (result,) = body["results"]
    assert set(result) == {
        "kind", "id", "subject", "subjectName", "fact", "type", "evidence", "sourceMessageId",
        "channelId", "confidence", "createdAt", "saidAt", "score", "semanticScore",
        "lexicalScore", "recencyScore", "channelScore", "relevant",
    }  # fmt: skip
    assert result["fact"] == "Sarah works as a nurse." and result["subjectName"] == "Sarah"
    assert result["saidAt"] == NURSE_SAID and result["createdAt"] > NURSE_SAID  # stored now
    assert result["sourceMessageId"] == "1" and result["channelId"] == CHANNEL_A
    assert 0 < result["score"] <= 1 and result["lexicalScore"] == 1.0


async def test_slice_returns_what_a_reply_would_see(api: Api, http: aiohttp.ClientSession) -> None:
    status, body, _ = await get(
        http, api, "api/memory/slice", q="when is the pottery class?", guildId=GUILD_A,
        channelId=CHANNEL_A, userId=SARAH.id,
    )  # fmt: skip
    assert status == 200
    # her facts (the offline extractor may find one in her pottery message too), each said
    # when she said it
    assert {f["subject"] for f in body["userFacts"]} == {SARAH.id}
    said = {f["fact"]: f["saidAt"] for f in body["userFacts"]}
    assert said["Sarah works as a nurse."] == NURSE_SAID
    (message,) = body["relevantMessages"]
    assert {"id", "channelId", "authorId", "authorName", "content", "createdAt", "source"} <= set(
        message
    )
    assert message["id"] == "1" and message["source"] == "text"
    assert message["content"] == "my pottery class is on tuesday"


async def test_memory_snapshot_and_refresh(api: Api, http: aiohttp.ClientSession) -> None:
    status, body, _ = await get(http, api, "api/memory", guildId=GUILD_A)
    assert status == 200 and body["guildId"] == GUILD_A
    assert (
        "Sarah works as a nurse. _(profile, confidence 0.90)_ · said 2023-05-07" in body["markdown"]
    )
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with http.post(api.url + "api/memory/refresh", json={"guildId": GUILD_B},
                         headers=headers) as response:  # fmt: skip
        refreshed = await response.json()
    assert response.status == 200 and refreshed["ok"] is True
    assert refreshed["guildId"] == GUILD_B and "Mike works as a nurse too." in refreshed["markdown"]
    assert (api.memory.settings.journals_dir / GUILD_B / "MEMORY.md").exists()
    async with http.post(api.url + "api/memory/refresh", params={"guildId": GUILD_A},
                         headers=headers) as response:  # fmt: skip
        assert response.status == 200
    status, body, _ = await get(http, api, "api/memory/guilds")
    assert body == {"guilds": [{"id": GUILD_A, "name": "Guild A"},
                               {"id": GUILD_B, "name": "Guild B"}]}  # fmt: skip


@pytest.mark.parametrize(
    ("body", "code"),
    [(b"{not json", "invalid_body"), (b'["x"]', "invalid_body"), (b'{"guildId": 5}',
     "invalid_parameter"), (b'{"guildId": "abc"}', "invalid_parameter"), (b"{}",
     "missing_parameter"), ("é".encode("latin-1"), "invalid_body")],
)  # fmt: skip
@pytest.mark.slow
async def test_refresh_rejects_bad_bodies(
    api: Api, http: aiohttp.ClientSession, body: bytes, code: str
) -> None:
    headers = {**api.headers(), "Content-Type": "application/json"}
    async with http.post(api.url + "api/memory/refresh", data=body, headers=headers) as response:
        assert_error(response.status, await response.json(), 400, code)


async def test_unknown_guilds_routes_and_methods(api: Api, http: aiohttp.ClientSession) -> None:
    unknown = "333333333333333333"
    assert_error(*(await get(http, api, "api/memory", guildId=unknown))[:2], 404, "not_found")
    status, body, _ = await get(http, api, "api/memory/search", q="nurse", guildId=unknown)
    assert status == 200 and body["results"] == []
    assert_error(*(await get(http, api, "api/nothing-here"))[:2], 404, "not_found")
    async with http.delete(api.url + "api/memory/search", headers=api.headers()) as response:
        assert_error(response.status, await response.json(), 405, "method_not_allowed")
        assert "GET" in response.headers["Allow"]


# --- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"guildId": GUILD_A}, "missing_parameter"),
        ({"q": "nurse"}, "missing_parameter"),
        ({"q": "   ", "guildId": GUILD_A}, "missing_parameter"),
        ({"q": "nurse", "guildId": "12345"}, "invalid_parameter"),
        ({"q": "nurse", "guildId": f"{GUILD_A} OR 1=1"}, "invalid_parameter"),
        ({"q": "nurse", "guildId": "１１１１１１１１１１１１１１１１１１"}, "invalid_parameter"),
        ({"q": "nurse", "guildId": GUILD_A, "channelId": "general"}, "invalid_parameter"),
        ({"q": "nurse", "guildId": GUILD_A, "limit": "ten"}, "invalid_parameter"),
        ({"q": "nurse", "guildId": GUILD_A, "limit": "1e3"}, "invalid_parameter"),
        ({"q": "x" * 501, "guildId": GUILD_A}, "invalid_parameter"),
    ],
)
@pytest.mark.slow
async def test_bad_search_parameters_are_400(
    api: Api, http: aiohttp.ClientSession, query: dict[str, str], code: str
) -> None:
    status, body, _ = await get(http, api, "api/memory/search", **query)
    assert_error(status, body, 400, code)


async def test_bad_slice_parameters_are_400(api: Api, http: aiohttp.ClientSession) -> None:
    status, body, _ = await get(
        http, api, "api/memory/slice", q="nurse", guildId=GUILD_A, userId="<@123>"
    )
    assert_error(status, body, 400, "invalid_parameter")
    assert "userId" in body["error"]["message"]


@pytest.mark.parametrize(("given", "expected"), [(None, 10), ("0", 1), ("-5", 1), ("99", 24),
                                                  (" 7 ", 7), ("24", 24)])  # fmt: skip
@pytest.mark.slow
async def test_limit_defaults_to_10_and_is_clamped(
    api: Api, http: aiohttp.ClientSession, given: str | None, expected: int
) -> None:
    query = {"q": "nurse", "guildId": GUILD_A} | ({"limit": given} if given is not None else {})
    status, body, _ = await get(http, api, "api/memory/search", **query)
    assert status == 200 and body["limit"] == expected


HOSTILE = ['"', "*", "NEAR(pizza nurse)", "nurse AND", "NOT nurse", "content:nurse",
           "guild_id:1", "{nurse}", "🍕", "x" * 500, "nurse\x00", "' OR 1=1 --"]  # fmt: skip


@pytest.mark.parametrize("query", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.slow
async def test_hostile_queries_are_answered(
    api: Api, http: aiohttp.ClientSession, query: str
) -> None:
    for path in ("api/memory/search", "api/memory/slice"):
        status, body, _ = await get(http, api, path, q=query, guildId=GUILD_A)
        assert status == 200, body


# --- auth, guild allowlist, rate limit --------------------------------------------------------


@pytest.mark.parametrize(
    "header", [None, "", "Bearer", "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x",
               f"bearer  {TOKEN[:-1]}"],
)  # fmt: skip
@pytest.mark.slow
async def test_memory_endpoints_need_the_token(
    api: Api, http: aiohttp.ClientSession, header: str | None
) -> None:
    headers = {"Authorization": header} if header is not None else {}
    for path in ("api/memory", "api/memory/search", "api/memory/slice", "api/memory/guilds"):
        async with http.get(api.url + path, params={"q": "nurse", "guildId": GUILD_A},
                            headers=headers) as response:  # fmt: skip
            assert_error(response.status, await response.json(), 401, "unauthorized")
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
    async with http.post(api.url + "api/memory/refresh", headers=headers) as response:
        assert response.status == 401


def test_bearer_comparison() -> None:
    assert bearer_matches(f"Bearer {TOKEN}", TOKEN)
    assert bearer_matches(f"bearer {TOKEN} ", TOKEN)
    assert not bearer_matches(f"Bearer {TOKEN.upper()}", TOKEN)
    assert not bearer_matches("Bearer ünïcode", TOKEN)
    assert not bearer_matches(None, TOKEN)


async def test_a_token_limited_to_guild_a_never_sees_guild_b(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with served(tmp_path / "data", seed=seed, api_guilds=frozenset({GUILD_A})) as limited:
        status, body, _ = await get(http, limited, "api/memory/search", q="nurse", guildId=GUILD_A)
        assert status == 200 and [r["fact"] for r in body["results"]] == ["Sarah works as a nurse."]
        for path in ("api/memory/search", "api/memory/slice", "api/memory"):
            status, body, _ = await get(http, limited, path, q="nurse", guildId=GUILD_B)
            assert_error(status, body, 403, "forbidden")
        async with http.post(limited.url + "api/memory/refresh", params={"guildId": GUILD_B},
                             headers=limited.headers()) as response:  # fmt: skip
            assert_error(response.status, await response.json(), 403, "forbidden")
        _, body, _ = await get(http, limited, "api/memory/guilds")
        assert body == {"guilds": [{"id": GUILD_A, "name": "Guild A"}]}


@pytest.mark.slow
async def test_rate_limit_answers_429_with_retry_after(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with served(tmp_path / "data", api_rate_limit=2, api_rate_burst=3) as limited:
        statuses = []
        for _ in range(5):
            status, body, headers = await get(http, limited, "api/health")
            statuses.append(status)
        assert statuses[:3] == [200, 200, 200] and statuses[3:] == [429, 429]
        assert_error(status, body, 429, "rate_limited")
        assert int(headers["Retry-After"]) >= 1
        async with http.get(limited.url) as response:  # the page itself is not counted
            assert response.status == 200
        await asyncio.sleep(0.6)  # 2 per second: a token is back
        assert (await get(http, limited, "api/health"))[0] == 200


def test_rate_limiter_buckets() -> None:
    limiter = RateLimiter(rate=20, burst=40)
    assert all(limiter.check("a", now=0.0) == 0 for _ in range(40))
    assert limiter.check("a", now=0.0) == pytest.approx(0.05)
    assert limiter.check("b", now=0.0) == 0  # per client
    assert limiter.check("a", now=0.05) == 0  # one token back after 1/20 s
    assert retry_after(0.05) == "1" and retry_after(2.2) == "3"
    assert RateLimiter(rate=0, burst=1).check("a") == 0  # 0: no limit


# --- token file, binding, CLI -----------------------------------------------------------------


def test_token_file_is_created_once_with_mode_0600(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data")
    token, path, created = load_or_create_token(settings)
    assert created and path is not None and len(token) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_token(settings) == (token, path, False)
    configured = load_settings(data_dir=tmp_path / "data", api_token="a-configured-token-123")
    assert load_or_create_token(configured) == ("a-configured-token-123", None, False)
    with pytest.raises(ConfigError, match="16 characters"):
        load_or_create_token(load_settings(data_dir=tmp_path, api_token="short"))


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", "example.org"])
def test_no_public_address_without_a_configured_token(tmp_path: Path, host: str) -> None:
    with pytest.raises(ConfigError, match="MEMORYBOT_API_TOKEN"):
        check_bind(load_settings(data_dir=tmp_path, api_host=host))
    check_bind(load_settings(data_dir=tmp_path, api_host=host, api_token="x" * 20))
    for loopback in ("127.0.0.1", "::1", "localhost"):
        check_bind(load_settings(data_dir=tmp_path, api_host=loopback))


async def _start(args: list[str], env: dict[str, str]) -> tuple[asyncio.subprocess.Process, str]:
    """Start ``memorybot ARGS`` and read its output up to the "stop with Ctrl-C" line."""
    process = await asyncio.create_subprocess_exec(
        str(MEMORYBOT), *args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or lines[-1] != "stop with Ctrl-C":
        line = await asyncio.wait_for(process.stdout.readline(), timeout=120)
        if not line:
            assert process.stderr is not None
            raise AssertionError("".join(lines) + (await process.stderr.read()).decode())
        lines.append(line.decode().rstrip("\n"))
    return process, "\n".join(lines)


async def _stop(process: asyncio.subprocess.Process) -> int:
    process.send_signal(signal.SIGTERM)
    return await asyncio.wait_for(process.wait(), timeout=30)


@pytest.mark.slow
async def test_serve_creates_a_token_prints_it_once_and_stops_on_sigterm(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    data = tmp_path / "data"
    args = ["--data-dir", str(data), "serve", "--port", "0"]
    process, out = await _start(args, cli_env())
    try:
        url = re.search(r"page: (http://127\.0\.0\.1:\d+/)", out)
        token = re.search(r"API token: (\S+)", out)
        assert url and token, out
        assert (data / "api-token").read_text().strip() == token.group(1)
        auth = {"Authorization": f"Bearer {token.group(1)}"}
        async with http.get(url.group(1) + "api/memory/guilds", headers=auth) as response:
            assert response.status == 200 and await response.json() == {"guilds": []}
    finally:
        assert await _stop(process) == 0
    process, out = await _start(args, cli_env())  # second start: the token is not shown again
    assert token.group(1) not in out and "api-token" in out
    assert await _stop(process) == 0


async def test_serve_refuses_a_public_address_without_a_token(tmp_path: Path) -> None:
    env = cli_env(MEMORYBOT_API_HOST="0.0.0.0")
    process = await asyncio.create_subprocess_exec(
        str(MEMORYBOT), "--data-dir", str(tmp_path), "serve", env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    _out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode != 0
    assert "MEMORYBOT_API_TOKEN" in err.decode() and "Traceback" not in err.decode()
    assert len(err.decode().strip().splitlines()) == 1


@pytest.mark.slow
async def test_demo_imports_the_sample_and_its_curl_example_works(
    tmp_path: Path, http: aiohttp.ClientSession, each_backend: str
) -> None:
    process, out = await _start(
        ["--data-dir", str(tmp_path / "demo"), "demo", "--port", "0"], cli_env()
    )
    try:
        assert re.search(r"\d+ messages read", out) and "facts" in out
        curl = re.search(r"curl -H 'Authorization: Bearer (\S+)' '(\S+)'", out)
        assert curl, out
        auth = {"Authorization": f"Bearer {curl.group(1)}"}
        async with http.get(curl.group(2), headers=auth) as response:
            body = await response.json()
        assert response.status == 200 and body["queryText"] == "cat"
        facts = [r["fact"] for r in body["results"]]
        assert any(f.startswith("Juliette's cat Mochi ") for f in facts), facts
        page_url = re.search(r"page: (\S+)", out)
        assert page_url
        async with http.get(page_url.group(1)) as response:
            assert response.status == 200 and "text/html" in response.headers["Content-Type"]
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    finally:
        assert await _stop(process) == 0
    assert (tmp_path / "demo" / "memory.db").exists() == (each_backend == "sqlite")


# --- the response cache -----------------------------------------------------------------------


async def _search(http: aiohttp.ClientSession, api: Api, q: str) -> tuple[list[str], str]:
    async with http.get(api.url + "api/memory/search", params={"q": q, "guildId": GUILD_A},
                        headers=api.headers()) as response:  # fmt: skip
        body = await response.json()
        return [r["fact"] for r in body["results"]], response.headers["X-Memorybot-Cache"]


async def test_cached_answers_end_when_the_data_changes(
    api: Api, http: aiohttp.ClientSession
) -> None:
    await api.memory.embed_missing(GUILD_A)  # (a new vector is a change too)
    await settled(api)
    assert await _search(http, api, "nurse") == (["Sarah works as a nurse."], "miss")
    assert await _search(http, api, "nurse") == (["Sarah works as a nurse."], "hit")
    await api.memory.remember(GUILD_A, "Sarah trains nurses", channel_id=CHANNEL_A)
    facts, cache = await _search(http, api, "nurse")
    assert cache == "miss" and "Memory line: Sarah trains nurses." in facts
    await api.memory.embed_missing(GUILD_A)
    # a message becoming searchable ends cached slices too
    params = {"q": "kiln", "guildId": GUILD_A}
    async with http.get(api.url + "api/memory/slice", params=params,
                        headers=api.headers()) as response:  # fmt: skip
        assert (await response.json())["relevantMessages"] == []
    await api.memory.ingest(item(5, "the kiln is fixed"))
    await api.memory.join()
    async with http.get(api.url + "api/memory/slice", params=params,
                        headers=api.headers()) as response:  # fmt: skip
        body = await response.json()
        assert response.headers["X-Memorybot-Cache"] == "miss"
    assert [m["content"] for m in body["relevantMessages"]] == ["the kiln is fixed"]


async def test_the_cache_can_be_turned_off(tmp_path: Path, http: aiohttp.ClientSession) -> None:
    async with served(tmp_path / "data", seed=seed, api_cache_size=0) as uncached:
        for _ in range(2):
            assert (await _search(http, uncached, "nurse"))[1] == "miss"


async def test_concurrent_misses_of_one_key_compute_once() -> None:
    from dashboard_api.cache import ResponseCache

    cache = ResponseCache(2)
    calls = 0

    async def compute() -> bytes:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)
        return b"answer"

    results = await asyncio.gather(*(cache.get("k", compute) for _ in range(5)))
    assert calls == 1 and [body for body, _ in results] == [b"answer"] * 5
    assert sorted(hit for _, hit in results) == [False, True, True, True, True]
    for key in ("a", "b", "c"):  # an LRU of two
        await cache.get(key, compute)
    assert (await cache.get("k", compute))[1] is False

    async def fail() -> bytes:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await cache.get("bad", fail)
    assert (await cache.get("bad", compute)) == (b"answer", False)  # failures are not kept


async def test_misses_are_computed_a_few_at_a_time_in_arrival_order() -> None:
    """Distinct misses queue for their turn (a slice behind forty others waits for them, it
    is not slowed by all of them at once); a cache turned off queues the same way."""
    from dashboard_api.cache import COMPUTING_AT_ONCE, ResponseCache

    for size in (16, 0):
        most, started = await _eight_misses(ResponseCache(size))
        assert most == COMPUTING_AT_ONCE == 4
        assert started == [f"q{n}" for n in range(8)]


async def _eight_misses(cache: Any) -> tuple[int, list[str]]:
    """Eight distinct misses at once: the most computed together, and the order they began."""
    running, most, started = 0, 0, []

    def computing(name: str) -> Callable[[], Awaitable[bytes]]:
        async def compute() -> bytes:
            nonlocal running, most
            running += 1
            most = max(most, running)
            started.append(name)
            await asyncio.sleep(0.01)
            running -= 1
            return name.encode()

        return compute

    names = [f"q{n}" for n in range(8)]
    results = await asyncio.gather(*(cache.get(name, computing(name)) for name in names))
    assert [body for body, _ in results] == [name.encode() for name in names]
    return most, started


async def test_an_unexpected_failure_is_a_json_500_without_details(
    api: Api, http: aiohttp.ClientSession, caplog: pytest.LogCaptureFixture
) -> None:
    snapshot = api.memory.snapshot_path(GUILD_A)
    snapshot.unlink()
    snapshot.mkdir()  # reading MEMORY.md now fails with an OSError
    status, body, _ = await get(http, api, "api/memory", guildId=GUILD_A)
    snapshot.rmdir()  # (the journals write it again when they close)
    assert_error(status, body, 500, "internal")
    assert "MEMORY.md" not in body["error"]["message"]
    assert "api/memory failed" in caplog.text  # logged with its traceback for the operator
