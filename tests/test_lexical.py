"""Full-text windows, document-frequency estimates and BM25 ranking (``memory.search.lexical``) on a
real store, and the word forms a query token stands for (``memory.search.fts``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from memory.models import Author
from memory.search import lexical
from memory.search.fts import fts_words, query_tokens, term_groups, word_forms
from memory.search.lexical import GuildProfile
from memory.storage.db import connect_sync
from memory.storage.migrations import M001_CORE
from memory.storage.store import Store
from memory.storage.windows import Narrow, Window
from tests.helpers import CHANNEL_A, CHANNEL_B, GUILD_A, GUILD_B, MIKE, SARAH, item, sql


async def index(store: Store, texts: list[str], *, guild: str = GUILD_A, start: int = 1,
                channel: str = CHANNEL_A, author: Author = SARAH) -> list[int]:  # fmt: skip
    """Store ``texts`` as messages and index them for search; their row ids, in order."""
    items = [
        item(start + n, text, guild_id=guild, channel_id=channel, author=author)
        for n, text in enumerate(texts)
    ]
    outcome = await store.insert_messages(items, live=False)
    rows = [outcome.row_ids[(guild, str(start + n))] for n in range(len(texts))]
    await store.mark_journaled_through(max(rows))
    return rows


def groups(query: str) -> list[lexical.TermGroup]:
    return term_groups(query_tokens(query))


# --- word forms -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("cycling", {"cycle", "cycles", "cycled"}),
        ("studies", {"study", "studied", "studying"}),
        ("running", {"run", "runs", "runner"}),
        ("hiking", {"hike", "hikes", "hiker"}),
        ("works", {"work", "worked", "working", "worker"}),
        ("movies", {"movie"}),
        ("boxes", {"box", "boxing"}),
        ("parties", {"party"}),
    ],
)
def test_word_forms_reach_the_usual_inflections(token: str, expected: set[str]) -> None:
    forms = word_forms(token)
    assert forms[0] == token
    assert expected <= set(forms)
    assert len(forms) <= 16


def test_short_words_and_numbers_stand_for_themselves() -> None:
    assert word_forms("cat") == ("cat",)
    assert word_forms("2024") == ("2024",)
    assert word_forms("b2b") == ("b2b",)


def test_words_are_folded_as_the_index_tokenizer_folds_them() -> None:
    assert fts_words("Café_CRÈME naïve façade x") == ["cafe", "creme", "naive", "facade", "x"]
    assert [g.token for g in groups("the Café's crème")] == ["cafe", "creme"]


# --- windows, estimates and ranking -----------------------------------------------------------


async def test_a_rare_word_is_found_however_many_newer_messages_match_a_common_one(
    store: Store,
) -> None:
    (rare,) = await index(store, ["the lighthouse keeper said hello"])
    await index(store, [f"hello number {n}" for n in range(400)], start=10)
    found = await lexical.candidates(
        store, lexical.MESSAGES, GUILD_A, groups("hello lighthouse"), limit=5, window=50
    )
    assert found.order[0] == rare
    assert found.idf["lighthouse"] > found.idf["hello"] > 0


async def test_windows_never_cross_guilds(store: Store) -> None:
    mine = await index(store, ["pottery class on tuesday"], guild=GUILD_A)
    await index(store, [f"pottery wheel {n}" for n in range(50)], guild=GUILD_B, start=100)
    found = await lexical.candidates(
        store, lexical.MESSAGES, GUILD_A, groups("pottery"), limit=50,
        extra={"channel": Narrow("channel_id", (CHANNEL_A,))},
    )  # fmt: skip
    assert found.order == mine
    assert found.extra["channel"] == mine
    assert found.documents == 1


async def test_extra_windows_filter_by_channel_and_author(store: Store) -> None:
    a = await index(store, ["bread recipe", "bread again"], channel=CHANNEL_A, author=SARAH)
    b = await index(store, ["bread from mike"], start=20, channel=CHANNEL_B, author=MIKE)
    found = await lexical.candidates(
        store, lexical.MESSAGES, GUILD_A, groups("bread"), limit=10,
        extra={"channel": Narrow("channel_id", (CHANNEL_B,)),
               "named": Narrow("author_id", (SARAH.id,))},
    )  # fmt: skip
    assert found.extra == {"channel": b, "named": sorted(a, reverse=True)}


async def test_word_forms_match_but_ids_in_other_columns_do_not(store: Store) -> None:
    row, _ = await index(store, ["I cycled to work", f"channel {CHANNEL_A} talk"])
    found = await lexical.candidates(store, lexical.MESSAGES, GUILD_A, groups("cycling"), limit=9)
    assert found.order == [row]
    # a snowflake is only found where it is written, never through the id columns
    by_id = await lexical.candidates(store, lexical.MESSAGES, GUILD_A, groups(SARAH.id), limit=9)
    assert by_id.order == []


async def test_fact_windows_search_fact_and_evidence(store: Store) -> None:
    from memory.extraction.lore import Origin
    from memory.models import CandidateFact

    facts = [
        CandidateFact(SARAH.id, "Sarah keeps bees.", "other", 0.9, "my beehives are busy", "1"),
        CandidateFact(MIKE.id, "Mike likes tea.", "preference", 0.9, "", "2"),
    ]
    await store.finish_jobs([], [], [(Origin(GUILD_A, CHANNEL_A), f) for f in facts])
    await store.finish_jobs([], [], [(Origin(GUILD_B, CHANNEL_B), facts[0])])
    found = await lexical.candidates(store, lexical.FACTS, GUILD_A, groups("beehive"), limit=9)
    (fact,) = await store.facts_by_ids(GUILD_A, found.order)
    assert fact.fact == "Sarah keeps bees." and fact.guild_id == GUILD_A


def test_frequency_is_exact_below_the_window_and_scaled_above_it() -> None:
    # a guild of 1,000 documents at every other row id; a term in every tenth of them
    rows = list(range(2, 2002, 2))
    profile = GuildProfile(sorted(rows, reverse=True)[: lexical.GUILD_PROBE], oldest=2)
    assert profile.size == pytest.approx(1000)
    term = sorted(rows[::10], reverse=True)
    assert profile.frequency(term[:7], limit=50) == 7  # window not full: every match
    assert profile.frequency(term[:50], limit=50) == pytest.approx(100, rel=0.05)


def test_frequency_of_a_big_guild_extrapolates_from_its_probe() -> None:
    probe = list(range(1_000_000, 1_000_000 - lexical.GUILD_PROBE, -1))
    profile = GuildProfile(probe, oldest=1)
    assert profile.size == pytest.approx(1_000_000, rel=0.01)
    window = list(range(1_000_000, 1_000_000 - 200 * 50, -50))  # every 50th document
    assert profile.frequency(window, limit=200) == pytest.approx(20_000, rel=0.02)


def test_bm25_rewards_rarer_words_more_matches_and_shorter_texts() -> None:
    query = groups("ferret yoga")
    idf = {"ferret": 3.0, "yoga": 1.0}
    scores = lexical.rank(
        query, idf,
        {1: "my ferret", 2: "yoga today", 3: "ferret yoga", 4: "ferrets " + "word " * 30,
         5: "nothing here"},
    )  # fmt: skip
    assert scores[3] > scores[1] > scores[2] > 0
    assert scores[1] > scores[4] > 0  # plural counted, long text weighs less
    assert scores[5] == 0
    # the prefix of the stem counts as the word ("ferreting"), as full-text search does
    assert lexical.rank(query, idf, {1: "ferreting around"})[1] > 0
    assert math.isfinite(sum(scores.values()))


async def test_guild_profiles_are_reused_for_their_ttl(store: Store) -> None:
    await index(store, ["alpha", "beta"])
    profiles = lexical.Profiles(ttl=3600)
    first = await lexical.candidates(
        store, lexical.MESSAGES, GUILD_A, groups("alpha"), limit=5, profiles=profiles
    )
    await index(store, ["alpha again", "alpha more"], start=10)
    cached = await lexical.candidates(
        store, lexical.MESSAGES, GUILD_A, groups("alpha"), limit=5, profiles=profiles
    )
    assert first.documents == cached.documents == 2  # the estimate only; rows are fresh
    assert len(cached.order) == 3
    fresh = await lexical.candidates(store, lexical.MESSAGES, GUILD_A, groups("alpha"), limit=5)
    assert fresh.documents == 4


async def test_store_refuses_unknown_corpora_and_guild_ids(store: Store) -> None:
    with pytest.raises(ValueError, match="full-text corpus"):
        await store.fts_windows("messages; DROP TABLE messages", GUILD_A, [Window(None, 1)])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="guild id"):
        await store.fts_windows("messages", '1" OR "2', [Window(None, 1)])


# --- the migration ----------------------------------------------------------------------------


async def test_the_scoped_index_migration_reindexes_what_was_there(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    conn = connect_sync(path)
    conn.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for statement in M001_CORE:
        conn.execute(statement)
    conn.execute("INSERT INTO _migrations VALUES ('m001_core', datetime('now'))")
    conn.execute(
        "INSERT INTO messages (guild_id, channel_id, message_id, author_id, author_name, "
        "content, source, created_at) VALUES (?, ?, '1', ?, 'Sarah', 'my kiln broke', 'text', "
        "'2026-10-12T18:03:11.123+00:00')",
        (GUILD_A, CHANNEL_A, SARAH.id),
    )
    conn.execute("UPDATE journal_cursor SET journaled_through = 1")
    conn.execute("INSERT INTO messages_fts (rowid, content) VALUES (1, 'my kiln broke')")
    conn.execute(
        "INSERT INTO memory_facts (guild_id, channel_id, subject, fact, evidence_text, "
        "created_at, updated_at) VALUES (?, ?, ?, 'Sarah owns a kiln.', 'my kiln', 'x', 'x')",
        (GUILD_A, CHANNEL_A, SARAH.id),
    )
    conn.close()
    async with await Store.open(path) as store:
        messages = await lexical.candidates(
            store, lexical.MESSAGES, GUILD_A, groups("kiln"), limit=5,
            extra={"named": Narrow("author_id", (SARAH.id,))},
        )  # fmt: skip
        facts = await lexical.candidates(store, lexical.FACTS, GUILD_A, groups("kiln"), limit=5)
        assert messages.order == [1] and messages.extra["named"] == [1]
        assert len(facts.order) == 1
        sql(store.path, "INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')")
        sql(
            store.path, "INSERT INTO memory_facts_fts (memory_facts_fts) VALUES ('integrity-check')"
        )
