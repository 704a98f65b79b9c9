"""Faults on the way to an LLM endpoint, one test per kind: the openai client's own retries and
timeouts, then our one-line error (``memory.llm``). The real client talks HTTP to the local
fake server (``tests/fake_openai.py``); the endpoint driven is the LLM replier (the extractor
and the embedder share its code). Waits are never asserted: the requests the server saw are.
Tests that wait for the client's own backoff (0.5 s and up) or a timeout are marked slow."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import openai
import pytest

from bot.answer import Answer, compose_answer
from bot.llm_reply import LLMReplier, Reply, ReplyError
from bot.replies import offline_answer
from memory.llm.errors import LLMDownError, LLMRequestError
from memory.runtime import open_memory
from memory.search.results import MemorySlice
from memory.settings import load_settings
from tests.fake_openai import API_KEY, FakeOpenAI, delay, raw, reply, reset, status, unused_port
from tests.helpers import CHANNEL_A, GUILD_A, SARAH, repliers

ANSWER = json.dumps({"reply": "Sarah works nights as a nurse.", "memoryLine": None})
FAST = {"retry-after-ms": "10"}
"""Headers asking the client to retry after 10 ms instead of its backoff (a quicker test)."""

MakeReplier = Callable[..., LLMReplier]


@pytest.fixture
async def make_replier(fake: FakeOpenAI) -> AsyncIterator[MakeReplier]:
    """Builds repliers on the fake (2 retries) and closes them afterwards."""
    async with repliers(fake.base_url, API_KEY, max_retries=2) as make:
        yield make


async def ask(replier: LLMReplier) -> Reply:
    return await replier.reply(
        question="what does Sarah do?", asker="Mike", memory=MemorySlice(), recent=(),
        bot_name="Memo",
    )  # fmt: skip


async def failure(replier: LLMReplier) -> tuple[str, LLMRequestError]:
    """The one-line message of the :class:`ReplyError` ``replier`` raises, and the
    :class:`LLMRequestError` it comes from."""
    with pytest.raises(ReplyError) as caught:
        await ask(replier)
    message = str(caught.value)
    assert "\n" not in message
    cause = caught.value.__cause__
    assert isinstance(cause, LLMRequestError)
    return message, cause


def retry_counts(fake: FakeOpenAI) -> list[str | None]:
    """The retry count the client sent with each request the server saw."""
    return [r.header("x-stainless-retry-count") for r in fake.chat_requests]


# --- 429 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({"Retry-After": "0.2"}, id="retry-after-seconds"),
        pytest.param({"retry-after-ms": "200"}, id="retry-after-ms"),
    ],
)
async def test_429_is_retried_after_the_wait_it_asks_for(
    fake: FakeOpenAI, make_replier: MakeReplier, headers: dict[str, str]
) -> None:
    fake.script(status(429, headers=headers), reply(ANSWER))
    answer = await ask(make_replier())
    assert answer.text == "Sarah works nights as a nurse."
    assert retry_counts(fake) == ["0", "1"]


async def test_429_until_out_of_retries(fake: FakeOpenAI, make_replier: MakeReplier) -> None:
    limited = status(429, {"error": {"message": "Rate limit reached"}}, FAST)
    fake.script(*[limited] * 3, reply(ANSWER))
    message, cause = await failure(make_replier(max_retries=2))
    assert "failed after 3 attempts: HTTP 429: Rate limit reached" in message
    assert (cause.status, cause.attempts) == (429, 3)
    assert len(fake.chat_requests) == 3


async def test_429_asking_for_a_longer_wait_than_the_client_allows_is_not_retried(
    fake: FakeOpenAI, make_replier: MakeReplier
) -> None:
    fake.script(status(429, headers={"Retry-After": "3600"}), reply(ANSWER))
    message, cause = await failure(make_replier())
    assert message.endswith("failed: HTTP 429: fake error 429 (Retry-After: 3600)")
    assert (cause.status, cause.attempts) == (429, 1)
    assert len(fake.chat_requests) == 1


# --- 500 ----------------------------------------------------------------------------------


@pytest.mark.slow
async def test_500_is_retried_then_answers(fake: FakeOpenAI, make_replier: MakeReplier) -> None:
    fake.script(status(500), reply(ANSWER))
    answer = await ask(make_replier())
    assert answer.text == "Sarah works nights as a nurse."
    assert retry_counts(fake) == ["0", "1"]


@pytest.mark.slow
async def test_500_until_out_of_retries_names_the_endpoint_status_and_attempts(
    fake: FakeOpenAI, make_replier: MakeReplier
) -> None:
    fake.script(status(500), status(503), reply(ANSWER))
    message, cause = await failure(make_replier(max_retries=1))
    assert message == (
        f"LLM reply (fake-model at {fake.base_url}/) failed after 2 attempts: "
        "HTTP 503: fake error 503"
    )
    assert (cause.status, cause.attempts) == (503, 2)
    assert fake.pending() == 1  # the answer after the retries was never asked for


@pytest.mark.slow
async def test_500_until_out_of_retries_answers_offline(
    fake: FakeOpenAI, make_replier: MakeReplier, tmp_path: Path
) -> None:
    fake.script(*[status(500, headers=FAST)] * 3)
    question = "what does Sarah do?"
    async with open_memory(load_settings(data_dir=tmp_path / "data")) as memory:
        found = await memory.slice(GUILD_A, question, user_id=SARAH.id)
        answer = await compose_answer(
            memory, guild_id=GUILD_A, channel_id=CHANNEL_A, author_id=SARAH.id,
            author_name=SARAH.name, question=question, replier=make_replier(max_retries=2),
        )  # fmt: skip
    assert answer == Answer(offline_answer(found), None, used_llm=False)
    assert len(fake.chat_requests) == 3


async def test_max_retries_from_settings_reaches_the_client(fake: FakeOpenAI) -> None:
    settings = load_settings(
        llm_model="fake-model", llm_base_url=fake.base_url, llm_api_key=API_KEY,
        llm_max_retries=1,
    )  # fmt: skip
    fake.script(*[status(502, headers=FAST)] * 3)
    replier = LLMReplier.from_settings(settings)
    try:
        message, _ = await failure(replier)
    finally:
        await replier.aclose()
    assert "after 2 attempts: HTTP 502" in message
    assert len(fake.chat_requests) == 2


async def test_no_retries_configured(fake: FakeOpenAI, make_replier: MakeReplier) -> None:
    fake.script(status(502), reply(ANSWER))
    message, cause = await failure(make_replier(max_retries=0))
    assert message.endswith("failed: HTTP 502: fake error 502")
    assert cause.attempts == 1
    assert len(fake.chat_requests) == 1


async def test_a_server_saying_not_to_retry_is_obeyed(
    fake: FakeOpenAI, make_replier: MakeReplier
) -> None:
    fake.script(status(500, headers={"x-should-retry": "false"}), reply(ANSWER))
    await failure(make_replier())
    assert len(fake.chat_requests) == 1


@pytest.mark.parametrize("code", [400, 401, 403, 404, 422])
async def test_client_errors_are_not_retried(
    fake: FakeOpenAI, make_replier: MakeReplier, code: int
) -> None:
    fake.script(status(code, {"error": {"message": f"nope {code}"}}), reply(ANSWER))
    message, cause = await failure(make_replier())
    assert message.endswith(f"failed: HTTP {code}: nope {code}")
    assert (cause.status, cause.attempts) == (code, 1)
    assert len(fake.chat_requests) == 1


async def test_wrong_key_is_not_retried(fake: FakeOpenAI, make_replier: MakeReplier) -> None:
    message, _ = await failure(make_replier(api_key="wrong"))
    assert "HTTP 401: Incorrect API key" in message
    assert len(fake.chat_requests) == 1


# --- timeouts -----------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_timeout_ends_the_request_at_its_deadline_with_a_clear_error(
    fake: FakeOpenAI, make_replier: MakeReplier
) -> None:
    fake.script(delay(5, reply(ANSWER)), reply(ANSWER))
    message, cause = await failure(make_replier(timeout=0.2, max_retries=1))
    assert message.endswith(") failed: timed out after 0.2 s")  # the deadline: no retry left
    assert isinstance(cause, LLMDownError) and cause.status is None
    assert len(fake.chat_requests) == 1


# --- connections --------------------------------------------------------------------------


@pytest.mark.slow
async def test_connection_reset_is_retried_then_answers(
    fake: FakeOpenAI, make_replier: MakeReplier
) -> None:
    fake.script(reset(), reply(ANSWER))
    answer = await ask(make_replier())
    assert answer.text == "Sarah works nights as a nurse."
    assert retry_counts(fake) == ["0", "1"]


@pytest.mark.slow
async def test_connection_reset_until_out_of_retries(
    fake: FakeOpenAI, make_replier: MakeReplier
) -> None:
    fake.script(reset(), reset(), reply(ANSWER))
    message, cause = await failure(make_replier(max_retries=1))
    assert f"failed after 2 attempts: connection failed ({fake.base_url}/chat/completions)" in (
        message
    )
    assert "connection reset" in message.lower()
    assert (cause.status, cause.attempts) == (None, 2)
    assert len(fake.chat_requests) == 2


@pytest.mark.slow
async def test_connection_refused(make_replier: MakeReplier) -> None:
    base_url = f"http://127.0.0.1:{unused_port()}/v1"
    message, cause = await failure(make_replier(base_url=base_url, max_retries=1))
    assert "after 2 attempts: connection refused" in message
    assert base_url in message
    assert cause.attempts == 2


# --- malformed bodies ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        pytest.param(raw(b'{"id": "x", "choices": '), "malformed JSON", id="broken-json"),
        pytest.param(
            raw(b"<html>bad gateway</html>", "text/html"), "not a chat completion", id="html"
        ),
        pytest.param(raw(b'{"object": "chat.completion"}'), "no choices", id="no-choices"),
        pytest.param(reply("Sarah is a nurse, I think."), "not JSON", id="prose-answer"),
    ],
)
async def test_malformed_body_is_a_clear_error_without_retry(
    fake: FakeOpenAI, make_replier: MakeReplier, behaviour: Any, reason: str
) -> None:
    fake.script(behaviour, reply(ANSWER))
    with pytest.raises(ReplyError, match=reason) as caught:
        await ask(make_replier())
    assert str(caught.value).startswith(f"LLM reply (fake-model at {fake.base_url}/): ")
    assert len(fake.chat_requests) == 1
    assert fake.pending() == 1


async def test_answer_in_a_fence_is_read_tolerantly(
    fake: FakeOpenAI, make_replier: MakeReplier
) -> None:
    fake.script(reply(f"Here you go:\n```json\n{ANSWER}\n```"))
    answer = await ask(make_replier())
    assert answer.text == "Sarah works nights as a nurse."
    assert len(fake.chat_requests) == 1


# --- a client passed in -------------------------------------------------------------------


async def test_injected_client_gets_the_endpoint_retries_and_is_left_open(
    fake: FakeOpenAI,
) -> None:
    client = openai.AsyncOpenAI(api_key=API_KEY, base_url=fake.base_url, max_retries=5)
    try:
        replier = LLMReplier(model="m", client=client, max_retries=1)
        fake.script(*[status(500, headers=FAST)] * 10)
        message, _ = await failure(replier)
        assert "after 2 attempts: HTTP 500" in message
        assert len(fake.chat_requests) == 2  # the endpoint's retries, not the client's 5
        await replier.aclose()
        assert not client.is_closed()
    finally:
        await client.close()
