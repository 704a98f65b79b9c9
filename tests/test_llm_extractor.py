"""LLMExtractor against a local fake OpenAI server: the real openai client over real HTTP."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Any

import openai
import pytest

from memory.errors import ConfigError, MemorybotError
from memory.extraction import (
    CONTEXT_TURNS,
    MAX_FACTS_PER_MESSAGE,
    ContextTurn,
    Extractor,
    Mention,
    SourceMessage,
)
from memory.extraction.fact_filter import check_fact
from memory.extraction.llm import MAX_ANSWER_CHARS, ExtractionError, LLMExtractor
from memory.extraction.llm_request import EXAMPLE_ANSWER, EXAMPLE_REQUEST, MAX_CONTEXT_TEXT_CHARS
from memory.models import LORE_SUBJECT, CandidateFact
from memory.settings import load_settings
from tests.fake_openai import API_KEY, FakeOpenAI, raw, reply, unused_port
from tests.helpers import CHANNEL_A, GUILD_A, MIKE, SARAH

CREATED = "2026-10-12T18:03:11.123+00:00"
DANA_ID = "300000000000000003"

SARAH_MSG = SourceMessage(
    "900000000000000001",
    GUILD_A,
    CHANNEL_A,
    SARAH.id,
    SARAH.name,
    "I work nights as a nurse and @Mike is my brother",
    CREATED,
    (Mention(MIKE.id, MIKE.name),),
)
MIKE_MSG = SourceMessage(
    "900000000000000002",
    GUILD_A,
    CHANNEL_A,
    MIKE.id,
    MIKE.name,
    "I'm training for the Berlin marathon",
    CREATED,
)
LORE_MSG = SourceMessage(
    "900000000000000003",
    GUILD_A,
    CHANNEL_A,
    SARAH.id,
    SARAH.name,
    "this server was founded in 2019 by @Dana",
    CREATED,
    (Mention(DANA_ID, "Dana"),),
)

MakeExtractor = Callable[..., LLMExtractor]


def fact(
    message: SourceMessage | str,
    subject: str = "author",
    text: str = "Sarah works nights as a nurse.",
    *,
    type: str = "profile",
    confidence: Any = 0.9,
    evidence: str = "I work nights as a nurse",
    **extra: Any,
) -> dict[str, Any]:
    message_id = message if isinstance(message, str) else message.message_id
    return {
        "message_id": message_id,
        "subject": subject,
        "fact": text,
        "type": type,
        "confidence": confidence,
        "evidence": evidence,
        **extra,
    }


def answer(*facts: Any) -> str:
    return json.dumps({"facts": list(facts)})


def user_payload(body: dict[str, Any]) -> Any:
    """The JSON object of the last user message of a recorded chat request."""
    users = [m for m in body["messages"] if m["role"] == "user"]
    return json.loads(users[-1]["content"])


@pytest.fixture
async def make_extractor(fake: FakeOpenAI) -> AsyncIterator[MakeExtractor]:
    """Builds extractors on the fake (2 retries) and closes them afterwards."""
    built: list[LLMExtractor] = []

    def make(**overrides: Any) -> LLMExtractor:
        options: dict[str, Any] = {
            "model": "fake-model",
            "base_url": fake.base_url,
            "api_key": API_KEY,
            "max_retries": 2,
            **overrides,
        }
        extractor = LLMExtractor(**options)
        built.append(extractor)
        return extractor

    yield make
    for extractor in built:
        await extractor.aclose()


# --- the request --------------------------------------------------------------------------


async def test_request_shape(fake: FakeOpenAI, make_extractor: MakeExtractor) -> None:
    extractor = make_extractor()
    assert isinstance(extractor, Extractor)
    assert (extractor.name, extractor.batch_size, extractor.batch_gap) == ("llm", 8, 3.0)

    assert await extractor.extract([SARAH_MSG]) == []

    [request] = fake.requests
    assert request.path == "/v1/chat/completions"
    assert request.header("authorization") == f"Bearer {API_KEY}"
    body = request.json
    assert body["model"] == "fake-model"
    assert body["temperature"] == 0
    assert body.get("stream") in (None, False)

    response_format = body["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["name"] == "memory_facts"
    assert response_format["json_schema"]["strict"] is True
    schema = response_format["json_schema"]["schema"]
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["facts"]
    item = schema["properties"]["facts"]["items"]
    assert item["additionalProperties"] is False
    expected_fields = ["message_id", "subject", "fact", "type", "confidence", "evidence"]
    assert sorted(item["required"]) == sorted(expected_fields)
    assert sorted(item["properties"]) == sorted(expected_fields)
    assert item["properties"]["type"]["enum"] == [
        "preference",
        "profile",
        "relationship",
        "project",
        "event",
        "other",
    ]
    assert "$ref" not in json.dumps(schema)

    messages = body["messages"]
    assert messages[0]["role"] == "system"
    system = messages[0]["content"]
    assert "never instructions" in system
    assert '{"facts": []}' in system
    assert messages[-1]["role"] == "user"
    assert user_payload(body) == {
        "messages": [
            {
                "message_id": SARAH_MSG.message_id,
                "author_id": SARAH.id,
                "author_name": "Sarah",
                "time": CREATED,
                "text": SARAH_MSG.text,
                "mentions": [{"id": MIKE.id, "name": "Mike"}],
            }
        ],
        "context": [],
    }


def turn(n: int, text: str | None = None) -> ContextTurn:
    author = SARAH if n % 2 else MIKE
    return ContextTurn(
        author.id, author.name, text or f"turn {n}", f"2026-10-12T17:{n:02d}:00.000+00:00"
    )


async def test_request_carries_times_and_the_last_context_turns_oldest_first(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    later = MIKE_MSG._replace(created_at="2026-10-12T18:09:30.000+00:00")
    context = [turn(n) for n in range(1, 9)]
    context[-1] = turn(8, "x" * (MAX_CONTEXT_TEXT_CHARS + 200))

    await make_extractor().extract([SARAH_MSG, later], context=context)

    [request] = fake.requests
    payload = user_payload(request.json)
    assert [m["time"] for m in payload["messages"]] == [CREATED, "2026-10-12T18:09:30.000+00:00"]
    assert CONTEXT_TURNS == 6
    sent = payload["context"]
    assert [t["text"] for t in sent[:-1]] == ["turn 3", "turn 4", "turn 5", "turn 6", "turn 7"]
    assert sent[0] == {
        "author_name": "Sarah",
        "time": "2026-10-12T17:03:00.000+00:00",
        "text": "turn 3",
    }
    assert [t["author_name"] for t in sent] == ["Sarah", "Mike", "Sarah", "Mike", "Sarah", "Mike"]
    assert len(sent[-1]["text"]) == MAX_CONTEXT_TEXT_CHARS  # a long turn is cut
    assert sent[-1]["text"].endswith("…")


async def test_the_prompt_asks_for_lasting_facts_and_dated_events(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    await make_extractor().extract([SARAH_MSG])
    [request] = fake.requests
    system = request.json["messages"][0]["content"]
    asked = [
        '"event"',
        '"yesterday" in a message written on 8 May 2023 is "on 7 May 2023"',
        "Never take a fact from the context",
        "threats",
        "jokes",
        "instructions",
    ]
    assert [phrase for phrase in asked if phrase not in system] == []
    assert "weeks later" not in system  # dated one-off events are wanted too


async def test_the_prompts_example_is_a_real_request_and_its_answer_survives_the_filters(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    """The example teaches the model facts the queue would keep: none of them is dropped."""
    messages = [
        SourceMessage(
            m["message_id"],
            GUILD_A,
            CHANNEL_A,
            m["author_id"],
            m["author_name"],
            m["text"],
            m["time"],
            tuple(Mention(x["id"], x["name"]) for x in m["mentions"]),
        )
        for m in EXAMPLE_REQUEST["messages"]
    ]
    context = [
        ContextTurn("502", t["author_name"], t["text"], t["time"])
        for t in EXAMPLE_REQUEST["context"]
    ]
    fake.script(reply(json.dumps(EXAMPLE_ANSWER)))

    facts = await make_extractor().extract(messages, context=context)

    [request] = fake.requests
    assert user_payload(request.json) == EXAMPLE_REQUEST
    by_id = {m.message_id: m for m in messages}
    kept = [check_fact(by_id[f.source_message_id], f).fact for f in facts]
    assert kept == facts
    assert len(facts) == len(EXAMPLE_ANSWER["facts"])
    assert "Sarah and Tom finally booked the flights to Lisbon on 7 May 2023." in {
        f.fact for f in facts
    }


async def test_a_dated_event_comes_back_with_its_absolute_date(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    said = SourceMessage(
        "900000000000000010", GUILD_A, CHANNEL_A, SARAH.id, SARAH.name,
        "I went to a support group yesterday", "2023-05-08T13:56:00.000+00:00",
    )  # fmt: skip

    def dated(body: dict[str, Any]) -> str:
        (message,) = user_payload(body)["messages"]
        day = datetime.fromisoformat(message["time"]).date() - timedelta(days=1)
        text = f"{message['author_name']} went to a support group on {day.day} {day:%B %Y}."
        evidence = "I went to a support group yesterday"
        return answer(fact(message["message_id"], "author", text, type="event", evidence=evidence))

    fake.chat_handler = dated
    assert await make_extractor().extract([said]) == [
        CandidateFact(
            subject=SARAH.id,
            fact="Sarah went to a support group on 7 May 2023.",
            fact_type="event",
            confidence=0.9,
            evidence="I went to a support group yesterday",
            source_message_id=said.message_id,
        )
    ]


async def test_empty_batch_makes_no_request(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    assert await make_extractor().extract([]) == []
    assert fake.requests == []


async def test_batch_is_one_request_with_facts_tied_to_their_messages(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    fake.script(
        reply(
            answer(
                fact(
                    LORE_MSG,
                    "lore",
                    "The server was founded in 2019.",
                    type="other",
                    evidence="this server was founded in 2019",
                ),
                fact(
                    MIKE_MSG,
                    "author",
                    "Mike is training for the Berlin marathon.",
                    type="project",
                    evidence="I'm training for the Berlin marathon",
                ),
                fact(SARAH_MSG),
            )
        )
    )
    facts = await make_extractor().extract([SARAH_MSG, MIKE_MSG, LORE_MSG])

    [request] = fake.requests
    sent = user_payload(request.json)["messages"]
    assert [m["message_id"] for m in sent] == [
        SARAH_MSG.message_id,
        MIKE_MSG.message_id,
        LORE_MSG.message_id,
    ]
    assert [m["mentions"] for m in sent] == [
        [{"id": MIKE.id, "name": "Mike"}],
        [],
        [{"id": DANA_ID, "name": "Dana"}],
    ]
    assert [(f.source_message_id, f.subject) for f in facts] == [
        (LORE_MSG.message_id, LORE_SUBJECT),
        (MIKE_MSG.message_id, MIKE.id),
        (SARAH_MSG.message_id, SARAH.id),
    ]
    assert facts[1] == CandidateFact(
        subject=MIKE.id,
        fact="Mike is training for the Berlin marathon.",
        fact_type="project",
        confidence=0.9,
        evidence="I'm training for the Berlin marathon",
        source_message_id=MIKE_MSG.message_id,
    )


async def test_empty_facts_answer(fake: FakeOpenAI, make_extractor: MakeExtractor) -> None:
    fake.script(reply('{"facts": []}'))
    assert await make_extractor().extract([SARAH_MSG, MIKE_MSG]) == []
    assert len(fake.requests) == 1


# --- mapping the answer -------------------------------------------------------------------


async def test_subjects_author_lore_and_mentions(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    fake.script(
        reply(
            answer(
                fact(SARAH_MSG, "author"),
                fact(
                    SARAH_MSG,
                    MIKE.id,
                    "Mike is Sarah's brother.",
                    type="relationship",
                    evidence="@Mike is my brother",
                ),
                fact(LORE_MSG, "lore", "The server was founded in 2019.", type="other"),
                fact(LORE_MSG, DANA_ID, "Dana founded the server.", type="other"),
                fact(MIKE_MSG, " Author ", "Mike runs marathons.", type="project"),
            )
        )
    )
    facts = await make_extractor().extract([SARAH_MSG, MIKE_MSG, LORE_MSG])
    assert [(f.subject, f.source_message_id, f.fact_type) for f in facts] == [
        (SARAH.id, SARAH_MSG.message_id, "profile"),
        (MIKE.id, SARAH_MSG.message_id, "relationship"),
        (LORE_SUBJECT, LORE_MSG.message_id, "other"),
        (DANA_ID, LORE_MSG.message_id, "other"),
        (MIKE.id, MIKE_MSG.message_id, "project"),
    ]
    assert facts[1].evidence == "@Mike is my brother"


async def test_unknown_message_or_subject_dropped(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    fake.script(
        reply(
            answer(
                fact("900000000000000099"),  # not in the request
                fact(MIKE_MSG, DANA_ID),  # Dana is mentioned in another message, not this one
                fact(MIKE_MSG, MIKE.id),  # the author's own id is not "author"
                fact(SARAH_MSG, "Sarah"),  # a name is no subject
                fact(SARAH_MSG, "someone"),
                fact(SARAH_MSG, "author"),  # the one that stays
            )
        )
    )
    facts = await make_extractor().extract([SARAH_MSG, MIKE_MSG, LORE_MSG])
    assert [(f.subject, f.source_message_id) for f in facts] == [(SARAH.id, SARAH_MSG.message_id)]


async def test_at_most_four_facts_per_message(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    sarah_facts = [fact(SARAH_MSG, text=f"Sarah fact {n}.") for n in range(6)]
    mike_facts = [fact(MIKE_MSG, text=f"Mike fact {n}.") for n in range(2)]
    fake.script(reply(answer(*sarah_facts[:3], *mike_facts, *sarah_facts[3:])))
    facts = await make_extractor().extract([SARAH_MSG, MIKE_MSG])
    assert MAX_FACTS_PER_MESSAGE == 4
    assert [f.fact for f in facts] == [
        "Sarah fact 0.",
        "Sarah fact 1.",
        "Sarah fact 2.",
        "Mike fact 0.",
        "Mike fact 1.",
        "Sarah fact 3.",
    ]


async def test_cap_counts_only_kept_facts(fake: FakeOpenAI, make_extractor: MakeExtractor) -> None:
    dropped = [fact(SARAH_MSG, "nobody", text=f"dropped {n}.") for n in range(4)]
    kept = [fact(SARAH_MSG, text=f"kept {n}.") for n in range(5)]
    fake.script(reply(answer(*dropped, *kept)))
    facts = await make_extractor().extract([SARAH_MSG])
    assert [f.fact for f in facts] == ["kept 0.", "kept 1.", "kept 2.", "kept 3."]


async def test_types_mapped(fake: FakeOpenAI, make_extractor: MakeExtractor) -> None:
    given = ["general", "hobby", " Preference ", "relationship", "project", "profile", "other"]
    given.append("Event")
    owners = [SARAH_MSG] * 4 + [MIKE_MSG] * 4  # at most four per message
    pairs = zip(owners, given, strict=True)
    fake.script(reply(answer(*[fact(m, text=f"{t} fact.", type=t) for m, t in pairs])))
    facts = await make_extractor().extract([SARAH_MSG, MIKE_MSG])
    assert [f.fact_type for f in facts] == [
        "other",
        "other",
        "preference",
        "relationship",
        "project",
        "profile",
        "other",
        "event",
    ]


async def test_confidence_clamped(fake: FakeOpenAI, make_extractor: MakeExtractor) -> None:
    fake.script(
        reply(
            answer(
                fact(SARAH_MSG, confidence=1.7),
                fact(SARAH_MSG, confidence=-0.3),
                fact(SARAH_MSG, confidence=1),
                fact(SARAH_MSG, confidence=0.6),
            )
        )
    )
    facts = await make_extractor().extract([SARAH_MSG])
    assert [f.confidence for f in facts] == [1.0, 0.0, 1.0, 0.6]
    assert all(isinstance(f.confidence, float) for f in facts)


async def test_malformed_facts_skipped_extra_fields_ignored(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    good = fact(SARAH_MSG, reasoning="she says so", source="chat")
    missing_fact = fact(SARAH_MSG)
    del missing_fact["fact"]
    missing_evidence = fact(SARAH_MSG)
    del missing_evidence["evidence"]
    fake.script(
        reply(
            answer(
                fact(SARAH_MSG, confidence="0.9"),
                fact(SARAH_MSG, confidence="high"),
                fact(SARAH_MSG, confidence=None),
                fact(SARAH_MSG, confidence=True),
                missing_fact,
                missing_evidence,
                {**fact(SARAH_MSG), "fact": 42},
                {**fact(SARAH_MSG), "message_id": int(SARAH_MSG.message_id)},
                {**fact(SARAH_MSG), "subject": None},
                fact(SARAH_MSG, text="   "),
                "Sarah is a nurse",
                ["not", "an", "object"],
                good,
            )
        )
    )
    facts = await make_extractor().extract([SARAH_MSG])
    assert facts == [
        CandidateFact(
            subject=SARAH.id,
            fact="Sarah works nights as a nurse.",
            fact_type="profile",
            confidence=0.9,
            evidence="I work nights as a nurse",
            source_message_id=SARAH_MSG.message_id,
        )
    ]


async def test_non_finite_confidence_skipped(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    good = json.dumps(fact(SARAH_MSG))
    bad = json.dumps(fact(SARAH_MSG, confidence=0.5)).replace("0.5", "NaN")
    fake.script(reply('{"facts": [' + bad + ", " + good + "]}"))
    facts = await make_extractor().extract([SARAH_MSG])
    assert [f.confidence for f in facts] == [0.9]


# --- tolerant parsing ---------------------------------------------------------------------

ONE_FACT = answer(fact(SARAH_MSG))


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(ONE_FACT, id="raw"),
        pytest.param(f"\n  {ONE_FACT}  \n", id="raw-whitespace"),
        pytest.param(f"```json\n{ONE_FACT}\n```", id="fenced-json"),
        pytest.param(f"Here are the facts:\n```\n{ONE_FACT}\n```\nDone.", id="fenced-plain"),
        pytest.param(
            f'```json\n{ONE_FACT}\n```\nand another:\n```json\n{{"facts": []}}\n```',
            id="first-fence",
        ),
        pytest.param(f"Sure! {ONE_FACT} Hope this helps {{:", id="prose-around-braces"),
    ],
)
async def test_tolerant_parsing(
    fake: FakeOpenAI, make_extractor: MakeExtractor, content: str
) -> None:
    fake.script(reply(content))
    facts = await make_extractor().extract([SARAH_MSG])
    assert [(f.subject, f.fact) for f in facts] == [(SARAH.id, "Sarah works nights as a nurse.")]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        pytest.param('{"facts": [{"message_id": "1", ', "answer was not JSON", id="truncated"),
        pytest.param("Sorry, I can't find any facts.", "answer was not JSON", id="prose"),
        pytest.param("```json\n{facts: []}\n```", "answer was not JSON", id="bad-fence"),
        pytest.param('{"facts": {"message_id": "1"}}', '"facts"', id="facts-not-a-list"),
        pytest.param('{"fact": []}', 'no "facts"', id="no-facts-key"),
        pytest.param("[]", "not an object", id="top-level-array"),
        pytest.param('"facts"', "not an object", id="top-level-string"),
    ],
)
async def test_unusable_answer_is_an_error_without_retry(
    fake: FakeOpenAI, make_extractor: MakeExtractor, content: str, reason: str
) -> None:
    fake.script(reply(content), reply(ONE_FACT))
    with pytest.raises(ExtractionError, match=reason) as caught:
        await make_extractor().extract([SARAH_MSG])
    assert isinstance(caught.value, MemorybotError)
    assert "\n" not in str(caught.value)
    assert len(fake.requests) == 1


async def test_truncated_answer_says_it_was_cut_off(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    fake.script(reply('{"facts": [{"message_id": ', finish_reason="length"))
    with pytest.raises(ExtractionError, match=r"not JSON.*cut off at the token limit"):
        await make_extractor().extract([SARAH_MSG])


async def test_huge_answer_refused_without_retry(
    fake: FakeOpenAI, make_extractor: MakeExtractor
) -> None:
    content = ONE_FACT.ljust(10_500_000)  # valid JSON, but refused unread
    assert len(content) > 10 * MAX_ANSWER_CHARS
    fake.script(reply(content), reply(ONE_FACT))
    with pytest.raises(ExtractionError, match=r"answer too large \(10\.5 MB\)"):
        await make_extractor().extract([SARAH_MSG])
    assert len(fake.requests) == 1


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        pytest.param(reply(None), "answer was empty", id="content-null"),
        pytest.param(reply("   "), "answer was empty", id="content-blank"),
        pytest.param(reply(None, refusal="I can't help with that."), "refused", id="refusal"),
        pytest.param(raw(b'{"id": "x", "choices": '), "malformed JSON", id="broken-http-json"),
        pytest.param(
            raw(b"<html>bad gateway</html>", "text/html"), "not a chat completion", id="html-body"
        ),
        pytest.param(raw(b'{"object": "chat.completion"}'), "no choices", id="no-choices"),
    ],
)
async def test_unusable_reply_is_an_error_without_retry(
    fake: FakeOpenAI, make_extractor: MakeExtractor, behaviour: Any, reason: str
) -> None:
    fake.script(behaviour, reply(ONE_FACT))
    with pytest.raises(ExtractionError, match=reason):
        await make_extractor().extract([SARAH_MSG])
    assert len(fake.requests) == 1


# --- construction -------------------------------------------------------------------------


async def test_from_settings_uses_memorybot_settings(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "env-key-loses")
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{unused_port()}/v1")
    monkeypatch.setenv("MEMORYBOT_LLM_MODEL", "settings-model")
    monkeypatch.setenv("MEMORYBOT_LLM_BASE_URL", fake.base_url)
    monkeypatch.setenv("MEMORYBOT_LLM_API_KEY", API_KEY)
    monkeypatch.setenv("MEMORYBOT_LLM_TIMEOUT", "7.5")
    monkeypatch.setenv("MEMORYBOT_LLM_MAX_RETRIES", "1")
    monkeypatch.setenv("MEMORYBOT_EXTRACTION_BATCH_SIZE", "5")
    monkeypatch.setenv("MEMORYBOT_EXTRACTION_BATCH_GAP", "0.5")
    extractor = LLMExtractor.from_settings(load_settings())
    try:
        assert (extractor.model, extractor.timeout, extractor.max_retries) == (
            "settings-model",
            7.5,
            1,
        )
        assert (extractor.batch_size, extractor.batch_gap) == (5, 0.5)
        fake.script(reply(ONE_FACT))
        assert len(await extractor.extract([SARAH_MSG])) == 1
    finally:
        await extractor.aclose()
    [request] = fake.requests
    assert request.json["model"] == "settings-model"
    assert request.header("authorization") == f"Bearer {API_KEY}"


async def test_from_settings_falls_back_to_openai_env(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
    extractor = LLMExtractor.from_settings(load_settings(llm_model="env-model"))
    try:
        assert extractor.base_url.startswith(fake.base_url)
        assert await extractor.extract([SARAH_MSG]) == []
    finally:
        await extractor.aclose()
    [request] = fake.requests
    assert request.header("authorization") == f"Bearer {API_KEY}"


async def test_no_key_anywhere_sends_a_placeholder() -> None:
    async with FakeOpenAI() as open_server:
        extractor = LLMExtractor(model="local", base_url=open_server.base_url)
        try:
            assert await extractor.extract([SARAH_MSG]) == []
        finally:
            await extractor.aclose()
        [request] = open_server.requests
        assert request.header("authorization") == "Bearer unused"


def test_from_settings_needs_a_model() -> None:
    with pytest.raises(ConfigError, match="MEMORYBOT_LLM_MODEL"):
        LLMExtractor.from_settings(load_settings())


async def test_aclose_closes_own_client(make_extractor: MakeExtractor) -> None:
    extractor = make_extractor()
    await extractor.aclose()
    assert extractor.client.is_closed()
    await extractor.aclose()  # idempotent


# --- the fake's embeddings endpoint (used by a later embeddings client) -------------------


@pytest.mark.parametrize("encoding_format", ["float", "base64", None])
async def test_fake_embeddings_are_deterministic_unit_vectors(
    fake: FakeOpenAI, encoding_format: Any
) -> None:
    client = openai.AsyncOpenAI(api_key=API_KEY, base_url=fake.base_url, max_retries=0)
    try:
        options: dict[str, Any] = {"encoding_format": encoding_format} if encoding_format else {}
        first = await client.embeddings.create(
            model="emb", input=["Sarah is a nurse", "Mike runs"], dimensions=16, **options
        )
        again = await client.embeddings.create(
            model="emb", input="Sarah is a nurse", dimensions=16, **options
        )
    finally:
        await client.close()
    vectors = [_floats(d.embedding) for d in first.data]
    assert [len(v) for v in vectors] == [16, 16]
    assert vectors[0] != vectors[1]
    assert _floats(again.data[0].embedding) == pytest.approx(vectors[0], abs=1e-6)
    assert sum(x * x for x in vectors[0]) == pytest.approx(1.0, abs=1e-5)
    assert [r.json["dimensions"] for r in fake.embeddings_requests] == [16, 16]


def _floats(embedding: Any) -> list[float]:
    """An embedding as floats (asked-for base64 is handed back undecoded by the client)."""
    if isinstance(embedding, str):
        packed = base64.b64decode(embedding)
        return list(struct.unpack(f"<{len(packed) // 4}f", packed))
    return list(embedding)
