"""Every script split the same way for the index, the query and grounding
(``memory.search.scripts``): CJK runs as character bigrams, other scripts folded; the index
holds exactly the words a query is split into; grounding accepts CJK facts by their bigrams
while the Latin rule on word boundaries stays."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from memory.extraction import Mention, SourceMessage
from memory.extraction.fact_filter import check_fact, is_grounded
from memory.models import CandidateFact
from memory.search.fts import query_tokens, term_groups
from memory.search.scoring import lexical_score
from memory.search.scripts import has_cjk, index_text, run_terms, spaced, words
from memory.storage.db import connect_sync
from memory.storage.store import Store
from tests.helpers import CHANNEL_A, GUILD_A, SARAH, add_fact, item

JAPANESE = "私は東京で看護師として働いています"
CHINESE = "我住在北京，我的工作是护士。"
KOREAN = "저는 서울에서 간호사로 일해요"

# --- splitting ---------------------------------------------------------------------------


def test_a_cjk_run_becomes_its_bigrams_cut_where_the_script_changes() -> None:
    assert run_terms("看護師") == ["看護", "護師"]
    assert run_terms("猫") == ["猫"]
    assert run_terms("東京") == ["東京"]
    assert words(JAPANESE) == [
        "私", "は", "東京", "で", "看護", "護師", "とし", "して", "働", "いて", "てい", "いま",
        "ます",
    ]  # fmt: skip
    assert words(CHINESE) == ["我住", "住在", "在北", "北京", "我的", "的工", "工作", "作是",
                              "是护", "护士"]  # fmt: skip
    assert words(KOREAN) == ["저는", "서울", "울에", "에서", "간호", "호사", "사로", "일해", "해요"]
    assert words("東京Tower、ｶﾞｲﾄﾞ") == ["東京", "tower", "ガイ", "イド"]  # half width → full


def test_other_scripts_are_folded() -> None:
    assert words("Привет МИР, ёлка") == ["привет", "мир", "елка"]
    assert words("كَتَبَ الكِتَابَ كـتاب") == ["كتب", "الكتاب", "كتاب"]  # harakat, tatweel
    assert words("Café_CRÈME naïve") == ["cafe", "creme", "naive"]
    assert words("שָׁלוֹם") == ["שלום"]


def test_text_without_cjk_is_left_as_it_is() -> None:
    assert not has_cjk("plain ascii") and not has_cjk("Crème brûlée, Москва")
    assert has_cjk("東京") and has_cjk("ｶﾞ") and has_cjk("서울")
    assert index_text("I'm a nurse, lol") == "I'm a nurse, lol"  # ASCII: unicode61 splits it
    assert index_text(None) is None
    assert spaced("Crème brûlée") == "Crème brûlée"
    assert index_text("Crème brûlée à Москва") == "creme brulee a москва"


def test_query_tokens_split_cjk_and_keep_other_scripts_whole() -> None:
    assert query_tokens("看護師は？") == ["看護", "護師", "は"]
    assert query_tokens("서울") == ["서울"]
    assert query_tokens("Где ёлка?") == ["где", "ёлка"]
    groups = term_groups(query_tokens("Где ёлка? كِتاب"))
    assert [g.token for g in groups] == ["где", "елка", "كتاب"]


SAMPLES = [
    JAPANESE,
    CHINESE,
    KOREAN,
    "ｶﾀｶﾅ・カタカナ、すごーい！々〆〇 𠀋𪜀",
    "Привет, мой друг! ЁЛКА и йод",
    "أنا أَعمل مُمَرِّضًا في المستشفى، كـتاب",
    "L'été à Paris: crème brûlée, naïveté, Œuvre, straße, ﬁn, ＡＢＣ",
    "Ελληνικά: άλφα, Ωμέγα; עִבְרִית; हिन्दी भाषा; ภาษาไทย",
    "plain ASCII with under_scores, C++ and 42 numbers",
    "emoji 🎉 mixed 東京🗼タワー and snake_case 看護師_さん",
]


async def test_the_index_holds_exactly_the_words_a_query_is_split_into(tmp_path: Path) -> None:
    """For every script, FTS5's own terms of a stored text are ``words`` of it: a query's
    terms find it, and BM25 counts the same words."""
    store = await Store.open(tmp_path / "memory.db")
    try:
        items = [item(str(n), text) for n, text in enumerate(SAMPLES, start=1)]
        await store.insert_messages(items, live=False, closed="all")
        await store.mark_journaled_through(len(SAMPLES))
        for n, text in enumerate(SAMPLES, start=1):
            await add_fact(store, SARAH.id, f"Fact {n}: {text}", evidence=text, source=str(n))
    finally:
        await store.close()
    conn = connect_sync(tmp_path / "memory.db")
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.mv USING fts5vocab(main, messages_fts, instance)")
        conn.execute(
            "CREATE VIRTUAL TABLE temp.fv USING fts5vocab(main, memory_facts_fts, instance)"
        )
        rows = {r[0]: r[1] for r in conn.execute("SELECT id, content FROM messages")}
        for row, text in rows.items():
            terms = [t for (t,) in conn.execute("SELECT term FROM mv WHERE doc = ? AND col = "
                                                "'content' ORDER BY offset", (row,))]  # fmt: skip
            assert Counter(terms) == Counter(words(text)), text
        for fact, evidence, row in conn.execute("SELECT fact, evidence_text, id FROM memory_facts"):
            for column, text in (("fact", fact), ("evidence_text", evidence)):
                terms = [t for (t,) in conn.execute(
                    "SELECT term FROM fv WHERE doc = ? AND col = ? ORDER BY offset", (row, column)
                )]  # fmt: skip
                assert Counter(terms) == Counter(words(text)), text
        conn.execute("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)")
        conn.execute(
            "INSERT INTO memory_facts_fts (memory_facts_fts, rank) VALUES ('integrity-check', 1)"
        )
    finally:
        conn.close()


# --- grounding ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "source", "speaker", "grounded"),
    [
        ("田中さんは看護師です", "田中さんは看護師として働いています", "", True),
        ("田中さんは医者です", "田中さんは看護師として働いています", "", False),
        ("田中さんは看護師です", "私は看護師として働いています", "田中", True),
        ("田中さんはパイロットです", "私は看護師として働いています", "田中", False),
        ("王伟住在北京", "我住在北京", "王伟", True),
        ("王伟住在上海", "我住在北京", "王伟", False),
        ("민수는 서울에서 일한다", "저는 서울에서 일해요", "민수", True),
        ("민수는 부산에서 일한다", "저는 서울에서 일해요", "민수", False),
        ("Маша работает медсестрой", "Я работаю медсестрой в больнице", "Маша", True),
        ("Маша работает пилотом", "Я работаю медсестрой в больнице", "Маша", False),
        ("أحمد يعمل ممرضا", "أنا أَعمل مُمَرِّضًا في المستشفى", "أحمد", True),
        ("Élodie habite à Lyon", "J'habite a Lyon depuis 2019", "Elodie", True),
        ("Pizza!", "pizzas are good", "", False),
        ("cat", "category theory is fun", "", False),
    ],
)
def test_grounding_in_every_script(claim: str, source: str, speaker: str, grounded: bool) -> None:
    assert is_grounded(claim, source, speaker) is grounded


def test_a_japanese_fact_passes_the_filters() -> None:
    message = SourceMessage(
        "500000000000000001", GUILD_A, CHANNEL_A, SARAH.id, "田中", JAPANESE,
        "2026-10-12T18:03:11.123+00:00", (Mention("300000000000000003", "Emma"),),
    )  # fmt: skip
    evidence = "看護師として働いています"
    fact = CandidateFact(
        SARAH.id, "田中さんは看護師です", "profile", 0.9, evidence, message.message_id
    )
    verdict = check_fact(message, fact)
    assert verdict.fact is not None, verdict.reason
    invented = fact._replace(fact="田中さんは医者です")
    assert check_fact(message, invented).reason == "fact not grounded in its message"


def test_fact_scoring_counts_cjk_bigrams() -> None:
    fact = "田中さんは東京で看護師として働いています。"
    assert lexical_score("看護師", query_tokens("看護師"), fact) == 1.0
    assert lexical_score("東京", query_tokens("東京"), fact) == 1.0
    assert lexical_score("北京", query_tokens("北京"), fact) == 0.0
    assert lexical_score("서울", query_tokens("서울"), "저는 서울에서 일해요") == 1.0
