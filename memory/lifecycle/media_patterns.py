"""The patterns of how a member takes in what they read and watch (:mod:`memory.lifecycle.slots`):
in print or digitally, dubbed or subtitled. Built as the patterns of
:mod:`memory.lifecycle.slot_patterns` are.

One who reads only in print and then "went digital, kindle now" has changed; "reads manga on
a tablet" / "reads manga digitally" is the same. Only a way said as the only one, or as a
change, is read ("reads only print manga", "print only", "switched to reading digitally",
"went digital", "kindle now"): many read both. The same for anime: "watches dubs" / "subs only
now" is a change ("dubs" and "subs" are said as one way, whatever else they watch).
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern, one_of
from memory.lifecycle.slot_patterns import slot_pattern as _p

FORMATS = {"print": "print", "physical": "print", "paper": "print", "paperback": "print",
           "paperbacks": "print", "digital": "digital", "digitally": "digital",
           "kindle": "digital", "ebook": "digital", "ebooks": "digital", "e-book": "digital",
           "e-books": "digital",
           "tablet": "digital", "ereader": "digital", "e-reader": "digital"}  # fmt: skip
"""One name per way to read ("kindle": digital)."""
VERSIONS = {"dubs": "dub", "dub": "dub", "dubbed": "dub", "subs": "sub", "sub": "sub",
            "subbed": "sub", "subtitled": "sub", "subtitles": "sub"}  # fmt: skip
"""One name per way to watch ("subbed": sub)."""
_FORMAT = f"(?P<value>{one_of(FORMATS)})"
_VERSION = f"(?P<value>{one_of(VERSIONS)})"
_READS = r"(?:reads|reading|read|buys|buying|collects)"
_SWITCHED = r"(?:switched|went|moved|changed|converted|gone)"
MEDIA_PATTERNS: tuple[SlotPattern, ...] = (
    # "reads manga only in print", "reads only print manga", "print only", "went digital"
    _p("reads", rf"{_S}(?:\S+ ){{0,2}}?{_READS} (?:\w+ )?only (?:in |on (?:a |the )?)?{_FORMAT}\b"),
    _p("reads", rf"{_S}(?:\S+ ){{0,2}}?(?:only )?{_READS} only (?:in )?{_FORMAT}\b"),
    _p("reads", rf"{_S}(?:[.:,-] )?{_FORMAT}(?: \w+)? only\b"),  # "physical books only"
    _p("reads", rf"{_S}(?:\S+ ){{0,3}}?{_SWITCHED} (?:over )?(?:to )?(?:reading (?:\w+ )?)?"
                rf"(?:on (?:a |the )?)?{_FORMAT}\b"),
    _p("reads", rf"{_S}(?:\S+ ){{0,5}}?[.,] {_FORMAT} now\b"),  # "went digital . kindle now"
    # "watches dubs", "subs only now", "only watches subbed anime"
    _p("watches", rf"{_S}(?:[.:,-] )?(?:only |mostly |still )?(?:watches|watching) (?:anime )?"
                  rf"(?:only )?{_VERSION}\b"),
    _p("watches", rf"{_S}(?:[.:,-] )?{_VERSION} only\b"),
)  # fmt: skip
"""What fills the ways a member reads and watches (``value`` group)."""
MEDIA_VALUES = {"reads": FORMATS.__getitem__, "watches": VERSIONS.__getitem__}
"""One way to write a way to read ("kindle": digital) or to watch ("subbed": sub)."""
