"""Batches of a parsed export, from this process or from a reader child process.

Parsing JSON costs about as much as storing it. For a large export the parser runs in
a child process (``memory.imports.child``: its own interpreter, on another core) that
streams compact batches over a pipe, read by the event loop while the importer stores the
batch before. The pipe's capacity (and the stream reader's buffer) is the back-pressure:
the child blocks while the importer is busy. If the importer dies, the pipe breaks and
the child exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path

from memory.errors import ExportError
from memory.frames import read_frame
from memory.imports.child import CHILD_CODE
from memory.imports.format import ParsedBatch, parse_batches

CHILD_MIN_BYTES = 4 * 1024 * 1024  # below this a child's start-up costs more than it saves
READ_LIMIT = 256 * 1024  # the loop buffers up to twice this of the child's output
PROJECT_ROOT = str(Path(__file__).resolve().parents[2])  # where the child finds memory/


async def read_batches(
    path: Path, batch_size: int, *, use_child: bool | None = None
) -> AsyncIterator[ParsedBatch]:
    """Yield the export's batches; raise ``ExportError`` where it breaks (after its batches)."""
    if use_child is None:
        use_child = path.stat().st_size >= CHILD_MIN_BYTES  # noqa: ASYNC240 - one stat call
    if not use_child:
        for batch in parse_batches(path, batch_size):
            yield batch
            await asyncio.sleep(0)
        return
    async with contextlib.aclosing(_from_child(path, batch_size)) as batches:
        async for batch in batches:  # closed with this generator: the child stops at once
            yield batch


async def _from_child(path: Path, batch_size: int) -> AsyncGenerator[ParsedBatch, None]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD_CODE,
        PROJECT_ROOT,
        str(path),
        str(batch_size),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        limit=READ_LIMIT,
    )
    stdout, stderr = process.stdout, process.stderr
    assert stdout is not None and stderr is not None
    complaints = asyncio.ensure_future(stderr.read())  # whatever the child says, if it dies
    ended = False
    try:
        while True:
            try:
                kind, value = await read_frame(stdout)  # our own child's output
            except asyncio.IncompleteReadError:
                await process.wait()
                raise ExportError(
                    f"{path}: the export reader stopped unexpectedly{_last_line(await complaints)}"
                ) from None
            if kind == "end":
                ended = True
                if value is not None:
                    raise ExportError(value)
                return
            yield value
    finally:
        if not ended:  # left early (or the child died): stop it, so nothing is left behind
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await stdout.read()  # to the end of its output: the pipe then closes
            await process.wait()
            await complaints


def _last_line(text: bytes) -> str:
    """``": <the child's last line on stderr>"``, or nothing."""
    lines = text.decode("utf-8", "replace").strip().splitlines()
    return f": {lines[-1][:200]}" if lines else ""
