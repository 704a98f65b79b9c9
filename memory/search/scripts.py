"""Text of every script split into the words memorybot indexes, searches and grounds on.

FTS5's ``unicode61`` tokenizer splits on spaces and punctuation, so a run of Chinese or
Japanese characters (no spaces) is one token, and a Korean word carries its particle
(서울에서): searching 東京 or 서울 would find nothing. Here a run of one CJK script (Han,
hiragana, katakana, Hangul) becomes its overlapping character bigrams — "看護師" → 看護 護師,
a one-character run itself — on the index side and on the query side alike. Runs are cut
where the script changes, so Japanese kanji compounds, katakana words and hiragana endings
make their own terms ("東京で" → 東京 | で).

Other scripts are folded: case, accents (é → e, ё → е), Arabic and Hebrew vowel marks and
the Arabic tatweel (كَتَبَ and كـتب → كتب). The full-text index holds :func:`index_text`: ASCII
text as it is (``unicode61`` splits and folds it the same way), anything else as its
:func:`words` — so a term the index holds is always a word this module makes of a query.
Text with no CJK costs one ``isascii`` or one regular-expression scan.
"""

from __future__ import annotations

import re
import unicodedata

# Characters FTS5's unicode61 keeps inside tokens (letters and numbers), per script.
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f\u3005-\u3007"
_HIRAGANA = "\u3041-\u3096\u309d-\u309f"
_KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
_HANGUL = "\uac00-\ud7a3\u1100-\u11ff\u3131-\u318e\ua960-\ua97c\ud7b0-\ud7fb"
_HALFWIDTH = "\uff66-\uffdc"  # katakana and Hangul, made full width by NFKC
_ANY_CJK = re.compile(f"[{_HAN}{_HIRAGANA}{_KATAKANA}{_HANGUL}{_HALFWIDTH}]")
# One run of one script; the prolonged sound mark ー continues a hiragana run too.
_RUN = re.compile(
    f"[{_HAN}]+|[{_HIRAGANA}][{_HIRAGANA}\u30fc]*|[{_KATAKANA}]+|[{_HANGUL}]+"
)  # fmt: skip
_HIRAGANA_ONLY = re.compile(f"[{_HIRAGANA}\u30fc]+")

# Marks removed before words are taken: combining accents (after NFKD), Arabic harakat,
# superscript alef, Quranic marks and the tatweel, Hebrew points and cantillation.
_ARABIC_HEBREW = "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u0640\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"  # noqa: E501
_MARKS = re.compile(f"[{_ARABIC_HEBREW}]")
_COMBINING = re.compile(
    f"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f{_ARABIC_HEBREW}]"
)
_WORD = re.compile(r"[^\W_]+")  # unicode61 splits on "_" too


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds Chinese, Japanese or Korean letters."""
    return not text.isascii() and _ANY_CJK.search(text) is not None


def run_terms(run: str) -> list[str]:
    """The terms of one run of one CJK script: its character bigrams, or itself when it is
    one character."""
    if len(run) < 3:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _spaced_run(match: re.Match[str]) -> str:
    return " " + " ".join(run_terms(match.group())) + " "


def spaced(text: str) -> str:
    """``text`` with each CJK run replaced by its terms between spaces and the Arabic and
    Hebrew marks removed; anything else as it is (accents and case kept): for splitting on
    ``\\w+`` the way :func:`words` splits ("東京で働く" → " 東京   で   働   く ")."""
    if text.isascii():
        return text
    text = _MARKS.sub("", text)
    if _ANY_CJK.search(text) is None:
        return text
    return _RUN.sub(_spaced_run, unicodedata.normalize("NFKC", text))


def unaccented(text: str) -> str:
    """``text`` without accents and Arabic and Hebrew marks, compatibility forms made plain
    ("Kraków" → "Krakow", "ﬁ" → "fi"); CJK as it is."""
    if text.isascii():
        return text
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text))


def _folded_words(text: str) -> list[str]:
    """Words of text without CJK, accents and marks removed (compatibility forms too)."""
    return _WORD.findall(unaccented(text))


def words(text: str) -> list[str]:
    """``text`` as the words the full-text index holds, in order: folded (case, accents,
    Arabic and Hebrew marks) and split on what is no letter or digit ("Café_crème" → cafe,
    creme), each CJK run as its terms (:func:`run_terms`)."""
    text = text.casefold()
    if text.isascii():
        return _WORD.findall(text)
    if _ANY_CJK.search(text) is None:
        return _folded_words(text)
    text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    start = 0
    for match in _RUN.finditer(text):
        out += _folded_words(text[start : match.start()])
        out += run_terms(match.group())
        start = match.end()
    out += _folded_words(text[start:])
    return out


def index_text(text: str | None) -> str | None:
    """What the full-text index is given for ``text`` (SQL function ``memorybot_fts_text``):
    ASCII text as it is, anything else its :func:`words` between spaces."""
    if text is None or text.isascii():
        return text
    return " ".join(words(text))


def is_grammar(term: str) -> bool:
    """A term of hiragana only: Japanese particles, endings and the copula (は, です,
    として) — for grounding, function words rather than content."""
    return _HIRAGANA_ONLY.fullmatch(term) is not None
