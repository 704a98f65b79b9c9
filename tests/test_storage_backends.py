"""One set of behaviour tests for every storage backend: the SQLite ``Store`` and the
PostgreSQL backend being built (``memory.storage.postgres``, against a real server started
by the ``postgres`` fixture). A part joins here as the PostgreSQL backend gains it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from memory.errors import StoreError
from memory.storage.postgres.connection import shown
from memory.storage.postgres.store import PostgresStore
from memory.storage.store import Store

GUILD, OTHER = "111111111111111111", "222222222222222222"
KAI, MIA = "333333333333333333", "444444444444444444"


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, data_dir: Path) -> AsyncIterator[Any]:
    if request.param == "sqlite":
        store: Any = await Store.open(data_dir / "memory.db")
    else:
        store = await PostgresStore.open(request.getfixturevalue("postgres_url"))
    try:
        yield store
    finally:
        await store.close()


async def test_guilds_are_listed_with_their_names(backend: Any) -> None:
    assert await backend.guild_ids() == []
    await backend.record_guild(OTHER, "Other place")
    await backend.record_guild(GUILD, "Book club")
    await backend.record_guild(GUILD, "Book club (renamed)")
    assert await backend.guild_ids() == [GUILD, OTHER]
    assert await backend.guild_name(GUILD) == "Book club (renamed)"
    assert await backend.guild_name("555555555555555555") == "555555555555555555"


async def test_members_are_upserted_per_guild_keeping_a_known_username(backend: Any) -> None:
    before = backend.members_version
    await backend.record_members(GUILD, [(KAI, "Kai", "kai_k"), (MIA, "Mia", "")])
    await backend.record_members(GUILD, [(KAI, "Kai R.", "")])  # no username: keep kai_k
    await backend.record_members(OTHER, [(KAI, "Kai elsewhere", "kai_k")])
    assert backend.members_version > before
    assert sorted(await backend.members(GUILD)) == [(KAI, "Kai R.", "kai_k"), (MIA, "Mia", "")]
    assert await backend.member_names(GUILD) == {KAI: "Kai R.", MIA: "Mia"}
    assert await backend.member_names(OTHER) == {KAI: "Kai elsewhere"}
    version = backend.members_version
    await backend.record_members(GUILD, [])
    assert backend.members_version == version  # nothing written, nothing moved


async def test_opting_out_and_in_is_per_guild_and_says_whether_it_changed(backend: Any) -> None:
    assert await backend.opted_out(GUILD) == frozenset()
    assert await backend.opt_out(GUILD, KAI) is True
    assert await backend.opt_out(GUILD, KAI) is False  # already
    assert await backend.opted_out(GUILD) == {KAI}
    assert await backend.opted_out(OTHER) == frozenset()
    assert await backend.opt_in(GUILD, KAI) is True
    assert await backend.opt_in(GUILD, KAI) is False
    assert await backend.opted_out(GUILD) == frozenset()


async def test_guild_settings_keep_json_values(backend: Any) -> None:
    assert await backend.guild_settings(GUILD) == {}
    await backend.set_guild_setting(GUILD, "ignored_channels", ["1", "2"])
    await backend.set_guild_setting(GUILD, "notice_posted", True)
    await backend.set_guild_setting(GUILD, "ignored_channels", ["3"])
    await backend.set_guild_setting(OTHER, "limits", {"a": 1, "b": None})
    settings = await backend.guild_settings(GUILD)
    assert settings == {"ignored_channels": ["3"], "notice_posted": True}
    settings["notice_posted"] = False  # a copy: the store's own is untouched
    assert (await backend.guild_settings(GUILD))["notice_posted"] is True
    assert await backend.guild_settings(OTHER) == {"limits": {"a": 1, "b": None}}


async def test_versions_name_the_database(backend: Any) -> None:
    versions = await backend.versions()
    assert versions and all(isinstance(v, str) and v for v in versions.values())


# --- PostgreSQL only: reaching the server, and its migrations -----------------------------


async def test_a_second_open_applies_no_migration_twice(postgres_url: str) -> None:
    first = await PostgresStore.open(postgres_url)
    await first.record_guild(GUILD, "Book club")
    second = await PostgresStore.open(postgres_url)  # the schema is there: nothing redone
    try:
        assert await second.guild_name(GUILD) == "Book club"
        names = await second.pool.fetch("SELECT name FROM schema_migrations")
        assert len(names) == len({r[0] for r in names}) >= 1
    finally:
        await first.close()
        await second.close()


async def test_stores_opened_at_once_migrate_once(postgres_url: str) -> None:
    import asyncio

    stores = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(4)))
    try:
        count = await stores[0].pool.fetchval("SELECT count(*) FROM schema_migrations")
        from memory.storage.postgres.schema import MIGRATIONS

        assert count == len(MIGRATIONS)
    finally:
        for store in stores:
            await store.close()


async def test_an_unreachable_server_is_a_clear_error_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql://bot:s3cret@/memory?host={tmp_path}&port=1"
    with pytest.raises(StoreError) as caught:
        await PostgresStore.open(url)
    assert "cannot reach PostgreSQL" in str(caught.value)
    assert "s3cret" not in str(caught.value) and "***" in str(caught.value)


async def test_a_url_that_is_not_postgresql_is_refused() -> None:
    with pytest.raises(StoreError, match="not a PostgreSQL URL"):
        await PostgresStore.open("mysql://bot:pw@localhost/memory")


def test_shown_urls_hide_only_the_password() -> None:
    assert (
        shown("postgresql://bot:pw@db.example:5432/m") == "postgresql://bot:***@db.example:5432/m"
    )
    assert shown("postgresql://db.example/m") == "postgresql://db.example/m"
