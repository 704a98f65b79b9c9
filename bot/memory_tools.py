"""``search_memory``: the tool an LLM reply may call (OpenAI tools API) to look memory up
before it answers, at most :data:`MAX_LOOKUPS` times per reply.

The model calls it with ``{"query": string, "member"?: string}``. A lookup is bound to where
the question was asked — :class:`MemoryLookup` holds the guild, the channel and the asker —
and the model cannot name a guild: whatever its arguments say, the results come from that
guild only. ``member`` (a display name, a user name, an id or a mention; "me" is the asker)
is looked for among that guild's members only; a member it does not know gives no results
and a note saying so.

Results: the guild's facts for the query (relevance-gated; a named member's facts ranked by
it) and the stored messages found for it (a named member's own, with the turns around them),
each with its provenance — whom a fact is about and the day it was said, who wrote a message
and when. They are quoted as the memory slice is (:mod:`bot.prompt_data`): each text cut to
:data:`MAX_RESULT_TEXT_CHARS`, the whole to :data:`MAX_RESULT_CHARS` (the turns around the
last messages, the last messages, then the last facts dropped first), JSON on one line that
cannot close a tag; each goes back to the model as a ``role: "tool"`` message answering its
call's id.

:class:`LookupRounds` answers the calls of one reply. Every call counts against the budget,
well-formed or not; a malformed call (arguments that are not JSON, not an object, a query
missing, mistyped, empty or over :data:`MAX_QUERY_CHARS`, a member that is not a string, an
unknown tool) is answered with an error the model can act on, and calls past the budget
with a note that it is spent. Nothing here raises out of a reply.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import openai

from bot.prompt_data import MAX_NAME_CHARS, drop_context, dumps, fact_data, found_data, quoted
from memory.ids import is_discord_id
from memory.llm.answers import json_kind
from memory.llm.errors import LLMRequestError, status_detail
from memory.text import strip_invisible

if TYPE_CHECKING:
    from openai.types.chat import (
        ChatCompletion,
        ChatCompletionFunctionToolParam,
        ChatCompletionMessage,
        ChatCompletionMessageFunctionToolCallParam,
        ChatCompletionMessageParam,
        ChatCompletionToolMessageParam,
    )

    from memory.runtime import Memory

log = logging.getLogger(__name__)

TOOL_NAME = "search_memory"
MAX_LOOKUPS = 2
"""Calls of ``search_memory`` answered per reply, across every round, malformed ones too."""
MAX_CALLS_PER_TURN = 8
"""Calls of one answer taken at all; the rest are left out of the conversation."""
MAX_QUERY_CHARS = 300
MAX_MEMBER_CHARS = 100
MAX_ARGUMENT_CHARS = 20_000
"""Longest arguments text that is parsed at all."""
MAX_RESULT_CHARS = 3_000
"""Longest tool message (the JSON of one lookup's results)."""
MAX_RESULT_TEXT_CHARS = 300
"""Longest fact or message text in a lookup's results."""
RESULT_FACTS = 6
RESULT_MESSAGES = 4
MAX_MEMBERS_SHOWN = 5
ASKER_WORDS = frozenset({"me", "myself", "i", "asker", "the asker"})
"""``member`` values that mean the member who asked."""

SEARCH_MEMORY_TOOL: ChatCompletionFunctionToolParam = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": (
            "Look up more of what you remember of this community than the memory block "
            "holds: facts (whom each is about, the day it was said) and earlier messages "
            "(author, time). Use it when the question needs something the memory block "
            "does not hold."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": f"What to look for, in a few words ({MAX_QUERY_CHARS} "
                    "characters at most).",
                },
                "member": {
                    "type": "string",
                    "description": "Optional: only facts about, and messages by, this member "
                    '(a display name, user name or id; "me" is the asker).',
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
}

_TOOLS_NAMED = re.compile(r"\btools?\b|tool_choice|tool.?call|function.?call", re.IGNORECASE)
REFUSING_STATUSES = frozenset({400, 404, 422, 500, 501})


def refuses_tools(exc: LLMRequestError) -> bool:
    """Whether a request failed because the endpoint or the model takes no tools: an HTTP
    400, 404, 422, 500 or 501 whose explanation names them (Ollama: "llama2 does not
    support tools"; vLLM: "auto tool choice requires --enable-auto-tool-choice"; llama.cpp:
    "tools param requires --jinja flag")."""
    if exc.status not in REFUSING_STATUSES:
        return False
    cause = exc.__cause__
    detail = status_detail(cause.body) if isinstance(cause, openai.APIStatusError) else ""
    return _TOOLS_NAMED.search(detail) is not None


def calling_message(completion: ChatCompletion) -> ChatCompletionMessage | None:
    """The first choice's message when it calls tools, else None."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        return None
    message = getattr(choices[0], "message", None)
    calls = getattr(message, "tool_calls", None)
    return message if isinstance(calls, list) and calls else None


def parse_arguments(raw: object) -> tuple[str, str | None]:
    """``(query, member)`` of a call's arguments (JSON text, or an object already parsed);
    ``ValueError`` with a reason the model can act on."""
    if isinstance(raw, str):
        if len(raw) > MAX_ARGUMENT_CHARS:
            raise ValueError(f"the arguments are too long ({len(raw):,} characters)")
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            raise ValueError(
                'the arguments are not valid JSON; send {"query": "...", "member": "..."}'
            ) from None
    if not isinstance(raw, dict):
        raise ValueError(f'the arguments are a JSON {json_kind(raw)}, not an object {{"query"}}')
    query = raw.get("query")
    if not isinstance(query, str):
        shown = "missing" if "query" not in raw else f"a JSON {json_kind(query)}"
        raise ValueError(f'"query" is {shown}: it must be a string')
    query = " ".join(strip_invisible(query).split())
    if not query:
        raise ValueError('"query" is empty: say what to look for')
    if len(query) > MAX_QUERY_CHARS:
        raise ValueError(
            f'"query" is too long ({len(query):,} characters; {MAX_QUERY_CHARS} at most)'
        )
    member = raw.get("member")
    if member is not None and not isinstance(member, str):
        raise ValueError(
            f'"member" is a JSON {json_kind(member)}: it must be a string (a member\'s name or '
            "id) or left out"
        )
    member = " ".join(strip_invisible(member or "").split())
    if len(member) > MAX_MEMBER_CHARS:
        raise ValueError(f'"member" is too long ({MAX_MEMBER_CHARS} characters at most)')
    return query, member or None


def results_text(data: dict[str, Any], limit: int = MAX_RESULT_CHARS) -> str:
    """A lookup's results as the tool message says them (:func:`dumps`), at most ``limit``
    characters: the turns around the last messages, the last messages, then the last facts
    are left out until they fit (a note says how many results); ``data`` is trimmed in place."""
    text, left_out = dumps(data), 0
    while len(text) > limit:
        if not drop_context(data["messages"]):
            items = data["messages"] or data["facts"]
            if not items:
                break
            items.pop()
            left_out += 1
            data["note"] = f"{left_out} more results left out"
        text = dumps(data)
    return text


def error_text(reason: str) -> str:
    return dumps({"error": reason})


@dataclass(frozen=True, slots=True)
class MemoryLookup:
    """``search_memory`` bound to where a question was asked: the guild (the only one it
    reads), the channel (its facts rank first among equals), the asker ("me") and the
    question's message (never a result)."""

    memory: Memory
    guild_id: str
    channel_id: str
    asker_id: str
    asker_name: str
    message_id: str = ""

    async def members(self, member: str) -> dict[str, str]:
        """The guild's members ``member`` names (``user_id -> display name``)."""
        if member.casefold() in ASKER_WORDS:
            return {self.asker_id: self.asker_name}
        text = f"<@{member}>" if is_discord_id(member) else member
        return await self.memory.named_members(self.guild_id, text)

    async def search(self, query: str, member: str | None = None) -> dict[str, Any]:
        """One lookup's results, as the model reads them (before :func:`results_text`)."""
        named: dict[str, str] = {}
        if member is not None:
            named = await self.members(member)
            if not named:
                note = f'nobody called "{quoted(member, MAX_NAME_CHARS)}" in this server'
                return {"facts": [], "messages": [], "note": note}
        subjects = sorted(named) or None
        facts = await self.memory.search(
            self.guild_id, query, channel_id=self.channel_id, limit=RESULT_FACTS,
            strict=subjects is None, subjects=subjects,
        )  # fmt: skip
        found = await self.memory.messages(self.guild_id, query, channel_id=self.channel_id)
        messages = [
            h
            for h in found
            if h.message.message_id != self.message_id
            and (not named or h.message.author_id in named)
        ][:RESULT_MESSAGES]
        data: dict[str, Any] = {}
        if named:
            shown = sorted(named.values())[:MAX_MEMBERS_SHOWN]
            data["member"] = [quoted(name, MAX_NAME_CHARS) for name in shown]
        data["facts"] = [fact_data(h, MAX_RESULT_TEXT_CHARS) for h in facts]
        data["messages"] = [
            found_data(h, MAX_RESULT_TEXT_CHARS, skip=self.message_id) for h in messages
        ]
        if not facts and not messages:
            data["note"] = "nothing found"
        return data


class LookupRounds:
    """The lookups of one reply: at most ``budget`` calls are answered (with results or an
    error), across every round; later calls are told the budget is spent."""

    def __init__(self, lookup: MemoryLookup, budget: int = MAX_LOOKUPS) -> None:
        self.lookup = lookup
        self.left = budget
        self.ran = 0
        """Lookups that ran (calls answered with results)."""

    @property
    def spent(self) -> bool:
        return self.left <= 0

    async def answer(self, message: ChatCompletionMessage) -> list[ChatCompletionMessageParam]:
        """The model's turn as the next request repeats it (its calls, their arguments as
        understood), then one tool message per call."""
        calls: list[ChatCompletionMessageFunctionToolCallParam] = []
        results: list[ChatCompletionToolMessageParam] = []
        for number, call in enumerate((message.tool_calls or [])[:MAX_CALLS_PER_TURN], 1):
            call_id = str(getattr(call, "id", "") or f"call_{number}")
            function = getattr(call, "function", None)
            name = getattr(function, "name", None)
            content, arguments = await self._one(name, getattr(function, "arguments", None))
            shown = quoted(name, 64) if isinstance(name, str) and name.strip() else "unknown"
            calls.append(
                {"id": call_id, "type": "function",
                 "function": {"name": shown, "arguments": arguments}}
            )  # fmt: skip
            results.append({"role": "tool", "tool_call_id": call_id, "content": content})
        said = message.content if isinstance(message.content, str) else None
        return [{"role": "assistant", "content": said, "tool_calls": calls}, *results]

    async def _one(self, name: object, raw: object) -> tuple[str, str]:
        """A call's tool message and its arguments as repeated to the model (valid JSON)."""
        try:
            query, member = parse_arguments(raw)
        except ValueError as exc:
            problem: str | None = str(exc)
            query, member, arguments = "", None, "{}"
        else:
            problem = None
            arguments = json.dumps({"query": query} | ({"member": member} if member else {}))
        if self.spent:
            return error_text("the lookups of this reply are spent: answer now"), arguments
        self.left -= 1
        if name != TOOL_NAME:
            shown = quoted(str(name), 64)
            problem = f'there is no tool "{shown}"; the only one is {TOOL_NAME}'
        if problem is not None:
            log.debug("reply lookup refused: %s", problem)
            return error_text(problem), arguments
        try:
            data = await self.lookup.search(query, member)
        except Exception:  # a failed lookup is told to the model; the reply goes on
            log.exception("reply lookup in guild %s failed", self.lookup.guild_id)
            return error_text("the lookup failed: answer with what you have"), arguments
        self.ran += 1
        log.debug(
            "reply lookup in guild %s: %d facts, %d messages",
            self.lookup.guild_id, len(data["facts"]), len(data["messages"]),
        )  # fmt: skip
        return results_text(data), arguments
