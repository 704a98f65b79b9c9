"""A question about the asker in general ("what do you know about me?") gets their profile in
the slice: their most valued facts, given the whole budget; any other question keeps the
asker's facts ranked for it (memory.search.asker, memory.search.retriever)."""

from __future__ import annotations

import pytest

from memory.search.asker import about_the_asker
from memory.search.retriever import Retriever
from memory.storage.store import Store
from tests.helpers import GUILD_A, MIKE, SARAH, add_fact

HOBBIES = ["chess", "kayaking", "pottery", "salsa", "origami", "karaoke", "archery", "bonsai",
           "fencing", "juggling", "surfing", "knitting", "rowing", "baking", "climbing",
           "drumming", "sketching", "sailing", "cycling", "gardening"]  # fmt: skip


@pytest.mark.parametrize(
    "query",
    ["what do you know about me?", "who am i", "what do u remember abt me lol",
     "tell me about myself", "Sarah here, what do you remember about me?"],
)  # fmt: skip
def test_questions_about_the_asker_in_general(query: str) -> None:
    assert about_the_asker(query, ["Sarah"])


@pytest.mark.parametrize(
    "query",
    ["what is my job?", "where do I live", "what do you know", "what did i say about pizza",
     "what do you know about Mike?", "hi"],
)  # fmt: skip
def test_questions_with_a_topic_or_about_someone_else(query: str) -> None:
    assert not about_the_asker(query, ["Sarah"])


@pytest.fixture
async def sarah(store: Store) -> Store:
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    await store.record_members(GUILD_A, [(MIKE.id, MIKE.name, MIKE.username)])
    for index, hobby in enumerate(HOBBIES):
        text = f"Sarah has been enjoying {hobby} lessons on weekday evenings."
        for again in range(1 + (index % 4 == 3) * 3):  # every fourth hobby said four times
            await add_fact(store, SARAH.id, text, source=str(100 + 100 * again + index))
    await add_fact(store, MIKE.id, "Mike has been enjoying chess lessons too.", source="999")
    return store


async def test_what_do_you_know_about_me_shows_the_askers_profile(sarah: Store) -> None:
    found = await Retriever(sarah).slice(GUILD_A, "what do you know about me?", user_id=SARAH.id)
    mine = [h.fact.fact for h in found.user_facts]
    assert len(mine) == len(HOBBIES)  # all of them: the question is about her, whole budget
    lessons = "Sarah has been enjoying {} lessons on weekday evenings."
    said_often = {lessons.format(hobby) for hobby in HOBBIES[3::4]}
    assert set(mine[: len(said_often)]) == said_often  # most valued first: said four times


async def test_a_question_with_a_topic_keeps_the_askers_facts_ranked_for_it(
    sarah: Store,
) -> None:
    found = await Retriever(sarah).slice(GUILD_A, "how is my pottery going?", user_id=SARAH.id)
    assert "pottery" in found.user_facts[0].fact.fact
