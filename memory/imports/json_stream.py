"""Streaming reads of one large JSON object whose one array holds the bulk of the data.

A DiscordChatExporter export is ``{"guild": …, "channel": …, …, "messages": [ … ]}``. This
reader walks the top-level object and the array with a window of decoded text, and decodes
each value with the standard library's C decoder (``json.JSONDecoder.raw_decode``): memory
stays bounded by the largest single value, and nesting too deep is refused in linear time
(the decoder's recursion limit), where an event-based builder would take quadratic time.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import IO, Any

READ_CHARS = 1 << 20  # bytes read per refill of the window
MAX_VALUE_CHARS = 32 << 20  # one value (a message) larger than this is refused
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class JSONStreamError(ValueError):
    """The text is not the JSON expected; ``offset`` is a byte position near the fault."""

    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


class JSONStream:
    """A cursor over a UTF-8 JSON byte stream, decoded a window at a time."""

    def __init__(self, handle: IO[bytes], read_size: int = READ_CHARS) -> None:
        self._handle = handle
        self._read_size = read_size
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._buf_start_byte = 0  # byte offset in the file of self._buf[0]
        # A UTF-8 byte order mark (Windows tools write one) is no part of the JSON: skipped.
        head = handle.read(len(codecs.BOM_UTF8))
        if head == codecs.BOM_UTF8:
            self._buf_start_byte, head = len(head), b""
        self._head = head  # bytes read ahead, decoded with the first window

    # --- positions ----------------------------------------------------------------------

    @property
    def offset(self) -> int:
        """Byte offset of the cursor (exact; costs an encode of the window's head)."""
        return self._offset_at(self._pos)

    def _offset_at(self, index: int) -> int:
        return self._buf_start_byte + len(self._buf[:index].encode("utf-8"))

    @property
    def bytes_read(self) -> int:
        """Bytes read from the file so far (cheap; for progress)."""
        return self._handle.tell()

    def _fail(self, reason: str, index: int | None = None) -> JSONStreamError:
        return JSONStreamError(reason, self._offset_at(self._pos if index is None else index))

    # --- reading ------------------------------------------------------------------------

    def _fill(self) -> bool:
        """Append the next part of the file to the window; False at the end (the window,
        and any index into it, then stay as they were)."""
        if self._eof:
            return False
        raw = self._handle.read(self._read_size)
        if self._head:
            raw, self._head = self._head + raw, b""
        try:
            text = self._decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:
            raise self._fail(f"not UTF-8 text ({exc.reason})") from None
        if not raw:
            self._eof = True
        if not text:
            return not self._eof  # a read that ended inside a UTF-8 sequence: read on
        if self._pos:
            self._buf_start_byte += len(self._buf[: self._pos].encode("utf-8"))
            self._buf = self._buf[self._pos :]
            self._pos = 0
        self._buf += text
        return True

    def peek(self) -> str:
        """The next non-space character ("" at the end of the file)."""
        while True:
            self._pos = _SPACE.match(self._buf, self._pos).end()  # type: ignore[union-attr]
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._fill():
                return ""

    def expect(self, chars: str) -> str:
        """Consume the next non-space character, which must be one of ``chars``."""
        found = self.peek()
        if not found or found not in chars:
            shown = repr(found) if found else "the end of the file"
            expected = " or ".join(repr(c) for c in chars)
            raise self._fail(f"expected {expected}, found {shown}")
        self._pos += 1
        return found

    def value(self) -> Any:
        """Decode the next JSON value whole."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._more_may_help():
                    continue
                if self._eof and _cut_short(self._buf, exc):
                    raise self._fail("the file ends inside a value", len(self._buf)) from None
                raise self._fail(exc.msg, exc.pos) from None
            except RecursionError:
                raise self._fail("a value is nested too deeply") from None
            if end == len(self._buf) and self._more_may_help():
                continue  # a number cut by the window may go on ("12" | "34")
            self._pos = end
            return value

    def _more_may_help(self) -> bool:
        if len(self._buf) - self._pos > MAX_VALUE_CHARS:
            raise self._fail(f"a value is larger than {MAX_VALUE_CHARS:,} characters")
        return self._fill()


def _cut_short(text: str, exc: json.JSONDecodeError) -> bool:
    """Whether a decode error at the end of the file is a value the file cuts short."""
    tail = text[exc.pos :].rstrip()
    return (
        not tail
        or exc.msg.startswith("Unterminated string")
        or any(word.startswith(tail) for word in ("true", "false", "null"))
    )


def iter_object(stream: JSONStream, array_key: str) -> Iterator[tuple[str, Any]]:
    """Walk the top-level object: yield ``(key, value)``, and for ``array_key`` yield
    ``(array_key, item)`` for each item of its array, one at a time."""
    stream.expect("{")
    if stream.peek() == "}":
        stream.expect("}")
        return
    while True:
        key = stream.value()
        if not isinstance(key, str):
            raise stream._fail("expected a key")
        stream.expect(":")
        if key == array_key and stream.peek() == "[":
            stream.expect("[")
            if stream.peek() == "]":
                stream.expect("]")
            else:
                while True:
                    yield key, stream.value()
                    if stream.expect(",]") == "]":
                        break
        else:
            yield key, stream.value()
        if stream.expect(",}") == "}":
            return
