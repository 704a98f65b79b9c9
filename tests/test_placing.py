"""``placing.run_now``: the lifecycle's rules run where their statements do (SQLite's
database thread) when no statement suspends, and refuse a backend whose statements do."""

from __future__ import annotations

import asyncio

import pytest

from memory.storage.placing import run_now


async def _add(a: int, b: int) -> int:
    async def statement(value: int) -> int:  # runs as it is called, like SQLite's
        return value

    return await statement(a) + await statement(b)


async def _fails() -> int:
    raise ValueError("the statement failed")


async def _suspends() -> int:
    await asyncio.sleep(0)  # a statement that waits for the network
    return 1


def test_a_coroutine_that_never_suspends_gives_its_result_here_and_now() -> None:
    assert run_now(_add(2, 3)) == 5


def test_its_errors_are_raised_as_they_are() -> None:
    with pytest.raises(ValueError, match="statement failed"):
        run_now(_fails())


def test_a_coroutine_that_suspends_is_refused_and_closed() -> None:
    coro = _suspends()
    with pytest.raises(RuntimeError, match="needs await"):
        run_now(coro)
    assert coro.cr_frame is None  # closed: nothing left running
