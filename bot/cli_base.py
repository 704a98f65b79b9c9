"""What every ``memorybot`` command shares: the state the group passes down (settings from
the environment and ``--data-dir``), running a coroutine, JSON output, checking Discord ids,
and asking for confirmation."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import click

from memory import ids
from memory.errors import MemorybotError
from memory.settings import Settings, load_settings

T = TypeVar("T")


class CliState:
    def __init__(self, debug: bool, data_dir: Path | None) -> None:
        self.debug = debug
        self.data_dir = data_dir

    def settings(self) -> Settings:
        overrides: dict[str, Any] = {}
        if self.data_dir is not None:
            overrides["data_dir"] = self.data_dir
        return load_settings(**overrides)


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def echo_json(payload: Any) -> None:
    click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))


def snowflake(value: str | None, option: str) -> str | None:
    """``value`` if it is a Discord id (or None); a usage error naming ``option`` if not."""
    if value is not None and not ids.is_discord_id(value):
        raise click.BadParameter(f"{value!r} is not {ids.DESCRIPTION}", param_hint=option)
    return value


def confirmed(question: str) -> bool:
    """Ask on stderr (stdout may be JSON); no answer (end of input) is a no."""
    try:
        return click.confirm(question, default=False, err=True)
    except click.Abort:
        return False


def db_path_of(argv: list[str] | None) -> str:
    """The database a command line (``--data-dir`` or the settings) works on, for the line
    about a damaged one."""
    args = argv if argv is not None else sys.argv[1:]
    data_dir = None
    if "--data-dir" in args[:-1]:
        data_dir = Path(args[args.index("--data-dir") + 1])
    try:
        return str(load_settings(**({"data_dir": data_dir} if data_dir else {})).db_path)
    except MemorybotError:
        return "memory.db"


M_ARENA_MAX = -8  # glibc's mallopt parameter


def fewer_malloc_arenas() -> None:
    """At most two malloc arenas (glibc; elsewhere nothing happens), before any thread starts:
    glibc gives each new thread an arena of its own (up to 8 per core), and memory freed in
    one is not reused by another. An import's main process (database thread, event loop,
    embedder) held ~10 MB less at its peak, as ``MALLOC_ARENA_MAX=2`` does (bench/README)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return  # the operator chose
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, 2)
