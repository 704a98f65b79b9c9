"""Hostile clients on raw sockets against the real API on loopback: stalled headers and
bodies meet their deadlines, a connection cap that closes the stalled ones first, and what
aiohttp's parser rejects answered as JSON without the request's text (a token included)
in the answer or the log."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import aiohttp
import pytest

from tests.api_helpers import TOKEN, Api, served
from tests.hostile_clients import (
    BOUND,
    HALF_HEADER,
    exchange,
    parse,
    port_of,
    stalled,
    unfinished_body,
)
from tests.test_api import seed

HEALTH = b"GET /api/health HTTP/1.1\r\nHost: memorybot\r\nConnection: close\r\n\r\n"


async def health(api: Api) -> int:
    timeout = aiohttp.ClientTimeout(BOUND)
    async with (
        aiohttp.ClientSession(timeout=timeout) as http,
        http.get(api.url + "api/health") as r,
    ):
        return r.status


# --- deadlines and the connection cap ---------------------------------------------------------


async def test_a_stalled_or_trickling_header_is_cut_off(tmp_path: Path) -> None:
    async with served(tmp_path / "data", api_client_timeout=0.5) as api:
        port = port_of(api.url)
        async with (
            stalled(port, 1, HALF_HEADER) as (half,),
            stalled(port, 1, b"GET /api/health HTTP/1.1\r\nX-Slow: ") as (trickling,),
        ):
            for _ in range(100):  # a header byte every 0.05 s: sending, never done in time
                if trickling.reader.at_eof():
                    break
                trickling.writer.write(b"x")
                await asyncio.sleep(0.05)
            assert await half.closed_by_server() == b""  # closed without an answer
            assert await trickling.closed_by_server() == b""
        assert await health(api) == 200


async def test_a_stalled_body_is_answered_408(tmp_path: Path) -> None:
    async with served(tmp_path / "data", seed=seed, api_client_timeout=0.5) as api:
        port = port_of(api.url)
        async with stalled(port, 1, unfinished_body("/api/memory/refresh", TOKEN)) as (slow,):
            answer = parse(await slow.closed_by_server())
        assert answer.status == 408 and answer.json()["error"]["code"] == "timeout"
        assert await health(api) == 200


async def test_a_trickling_body_is_answered_408(tmp_path: Path) -> None:
    async with served(tmp_path / "data", seed=seed, api_client_timeout=0.5) as api:
        request = unfinished_body("/api/memory/refresh", TOKEN, sent=b"", length=500)
        async with stalled(port_of(api.url), 1, request) as (slow,):
            answered = asyncio.ensure_future(slow.closed_by_server())
            for _ in range(200):  # a byte every 0.05 s: sending, never done in time
                if answered.done():
                    break
                slow.writer.write(b" ")
                await asyncio.sleep(0.05)
            answer = parse(await answered)
        assert answer.status == 408 and answer.json()["error"]["code"] == "timeout"


async def test_health_answers_while_hundreds_of_half_sent_requests_are_open(
    tmp_path: Path,
) -> None:
    async with served(tmp_path / "data", api_max_connections=100) as api:
        port = port_of(api.url)
        async with stalled(port, 300, HALF_HEADER) as connections:
            answer = await exchange(port, HEALTH)
            assert answer.status == 200 and answer.json()["status"] == "ok"
            assert await health(api) == 200
            # the oldest stalled ones made room (closed without an answer), the newest wait
            assert await connections[0].closed_by_server() == b""
            assert not connections[-1].reader.at_eof()


async def test_when_every_connection_is_being_answered_a_new_one_gets_503(
    tmp_path: Path,
) -> None:
    async with served(tmp_path / "data", seed=seed, api_max_connections=3) as api:
        port = port_of(api.url)
        body = unfinished_body("/api/memory/refresh", TOKEN)
        async with stalled(port, 3, body):
            await asyncio.sleep(0.2)  # (their headers are read: they are being answered)
            answer = await exchange(port, HEALTH)
        assert answer.status == 503 and answer.json()["error"]["code"] == "unavailable"
        assert await health(api) == 200  # the stalled bodies are gone: room again


# --- what the parser rejects, and bodies the app cannot read ---------------------------------


SECRET = "s3cret-token-0123456789abcdef"
MALFORMED = {
    "a control character after the token": (
        f"GET /api/memory/guilds HTTP/1.1\r\nHost: m\r\nAuthorization: Bearer {SECRET}\x01x\r\n\r\n"
    ).encode(),
    "a bad request line": f"{SECRET} / HTTP/1.1\r\nHost: m\r\n\r\n".encode(),
    "a URL too long": b"GET /api/health?q=" + SECRET.encode() * 400 + b" HTTP/1.1\r\n\r\n",
    "a header too long": (f"GET /api/health HTTP/1.1\r\nX-Secret: {SECRET * 400}\r\n\r\n").encode(),
    "too many headers": b"GET /api/health HTTP/1.1\r\n"
    + b"".join(b"X-%d: %s\r\n" % (i, SECRET.encode()) for i in range(200))
    + b"\r\n",
    "not HTTP at all": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + SECRET.encode() + b"\r\n",
}


@pytest.mark.parametrize("name", list(MALFORMED))
async def test_what_the_parser_rejects_is_a_json_400_without_the_request(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    caplog.set_level(logging.DEBUG)
    async with served(tmp_path / "data", api_token=SECRET) as api:
        answer = await exchange(port_of(api.url), MALFORMED[name])
        assert answer.status == 400, answer
        assert answer.headers["content-type"].startswith("application/json")
        error = answer.json()["error"]
        assert set(error) == {"code", "message"} and error["message"]
        assert SECRET[:8] not in answer.body.decode()
        assert await health(api) == 200
    assert SECRET[:8] not in caplog.text and "Traceback" not in caplog.text
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_the_log_of_malformed_requests_is_bounded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with served(tmp_path / "data") as api:
        for _ in range(50):
            assert (await exchange(port_of(api.url), MALFORMED["a bad request line"])).status == 400
    lines = [r for r in caplog.records if r.name.startswith(("dashboard_api", "aiohttp"))]
    assert len(lines) <= 1, [r.getMessage() for r in lines]


async def test_an_authorization_header_that_is_not_utf8_is_401(tmp_path: Path) -> None:
    async with served(tmp_path / "data") as api:
        request = (
            b"GET /api/memory/guilds HTTP/1.1\r\nHost: m\r\nConnection: close\r\n"
            b"Authorization: Bearer \xff\xfe" + TOKEN.encode()[2:] + b"\r\n\r\n"
        )
        answer = await exchange(port_of(api.url), request)
        assert answer.status == 401 and answer.json()["error"]["code"] == "unauthorized"


async def test_a_deeply_nested_body_is_a_json_400(tmp_path: Path) -> None:
    async with served(tmp_path / "data", seed=seed) as api:
        nested = b"[" * 5_000 + b"]" * 5_000  # within the 16 KB a body may have
        async with (
            aiohttp.ClientSession() as http,
            http.post(api.url + "api/memory/refresh", data=nested, headers=api.headers()) as r,
        ):
            assert r.status == 400 and (await r.json())["error"]["code"] == "invalid_body"
