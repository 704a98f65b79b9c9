"""Messages and facts in every script, searched end to end: an export imported by the real
import path, then ``Memory.messages``, ``Memory.search`` and ``memorybot search``; no hit
across scripts; FTS5 syntax in any script never errors; and migration m013 makes an old
database's CJK messages and facts searchable."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands_ingest import run_import
from memory.runtime import Memory, open_memory
from memory.settings import Settings, load_settings
from memory.storage.store import Store
from tests.helpers import (
    GUILD_A,
    MIKE,
    SARAH,
    add_fact,
    built_once,
    export_message,
    run_apart,
    run_cli,
    seed_store,
    sql,
    write_export,
)
from tests.test_store import database_at

FILLER = "just chatting about the weather and lunch today"
# (script, message, a query that finds it, a fact said in it, a query that finds the fact)
SCRIPTS = [
    ("japanese", "私は東京で看護師として働いています", "看護師",
     "田中さんは東京で看護師として働いている。", "看護師"),
    ("chinese", "我住在北京，我的工作是护士。", "北京", "王伟住在北京，是护士。", "北京"),
    ("korean", "저는 서울에서 간호사로 일해요", "서울", "민수는 서울에서 간호사로 일한다.", "서울"),
    ("russian", "Я работаю медсестрой в больнице, ЁЛКА стоит", "медсестрой",
     "Маша работает медсестрой в больнице.", "Медсестрой"),
    ("arabic", "أنا أَعمل مُمَرِّضًا في المستشفى", "ممرضا", "أحمد يعمل مُمرضًا في المستشفى.",
     "مُمَرِّضًا"),
    ("french", "Je travaille à l'hôpital comme infirmière", "infirmiere",
     "Élodie travaille comme infirmière à l'hôpital.", "Infirmière"),
]  # fmt: skip


def export(tmp_path: Path) -> Path:
    messages = []
    for n, (_script, text, *_rest) in enumerate(SCRIPTS):
        messages.append(export_message(2 * n + 1, FILLER, author=MIKE))
        messages.append(export_message(2 * n + 2, text, author=SARAH))
    return write_export(tmp_path / "every-script.json", messages)


async def seed_facts(store: Store) -> None:
    for n, (_script, text, _query, fact, _fact_query) in enumerate(SCRIPTS):
        await add_fact(store, SARAH.id, fact, evidence=text, source=str(n + 1))


async def imported(root: Path) -> None:
    settings = load_settings(data_dir=root / "data", extractor="none")
    _summary, errors = await run_import(settings, [export(root)], quiet=True)
    assert errors == []
    await seed_store(settings.db_path, seed_facts)


@pytest.fixture(scope="module")
def imported_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The export imported and the facts seeded, once: shared, never changed (``settings``)."""
    return built_once(tmp_path_factory, "every-script", lambda root: run_apart(imported(root)))


@pytest.fixture
def settings(imported_once: Path, tmp_path: Path) -> Settings:
    """A data directory of the test's own with the export imported and the facts seeded."""
    shutil.copytree(imported_once / "data", tmp_path / "data")
    return load_settings(data_dir=tmp_path / "data", extractor="none")


@pytest.fixture
async def memory(settings: Settings) -> AsyncIterator[Memory]:
    async with open_memory(settings, start_queue=False) as rt:
        yield rt


@pytest.mark.parametrize(
    ("text", "query"), [(s[1], s[2]) for s in SCRIPTS], ids=[s[0] for s in SCRIPTS]
)
async def test_an_imported_message_is_found_in_its_script(
    memory: Memory, text: str, query: str
) -> None:
    hits = await memory.messages(GUILD_A, query)
    assert [h.message.content for h in hits] == [text]


@pytest.mark.parametrize(
    ("fact", "query"), [(s[3], s[4]) for s in SCRIPTS], ids=[s[0] for s in SCRIPTS]
)
async def test_a_fact_is_found_in_its_script(memory: Memory, fact: str, query: str) -> None:
    """Found first by its words; the others (all about nurses) only by meaning (the local
    embedder is multilingual), never by a word of another script."""
    first, *others = await memory.search(GUILD_A, query)
    assert (first.fact.fact, first.scores.lexical) == (fact, 1.0)
    assert all(h.scores.lexical == 0.0 for h in others)


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("東京", "私は東京"),  # in the Japanese message only, not the Chinese one
        ("京", None),  # one character of a longer run is no term of it
        ("서울에서", "저는 서울에서"),
        ("護師として", "私は東京"),
        ("ёлка", "Я работаю"),  # ё folds to е on both sides
        ("مستشفى", None),  # the message has the article: المستشفى
        ("hopital", "Je travaille"),
        ("ｶﾝｺﾞｼ", None),
    ],
)
async def test_no_hit_across_scripts(memory: Memory, query: str, found: str | None) -> None:
    hits = await memory.messages(GUILD_A, query)
    assert [h.message.content[: len(found)] for h in hits] == ([found] if found else [])


@pytest.mark.parametrize(
    "query",
    [
        '看護師" OR *',
        "NEAR(東京 看護師, 2)",
        "(서울 AND",
        'медсестрой* "',
        "كتاب) NOT (",
        "infirmière:content ^ -",
        '"" * () NEAR',
        "東京 OR 北京 AND NOT 서울",
    ],
)
async def test_fts_syntax_in_any_script_never_errors(memory: Memory, query: str) -> None:
    await memory.messages(GUILD_A, query)
    await memory.search(GUILD_A, query)
    await memory.slice(GUILD_A, query)


@pytest.mark.slow
def test_search_command_finds_a_japanese_fact(settings: Settings) -> None:
    found = run_cli(settings.data_dir, "search", "看護師", "--json")
    assert found.returncode == 0, found.stderr
    facts = [r["fact"] for r in json.loads(found.stdout)["results"]]
    assert facts[0] == SCRIPTS[0][3]


# --- migration m013 ------------------------------------------------------------------------

OLD_MESSAGE = (
    "INSERT INTO messages (guild_id, channel_id, message_id, author_id, author_name, content, "
    "source, created_at) VALUES (?, '111111111111111112', ?, ?, 'Sarah', ?, 'import', "
    "'2026-10-12T18:03:11.123+00:00')"
)
OLD_FACT = (
    "INSERT INTO memory_facts (guild_id, subject, fact, evidence_text, source_message_id, "
    "confidence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0.9, "
    "'2026-10-12T18:03:11.123+00:00', '2026-10-12T18:03:11.123+00:00')"
)


def old_database(path: Path) -> None:
    """A database as m012 left it, with the messages of ``SCRIPTS`` indexed the old way (a
    CJK run one token) and their facts."""
    conn: Any = database_at(path, "m012_member_profiles")
    try:
        for n, (_script, text, _query, fact, _fact_query) in enumerate(SCRIPTS, start=1):
            conn.execute(OLD_MESSAGE, (GUILD_A, str(n), SARAH.id, text))
            conn.execute(OLD_FACT, (GUILD_A, SARAH.id, fact, text, str(n)))
        conn.execute("UPDATE journal_cursor SET journaled_through = (SELECT max(id) FROM messages)")
        conn.execute(
            "INSERT INTO messages_fts (rowid, content, guild_id, channel_id, author_id) "
            "SELECT id, content, guild_id, channel_id, author_id FROM messages"
        )
        old = conn.execute(
            "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", ('"看護"',)
        ).fetchone()
        assert old == (0,)  # not searchable before m013
    finally:
        conn.close()


async def test_m013_makes_an_old_databases_cjk_searchable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = load_settings(data_dir=tmp_path / "data", extractor="none")
    settings.db_path.parent.mkdir(parents=True)
    old_database(settings.db_path)
    with caplog.at_level(logging.INFO):
        async with open_memory(settings, start_queue=False) as rt:
            for _script, text, query, fact, fact_query in SCRIPTS:
                assert [h.message.content for h in await rt.messages(GUILD_A, query)] == [text]
                assert (await rt.search(GUILD_A, fact_query))[0].fact.fact == fact
    assert "m013: indexed 6 messages and 6 facts for every script" in caplog.text
    assert sql(settings.db_path, "SELECT name FROM _migrations WHERE name LIKE 'm013%'") == [
        ("m013_every_script",)
    ]
    # the old database keeps working: an edit and a delete keep the index whole
    async with open_memory(settings, start_queue=False) as rt:
        assert await rt.messages(GUILD_A, "東京")
    store = await Store.open(settings.db_path)
    try:
        await store.edit_message(GUILD_A, "1", "私は大阪で医者として働いています")
        assert [r.row_id for r in await store.messages_by_rows(GUILD_A, [1])]
    finally:
        await store.close()
    async with open_memory(settings, start_queue=False) as rt:
        assert not await rt.messages(GUILD_A, "東京")
        assert [h.message.content for h in await rt.messages(GUILD_A, "大阪")] == [
            "私は大阪で医者として働いています"
        ]
    sql(
        settings.db_path,
        "INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)",
    )
    sql(
        settings.db_path,
        "INSERT INTO memory_facts_fts (memory_facts_fts, rank) VALUES ('integrity-check', 1)",
    )
