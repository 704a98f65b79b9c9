"""An LLM request has one deadline, and an endpoint found down is left alone for a while
(``memory.llm.endpoint``, ``memory.llm.breaker``): a server that trickles its answer, one
that accepts connections and never answers, one that refuses them. The real openai client
talks HTTP to them; the bounds below are timeouts against hanging, never measured waits."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.llm_reply import LLMReplier
from memory.errors import MemorybotError
from memory.extraction import SourceMessage
from memory.extraction.llm import LLMExtractor
from memory.lifecycle.judge import FactJudge
from memory.lifecycle.llm_check import LLMFactCheck
from memory.llm.endpoint import OpenAIEndpoint
from memory.profile_writer import ProfileWriter
from memory.search.embeddings_openai import OpenAIEmbedder
from memory.search.results import MemorySlice
from memory.settings import Settings, load_settings
from memory.storage.store import Store
from tests.fake_openai import (
    API_KEY,
    FakeOpenAI,
    HungServer,
    delay,
    last_user_json,
    trickle,
    unused_port,
)
from tests.helpers import CHANNEL_A, GUILD_A, SARAH, cli_env, export_message, write_export

BOUND = 10.0
"""Seconds a request with a 2 s deadline may take here before the test calls it hung."""

NURSE = SourceMessage("1", GUILD_A, CHANNEL_A, SARAH.id, "Sarah", "I work nights as a nurse",
                      "2026-10-12T18:03:11.123+00:00")  # fmt: skip


def endpoint_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, base_url: str, **env: str
) -> Settings:
    """Settings from the environment, as an operator gives them, on ``base_url``."""
    variables = {
        "MEMORYBOT_DATA_DIR": str(tmp_path / "data"),
        "MEMORYBOT_LLM_MODEL": "fake-model",
        "MEMORYBOT_LLM_BASE_URL": base_url,
        "MEMORYBOT_LLM_API_KEY": API_KEY,
        "MEMORYBOT_EMBEDDING_MODEL": "fake-embedder",
        **env,
    }
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return load_settings()


Request = Callable[[], Awaitable[object]]


def requests_of(settings: Settings, store: Store) -> dict[str, tuple[OpenAIEndpoint, Request]]:
    """Each user of the LLM endpoint, built from ``settings``, and one request of it."""
    from memory.search.embeddings import build_embedder

    extractor = LLMExtractor.from_settings(settings)
    replier = LLMReplier.from_settings(settings)
    judge = FactJudge()
    check = LLMFactCheck.from_settings(settings, judge, judge.similarity, store.facts_of)
    writer = ProfileWriter.from_settings(settings, store)
    embedder = build_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    return {
        "extraction": (extractor, lambda: extractor.extract([NURSE])),
        "reply": (replier, lambda: replier.reply(
            question="what does Sarah do?", asker="Mike", memory=MemorySlice(), recent=(),
            bot_name="Memo",
        )),
        "fact-check": (check, lambda: check.relations([("Sarah lives in Boston.",
                                                         "Sarah lives in Denver.")])),
        "profile": (writer, lambda: writer.paragraph("Sarah", [])),
        "embeddings": (embedder, lambda: embedder.embed(["Sarah works nights as a nurse."])),
    }  # fmt: skip


async def failure_of(request: Request) -> str:
    """The one-line error ``request()`` fails with, before the bound."""
    async with asyncio.timeout(BOUND):
        with pytest.raises(MemorybotError) as caught:  # each user's own kind
            await request()
    message = str(caught.value)
    assert "\n" not in message
    return message


# --- the deadline -------------------------------------------------------------------------


@pytest.mark.parametrize("user", ["extraction", "reply", "fact-check", "profile", "embeddings"])
@pytest.mark.slow
async def test_an_answer_trickling_a_byte_a_second_ends_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: FakeOpenAI, store: Store, user: str
) -> None:
    settings = endpoint_settings(monkeypatch, tmp_path, fake.base_url, MEMORYBOT_LLM_TIMEOUT="2")
    users = requests_of(settings, store)
    fake.script(trickle(1.0), endpoint="embeddings" if user == "embeddings" else "chat")
    try:
        message = await failure_of(users[user][1])
    finally:
        for endpoint, _ in users.values():
            await endpoint.aclose()
    assert "timed out after 2 s" in message
    assert len(fake.requests) == 1  # the deadline covers the retries too: none was left


# --- the breaker --------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_hung_endpoint_holds_one_request_then_the_rest_fail_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with HungServer() as hung:
        settings = endpoint_settings(monkeypatch, tmp_path, hung.base_url,
                                     MEMORYBOT_LLM_TIMEOUT="2")  # fmt: skip
        extractor = LLMExtractor.from_settings(settings)
        try:
            with caplog.at_level(logging.INFO, logger="memory.llm.breaker"):
                first = await failure_of(lambda: extractor.extract([NURSE]))
                held = hung.connections
                later = [await failure_of(lambda: extractor.extract([NURSE])) for _ in range(20)]
        finally:
            await extractor.aclose()
    assert "timed out after 2 s" in first
    assert held >= 1 and hung.connections == held  # the later requests were never sent
    assert all("not sent: the endpoint is down (timed out after 2 s)" in m for m in later)
    [warning] = [r for r in caplog.records if r.name == "memory.llm.breaker"]
    assert warning.levelno == logging.WARNING
    assert "LLM extraction (fake-model at http://127.0.0.1:" in warning.getMessage()
    assert "is down (timed out after 2 s)" in warning.getMessage()


async def test_a_refused_connection_opens_the_breaker_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = f"http://127.0.0.1:{unused_port()}/v1"
    settings = endpoint_settings(monkeypatch, tmp_path, url, MEMORYBOT_LLM_MAX_RETRIES="0")
    replier = LLMReplier.from_settings(settings)
    ask: Request = lambda: replier.reply(  # noqa: E731
        question="hi", asker="Mike", memory=MemorySlice(), recent=(), bot_name="Memo"
    )
    try:
        first = await failure_of(ask)
        second = await failure_of(ask)
    finally:
        await replier.aclose()
    assert "connection refused" in first
    assert "not sent: the endpoint is down (connection refused" in second


@pytest.mark.slow
async def test_the_breaker_tries_again_after_the_cooldown_and_closes_on_an_answer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: FakeOpenAI,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    quick = {"MEMORYBOT_LLM_TIMEOUT": "1", "MEMORYBOT_LLM_COOLDOWN": "1",
             "MEMORYBOT_LLM_MAX_RETRIES": "0"}  # fmt: skip
    settings = endpoint_settings(monkeypatch, tmp_path, fake.base_url, **quick)
    fake.script(delay(30), delay(30))  # two requests hang, then the server answers
    extractor = LLMExtractor.from_settings(settings)
    extract: Request = lambda: extractor.extract([NURSE])  # noqa: E731
    try:
        with caplog.at_level(logging.INFO, logger="memory.llm.breaker"):
            assert "timed out" in await failure_of(extract)
            assert "not sent" in await failure_of(extract)
            assert len(fake.chat_requests) == 1
            await asyncio.sleep(1.2)  # the cool-down is over: one request tries
            assert "timed out" in await failure_of(extract)
            assert len(fake.chat_requests) == 2
            assert "not sent" in await failure_of(extract)  # open again, twice as long
            await asyncio.sleep(2.2)
            assert await extract() == []
            assert await extract() == []  # closed: every request goes
            assert len(fake.chat_requests) == 4
    finally:
        await extractor.aclose()
    said = [(r.levelname, r.getMessage().split(") ", 1)[-1]) for r in caplog.records]
    assert said == [
        ("WARNING", "is down (timed out after 1 s): its requests fail at once for 1 s, then one "
                    "tries again"),
        ("INFO", "is still down (timed out after 1 s): the next try in 2 s"),
        ("WARNING", "answers again"),
    ]  # fmt: skip


# --- an import against a hung endpoint, then backfill -------------------------------------

MESSAGES = 300


def echo_facts(body: dict[str, Any]) -> str:
    """The answer of a model that finds one fact in each message: its text."""
    batch = last_user_json(body)["messages"]
    facts = [
        {"message_id": m["message_id"], "subject": "author", "fact": m["text"] + ".",
         "type": "other", "confidence": 0.9, "evidence": m["text"]}
        for m in batch
    ]  # fmt: skip
    return json.dumps({"facts": facts})


async def memorybot(data: Path, *args: str, **env: str) -> tuple[int, str, str]:
    """``python -m bot.cli`` as a subprocess, without blocking this loop's servers."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "--data-dir", str(data), *args,
        env=cli_env(**env), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 120)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def stats(data: Path) -> dict[str, Any]:
    code, out, err = await memorybot(data, "stats", "--json")
    assert code == 0, err
    (row,) = json.loads(out)["guilds"]
    return dict(row)


@pytest.mark.slow
async def test_an_import_against_a_hung_endpoint_stores_everything_then_backfill_extracts(
    tmp_path: Path,
) -> None:
    export = write_export(
        tmp_path / "chat.json",
        [export_message(n, f"Sarah likes the hiking trail number {n}") for n in range(MESSAGES)],
    )
    data = tmp_path / "data"
    llm = {"MEMORYBOT_LLM_MODEL": "fake-model", "MEMORYBOT_LLM_API_KEY": API_KEY,
           "MEMORYBOT_LLM_TIMEOUT": "2", "MEMORYBOT_EXTRACTION_BATCH_GAP": "0",
           "MEMORYBOT_LLM_FACT_CHECK": "false"}  # only extraction asked here  # fmt: skip
    async with HungServer() as hung:
        code, out, err = await memorybot(
            data, "import", str(export), MEMORYBOT_LLM_BASE_URL=hung.base_url, **llm
        )
    assert code == 3, err
    assert f"new {MESSAGES}" in out
    lines = err.splitlines()
    assert f"extraction failed for {MESSAGES} of {MESSAGES} message(s)" in lines[-1]
    assert "memorybot backfill --extraction" in lines[-1]
    [down] = [line for line in lines if "WARNING" in line]  # one line, not one per batch
    assert "is down (timed out after 2 s)" in down
    row = await stats(data)
    assert (row["messages"], row["failed_jobs"], row["pending_jobs"]) == (MESSAGES, MESSAGES, 0)

    async with FakeOpenAI(api_key=API_KEY, chat_handler=echo_facts) as fake:  # it is back
        code, out, err = await memorybot(
            data, "backfill", "--extraction", MEMORYBOT_LLM_BASE_URL=fake.base_url, **llm
        )
        asked = {m["message_id"] for r in fake.chat_requests
                 for m in last_user_json(r.json)["messages"]}  # fmt: skip
    assert (code, err) == (0, "")
    assert f"re-ran extraction of {MESSAGES} message(s)" in out
    assert len(asked) == MESSAGES
    row = await stats(data)
    assert (row["failed_jobs"], row["pending_jobs"], row["facts"]) == (0, 0, MESSAGES)


@pytest.mark.slow
async def test_an_import_where_some_extractions_fail_reports_them_and_exits_0(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    fake.chat_handler = echo_facts
    fake.script(delay(30))  # the first batch hangs; the endpoint answers the next ones
    export = write_export(
        tmp_path / "chat.json",
        [export_message(n, f"Sarah likes the hiking trail number {n}") for n in range(40)],
    )
    code, out, err = await memorybot(
        tmp_path / "data", "import", "--json", str(export), MEMORYBOT_LLM_MODEL="fake-model",
        MEMORYBOT_LLM_BASE_URL=fake.base_url, MEMORYBOT_LLM_API_KEY=API_KEY,
        MEMORYBOT_LLM_TIMEOUT="2", MEMORYBOT_LLM_COOLDOWN="0",
        MEMORYBOT_EXTRACTION_BATCH_GAP="0",
    )  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert (summary["extracted"], summary["extractionFailed"]) == (32, 8)
    assert "extraction failed for 8 of 40 message(s)" in err
