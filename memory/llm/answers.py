"""Reading what a chat model answered: the text of its reply, and that text as JSON.

Models wrap JSON in prose or code fences, cut it off at the token limit, refuse, or answer
nothing; these functions say which, in a reason fit for a one-line error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from openai.types.chat import ChatCompletion

T = TypeVar("T")

_FENCE = re.compile(r"```[ \t]*(?:[A-Za-z0-9_-]+)?[ \t]*\r?\n?(.*?)```", re.DOTALL)


def reply_as(reply: object, expected: type[T], kind: str) -> T:
    """``reply`` (what the client made of the response body) when it is an ``expected``;
    ``ValueError`` naming ``kind`` ("a chat completion") otherwise (the client hands back
    the text of a body that is not JSON)."""
    if isinstance(reply, expected):
        return reply
    shown = snippet(reply) if isinstance(reply, str) else type(reply).__name__
    raise ValueError(f"the server's reply was not {kind}: {shown}")


def read_answer(completion: ChatCompletion, parse: Callable[[str], T]) -> T:
    """The answer text of ``completion`` parsed by ``parse``; ``ValueError`` with the reason
    (:func:`answer_text`'s, or ``parse``'s, noting an answer cut off at the token limit)."""
    content = answer_text(completion)
    try:
        return parse(content)
    except ValueError as exc:
        if finish_reason(completion) != "length":
            raise
        raise ValueError(f"{exc} (cut off at the token limit)") from None


def answer_text(completion: ChatCompletion) -> str:
    """The text of the first choice's message; ``ValueError`` (the reason) when the reply
    has no choices, the model refused, or the text is empty."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise ValueError("the reply had no choices")
    message = getattr(choices[0], "message", None)
    refusal = getattr(message, "refusal", None)
    if refusal:
        raise ValueError(f"the model refused: {snippet(str(refusal))}")
    content = getattr(message, "content", None)
    if not isinstance(content, str) or not content.strip():
        finish = finish_reason(completion)
        shown = f" (finish_reason {finish})" if finish else ""
        raise ValueError(f"the answer was empty{shown}")
    return content


def loads_tolerant(content: str) -> Any:
    """An answer as JSON: the raw text, else its first fenced code block, else the text from
    the first ``{`` to the last ``}``; ``ValueError`` when none of them parses."""
    candidates = [content]
    fenced = _FENCE.search(content)
    if fenced:
        candidates.append(fenced.group(1))
    start, end = content.find("{"), content.rfind("}")
    if 0 <= start < end:
        candidates.append(content[start : end + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):  # not JSON, or nested beyond the parser
            continue
    raise ValueError(f"answer was not JSON: {snippet(content)}")


def json_kind(value: Any) -> str:
    """The JSON type name of a parsed value, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def snippet(text: str, limit: int = 80) -> str:
    """``text`` on one line, at most ``limit`` characters, quoted."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


def finish_reason(completion: ChatCompletion) -> str | None:
    """Why the model stopped (``"stop"``, ``"length"``, ...); None when the reply does not
    say."""
    try:
        reason = completion.choices[0].finish_reason
    except (AttributeError, IndexError, TypeError):
        return None
    return reason if isinstance(reason, str) else None
