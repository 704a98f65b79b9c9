"""Several processes on one PostgreSQL store, at the store's level: each job is claimed by
one process at a time and its facts are stored by the one that holds it; a process that is
gone leaves its jobs to the others, and one that hangs (stopped with SIGSTOP, its
connection open) leaves them once its claims lapse; a guild's journal is written by one
process at a time.
Each store here is what one process holds (its own pool and session). The same, with real
processes killed mid-way: ``test_postgres_processes``."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from memory.extraction.lore import Origin
from memory.models import CandidateFact
from memory.storage.postgres.store import PostgresStore
from tests.helpers import CHANNEL_A, GUILD_A, GUILD_B, SARAH, item

Opener = Callable[[], Awaitable[PostgresStore]]
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
async def opener(postgres_url: str) -> AsyncIterator[Opener]:
    """Opens stores of one database, as processes do; closes what is left open."""
    stores: list[PostgresStore] = []

    async def open_one() -> PostgresStore:
        stores.append(await PostgresStore.open(postgres_url))
        return stores[-1]

    yield open_one
    for store in stores:
        if not store.pool.is_closing():
            await store.close()


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 10.0) -> None:
    """Wait until ``check()`` holds (a closed connection's server process ends a moment
    after the client goes)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("never held")
        await asyncio.sleep(0.05)


async def test_a_job_stays_with_the_process_that_stored_it_while_that_process_lives(
    opener: Opener,
) -> None:
    one, two = await opener(), await opener()
    rows = list((await one.insert_messages([item(1), item(2)], live=False)).rows)
    assert await two.claim_pending(10) == [] and await two.pending_keys() == []
    assert await two.unclaimed_jobs() == 0
    assert [job.job_id for job in await one.claim_pending(10)] == rows  # its own
    await one.close()  # the process is gone: its jobs are anyone's
    await eventually(lambda: _equals(two.unclaimed_jobs(), 2))
    assert [key[1] for key in await two.pending_keys()] == ["1", "2"]
    assert [job.job_id for job in await two.claim_pending(10)] == rows
    assert await two.unclaimed_jobs() == 0


async def test_processes_claiming_at_once_never_take_the_same_job(opener: Opener) -> None:
    first = await opener()
    rows = set((await first.insert_messages([item(n) for n in range(300)], live=False)).rows)
    await first.close()
    claimers = [await opener() for _ in range(3)]
    await eventually(lambda: _equals(claimers[0].unclaimed_jobs(), 300))

    taken = await asyncio.gather(*(store.claim_pending(100) for store in claimers))
    everything = [job.job_id for part in taken for job in part]
    assert sorted(everything) == sorted(rows)  # each once
    for store, part in zip(claimers, taken, strict=True):  # and each keeps its own
        assert await store.claim_pending(300) == part


async def test_a_lapsed_claim_taken_by_another_process_stores_nothing(opener: Opener) -> None:
    one, two = await opener(), await opener()
    (row,) = (await one.insert_messages([item(1, "Sarah lives in Boston")], live=False)).rows
    fact = (Origin(GUILD_A, CHANNEL_A, ""), CandidateFact(
        SARAH.id, "Sarah lives in Boston", "profile", 0.8, "Sarah lives in Boston", "1"
    ))  # fmt: skip
    # one stalls past its claim (a process stopped, its connection still open) ...
    await one.pool.execute("UPDATE ingest_jobs SET claimed_until = now() - interval '1 s'")
    assert [job.job_id for job in await two.claim_pending(10)] == [row]  # ... two takes it
    await one.finish_jobs([row], facts=[fact])  # one wakes up and writes what it found
    assert await two.count_active_facts(GUILD_A) == 0 and await two.pending_count(GUILD_A) == 1
    await two.finish_jobs([row], facts=[fact])
    assert await two.count_active_facts(GUILD_A) == 1 and await two.pending_count(GUILD_A) == 0


async def test_a_guilds_journal_is_written_by_one_process_at_a_time(opener: Opener) -> None:
    one, two = await opener(), await opener()
    await one.insert_messages([item(1), item(2, guild_id=GUILD_B)], live=False)
    taken = await one.unjournaled_messages(10)
    assert {m.guild_id for m in taken} == {GUILD_A, GUILD_B}
    assert await two.unjournaled_messages(10) == []  # one is writing both
    waiting = asyncio.create_task(_hold(two, GUILD_A))
    await asyncio.sleep(0.3)
    assert not waiting.done()  # a rewrite of A's logs waits for one's turn to end
    await one.mark_journaled(taken)
    await asyncio.wait_for(waiting, 10)
    assert await two.unjournaled_messages(10) == [] == await one.unjournaled_messages(10)

    await one.insert_messages([item(3), item(4, guild_id=GUILD_B)], live=False)
    async with two.journal_guilds([GUILD_B]):  # two rewrites B's logs meanwhile
        assert [m.message_id for m in await one.unjournaled_messages(10)] == ["3"]
    await one.mark_journaled([])  # the turn ends, nothing written
    assert [m.message_id for m in await one.unjournaled_messages(10)] == ["3", "4"]


async def test_a_process_that_dies_mid_turn_lets_the_guild_go(opener: Opener) -> None:
    one, two = await opener(), await opener()
    await one.insert_messages([item(1)], live=False)
    assert len(await one.unjournaled_messages(10)) == 1
    await one.close()  # without marking them: its locks end with its session
    await eventually(lambda: _length(two.unjournaled_messages(10), 1))


async def _hold(store: PostgresStore, guild_id: str) -> None:
    async with store.journal_guilds([guild_id]):
        pass


async def _equals(value: Awaitable[int], expected: int) -> bool:
    return await value == expected


async def _length(value: Awaitable[list[object]], expected: int) -> bool:
    return len(await value) == expected


HOLDER = """
import asyncio, sys
from memory.storage.postgres.store import PostgresStore
from tests.helpers import item

async def main() -> None:
    store = await PostgresStore.open(sys.argv[1], claim_seconds=1.0)
    await store.insert_messages([item(1), item(2)], live=False)
    print("stored", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


async def test_the_claims_of_a_process_that_hangs_lapse(postgres_url: str, opener: Opener) -> None:
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, postgres_url, cwd=REPO, stdout=asyncio.subprocess.PIPE
    )
    try:
        assert holder.stdout is not None
        assert await asyncio.wait_for(holder.stdout.readline(), 60) == b"stored\n"
        other = await opener()
        await asyncio.sleep(2.0)  # past its claims' life: its heartbeat renewed them
        assert await other.unclaimed_jobs() == 0 and await other.claim_pending(10) == []
        holder.send_signal(signal.SIGSTOP)  # hung, its connection open
        await eventually(lambda: _equals(other.unclaimed_jobs(), 2))
        assert [job.message.message_id for job in await other.claim_pending(10)] == ["1", "2"]
    finally:
        holder.kill()
        holder.send_signal(signal.SIGCONT)
        await holder.wait()
