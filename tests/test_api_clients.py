"""Who the API counts a request against, on the real API on loopback: wrong tokens have a
limit of their own and never use up a moderator's allowance; X-Forwarded-For is believed
only from MEMORYBOT_API_TRUSTED_PROXIES (the rightmost untrusted hop is the client), for the
rate limits and the log."""

from __future__ import annotations

import logging
from pathlib import Path

import aiohttp
import pytest

from dashboard_api.clients import client_address, parse_networks
from memory.errors import ConfigError
from memory.settings import load_settings
from tests.api_helpers import TOKEN, Api, served
from tests.helpers import GUILD_A
from tests.test_api import seed

SLOW = {"api_rate_limit": 0.01, "api_rate_burst": 2}  # two requests, then 429 for 100 s


async def status(api: Api, path: str = "api/memory/guilds", *, token: str | None = TOKEN,
                 forwarded: str | None = None) -> int:  # fmt: skip
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    async with aiohttp.ClientSession() as http, http.get(api.url + path, headers=headers) as r:
        body = await r.json()
        assert set(body) != {"error"} or set(body["error"]) == {"code", "message"}
        return r.status


async def test_wrong_tokens_never_use_up_a_moderators_allowance(tmp_path: Path) -> None:
    async with served(tmp_path / "data", **SLOW) as api:
        assert [await status(api, token="wrong-token-0123456789") for _ in range(10)] == [401] * 10
        assert [await status(api, token=None) for _ in range(5)] == [401] * 5
        assert [await status(api) for _ in range(3)] == [200, 200, 429]


async def test_wrong_tokens_have_a_limit_of_their_own(tmp_path: Path) -> None:
    async with served(tmp_path / "data") as api, aiohttp.ClientSession() as http:
        wrong = {"Authorization": "Bearer wrong-token-0123456789"}
        statuses = []
        for _ in range(25):
            async with http.get(api.url + "api/memory/guilds", headers=wrong) as response:
                statuses.append(response.status)
                body, headers = await response.json(), response.headers
        assert statuses == [401] * 20 + [429] * 5
        assert body["error"]["code"] == "rate_limited" and int(headers["Retry-After"]) >= 1
        assert await status(api) == 200  # the token still works from the same address


async def test_x_forwarded_for_is_ignored_without_trusted_proxies(tmp_path: Path) -> None:
    async with served(tmp_path / "data", **SLOW) as api:
        answers = [await status(api, forwarded=f"203.0.113.{n}") for n in range(3)]
        assert answers == [200, 200, 429]  # one client: the peer, whatever the header says


async def test_a_trusted_proxys_client_is_the_rightmost_untrusted_hop(tmp_path: Path) -> None:
    async with served(tmp_path / "data", api_trusted_proxies="127.0.0.1", **SLOW) as api:
        assert [await status(api, forwarded="203.0.113.5") for _ in range(2)] == [200, 200]
        assert await status(api, forwarded="203.0.113.5") == 429
        assert await status(api, forwarded="203.0.113.6") == 200  # another client behind it
        # what the client wrote to the left of the proxy's word changes nothing
        assert await status(api, forwarded="198.51.100.1, 203.0.113.5") == 429
        assert await status(api, forwarded="not-an-address, 203.0.113.5") == 429


async def test_a_chain_of_trusted_proxies_is_walked(tmp_path: Path) -> None:
    proxies = "127.0.0.0/8, 203.0.113.0/24"
    async with served(tmp_path / "data", api_trusted_proxies=proxies, **SLOW) as api:
        chain = "198.51.100.1, 203.0.113.5"  # the client, then a trusted proxy
        assert [await status(api, forwarded=chain) for _ in range(3)] == [200, 200, 429]
        assert await status(api, forwarded="198.51.100.2, 203.0.113.5") == 200


async def test_the_log_names_the_forwarded_client(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with served(tmp_path / "data", seed=seed, api_trusted_proxies="127.0.0.1") as api:
        snapshot = api.memory.snapshot_path(GUILD_A)
        snapshot.unlink()
        snapshot.mkdir()  # reading MEMORY.md now fails: a 500, logged
        assert await status(api, f"api/memory?guildId={GUILD_A}", forwarded="203.0.113.9") == 500
        snapshot.rmdir()
    assert "failed (from 203.0.113.9)" in caplog.text


def test_client_addresses() -> None:
    proxies = parse_networks(["127.0.0.1", "10.0.0.0/8", "::1"])
    assert client_address("192.0.2.1", ["203.0.113.5"], proxies) == "192.0.2.1"  # untrusted
    assert client_address("10.1.2.3", ["203.0.113.5, 10.9.9.9"], proxies) == "203.0.113.5"
    assert client_address("::1", ["[2001:db8::7]:4431"], proxies) == "2001:db8::7"
    assert client_address("127.0.0.1", ["203.0.113.5:8080"], proxies) == "203.0.113.5"
    assert client_address("127.0.0.1", ["garbage"], proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", [], proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", ["10.0.0.1"], proxies) == "10.0.0.1"  # all trusted
    assert client_address(None, ["203.0.113.5"], proxies) == "?"  # a Unix socket


def test_trusted_proxies_must_be_addresses_or_blocks(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, api_trusted_proxies="127.0.0.1, 10.0.0.0/8")
    assert settings.api_trusted_proxies == frozenset({"127.0.0.1/32", "10.0.0.0/8"})
    with pytest.raises(ConfigError, match=r"MEMORYBOT_API_TRUSTED_PROXIES.*proxy\.example"):
        load_settings(data_dir=tmp_path, api_trusted_proxies="proxy.example")
