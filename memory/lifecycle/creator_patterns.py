"""The patterns of how a member makes and shares their work (:mod:`memory.lifecycle.slots`):
the platform they stream on, and the program they edit their videos or photos in. Built as
the patterns of :mod:`memory.lifecycle.slot_patterns` are.

A streamer has one platform at a time ("streams on twitch" / "now streams exclusively on
youtube"); posting is not read (many post on several). An editor has one program for videos
and one for photos ("edits in premiere" / "switched to capcut", "lightroom for everything" /
"edits all her photos in lr"): "editor:video" and "editor:photo" are two slots.
"""

from __future__ import annotations

from memory.lifecycle.slot_patterns import _FRAGMENT_END, SlotPattern, one_of
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import slot_pattern as _p

PLATFORMS = {"twitch": "twitch", "youtube": "youtube", "kick": "kick", "tiktok": "tiktok",
             "facebook": "facebook"}  # fmt: skip
"""Where one streams (chat's "yt" is read as youtube before, by :mod:`memory.lifecycle.chat`)."""
VIDEO_EDITORS = {"premiere pro": "premiere", "premiere": "premiere", "final cut pro": "final cut",
                 "final cut": "final cut", "fcp": "final cut", "davinci resolve": "resolve",
                 "davinci": "resolve", "resolve": "resolve", "capcut": "capcut",
                 "vegas pro": "vegas", "vegas": "vegas", "imovie": "imovie", "avid": "avid",
                 "media composer": "avid", "shotcut": "shotcut", "kdenlive": "kdenlive",
                 "filmora": "filmora"}  # fmt: skip
PHOTO_EDITORS = {"lightroom classic": "lightroom", "lightroom": "lightroom", "lr": "lightroom",
                 "photoshop": "photoshop", "capture one": "capture one",
                 "darktable": "darktable", "gimp": "gimp", "affinity photo": "affinity photo",
                 "snapseed": "snapseed"}  # fmt: skip
"""The programs one edits in, one name each ("davinci": resolve, "lr": lightroom)."""
NAMES = {**PLATFORMS, **VIDEO_EDITORS, **PHOTO_EDITORS}
CREATOR_VALUES = dict.fromkeys(("platform", "editor:video", "editor:photo"), NAMES.__getitem__)
"""One way to write a platform or a program ("davinci": resolve, "lr": lightroom)."""


def _any(names: dict[str, str]) -> str:
    return rf"(?P<value>{one_of(names)})\b"


_NOT = r"(?!.*\b(?:not|never|no longer|wants?|wish|thinking|hates|also|too|as well)\b)"
"""No denial, wish or second one anywhere: "doesn't stream on kick", "also on youtube"."""
_STREAMS = r"(?:streams|is streaming|streaming|goes live|went live)"
_SWITCHED = r"(?:switched|moved|went|swapped|changed|migrated|jumped)"
_EDITS = r"(?:edits|editing|edit|cuts)"


def _editor(key: str, names: dict[str, str]) -> tuple[SlotPattern, ...]:
    value = _any(names)
    return (
        _p(key, rf"{_S}{_NOT}(?:\S+ ){{0,3}}?{_EDITS} (?:[\w']+ ){{0,3}}?(?:in|on|with|using) "
                rf"{value}"),
        _p(key, rf"{_S}{_NOT}(?:\S+ ){{0,3}}?(?:uses|using) {value} (?:for|to edit)\b"),
        _p(key, rf"{_S}{_NOT}(?:\S+ ){{0,3}}?{_SWITCHED}(?: [\w']+){{0,5}}? (?:over )?to {value}"),
        _p(key, rf"{_S}(?:[.:,-] )?{value}(?: only| for (?:everything|editing|edits))?"
                rf"{_FRAGMENT_END}"),  # "pia - lightroom for everything"
    )  # fmt: skip


CREATOR_PATTERNS: tuple[SlotPattern, ...] = (
    _p("platform", rf"{_S}{_NOT}(?:\S+ ){{0,2}}?{_STREAMS} (?:\w+ ){{0,2}}?(?:on|to) "
                   rf"{_any(PLATFORMS)}(?! and\b)"),
    _p("platform", rf"{_S}{_NOT}(?:is |'s )?(?:a |an )?(?:full[- ]time |part[- ]time )?"
                   rf"{_any(PLATFORMS)} (?:streamer|partner|affiliate)\b"),  # "a twitch streamer"
    _p("platform", rf"{_S}{_NOT}(?:\S+ ){{0,2}}?{_SWITCHED} (?:(?:his|her|their) (?:streams?"
                   rf"|channel|content) )?(?:over )?to {_any(PLATFORMS)}"),  # "moved to kick"
    _p("platform", rf"{_S}(?:'s |[.:,-] )?main platform (?:is |: )?(?:now )?{_any(PLATFORMS)}"),
    _p("platform", rf"{_S}{_NOT}(?:is |'s )?(?:now )?(?:streaming )?on (?P<value>twitch|kick)\b"
                   r"(?= now\b| rn\b)"),  # "nils is on twitch now , moved off youtube"
    *_editor("editor:video", VIDEO_EDITORS),
    *_editor("editor:photo", PHOTO_EDITORS),
)  # fmt: skip
"""What fills the slots of a member's making and sharing (``value`` group)."""
