"""Messages between this process and its own child processes (the export reader, the
extraction children): each frame is a 4-byte big-endian length and a pickle.

Pickle is only ever read from a child this process started with its own code.
"""

from __future__ import annotations

import asyncio
import pickle
import struct
from typing import IO, Any

FRAME_HEADER = struct.Struct(">I")


def frame(message: Any) -> bytes:
    """``message`` as one frame."""
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return FRAME_HEADER.pack(len(payload)) + payload


async def read_frame(stream: asyncio.StreamReader) -> Any:
    """The next frame's message; ``asyncio.IncompleteReadError`` when the stream ends."""
    header = await stream.readexactly(FRAME_HEADER.size)
    return pickle.loads(await stream.readexactly(FRAME_HEADER.unpack(header)[0]))


def read_frame_sync(stream: IO[bytes]) -> Any:
    """The next frame's message from a blocking stream; ``EOFError`` when it ends."""
    header = stream.read(FRAME_HEADER.size)
    if len(header) < FRAME_HEADER.size:
        raise EOFError
    size = FRAME_HEADER.unpack(header)[0]
    payload = stream.read(size)
    if len(payload) < size:
        raise EOFError
    return pickle.loads(payload)
