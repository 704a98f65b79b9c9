"""Sentences and clauses of a chat message, cleaned for rewriting.

Chat is messy: code, quoted lines, links, emoji, markdown, ``im``/``dont`` without
apostrophes, "lol" in the middle of a thought. A message is split into sentences on the raw
text (each keeps its verbatim words: the evidence of a fact), then each sentence is cleaned
and cut into clauses where a new first-person subject starts ("…, and I …", "… but we …").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from memory.extraction.offline import dates, skipping
from memory.extraction.offline.verbs import is_past

MAX_EVIDENCE = 220


class Clause(NamedTuple):
    text: str
    """Cleaned: contractions repaired, chatter and markup gone."""
    evidence: str
    """The verbatim sentence it comes from (at most ``MAX_EVIDENCE`` characters)."""
    asked: bool
    """The sentence ends with a question mark."""


_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_QUOTE_LINE = re.compile(r"^\s*>.*$", re.M)
_URL = re.compile(r"\b(?:https?://|www\.)\S+", re.I)
_CUSTOM_EMOJI = re.compile(r"<a?:\w+:\d+>|(?<!\w):[a-z0-9_+\-]{2,}:(?!\w)", re.I)
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_OTHER_MENTION = re.compile(r"<[#@][&!]?\d+>")
_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\ufe0f\u200d"
    "\U000e0000-\U000e007f]+"
)
_ASCII_EMOTICON = re.compile(r"(?<!\w)(?:[:;=xX]-?[)(DPp/\\|]+|<3+|\^_?\^|:'\()(?!\w)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|\n+|\s*;\s*|\s*(?:--|—|–)\s*|\s+-\s+")
_DOUBLE_QUOTED = re.compile(r"\"[^\"\n]{1,300}\"|“[^”\n]{1,300}”|«[^»\n]{1,300}»")
_FIRST_PERSON = re.compile(r"\b(?:i|im|i'm|i've|ive|my|me|mine|we|our|us)\b", re.I)
_SPEAKS_OF_SELF = re.compile(r"\b(?:i|im|ive|id|ill|me|my|mine|we|our|us)\b|\bi'", re.I)
# A sentence may be about its author without a first-person word: "Took a trip to Rome",
# "Still working on it", or "it stands for freedom" after "Got a tattoo".
_MAY_SPEAK_OF_SELF = re.compile(
    r"^\W*(?:it|this|that|they|these|those|just|still|been|finally|also|recently|currently|"
    r"already|really|actually|gonna|can.t wait|here.?s|check|look at|[a-z]+ed|[a-z]{2,}ing|"
    r"went|got|took|made|had|saw|bought|did|found|ran|came|"
    r"began|gave|met|left|felt|kept|lost|won|wrote|drew|built|sent|spent|brought|caught|"
    r"taught|sold|paid|heard|held|swam|sang|drove|ate|flew|fell|rode|wore|chose|broke|grew|"
    r"became|slept|sat|fed|led|quit|put|adopted|baked|tried)\b",
    re.I,
)
_MARKDOWN = re.compile(r"(\*\*|__|\*|~~|\|\||^#+\s+|^-#\s+)", re.M)
_CHATTER = re.compile(
    r"\s*\b(?:lol+|lmao+|lmfao|rofl|haha\w*|hehe\w*|xd+|omg+|tbh|ngl|fr|imo|imho|idk|smh|"
    r"btw|rn|irl|jk|brb|bbl|bbiab|gtg|g2g|ttyl|afk|tho)\b[.!]*",
    re.I,
)
_GLUED_DASH = re.compile(r"(?<=[a-z])-\s+")
_REPEATED_WORD = re.compile(r"\b(\w+)(?:\s+\1\b)+", re.I)
_STRETCHED = re.compile(r"([a-z])\1{2,}", re.I)  # "sooo cool" → "so cool"
_CONTRACTIONS: list[tuple[str, re.Pattern[str], str]] = [
    # (a lowercase needle that must be in the text, the pattern, its replacement)
    ("", re.compile(r"[’‘`´]"), "'"),
    ("i", re.compile(r"\bi\b"), "I"),
    ("m", re.compile(r"\bI\s*'?\s*m\b(?!')"), "I'm"),
    ("im", re.compile(r"\bim\b", re.I), "I'm"),
    ("ive", re.compile(r"\bive\b", re.I), "I've"),
    ("i", re.compile(r"\bI\s+'\s*(ve|d|ll)\b|\bI'\s+(ve|d|ll)\b", re.I), r"I'\1\2"),
    ("ill", re.compile(r"\bill\s+(?=(?:be|go|have|try|start|move|never|see|get|take|do)\b)",
                       re.I), "I'll "),
    ("nt", re.compile(r"\b(do|does|did|is|are|was|were|ca|wo|have|has|had|could|would|should)"
                      r"nt\b", re.I), r"\1n't"),
    ("cant", re.compile(r"\bcant\b", re.I), "can't"),
    ("wont", re.compile(r"\bwont\b", re.I), "won't"),
    ("nna", re.compile(r"\bgonna\b", re.I), "going to"),
    ("nna", re.compile(r"\bwanna\b", re.I), "want to"),
    ("gotta", re.compile(r"\bgotta\b", re.I), "have to"),
    ("we", re.compile(r"\bwe\s*'\s*re\b", re.I), "we're"),
    ("were", re.compile(r"(^|\b(?:and|but|so)\s+)were\b(?=\s+(?:going|getting|having|doing|"
                        r"moving|planning|trying|thinking|looking|both|still|finally)\b)", re.I),
     r"\1we're"),
    ("weve", re.compile(r"\bweve\b", re.I), "we've"),
    ("u", re.compile(r"\bu\b", re.I), "you"),
    ("ur", re.compile(r"\bur\b", re.I), "your"),
    ("c", re.compile(r"\bbc\b|\bcuz\b|\bcos\b|'?(?<!\w)cause\b(?=\s+(?:I|it|my|we|the|"
                     r"they)\b)", re.I), "because"),
    ("w/", re.compile(r"\bw/\s*", re.I), "with "),
    ("f", re.compile(r"\bbf\b"), "boyfriend"),
    ("gf", re.compile(r"\bgf\b"), "girlfriend"),
    ("fav", re.compile(r"\bfav(?:ou?rite|e)?\b|\bfavorite\b", re.I), "favourite"),
    ("&", re.compile(r"\s*&\s*"), " and "),
]  # fmt: skip
_NEW_SUBJECT = re.compile(
    r",?\s+(?:and|but|so)\s+(?=if\b)"  # "I'm diabetic so if I go afk …": a condition
    r"|,?\s+(?:and|but|so|&|plus|then|and then|though|although|while|because)\s+"
    r"(?=(?:I|I'm|I've|I'll|we|we're|we've|my)\b)"
    r"|,\s+(?=(?:I|I'm|I've|I'll|we|we're|we've)\b)"
    r"|,\s+(?=(?:it|they|this|these|those)\s+(?:is|was|are|were|stands|stand|means|mean|"
    r"reminds|remind|represents|represent|has|had|makes|made|shows|helps|gives|brings)\b)",
)
_COUPLE_HEAD = re.compile(r"^(?:my\s+[\w-]+(?:\s+[\w'-]+)?|me)$", re.I)


def clauses(text: str, mentions: dict[str, str]) -> list[Clause]:
    """The clauses of ``text`` in order (``mentions``: user id → name, for ``<@id>``)."""
    out: list[Clause] = []
    if skipping.is_sarcastic(text):  # irony anywhere makes every sentence suspect
        return []
    for raw in _raw_sentences(_strip_blocks(text)):
        if not (_SPEAKS_OF_SELF.search(raw) or _MAY_SPEAK_OF_SELF.match(raw)):
            continue  # nothing about its author
        asked = raw.rstrip(" )\"'*_~").endswith("?")
        evidence = raw.strip()[:MAX_EVIDENCE]
        for part in _split(clean(raw, mentions)):
            out.append(Clause(part, evidence, asked))
    return out


def _strip_blocks(text: str) -> str:
    """Code and quoted lines are someone else's words, or no words at all."""
    if "`" in text:
        text = _INLINE_CODE.sub(" ", _CODE_BLOCK.sub(" . ", text))
    if ">" in text:
        text = _QUOTE_LINE.sub(" ", text)
    if "http" in text or "www." in text:
        text = _URL.sub(" ", text)
    return text


def _raw_sentences(text: str) -> Iterator[str]:
    if not text.isascii():  # in chat an emoji usually ends a thought
        text = _EMOJI.sub(" . ", text)
    for sentence in _SENTENCE_END.split(text):
        if sentence.strip(" .!?,"):
            yield sentence


def clean(sentence: str, mentions: dict[str, str]) -> str:
    """A sentence with mentions named, markup and chatter gone, contractions repaired."""
    text = sentence
    if ":" in text or "<" in text:
        text = _CUSTOM_EMOJI.sub(" ", text)
    if "<" in text:
        text = _USER_MENTION.sub(lambda m: mentions.get(m.group(1), "someone"), text)
        text = _OTHER_MENTION.sub(" ", text)
    if '"' in text or "“" in text or "«" in text:
        text = _DOUBLE_QUOTED.sub(_drop_quoted_speech, text)
    if any(mark in text for mark in "*_~|#"):
        text = _MARKDOWN.sub("", text)
    text = _ASCII_EMOTICON.sub(" ", text)
    if "- " in text:  # "books- classics, stories": a dash as a pause
        text = _GLUED_DASH.sub(", ", text)
    if text.isupper():  # shouting: "I'M A NURSE"
        text = text.lower()
    lower = text.lower()
    for needle, pattern, repl in _CONTRACTIONS:
        if needle in lower:
            text = pattern.sub(repl, text)
    text = _CHATTER.sub("", text)
    text = _STRETCHED.sub(r"\1", _REPEATED_WORD.sub(r"\1", text))
    return " ".join(text.split()).strip(" ,.!?:-")


def _drop_quoted_speech(match: re.Match[str]) -> str:
    """Quoted first-person words are someone else's ("my mom says "I love gardening"");
    a quoted title stays, without its quotes."""
    quote = match.group()
    return " " if _FIRST_PERSON.search(quote) else quote.strip('"“”«»')


def _split(sentence: str) -> Iterator[str]:
    """Cut where a new first-person subject starts. A cut is undone inside "my husband and
    I …" / "me and my wife …", and a short lead ("Last Friday, I went …") goes with the
    clause it leads."""
    carry, joiner = "", ""
    for part in _NEW_SUBJECT.split(sentence):
        part = part.strip(" ,.")
        if carry:
            part, carry = f"{carry}{joiner}{part}", ""
        if _COUPLE_HEAD.match(part):
            carry, joiner = part, " and "
            continue
        if part and len(part.split()) <= 4 and dates.TIME_LEAD.match(part):
            carry, joiner = part, ", "
            continue
        if part:
            yield from _second_events(part)
    if carry:
        yield carry


_AND_THEN = re.compile(r",?\s+and\s+(?=(?:just|then|also|recently|finally|later)\s+([a-z]+)\b)")


def _second_events(clause: str) -> Iterator[str]:
    """A second thing done, with its subject left out, is its own clause: "I've been
    working on my store and just teamed up with an artist" → "… and" | "just teamed up
    with an artist" (the rewriter gives it its "I" back)."""
    start = 0
    for match in _AND_THEN.finditer(clause):
        if is_past(match.group(1)) and match.start() > start:
            yield clause[start : match.start()]
            start = match.end()
    yield clause[start:]
