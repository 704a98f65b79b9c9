"""A local fake of an OpenAI-compatible HTTP server, for tests and benchmarks.

``FakeOpenAI`` serves ``POST /v1/chat/completions`` and ``POST /v1/embeddings`` on
127.0.0.1 (a random port) with aiohttp, so the real openai client talks real HTTP to it::

    async with FakeOpenAI() as fake:
        fake.script(status(500), reply('{"facts": []}'))
        client = openai.AsyncOpenAI(base_url=fake.base_url, api_key="k", max_retries=0)
        ...
        assert len(fake.chat_requests) == 2

Each request takes the next behaviour of its endpoint's script (:func:`reply`,
:func:`tool_calls`, :func:`status`, :func:`delay`, :func:`raw`, :func:`reset`,
:func:`trickle`); when the script is empty the
endpoint's handler answers: for chat a callable ``(request_json) -> content`` (sync or async;
default ``{"facts": []}``), for embeddings ``(request_json) -> list of vectors`` (default:
deterministic unit vectors from a hash of each input, ``dimensions`` honoured). Every request
is recorded in ``.requests`` (method, path, headers, parsed JSON body, arrival time).

Two servers that are no OpenAI server at all: :class:`HungServer` accepts connections and
never answers, and :func:`unused_port` is a port that refuses them.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import inspect
import itertools
import json
import math
import random
import socket
import struct
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal

from aiohttp import web

Endpoint = Literal["chat", "embeddings"]
ChatHandler = Callable[[dict[str, Any]], str | Awaitable[str]]
EmbeddingsHandler = Callable[[dict[str, Any]], list[list[float]] | Awaitable[list[list[float]]]]

DEFAULT_CHAT_ANSWER = '{"facts": []}'
DEFAULT_EMBEDDING_DIMENSIONS = 1536


# --- behaviours ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolCall:
    """One function call in an answer (:func:`tool_calls`); ``arguments`` as sent."""

    name: str
    arguments: str
    id: str


@dataclass(frozen=True)
class Reply:
    """A 200 chat.completion whose first choice's message has ``content`` (and ``calls``)."""

    content: str | None
    refusal: str | None = None
    finish_reason: str = "stop"
    calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class Status:
    """An error status; ``body`` defaults to an OpenAI-style error object."""

    code: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Delay:
    """Wait ``seconds`` (client timeouts), then behave as ``then`` (default: the handler)."""

    seconds: float
    then: Behaviour | None = None


@dataclass(frozen=True)
class Raw:
    """Exactly these bytes as the body, with this content type and status."""

    body: bytes
    content_type: str = "application/json"
    code: int = 200


@dataclass(frozen=True)
class Reset:
    """Hang up without an answer: the connection is reset (RST), a connection error."""


@dataclass(frozen=True)
class Trickle:
    """Answer 200 at once, then send the handler's answer one byte every ``seconds``: each
    read gets a byte in time, the whole answer takes minutes."""

    seconds: float = 1.0


Behaviour = Reply | Status | Delay | Raw | Reset | Trickle


API_KEY = "test-key"
"""The key the tests' fake servers ask for (the ``fake`` fixture's)."""


def reply(content: str | None, *, refusal: str | None = None, finish_reason: str = "stop") -> Reply:
    return Reply(content, refusal, finish_reason)


_CALL_IDS = itertools.count(1)


def call(arguments: Any, *, name: str = "search_memory", call_id: str | None = None) -> ToolCall:
    """A function call: ``arguments`` sent as given when a string, else as JSON."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCall(name, text, call_id or f"call_fake{next(_CALL_IDS)}")


def tool_calls(*calls: ToolCall, content: str | None = None) -> Reply:
    """An answer that calls tools (``finish_reason`` ``tool_calls``)."""
    return Reply(content, None, "tool_calls", calls)


def status(code: int, body: Any = None, headers: dict[str, str] | None = None) -> Status:
    return Status(code, body, dict(headers or {}))


def delay(seconds: float, then: Behaviour | None = None) -> Delay:
    return Delay(seconds, then)


def raw(body: bytes, content_type: str = "application/json", code: int = 200) -> Raw:
    return Raw(body, content_type, code)


def reset() -> Reset:
    return Reset()


def trickle(seconds: float = 1.0) -> Trickle:
    return Trickle(seconds)


# --- recorded requests --------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    json: Any
    at: float
    """``time.monotonic()`` when the request arrived."""

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


def last_user_json(body: dict[str, Any]) -> Any:
    """The JSON object in the last user message of a chat request body."""
    users = [m for m in body["messages"] if m.get("role") == "user"]
    content = users[-1]["content"]
    if isinstance(content, list):  # content parts
        content = "".join(part.get("text", "") for part in content)
    return json.loads(content)


def chat_completion(
    content: str | None,
    *,
    model: str,
    refusal: str | None = None,
    finish_reason: str = "stop",
    prompt_tokens: int = 0,
    number: int = 1,
    calls: tuple[ToolCall, ...] = (),
) -> dict[str, Any]:
    """A chat.completion object as the OpenAI API returns it (``calls``: its tool calls)."""
    completion_tokens = len(content or "") // 4
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": refusal}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    return {
        "id": f"chatcmpl-fake{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def hash_embedding(text: str, dimensions: int) -> list[float]:
    """A deterministic unit vector for ``text``."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    rng = random.Random(seed)
    vector = [rng.gauss(0.0, 1.0) for _ in range(dimensions)]
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


# --- the server ---------------------------------------------------------------------------


class FakeOpenAI:
    """An OpenAI-compatible server on 127.0.0.1 driven by scripts; see the module docstring.

    ``api_key``: when set, requests without ``Authorization: Bearer <api_key>`` get a 401.
    """

    def __init__(
        self,
        *,
        chat_handler: ChatHandler | None = None,
        embeddings_handler: EmbeddingsHandler | None = None,
        api_key: str | None = None,
        embedding_dimensions: int = DEFAULT_EMBEDDING_DIMENSIONS,
    ) -> None:
        self.chat_handler: ChatHandler = chat_handler or (lambda _body: DEFAULT_CHAT_ANSWER)
        self.embeddings_handler: EmbeddingsHandler = embeddings_handler or self._hash_embeddings
        self.api_key = api_key
        self.embedding_dimensions = embedding_dimensions
        self.requests: list[RecordedRequest] = []
        self._scripts: dict[Endpoint, deque[Behaviour]] = {"chat": deque(), "embeddings": deque()}
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()
        self.port = 0

    # lifecycle

    async def start(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/embeddings", self._embeddings)
        runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=0.5
        )
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(runner.addresses[0][1])
        self._runner = runner
        return self

    async def close(self) -> None:
        self._closing.set()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeOpenAI:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # scripting and inspection

    def script(self, *behaviours: Behaviour, endpoint: Endpoint = "chat") -> None:
        """Queue behaviours for the next requests of ``endpoint``, in order."""
        self._scripts[endpoint].extend(behaviours)

    def pending(self, endpoint: Endpoint = "chat") -> int:
        """Scripted behaviours not used yet."""
        return len(self._scripts[endpoint])

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == "/v1/chat/completions"]

    @property
    def embeddings_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == "/v1/embeddings"]

    # handlers

    async def _record(self, request: web.Request) -> RecordedRequest:
        text = await request.text()
        try:
            body = json.loads(text) if text else None
        except ValueError:
            body = text
        recorded = RecordedRequest(
            request.method, request.path, dict(request.headers), body, time.monotonic()
        )
        self.requests.append(recorded)
        return recorded

    def _unauthorized(self, recorded: RecordedRequest) -> web.Response | None:
        if self.api_key is None or recorded.header("authorization") == f"Bearer {self.api_key}":
            return None
        return _error_response(Status(401, {"error": {"message": "Incorrect API key provided"}}))

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        recorded = await self._record(request)
        denied = self._unauthorized(recorded)
        if denied is not None:
            return denied
        behaviour = self._next("chat")
        return await self._perform(behaviour, request, recorded, self._chat_default)

    async def _embeddings(self, request: web.Request) -> web.StreamResponse:
        recorded = await self._record(request)
        denied = self._unauthorized(recorded)
        if denied is not None:
            return denied
        behaviour = self._next("embeddings")
        return await self._perform(behaviour, request, recorded, self._embeddings_default)

    def _next(self, endpoint: Endpoint) -> Behaviour | None:
        script = self._scripts[endpoint]
        return script.popleft() if script else None

    async def _perform(
        self,
        behaviour: Behaviour | None,
        request: web.Request,
        recorded: RecordedRequest,
        default: Callable[[RecordedRequest], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        while isinstance(behaviour, Delay):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), behaviour.seconds)
            if self._closing.is_set():
                return web.Response(status=503, text="shutting down")
            behaviour = behaviour.then
        if behaviour is None:
            return await default(recorded)
        if isinstance(behaviour, Trickle):
            return await self._trickle(request, await default(recorded), behaviour.seconds)
        if isinstance(behaviour, Reply):
            body = chat_completion(
                behaviour.content,
                model=_model(recorded),
                refusal=behaviour.refusal,
                finish_reason=behaviour.finish_reason,
                prompt_tokens=_prompt_tokens(recorded),
                number=next(self._ids),
                calls=behaviour.calls,
            )
            return _json_response(body)
        if isinstance(behaviour, Status):
            return _error_response(behaviour)
        if isinstance(behaviour, Reset):
            return _reset(request)
        return web.Response(
            status=behaviour.code,
            body=behaviour.body,
            headers={"Content-Type": behaviour.content_type},
        )

    async def _trickle(
        self, request: web.Request, answer: web.StreamResponse, seconds: float
    ) -> web.StreamResponse:
        """``answer``'s body, one byte every ``seconds`` (until the server closes)."""
        body = answer.body if isinstance(answer, web.Response) else b""
        assert isinstance(body, bytes)
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        response.content_length = len(body)
        await response.prepare(request)
        for index in range(len(body)):
            await response.write(body[index : index + 1])
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), seconds)
            if self._closing.is_set():
                break
        return response

    async def _chat_default(self, recorded: RecordedRequest) -> web.StreamResponse:
        content = self.chat_handler(recorded.json)
        if inspect.isawaitable(content):
            content = await content
        body = chat_completion(
            content,
            model=_model(recorded),
            prompt_tokens=_prompt_tokens(recorded),
            number=next(self._ids),
        )
        return _json_response(body)

    async def _embeddings_default(self, recorded: RecordedRequest) -> web.StreamResponse:
        request = recorded.json if isinstance(recorded.json, dict) else {}
        vectors = self.embeddings_handler(request)
        if inspect.isawaitable(vectors):
            vectors = await vectors
        base64_wanted = request.get("encoding_format") == "base64"
        data = []
        for index, vector in enumerate(vectors):
            embedding: list[float] | str = vector
            if base64_wanted:
                packed = struct.pack(f"<{len(vector)}f", *vector)
                embedding = base64.b64encode(packed).decode("ascii")
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(len(text) // 4 + 1 for text in _inputs(request))
        return _json_response(
            {
                "object": "list",
                "data": data,
                "model": _model(recorded),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    def _hash_embeddings(self, request: dict[str, Any]) -> list[list[float]]:
        dimensions = request.get("dimensions") or self.embedding_dimensions
        return [hash_embedding(text, int(dimensions)) for text in _inputs(request)]


def _inputs(request: dict[str, Any]) -> list[str]:
    """The inputs of an embeddings request as strings (token arrays are stringified)."""
    given = request.get("input", [])
    if isinstance(given, str):
        return [given]
    if isinstance(given, list) and given and all(isinstance(t, int) for t in given):
        return [json.dumps(given)]
    return [item if isinstance(item, str) else json.dumps(item) for item in given]


def _model(recorded: RecordedRequest) -> str:
    body = recorded.json
    return str(body.get("model", "fake")) if isinstance(body, dict) else "fake"


def _prompt_tokens(recorded: RecordedRequest) -> int:
    return len(json.dumps(recorded.json)) // 4


def _reset(request: web.Request) -> web.Response:
    """Reset the connection (``SO_LINGER`` 0, then abort): the response returned is never
    sent."""
    transport = request.transport
    if transport is not None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    return web.Response(status=500, text="reset")


def _json_response(body: Any) -> web.Response:
    return web.Response(
        body=json.dumps(body, ensure_ascii=False).encode("utf-8"),
        content_type="application/json",
    )


def _error_response(behaviour: Status) -> web.Response:
    body = behaviour.body
    if body is None:
        body = {
            "error": {
                "message": f"fake error {behaviour.code}",
                "type": "fake_error",
                "param": None,
                "code": None,
            }
        }
    payload = (
        body
        if isinstance(body, bytes)
        else (body.encode("utf-8") if isinstance(body, str) else json.dumps(body).encode("utf-8"))
    )
    content_type = "application/json" if not isinstance(body, str | bytes) else "text/plain"
    headers = {"Content-Type": content_type, **behaviour.headers}
    return web.Response(status=behaviour.code, body=payload, headers=headers)


def unused_port() -> int:
    """A port nothing listens on (bound, then released): connections are refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


class HungServer:
    """A TCP server on 127.0.0.1 that accepts every connection and never sends a byte (nor
    reads one): a hung endpoint. ``connections`` counts the connections accepted."""

    def __init__(self) -> None:
        self.connections = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self.port = 0

    async def __aenter__(self) -> HungServer:
        self._server = await asyncio.start_server(self._hold, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._server is not None:
            self._server.close()
            for writer in self._writers:
                writer.close()
            await self._server.wait_closed()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def _hold(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self._writers.append(writer)  # kept open, silent, until the server closes
