"""Batches of a parsed export, from this process or from a reader child process.

Parsing JSON costs about as much as storing it. For a large export the parser runs in
a child process (its own interpreter, on another core) and streams compact batches over
a pipe, whose capacity is the back-pressure: the child blocks while the importer is busy.
If the importer dies, the pipe breaks and the child exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from collections.abc import AsyncGenerator, AsyncIterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from memory.errors import ExportError
from memory.export_format import ParsedBatch, parse_batches

CHILD_MIN_BYTES = 4 * 1024 * 1024  # below this a child's start-up costs more than it saves


def _reader_main(path: str, batch_size: int, conn: Connection) -> None:
    """Child process: send ``("batch", ParsedBatch)`` … then ``("end", None | error)``."""
    try:
        for batch in parse_batches(Path(path), batch_size):
            conn.send(("batch", batch))
        conn.send(("end", None))
    except ExportError as exc:
        _send_quietly(conn, ("end", str(exc)))
    except (BrokenPipeError, KeyboardInterrupt):
        return
    except Exception as exc:  # anything else still reaches the importer as one line
        _send_quietly(conn, ("end", f"{path}: cannot read: {type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _send_quietly(conn: Connection, message: Any) -> None:
    with contextlib.suppress(OSError):  # the importer is gone: nobody to tell
        conn.send(message)


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
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads
    parent_end, child_end = context.Pipe(duplex=False)
    process = context.Process(
        target=_reader_main,
        args=(str(path), batch_size, child_end),
        name="memorybot-export-reader",
        daemon=True,
    )
    process.start()
    child_end.close()
    loop = asyncio.get_running_loop()
    receiving: asyncio.Future[Any] | None = loop.run_in_executor(None, parent_end.recv)
    try:
        while receiving is not None:
            try:
                kind, payload = await receiving
            except EOFError:
                receiving = None
                raise ExportError(f"{path}: the export reader stopped unexpectedly") from None
            receiving = None
            if kind == "end":
                if payload is not None:
                    raise ExportError(payload)
                return
            # The next batch is received (a thread hop) while the caller stores this one.
            receiving = loop.run_in_executor(None, parent_end.recv)
            yield payload
    finally:
        if receiving is not None:  # left early: stop the child, so the receive under way ends
            process.kill()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await receiving
        parent_end.close()
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()
