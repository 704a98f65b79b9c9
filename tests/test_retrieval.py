"""Hybrid search and the prompt memory slice on a real store: scoring, gating, safe FTS5
queries, name resolution and guild isolation."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.models import Fact
from memory.search import lexical
from memory.search.fts import query_tokens, term_groups
from memory.search.results import fact_json
from memory.search.retriever import Retriever
from memory.search.scoring import combine, lexical_score, score_fact
from memory.storage.messages import fts5_expression
from memory.storage.store import Store
from memory.storage.windows import Narrow, Window
from tests.helpers import (
    CHANNEL_A,
    CHANNEL_B,
    GUILD_A,
    GUILD_B,
    MIKE,
    SARAH,
    add_fact,
    item,
    run_cli,
)

NOW = datetime(2026, 11, 1, tzinfo=UTC)


@pytest.fixture
async def community(store: Store) -> Store:
    """Two guilds with look-alike content; Sarah and Mike are members of A."""
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    await store.record_members(GUILD_A, [(MIKE.id, MIKE.name, MIKE.username)])
    await add_fact(store, SARAH.id, "Sarah works as a nurse.", evidence="I work as a nurse")
    await add_fact(store, SARAH.id, "Sarah likes pineapple on pizza.", source="2")
    await add_fact(store, MIKE.id, "Mike plays bass in a ska band.", source="3")
    await add_fact(store, "__lore__", "Memory line: the raid is every friday.", source="4")
    await add_fact(store, SARAH.id, "Sarah works as a nurse.", guild=GUILD_B, channel=CHANNEL_B)
    return store


# --- scoring and gating ---------------------------------------------------------------------


def test_the_peer_formula_with_and_without_semantic() -> None:
    combined, passed = combine(0.5, 0.5, 1.0, 1.0, 1.0)
    assert combined == pytest.approx(0.50 * 0.5 + 0.28 * 0.5 + 0.10 + 0.07 + 0.05)
    assert passed
    combined, passed = combine(None, 0.2, 1.0, 1.0, 0.0)
    assert combined == pytest.approx(0.75 * 0.2 + 0.10 + 0.10)
    assert not passed  # lexical < 0.24 and combined < 0.62
    assert combine(None, 0.24, 0.0, 0.0, 0.0)[1]
    assert combine(0.1, 0.0, 1.0, 1.0, 1.0)[1] is False  # no signal: gate closed
    assert combine(0.19, 0.05, 1.0, 1.0, 1.0)[1] is False


def test_lexical_is_substring_or_token_share() -> None:
    assert lexical_score("pineapple pizza", ["pineapple", "pizza"], "pineapple pizza rules") == 1
    tokens = query_tokens("who plays bass guitar")
    assert lexical_score("who plays bass guitar", tokens, "Mike plays bass.") == pytest.approx(
        2 / 3
    )
    assert lexical_score("x", [], "anything") == 0


def test_component_scores_of_a_fact() -> None:
    fact = Fact(1, GUILD_A, None, SARAH.id, "Sarah works as a nurse.", "profile", "", "9", 0.9,
                True, said_at="2026-10-02T00:00:00.000+00:00",
                created_at="2026-10-31T00:00:00.000+00:00",
                updated_at="2026-10-31T00:00:00.000+00:00")  # fmt: skip
    scores = score_fact(fact, "nurse", ["nurse"], semantic=None, channel_id=CHANNEL_A, now=NOW)
    assert scores.lexical == 1.0
    assert scores.channel == 0.25  # a fact without channel
    assert scores.recency == pytest.approx(1 / (1 + 30 / 45))  # said 30 days ago, stored 1
    assert scores.semantic is None and scores.passed


async def test_search_is_strict_and_the_slice_falls_back(community: Store) -> None:
    retriever = Retriever(community)
    assert await retriever.search(GUILD_A, "quantum chromodynamics") == []
    memory = await retriever.slice(GUILD_A, "quantum chromodynamics", channel_id=CHANNEL_A)
    assert len(memory.relevant_facts) == 4  # ungated ranking of every fact of the guild


async def test_results_carry_their_component_scores_and_provenance(community: Store) -> None:
    (hit,) = await Retriever(community).search(GUILD_A, "who is a nurse?", channel_id=CHANNEL_A)
    data = fact_json(hit)
    assert data["fact"] == "Sarah works as a nurse."
    scores = hit.scores
    assert (data["score"], data["lexicalScore"], data["recencyScore"], data["channelScore"]) == (
        round(scores.combined, 4),
        round(scores.lexical, 4),
        round(scores.recency, 4),
        1.0,
    )
    assert data["relevant"] is True
    assert (data["sourceMessageId"], data["subjectName"]) == ("1", "Sarah")


async def test_recency_counts_from_when_a_fact_was_said(store: Store) -> None:
    """Two facts stored now: the one said in 2023 is old, the one said yesterday is recent."""
    old, recent = "2023-05-07T00:00:00.000+00:00", "2026-10-31T00:00:00.000+00:00"
    await add_fact(store, SARAH.id, "Sarah plays the cello.", said_at=old)
    await add_fact(store, MIKE.id, "Mike plays the cello too.", source="2", said_at=recent)
    hits = {h.fact.subject: h for h in await Retriever(store).search(GUILD_A, "cello", now=NOW)}
    sarah, mike = hits[SARAH.id], hits[MIKE.id]
    age = (NOW - datetime(2023, 5, 7, tzinfo=UTC)).days
    assert sarah.scores.recency == pytest.approx(1 / (1 + age / 45))
    assert mike.scores.recency == pytest.approx(1 / (1 + 1 / 45))
    data = fact_json(sarah)
    assert data["saidAt"] == old
    assert data["createdAt"] == sarah.fact.created_at != old


# --- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    ["what does Sarah like?", "what does sarahb like", f"what does <@{SARAH.id}> like?"],
    ids=["name", "username", "mention"],
)
async def test_a_query_naming_a_member_reaches_their_facts(community: Store, query: str) -> None:
    retriever = Retriever(community)
    assert set(await retriever.named_members(GUILD_A, query)) == {SARAH.id}
    hits = await retriever.search(GUILD_A, query)
    assert [h.fact.fact for h in hits] == ["Sarah likes pineapple on pizza."]


async def test_a_query_that_is_only_a_name_gets_that_members_facts(community: Store) -> None:
    hits = await Retriever(community).search(GUILD_A, "tell me about Mike")
    assert [h.fact.fact for h in hits] == ["Mike plays bass in a ska band."]


async def test_a_named_members_messages_come_first(store: Store, queue: object) -> None:
    from memory.ingest import IngestQueue

    assert isinstance(queue, IngestQueue)
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    await store.record_members(GUILD_A, [(MIKE.id, MIKE.name, MIKE.username)])
    texts = [(MIKE, "the pottery class was fun"), (SARAH, "my pottery class starts monday")]
    for n, (author, text) in enumerate(texts * 3):
        await queue.submit(item(n, f"{text} {n}", author=author))
    await queue.join()
    hits = await Retriever(store).messages(
        GUILD_A, "when is Sarah's pottery class?", named=[SARAH.id]
    )
    assert hits[0].message.author_id == SARAH.id


# --- safe full-text queries -------------------------------------------------------------------

HOSTILE = [
    '"', '""', "'", "*", "pizza*", "NEAR(pizza nurse)", "pizza AND", "OR", "NOT nurse",
    "- nurse", "(nurse", "nurse)", "((()))", "content:nurse", "fact:nurse", "^nurse",
    "nurse + pizza", "🍕🍕🍕", "ß straße", "看護師", "", "   ", "x" * 5000,
    " ".join(["nurse"] * 2500), '"nurse" OR "pizza"', "{nurse}", "nurse\x00pizza",
]  # fmt: skip


@pytest.mark.parametrize("query", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.slow
async def test_hostile_queries_never_break_full_text_search(
    community: Store, queue: object, query: str
) -> None:
    retriever = Retriever(community)
    await retriever.search(GUILD_A, query)
    await retriever.slice(GUILD_A, query, channel_id=CHANNEL_A, user_id=SARAH.id)
    groups = term_groups(query_tokens(query))
    channel = {"channel": Narrow("channel_id", (CHANNEL_A,))}
    await lexical.candidates(community, lexical.MESSAGES, GUILD_A, groups, limit=9, extra=channel)
    await lexical.candidates(community, lexical.FACTS, GUILD_A, groups, limit=9)


def test_fts_queries_quote_every_term() -> None:
    groups = term_groups(query_tokens('nurse" OR content:*'))
    assert [g.token for g in groups] == ["nurse", "content"]
    assert fts5_expression(Window((groups[0].forms,), 1), "content") == (
        '("nurse" OR "nursed" OR "nurser" OR "nursers" OR "nurses" OR "nursing")'
    )
    assert term_groups(query_tokens("🍕")) == []
    stop_words = Window(tuple(g.forms for g in term_groups(query_tokens("the a an"))), 1)
    assert fts5_expression(stop_words, "content") == '(("the") OR ("a") OR ("an"))'
    hostile = Window((frozenset({'a"b'}), frozenset({SARAH.id})), 1,
                     narrow=Narrow("author_id", (SARAH.id, 'x" OR "y')))  # fmt: skip
    assert fts5_expression(hostile, "content") == (
        f'(author_id:"{SARAH.id}" OR author_id:"x"" OR ""y") AND '
        f'content:(("a""b") OR ("{SARAH.id}"))'
    )  # an id among the words: searched in the text column only
    assert [g.token for g in term_groups(['caf\u00e9_cr\u00e8me"'])] == ["cafe", "creme"]


# --- guild isolation and the slice ---------------------------------------------------------


async def test_nothing_crosses_guilds(community: Store) -> None:
    retriever = Retriever(community)
    for guild in (GUILD_A, GUILD_B):
        hits = await retriever.search(guild, "nurse")
        assert hits and {h.fact.guild_id for h in hits} == {guild}
        memory = await retriever.slice(guild, "nurse", user_id=SARAH.id)
        facts = memory.user_facts + memory.relevant_facts
        assert {h.fact.guild_id for h in facts} == {guild}


async def test_the_slice_sections_and_sizes(community: Store) -> None:
    memory = await Retriever(community).slice(
        GUILD_A, "what bands do people play in?", channel_id=CHANNEL_A, user_id=SARAH.id
    )
    assert {h.fact.subject for h in memory.user_facts} == {SARAH.id}
    assert memory.shown_chars() <= 4000
    assert memory.relevant_facts[0].fact.fact == "Mike plays bass in a ska band."
    assert not {h.fact.id for h in memory.user_facts} & {h.fact.id for h in memory.relevant_facts}


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.slow
def test_search_and_slice_commands(sample_imported: Path) -> None:
    data = sample_imported
    found = run_cli(data, "search", "who is allergic to cats?", "--json")
    assert found.returncode == 0, found.stderr
    results = json.loads(found.stdout)["results"]
    assert results and "allergic to cats" in results[0]["fact"]
    sliced = run_cli(data, "slice", "who is allergic to cats?", "--json")
    assert sliced.returncode == 0, sliced.stderr
    body = json.loads(sliced.stdout)
    assert set(body) == {
        "query",
        "budget",
        "shownChars",
        "userFacts",
        "relevantFacts",
        "relevantMessages",
    }
    assert body["budget"] == 4000 and 0 < body["shownChars"] <= 4000
    # Arabic-Indic digits are no id; 16 and 21 digits are refused as the API refuses them
    for odd in ("not-a-snowflake", "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨", "1" * 16, "1" * 21):
        bad = run_cli(data, "search", "x", "--guild", odd)
        assert bad.returncode == 2 and "is not a Discord id" in bad.stderr


@pytest.mark.slow
def test_search_for_one_member_and_slice_limits(sample_imported: Path) -> None:
    data = sample_imported
    everyone = json.loads(run_cli(data, "search", "cats", "--json").stdout)["results"]
    subjects = {r["subject"] for r in everyone}
    assert len(subjects) > 1  # several members' facts mention cats
    one = sorted(subjects)[0]
    mine = json.loads(run_cli(data, "search", "cats", "--user", one, "--json").stdout)["results"]
    assert mine and {r["subject"] for r in mine} == {one}
    limited = json.loads(run_cli(data, "slice", "cats", "--limit", "1", "--json").stdout)
    assert len(limited["relevantFacts"]) == 1 and len(limited["relevantMessages"]) == 1
