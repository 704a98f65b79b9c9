"""The export reader child process: parse one export, stream its batches to stdout.

``memory.imports.reader`` starts it as ``python -c CHILD_CODE ROOT PATH BATCH_SIZE``: a
fresh interpreter that imports the parser and nothing else (a ``multiprocessing`` child
would first re-run the whole CLI's imports). Each frame (``memory.frames``) on stdout is
``("batch", ParsedBatch)``; the last is ``("end", None)``, or
``("end", "<one error line>")`` where the export breaks. The pipe's capacity is the
back-pressure; when the importer goes away, the next write fails and the child exits.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

from memory.errors import ExportError
from memory.frames import frame
from memory.imports.format import parse_batches

#: Run with ``-c``: puts the project on ``sys.path`` (argv[1]), then calls ``main``.
CHILD_CODE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from memory.imports.child import main; sys.exit(main(sys.argv[2:]))"
)


def stream_export(path: Path, batch_size: int, out: IO[bytes]) -> None:
    """Write ``path``'s batches to ``out``, then the end frame (with the error, if any)."""
    try:
        for batch in parse_batches(path, batch_size):
            out.write(frame(("batch", batch)))
            out.flush()
        end: str | None = None
    except ExportError as exc:
        end = str(exc)
    except BrokenPipeError:  # the importer is gone: nobody to tell (main exits quietly)
        raise
    except Exception as exc:  # anything else still reaches the importer as one line
        end = f"{path}: cannot read: {type(exc).__name__}: {exc}"
    out.write(frame(("end", end)))
    out.flush()


def main(argv: list[str]) -> int:
    path, batch_size = Path(argv[0]), int(argv[1])
    out = sys.stdout.buffer
    try:
        stream_export(path, batch_size, out)
    except (BrokenPipeError, KeyboardInterrupt):  # the importer is gone or stopping us
        # Python flushes stdout at exit: pointed at /dev/null, that flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return 1
    return 0
