"""An extraction child process: the offline extractor on another core.

``ExtractionChild.start()`` runs ``python -c CHILD_CODE ROOT``: a fresh interpreter that
imports the extractor and nothing else (a ``multiprocessing`` child would first re-run the
whole CLI's imports, about 15 MB more, and start a resource tracker besides). Requests
and replies are frames (``memory.frames``): the parent sends ``(messages, context)``, the
child answers ``("facts", [CandidateFact, ...])`` — extracted and filtered — or
``("error", "<Type: message>")``. The child exits when its stdin closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path

from memory.extraction import ContextTurn, SourceMessage
from memory.frames import frame, read_frame, read_frame_sync
from memory.models import CandidateFact

#: Run with ``-c``: puts the project on ``sys.path`` (argv[1]), then calls ``main``.
CHILD_CODE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from memory.extraction.offline.child import main; sys.exit(main())"
)
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])  # where the child finds memory/
STOP_SECONDS = 5.0  # how long a closing child may take to finish before it is killed


class ChildDied(Exception):
    """The child process is gone (killed, out of memory) or answers nonsense."""


class ExtractionChild:
    """One child process; one request at a time."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        self._lock = asyncio.Lock()

    @classmethod
    async def start(cls) -> ExtractionChild:
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-c", CHILD_CODE, PROJECT_ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
        except OSError as exc:  # no process to be had (limits, memory)
            raise ChildDied(f"cannot start an extraction child: {exc}") from exc
        return cls(process)

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn]
    ) -> list[CandidateFact]:
        """The facts of ``messages`` that pass the fact filter (``extract_checked``)."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        async with self._lock:
            try:
                stdin.write(frame((list(messages), list(context))))
                await stdin.drain()
                kind, value = await read_frame(stdout)
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                raise ChildDied(f"extraction child {self._process.pid}: {exc!r}") from exc
        if kind == "error":
            raise RuntimeError(value)  # the extractor's own error, as in this process
        return list(value)

    async def close(self) -> None:
        """Let the child finish and exit (killed if it does not within ``STOP_SECONDS``)."""
        stdin = self._process.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.close()
        try:
            await asyncio.wait_for(self._process.wait(), STOP_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
            await self._process.wait()


def main() -> int:
    """The child's loop: a request in, its reply out, until stdin ends."""
    from memory.extraction.offline import extract_checked

    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            messages, context = read_frame_sync(requests)
        except (EOFError, KeyboardInterrupt):
            return 0
        try:
            reply: tuple[str, object] = ("facts", extract_checked(messages, context))
        except Exception as exc:  # the parent fails these messages' jobs, as it would here
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            replies.write(frame(reply))
            replies.flush()
        except BrokenPipeError:  # the parent is gone
            return 1
