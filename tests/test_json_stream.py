"""The streaming JSON reader under exports: windows, hostile nesting, bad bytes."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from memory.errors import ExportError
from memory.imports.format import iter_raw_messages
from memory.imports.json_stream import JSONStream, JSONStreamError, iter_object

DOC = {
    "guild": {"id": "1", "name": 'tricky "[{" \\ ]]}}'},
    "messages": [
        {"id": str(n), "content": f'é😀 [{n}] \\" {{', "n": 1234567890 + n, "x": [[1.5e3], {}]}
        for n in range(40)
    ],
    "messageCount": 123456789,
}


@pytest.mark.parametrize("read_size", [1, 2, 3, 7, 64, 1 << 20])
def test_every_value_survives_any_window_size(read_size: int) -> None:
    raw = json.dumps(DOC, ensure_ascii=False).encode("utf-8")
    stream = JSONStream(io.BytesIO(raw), read_size=read_size)
    got = list(iter_object(stream, "messages"))
    assert got[0] == ("guild", DOC["guild"])
    assert [v for k, v in got if k == "messages"] == DOC["messages"]
    assert got[-1] == ("messageCount", 123456789)  # a number cut by a window is whole
    assert stream.peek() == ""


def test_deep_nesting_is_refused_at_once(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.json"
    depth = 200_000
    bomb.write_text(
        '{"guild": {"id": "1"}, "messages": [{"id": "2", "content": '
        + "[" * depth
        + "]" * depth
        + "}]}",
        encoding="utf-8",
    )
    start = time.monotonic()
    with pytest.raises(ExportError, match="a value is nested too deeply"):
        list(iter_raw_messages(bomb))
    assert time.monotonic() - start < 5  # linear, where an event builder takes minutes


def test_bytes_that_are_not_utf8_are_a_clear_error() -> None:
    raw = b'{"messages": [{"content": "ok"}, {"content": "\xff\xfe"}]}'
    stream = JSONStream(io.BytesIO(raw))
    with pytest.raises(JSONStreamError, match="not UTF-8 text"):
        list(iter_object(stream, "messages"))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"messages": [{"a": 1} {"b": 2}]}', "expected ',' or ']'"),
        ('{"messages": [{"a": 1},]}', "Expecting value"),
        ('{"messages": [{"a": 1}', "expected ',' or ']', found the end of the file"),
        ('{"messages": [{"a": tru', "the file ends inside a value"),
        ('{"a" 1}', "expected ':'"),
    ],
)
def test_syntax_errors_say_what_was_expected(text: str, reason: str) -> None:
    stream = JSONStream(io.BytesIO(text.encode()))
    with pytest.raises(JSONStreamError, match=reason):
        list(iter_object(stream, "messages"))
