"""Hostile HTTP clients over real sockets: requests sent in part and stalled, garbage, and
the raw answers read back."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

BOUND = 30.0  # seconds: a bound for a broken server, not a timing assertion


def port_of(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def parse(raw: bytes) -> Answer:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(status, headers, body)


async def exchange(port: int, data: bytes) -> Answer:
    """Send ``data`` on a new connection and read the answer up to the server's close."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        return parse(await asyncio.wait_for(reader.read(), BOUND))
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


@dataclass
class Stalled:
    """A connection that sent part of a request and waits."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    async def closed_by_server(self) -> bytes:
        """What the server sent before it closed the connection (within ``BOUND``)."""
        try:
            return await asyncio.wait_for(self.reader.read(), BOUND)
        except ConnectionError:
            return b""


async def stall(port: int, data: bytes) -> Stalled:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    return Stalled(reader, writer)


@contextlib.asynccontextmanager
async def stalled(
    port: int, count: int, data: bytes, *, at_once: bool = False
) -> AsyncIterator[list[Stalled]]:
    """``count`` connections that each sent ``data`` (part of a request) and wait, opened
    one after the other (oldest first) or ``at_once``; closed when the block ends."""
    if at_once:
        opened = list(await asyncio.gather(*(stall(port, data) for _ in range(count))))
    else:
        opened = [await stall(port, data) for _ in range(count)]
    try:
        yield opened
    finally:
        for connection in opened:
            connection.writer.close()
        for connection in opened:
            with contextlib.suppress(ConnectionError):
                await connection.writer.wait_closed()


HALF_HEADER = b"GET /api/health HTTP/1.1\r\nHost: memorybot\r\nUser-Ag"


def unfinished_body(path: str, token: str, sent: bytes = b'{"guil', length: int = 200) -> bytes:
    """A request whose headers promise ``length`` bytes of body and which sends ``sent``."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: memorybot\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    ).encode() + sent
