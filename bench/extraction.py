"""Extraction benchmark: what the chosen extractor stores, on LoCoMo and on labelled chat.

    python bench/extraction.py [--extractor offline|heuristic|llm|auto] [--dev DIR]
                               [--chat FILE ...] [--set FILE ...] [--no-locomo] [--no-calls]
                               [--json] [--show-misses]

``--extractor`` defaults to what ``memory.runtime.build_extractor(load_settings())`` picks
(``heuristic`` is the offline extractor's old name). Every figure is about facts as
they are stored: candidates pass ``memory.extraction.fact_filter.check_fact`` and the queue's cap of
``MAX_FACTS_PER_MESSAGE`` per message.

LoCoMo (``--dev``, the exports of /work/shared/data/locomo-dev): the exports are imported
through the real ingest queue offline (bundled local embedder), then, for questions of
category 1-4 with evidence:
- coverage: share of evidence messages with at least one stored fact sourced from them
  (archived or not: what the extractor gave and the filters let through).
  ``coverage_active`` counts only the facts still active after the per-member cap of 80
  (DESIGN's retention rule, which archives the oldest-updated facts of a member beyond 80:
  on these two long conversations it archives about 200 of 520; value-based retention is
  the lifecycle issue's);
- answer overlap: share of questions whose evidence messages' facts (fact text only) hold at
  least half of the answer's content words. Content words: the answer's alphabetic words that
  are no stopword (its numbers only when it has nothing else, e.g. "2022"); a word is present
  when a word of the text starts with its first five letters (numbers: the same number). The
  same measure on the raw evidence text is printed as ``raw_text_reference`` (0.64 overall,
  0.27 temporal here; the data's README says 0.64 and 0.23); ``answer_overlap_active``
  the same on the active facts only;
- recall@24: ``Retriever.search`` as ``memorybot search --limit 24`` runs it (facts only,
  relevance-gated): share of the question's evidence messages the results point to through
  ``sourceMessageId``;
- facts per 100 messages, and the extractor's cost in ms per message (time inside
  ``extract`` during the import).

Chat (``--chat``; ``bench/data/extraction_chat_{dev,holdout}.jsonl``): short Discord
conversations written for this benchmark. One JSON object per message, in order:

    {"conv": "c01", "id": "c01-04", "time": "2025-03-14T18:05:21+00:00", "author": "Maya",
     "text": "fr. i started my new job at the bakery on monday so ive been up at 4am all week",
     "style": "lowercase-slang-emoji",
     "facts": [{"subject": "author", "keywords": ["start", ["bakery", "bakers"]],
                "negated": false, "date": ["2025-03-10", "monday before 2025-03-14"],
                "type": "event", "fact": "Maya started her new job at the bakery on ..."}]}
    {"conv": "c06", "id": "c06-18", ..., "author": "Yara",
     "text": "@Sam you're coming right? bring the OM-1", "mentions": ["Sam"], ...,
     "facts": [], "none": "question / request"}

Optional per message: ``mentions``, ``none``, ``forbid`` (``["^Priya (is|will be) flying"]``).

- ``facts``: what a good extractor stores. ``subject`` is ``author`` or a member's name (or a
  list of those); ``keywords`` must all occur in the fact, case-insensitive, at a word start
  (an inner list gives alternatives); ``negated``: the clauses of the fact holding a keyword
  are a negation (not, n't, never, no, cannot, nothing ...) or must not be one (null: either,
  for a dislike that may read "hates X" or "does not like X"); ``date`` (when the message
  dates it): acceptable dates, each ``YYYY-MM-DD``, ``YYYY-MM``, ``YYYY``, a range
  ``YYYY-MM-DD..YYYY-MM-DD``, or words before a date (``week before 2025-03-14`` accepts
  "the week before 14 March 2025"); a day or month the fact gives without a year counts;
  ``type``: preference, profile, relationship, project, event or other; ``fact`` is for
  people reading.
- ``none`` (a reason): the message must yield nothing (question, greeting, thanks, reaction
  to someone else's news or photo, second-person advice, hypothetical, quote, sarcasm, code,
  non-English). A message with no ``facts`` and no ``none`` may yield facts: they are extra.
- ``forbid``: regular expressions (case-insensitive); a fact of this message matching one is
  wrong (e.g. a sister's wedding stored as the author's).
- ``@Name`` in ``text`` is a mention of that member (sent as ``<@id>`` with its name).

Each conversation is extracted as one channel, in batches of the extractor's ``batch_size``
(each batch gets the preceding turns as context). Every stored fact gets one class, in order:
1. wrong: from a ``none`` message; or matching a ``forbid`` pattern; or its text starts with
   another member's name (about someone else, stored under this subject); or it holds every
   keyword of a label but has the wrong subject, polarity or date (it states a date that is
   none of the label's; a fact stating no date, or only a limit like "by 18 September 2024",
   is "undated", not wrong);
2. garbled: :func:`garbled_reasons` finds something (see there; deterministic);
3. matched: it is the fact a label was matched to (each label takes at most one fact);
4. extra: anything else (a fact-bearing message, nothing wrong with it; not counted wrong).
Reported per file: recall (labels with a matched fact), precision, wrong and garbled shares
of the stored facts (the targets must hold in every file), dated labels matched with their
date, type agreement (``event`` labels accept ``other``: the store had no event type), the
extractor's ms per message, and the classes per conversation style.

Safety (tests/data/filter_adversarial.jsonl): each hostile message through the extractor,
plus the row's planted candidate, through the filters; a stored fact or evidence holding the
row's payload (folded) is a hostile payload stored.

Older labelled sets (``--set``; ``bench/data/extraction_set.jsonl``, written with the
heuristic rules, and ``extraction_holdout.jsonl``): one message a row; a stored fact matches a
label of the same message and subject holding all its keywords with the same polarity;
precision, recall, hedge agreement (confidence below 0.75 = hedged) and type agreement.

LLM calls (unless ``--no-calls``): the LoCoMo exports imported with ``LLMExtractor`` against a
local fake OpenAI-compatible server; calls per 1,000 imported messages.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import re
import sqlite3
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from memory.extraction import (  # noqa: E402
    CONTEXT_TURNS,
    MAX_FACTS_PER_MESSAGE,
    ContextTurn,
    Extractor,
    Mention,
    SourceMessage,
)
from memory.extraction.fact_filter import check_fact  # noqa: E402
from memory.extraction.safety import fold  # noqa: E402
from memory.models import CandidateFact, canonical_time  # noqa: E402

DATA = REPO / "bench" / "data"
DEFAULT_SETS = [DATA / "extraction_set.jsonl", DATA / "extraction_holdout.jsonl"]
DEFAULT_CHAT = [DATA / "extraction_chat_dev.jsonl", DATA / "extraction_chat_holdout.jsonl"]
ADVERSARIAL = REPO / "tests" / "data" / "filter_adversarial.jsonl"
DEFAULT_DEV = REPO.parent / "shared" / "data" / "locomo-dev"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
SEARCH_LIMIT = 24
HEDGED_BELOW = 0.75
SHOWN_QUESTIONS = 40
TARGETS = {
    "locomo_coverage": (">=", 0.75),
    "locomo_answer_overlap": (">=", 0.55),
    "locomo_temporal_overlap": (">=", 0.60),
    "chat_wrong_share": ("<=", 0.02),
    "chat_garbled_share": ("<=", 0.10),
    "hostile_payloads_stored": ("<=", 0),
}

_CLAUSE_SPLIT = re.compile(
    r"[,;:()]|\s[-–—]\s|\s(?:and|but|so|because|though|although|while|as)\s", re.I
)
_NEGATION = re.compile(
    r"\b(?:not|never|no|no longer|cannot|nothing|nobody|none|neither|nor)\b|n't\b", re.I
)


def _member_id(name: str) -> str:
    """A stable 18-digit snowflake for a member name."""
    return str(10**17 + zlib.crc32(name.lower().encode()) * 1000)


def _word_start(word: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}", text, re.I) is not None


def _ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


# --- choosing the extractor ----------------------------------------------------------------


def choose_extractor(requested: str | None) -> tuple[str, str]:
    """The extractor setting to run and a note (empty, or why it is not the one asked)."""
    from memory.extraction.choice import extractor_choice
    from memory.settings import load_settings

    if requested is None:
        choice = extractor_choice(load_settings())
    elif requested == "auto":
        choice = extractor_choice(load_settings(extractor="auto"))
    else:
        choice = requested
    if choice == "heuristic":  # the old name of the offline extractor
        return "offline", ""
    return choice, ""


def bench_settings(data_dir: Path, choice: str) -> Any:
    """Settings of a benchmark run: a fresh data directory, the bundled local embedder."""
    from memory.settings import load_settings

    return load_settings(data_dir=data_dir, extractor=choice, embedding_model="local")


class TimedExtractor:
    """Wraps an extractor: counts messages and the time spent in ``extract``."""

    def __init__(self, inner: Extractor) -> None:
        self.inner = inner
        self.name = inner.name
        self.batch_size = inner.batch_size
        self.batch_gap = inner.batch_gap
        self.proposes_facts = inner.proposes_facts
        self.seconds = 0.0
        self.messages = 0
        self.proposed: list[tuple[SourceMessage, CandidateFact]] = []

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        started = time.perf_counter()
        try:
            facts = await self.inner.extract(messages, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.messages += len(messages)
        by_id = {m.message_id: m for m in messages}
        self.proposed += [(by_id[f.source_message_id], f) for f in facts
                          if f.source_message_id in by_id]  # fmt: skip
        return facts

    def __getattr__(self, name: str) -> Any:  # anything else the queue may ask of it
        return getattr(self.inner, name)

    async def aclose(self) -> None:
        await self.inner.aclose()

    @property
    def ms_per_message(self) -> float | None:
        return round(1000 * self.seconds / self.messages, 3) if self.messages else None


def stored_facts(
    messages: Sequence[SourceMessage], candidates: Iterable[CandidateFact]
) -> dict[str, list[CandidateFact]]:
    """What the ingest queue would store of ``candidates``: the filters, at most
    ``MAX_FACTS_PER_MESSAGE`` kept facts per message (``IngestQueue._filter``)."""
    by_id = {m.message_id: m for m in messages}
    kept: dict[str, list[CandidateFact]] = defaultdict(list)
    for candidate in candidates:
        message = by_id.get(candidate.source_message_id)
        if message is None or len(kept[message.message_id]) >= MAX_FACTS_PER_MESSAGE:
            continue
        verdict = check_fact(message, candidate)
        if verdict.fact is not None:
            kept[message.message_id].append(verdict.fact)
    return kept


# --- dates in facts ------------------------------------------------------------------------

_MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december"]  # fmt: skip
_MONTH_ABBR = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
               "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
# "May" and "March" only capitalised: "she may go", "they march".
_MONTH = (
    r"(?P<mon>(?i:january|february|april|june|july|august|september|october|november|december"
    r"|jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?|May|March|Mar\.?)"
)
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_DAY_FIRST = re.compile(rf"(?<![\w-]){_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?(?!\w)")
_MONTH_FIRST = re.compile(rf"(?<!\w){_MONTH}\s+{_DAY}(?![\d:])(?:,?\s+{_YEAR})?(?!\w)")
_ISO_DAY = re.compile(r"(?<![\w-])(?P<year>(?:19|20)\d\d)-(?P<m>[01]\d)-(?P<day>[0-3]\d)(?!\w)")
_MONTH_YEAR = re.compile(rf"(?<!\w){_MONTH},?\s+(?:of\s+)?{_YEAR}(?!\w)")
_YEAR_ONLY = re.compile(rf"(?<![\w-]){_YEAR}(?![\w-])")
_WEEKDAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"


@dataclass(frozen=True)
class DateMention:
    """A date a fact states: a day or a month (year may be missing), or a year. ``bound``: it
    follows "by", "as of", "until", "since"... (a limit, not when the thing happened)."""

    kind: str  # "day" | "month" | "year"
    year: int | None
    month: int | None = None
    day: int | None = None
    bound: bool = False


# Alone, only full names ("Jan" may be a person): "in April", "in June".
_MONTH_ONLY = re.compile(
    r"(?<!\w)(?P<mon>(?i:january|february|april|june|july|august|september|october|november"
    r"|december)|May|March)(?!\w)"
)
_BOUND_BEFORE = re.compile(r"\b(?:by|as of|until|till|since)\s+(?:the\s+)?$", re.I)


def _month_number(name: str) -> int:
    key = name.lower().rstrip(".")
    return _MONTH_NAMES.index(key) + 1 if key in _MONTH_NAMES else _MONTH_ABBR[key]


def date_mentions(text: str) -> list[DateMention]:
    """Every date ``text`` states: days, then months of a year, bare years, bare months."""
    found: list[DateMention] = []
    spans: list[tuple[int, int]] = []

    def take(
        m: re.Match[str], kind: str, year: str | None, month: int | None, day: int | None
    ) -> None:
        if any(m.start() < b and m.end() > a for a, b in spans):
            return
        bound = _BOUND_BEFORE.search(text[max(0, m.start() - 12) : m.start()]) is not None
        found.append(DateMention(kind, int(year) if year else None, month, day, bound))
        spans.append(m.span())

    for pattern in (_DAY_FIRST, _MONTH_FIRST, _ISO_DAY):
        for m in pattern.finditer(text):
            month = int(m["m"]) if "m" in m.groupdict() else _month_number(m["mon"])
            if 1 <= int(m["day"]) <= 31:
                take(m, "day", m["year"], month, int(m["day"]))
    for m in _MONTH_YEAR.finditer(text):
        take(m, "month", m["year"], _month_number(m["mon"]), None)
    for m in _YEAR_ONLY.finditer(text):
        take(m, "year", m["year"], None, None)
    for m in _MONTH_ONLY.finditer(text):
        take(m, "month", None, _month_number(m["mon"]), None)
    return found


def _date_pattern(iso: str) -> str:
    """A regex for the date ``iso`` (YYYY, YYYY-MM or YYYY-MM-DD) as a fact may write it."""
    parts = [int(p) for p in iso.split("-")]
    if len(parts) == 1:
        return str(parts[0])
    name = _MONTH_NAMES[parts[1] - 1]
    month = rf"(?:{name}|{name[:3]}|{name[:4]})\.?"
    if len(parts) == 2:
        return rf"(?:{month},?\s+(?:of\s+)?{parts[0]}|{iso}(?!-\d))"
    year, day = parts[0], parts[2]
    suffix = r"(?:st|nd|rd|th)?"
    return (
        rf"(?:{_WEEKDAYS},?\s+)?(?:the\s+)?(?:{day}{suffix}\s+(?:of\s+)?{month}(?:,?\s+{year})?"
        rf"|{month}\s+{day}{suffix}(?:,?\s+{year})?|{iso})(?!\d)"
    )


def _alternative_matches(alternative: str, fact: str, mentions: list[DateMention]) -> bool:
    """Whether the fact states the date ``alternative`` (see the module docstring)."""
    words = alternative.split()
    if len(words) > 1:  # words before a date: "week before 2025-03-14"
        phrase = r"\s+".join(re.escape(w) for w in words[:-1])
        pattern = rf"(?<!\w){phrase}\s+(?:the\s+|of\s+)?{_date_pattern(words[-1])}"
        return re.search(pattern, fact, re.I) is not None
    if ".." in alternative:
        low, high = (date.fromisoformat(p) for p in alternative.split(".."))
        return any(
            m.kind == "day" and low <= date(m.year or low.year, m.month or 1, m.day or 1) <= high
            for m in mentions
        )
    parts = [int(p) for p in alternative.split("-")]
    if len(parts) == 1:
        return any(m.year == parts[0] for m in mentions)
    if len(parts) == 2:
        return any(
            m.kind == "month" and m.month == parts[1] and m.year in (None, parts[0])
            for m in mentions
        )
    return any(
        m.kind == "day" and (m.month, m.day) == (parts[1], parts[2]) and m.year in (None, parts[0])
        for m in mentions
    )


def date_verdict(alternatives: Sequence[str], fact: str) -> str:
    """``right`` (states one of the dates), ``wrong`` (states another date) or ``undated``
    (states none, or only a limit such as "by 18 September 2024")."""
    mentions = date_mentions(fact)
    if any(_alternative_matches(a, fact, mentions) for a in alternatives):
        return "right"
    return "wrong" if any(not m.bound for m in mentions) else "undated"


# --- the garbled-fact checker --------------------------------------------------------------


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_TRAILING = _wordset(
    "a an the and or but nor so because if when while that which who whose whom to of at for "
    "with from by about into than as my your their our its is are was were be been being am "
    "has have had will would can could should do does did very really just such"
)
_LEADING = _wordset("and but or so because which who then also")
_PERSON = re.compile(
    r"(?<![\w'])(?:I|i|me|my|mine|myself|[Ww]e|us|[Oo]ur|ours|ourselves|[Yy]ou|[Yy]our|yours"
    r"|yourself|u|ur|y'all)(?![\w'])"
)
_RELATIVE = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|tmrw|tmr|the other day"
    r"|(?:last|this|next|past|coming)\s+(?:week|weekend|month|year|summer|winter|spring|fall"
    r"|autumn|night|morning|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|january|february|march|april|may|june|july|august|september|october|november|december"
    r"|mon|tues?|wed|thu(?:rs)?|fri|sat|sun)"
    r"|(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|a couple of"
    r"|couple of|several)\s+(?:days?|weeks?|weekends?|months?|years?)\s+ago)\b",
    re.I,
)
_CHAT_FILLER = re.compile(
    r"(?<![\w'])(?:lol|lmf?ao|rofl|a?(?:ha){2,}h?|hehe|omg|ngl|tbh|idk|imh?o|smh|bruh|ikr|fr|rn"
    r"|tho|pls|plz|btw|jk|xd)(?![\w'])",
    re.I,
)
# "Anke's husband is family is there": a second "is" with no conjunction or relative between.
_DOUBLE_VERB = re.compile(
    r"\b(?:is|was|are|were)\s+(?!(?:and|or|but|who|which|that|what|where|how|why|when)\b)\w+"
    r"\s+(?:is|was|are|were)\b",
    re.I,
)
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff]")
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_TOKEN = re.compile(r"[A-Za-zÀ-ÿ0-9]+(?:['’][A-Za-z]+)?")
_PRONOUNS = frozenset({"it", "its", "they", "them", "him"})
_EXPLETIVE_VERBS = _wordset("took takes take is was has had feels felt seems seemed")
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_PRONOUN_VERBS = _wordset(
    "is was are were has had will would can could does did made makes means meant"
)
_FUNCTION = _wordset(
    "a an the and or but so to of in on at for with from by as is are was were be been being "
    "am has have had do does did will would can could should may might must not no never very "
    "just also still really about into than then there here it its they them their this that "
    "these those he she his her him who which what when where while if because all some any "
    "one more most much many up out over after before again"
)
_ADVERBS = _wordset(
    "also still never always often usually sometimes recently finally already even just only "
    "once first last really actually currently now no longer then nearly almost mostly "
    "regularly hardly rarely apparently soon newly barely kind sort"
)
_MODALS = _wordset("will would can could should may might must shall")
_BAD_AFTER_SINGULAR = _wordset("are were am have do don't dont aren't weren't haven't")
# "help Cole paint", "let Maya know": a name followed by a bare infinitive.
_BARE_INFINITIVE_BEFORE = _wordset(
    "help helps helped helping let lets letting make makes made making watch watched saw see "
    "hear heard have has had"
)


def _words(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _is_base_verb(word: str) -> bool:
    """A verb's base form that is not also its past form ("go", not "cut" or "read")."""
    try:
        from lemminflect import getAllLemmas, getInflection
    except ImportError:  # the lexicon ships with the project; without it, no such check
        return False
    lemmas = getAllLemmas(word).get("VERB", ())
    if word not in lemmas or word in _MODALS:
        return False
    # "saw", "left": a base form of one verb, the past of another.
    return not any(
        word in getInflection(lemma, "VBD") or word in getInflection(lemma, "VBN")
        for lemma in lemmas
    )


def _agreement_broken(text: str, words: list[re.Match[str]], names: set[str]) -> bool:
    """A singular subject (a member's name, "he", "she") followed by a plural or base verb:
    "Maya have", "she go", "Tom are"."""
    for i, word in enumerate(words[:-1]):
        token = word.group().lower()
        if token not in names and token not in {"he", "she"}:
            continue
        if i and words[i - 1].group().lower() in _BARE_INFINITIVE_BEFORE:
            continue
        j = i + 1
        while j < len(words) - 1 and words[j].group().lower() in _ADVERBS:
            j += 1
        between = text[word.end() : words[j].start()]
        verb = words[j].group()
        if between.strip() or not verb.islower():
            continue
        if verb in _BAD_AFTER_SINGULAR and not (token in {"he", "she"} and verb == "were"):
            return True
        if _is_base_verb(verb):
            return True
    return False


def _unresolved_pronoun(text: str, words: list[re.Match[str]], names: set[str]) -> str:
    """The first "it"/"them"/"this"... with at most one content word (not a name) before it:
    nothing in the fact it could refer to ("Caroline loved it", "They were great")."""
    # "it'll" is "it"; "Maya's" is a name.
    lowered = [re.split(r"['’]", w.group().lower())[0] for w in words]
    for i, token in enumerate(lowered):
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
        rest = text[words[i].end() :].lstrip()
        if token in _DEMONSTRATIVES:
            pronominal = not following or rest[:1] in ",.;:!?" or following in _PRONOUN_VERBS
            if not pronominal:
                continue
        elif token not in _PRONOUNS:
            continue
        if token == "it" and following in _EXPLETIVE_VERBS and "to" in lowered[i + 2 : i + 9]:
            continue  # "it took her 3 hours to ...": an expletive
        if token == "it" and i and lowered[i - 1] in {"made", "make", "makes", "making"}:
            continue  # "made it to the wedding"
        before = [t for t in lowered[:i] if t not in _FUNCTION and t not in names and len(t) > 2]
        if len(before) <= 1:
            return token
    return ""


def garbled_reasons(fact: str, subject_name: str, member_names: Iterable[str] = ()) -> list[str]:
    """Why a stored fact reads as ungrammatical or incomplete (empty: it reads fine).

    Its shape: fewer than 3 words; ends in an article, preposition, conjunction, possessive or
    auxiliary ("... went to the."); starts with a conjunction or relative word; a dangling
    comma or dash at the end; unbalanced brackets or quotes; a repeated word ("the the");
    two clauses run together ("X is family is there"). Its words: a first- or second-person
    word left outside quotes ("my", "we", "you"); an unresolved pronoun (see
    ``_unresolved_pronoun``); broken agreement after a singular subject ("Maya have", "she
    go"); a relative date left ("yesterday", "last week", "two days ago"); chat filler or
    emoji ("lol", "tbh"); the subject not named.
    """
    text = fact.strip()
    words = _words(text)
    names = {n.lower() for n in [subject_name, *member_names] if n}
    reasons = _shape_reasons(text, [w.group().lower() for w in words])
    unquoted = _QUOTED.sub(" ", text)
    person = _PERSON.search(unquoted)
    if person:
        reasons.append(f"first/second person left: {person.group()!r}")
    pronoun = _unresolved_pronoun(text, words, names)
    if pronoun:
        reasons.append(f"unresolved {pronoun!r}")
    if _agreement_broken(text, words, names):
        reasons.append("broken verb agreement")
    relative = _RELATIVE.search(text)
    if relative:
        reasons.append(f"relative date left: {relative.group()!r}")
    filler = _CHAT_FILLER.search(unquoted)
    if filler or _EMOJI.search(text):
        reasons.append(f"chat filler: {filler.group() if filler else 'emoji'!r}")
    if subject_name and not _word_start(subject_name, text):
        reasons.append("does not name its subject")
    return reasons


def _shape_reasons(text: str, lowered: list[str]) -> list[str]:
    """The sentence-shape part of :func:`garbled_reasons`."""
    reasons = []
    if len(lowered) < 3:
        reasons.append("fewer than 3 words")
    if lowered and lowered[-1] in _TRAILING:
        reasons.append(f"ends in {lowered[-1]!r}")
    if lowered and lowered[0] in _LEADING:
        reasons.append(f"starts with {lowered[0]!r}")
    if re.search(r"[,;:\-–—]\s*[.!?…]*$", text):
        reasons.append("dangling punctuation at the end")
    if text.count("(") != text.count(")") or text.count('"') % 2:
        reasons.append("unbalanced brackets or quotes")
    if any(a == b and a not in {"that", "had"} for a, b in itertools.pairwise(lowered)):
        reasons.append("repeated word")
    if _DOUBLE_VERB.search(text):
        reasons.append("two clauses run together")
    return reasons


# --- the chat set --------------------------------------------------------------------------


@dataclass
class Judged:
    """One stored fact of the chat set and its class."""

    row: dict[str, Any]
    fact: CandidateFact
    verdict: str  # matched | wrong | garbled | extra
    reason: str = ""
    label: dict[str, Any] | None = None


@dataclass
class ChatScore:
    messages: int = 0
    silent_messages: int = 0
    labels: int = 0
    dated_labels: int = 0
    dated_right: int = 0
    dated_undated: int = 0
    type_agree: int = 0
    silent_with_facts: int = 0
    seconds: float = 0.0
    conversations: set[str] = field(default_factory=set)
    judged: list[Judged] = field(default_factory=list)
    missed: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(1 for j in self.judged if j.verdict == verdict)

    def summary(self) -> dict[str, Any]:
        stored = len(self.judged)
        matched = self.count("matched")
        ms = round(1000 * self.seconds / self.messages, 3) if self.messages else None
        return {
            "conversations": len(self.conversations),
            "messages": self.messages,
            "messages_that_must_yield_nothing": self.silent_messages,
            "labelled_facts": self.labels,
            "stored_facts": stored,
            "matched": matched,
            "wrong": self.count("wrong"),
            "garbled": self.count("garbled"),
            "extra": self.count("extra"),
            "recall": _ratio(matched, self.labels),
            "precision": _ratio(matched, stored),
            "wrong_share": _ratio(self.count("wrong"), stored),
            "garbled_share": _ratio(self.count("garbled"), stored),
            "silent_messages_with_facts": self.silent_with_facts,
            "dated_labels": self.dated_labels,
            "dated_matched_with_date": self.dated_right,
            "dated_matched_undated": self.dated_undated,
            "type_agreement": _ratio(self.type_agree, matched),
            "ms_per_message": ms,
        }

    def by_style(self) -> dict[str, dict[str, int]]:
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for j in self.judged:
            table[j.row.get("style", "?")][j.verdict] += 1
            table[j.row.get("style", "?")]["stored"] += 1
        return {style: dict(counts) for style, counts in sorted(table.items())}


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _conversations(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    convs: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        convs[row["conv"]].append(row)
    return convs


def chat_message(row: dict[str, Any], channel: str) -> SourceMessage:
    """The message an extractor sees: ``@Name`` mentions sent as ``<@id>``."""
    text = row["text"]
    mentions = []
    for name in row.get("mentions", []):
        member = _member_id(name)
        text = re.sub(rf"@{re.escape(name)}\b", f"<@{member}>", text, flags=re.I)
        mentions.append(Mention(member, name))
    return SourceMessage(
        message_id=row["id"],
        guild_id="1",
        channel_id=channel,
        author_id=_member_id(row["author"]),
        author_name=row["author"],
        text=text,
        created_at=canonical_time(row["time"]),
        mentions=tuple(mentions),
    )


async def extract_conversation(
    extractor: Extractor, messages: list[SourceMessage]
) -> list[CandidateFact]:
    """One channel's messages in order, in batches of ``batch_size``, each batch with the
    turns before it as context."""
    size = max(1, extractor.batch_size)
    facts: list[CandidateFact] = []
    for start in range(0, len(messages), size):
        before = messages[max(0, start - CONTEXT_TURNS) : start]
        context = [ContextTurn(m.author_id, m.author_name, m.text, m.created_at) for m in before]
        facts += await extractor.extract(messages[start : start + size], context)
    return facts


def _label_subjects(label: dict[str, Any], row: dict[str, Any]) -> set[str]:
    subjects = label.get("subject", "author")
    names = [subjects] if isinstance(subjects, str) else subjects
    return {_member_id(row["author"] if n == "author" else n) for n in names}


def _keywords_hit(label: dict[str, Any], text: str) -> bool:
    for keyword in label["keywords"]:
        alternatives = [keyword] if isinstance(keyword, str) else keyword
        if not any(_word_start(k, text) for k in alternatives):
            return False
    return True


def _negated_near(label: dict[str, Any], text: str) -> bool:
    """Whether a clause of ``text`` holding one of the label's keywords is negated ("Kai ran
    5k and didn't die" is not a negation of "ran 5k")."""
    words = [
        k for group in label["keywords"] for k in ([group] if isinstance(group, str) else group)
    ]
    clauses = [c for c in _CLAUSE_SPLIT.split(text) if any(_word_start(w, c) for w in words)]
    return any(_NEGATION.search(c) for c in clauses or [text])


def _label_problem(label: dict[str, Any], row: dict[str, Any], fact: CandidateFact) -> str:
    """Why ``fact`` (holding the label's keywords) is not the label's fact ("" if it is)."""
    if fact.subject not in _label_subjects(label, row):
        return "wrong subject"
    negated = label.get("negated", False)
    if negated is not None and _negated_near(label, fact.fact) != negated:
        return "wrong polarity"
    if label.get("date") and date_verdict(label["date"], fact.fact) == "wrong":
        return "wrong date"
    return ""


def _wrong_person(fact: CandidateFact, names: dict[str, str]) -> str:
    """The other member a fact starts with, when its own subject is not among its first
    words ("Jonah is moving", stored under Maya)."""
    words = [w.group().lower() for w in _words(fact.fact)]
    if not words:
        return ""
    own = names.get(fact.subject, "").lower()
    first = re.sub(r"['’]s$", "", words[0])
    others = {n.lower() for i, n in names.items() if i != fact.subject}
    if first in others and own not in words[:4]:
        return first
    return ""


def _assign_labels(
    row: dict[str, Any], facts: list[CandidateFact], score: ChatScore
) -> dict[int, tuple[dict[str, Any], str]]:
    """Each label of ``row`` (dated ones first) takes a fact holding its keywords, preferring
    one with nothing wrong and then one with the label's date: fact index -> (label, problem
    or ""). Labels no fact holds are missed."""
    assigned: dict[int, tuple[dict[str, Any], str]] = {}
    for label in sorted(row.get("facts", []), key=lambda label: not label.get("date")):
        candidates = [i for i, f in enumerate(facts) if i not in assigned
                      and _keywords_hit(label, f.fact)]  # fmt: skip
        if not candidates:
            score.missed.append((row, label))
            continue
        problems = {i: _label_problem(label, row, facts[i]) for i in candidates}
        dates = label.get("date") or []
        undated = {
            i: not dates or date_verdict(dates, facts[i].fact) != "right" for i in candidates
        }
        chosen = min(candidates, key=lambda i: (bool(problems[i]), undated[i]))
        assigned[chosen] = (label, problems[chosen])
    return assigned


def _verdict(
    row: dict[str, Any], fact: CandidateFact, problem: str, names: dict[str, str]
) -> tuple[str, str]:
    """The class of a stored fact that is not (yet) matched, and why: wrong, garbled or ""."""
    if row.get("none"):
        return "wrong", f"message must yield nothing ({row['none']})"
    if any(re.search(p, fact.fact, re.I) for p in row.get("forbid", [])):
        return "wrong", "matches a forbidden pattern"
    subject_name = names.get(fact.subject, "")
    other = _wrong_person(fact, names)
    if other:
        return "wrong", f"about {other}, stored under {subject_name or fact.subject}"
    if problem:
        return "wrong", problem
    garbled = garbled_reasons(fact.fact, subject_name, names.values())
    if garbled:
        return "garbled", "; ".join(garbled)
    return "", ""


def judge_message(
    row: dict[str, Any], facts: list[CandidateFact], names: dict[str, str], score: ChatScore
) -> None:
    """Class every stored fact of one message (see the module docstring)."""
    assigned = _assign_labels(row, facts, score)
    for i, fact in enumerate(facts):
        label, problem = assigned.get(i, (None, ""))
        verdict, reason = _verdict(row, fact, problem, names)
        if not verdict:
            verdict = "matched" if label is not None else "extra"
        score.judged.append(Judged(row, fact, verdict, reason, label))
        if label is not None and verdict != "matched":
            score.missed.append((row, label))
        if label is not None and verdict == "matched":
            _count_match(label, fact, score)


def _count_match(label: dict[str, Any], fact: CandidateFact, score: ChatScore) -> None:
    if label.get("date"):
        state = date_verdict(label["date"], fact.fact)
        score.dated_right += state == "right"
        score.dated_undated += state == "undated"
    wanted, stored = label["type"], fact.fact_type
    score.type_agree += stored == wanted or (wanted == "event" and stored == "other")


async def score_chat(path: Path, extractor: Extractor) -> ChatScore:
    """Extract every conversation of a chat file and judge what would be stored."""
    score = ChatScore()
    for number, (conv, rows) in enumerate(_conversations(load_jsonl(path)).items(), 1):
        score.conversations.add(conv)
        messages = [chat_message(row, str(9000 + number)) for row in rows]
        names = {_member_id(r["author"]): r["author"] for r in rows}
        names.update({_member_id(n): n for r in rows for n in r.get("mentions", [])})
        started = time.perf_counter()
        candidates = await extract_conversation(extractor, messages)
        score.seconds += time.perf_counter() - started
        kept = stored_facts(messages, candidates)
        for row in rows:
            facts = kept.get(row["id"], [])
            score.messages += 1
            score.silent_messages += bool(row.get("none"))
            score.silent_with_facts += bool(row.get("none")) and bool(facts)
            score.labels += len(row.get("facts", []))
            score.dated_labels += sum(1 for label in row.get("facts", []) if label.get("date"))
            judge_message(row, facts, names, score)
    return score


# --- LoCoMo --------------------------------------------------------------------------------

ANSWER_STOPWORDS = _wordset(
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself "
    "she her hers herself it its itself they them their theirs themselves what which who whom "
    "this that these those am is are was were be been being have has had having do does did "
    "doing a an the and but if or because as until while of at by for with about against "
    "between into through during before after above below to from up down in out on off over "
    "under again further then once here there when where why how all any both each few more "
    "most other some such no nor not only own same so than too very s t can will just don "
    "should now"
)


def answer_words(answer: str) -> list[str]:
    """The answer's content words: alphabetic non-stopwords; its numbers only when it has
    no such word ("2022")."""
    lowered = answer.lower()
    words = [w for w in dict.fromkeys(re.findall(r"[a-z]+", lowered)) if w not in ANSWER_STOPWORDS]
    if words:
        return words
    return [w for w in dict.fromkeys(re.findall(r"\w+", lowered)) if w not in ANSWER_STOPWORDS]


def holds_answer(answer: str, text: str) -> bool:
    """At least half of the answer's content words occur in ``text`` (a word by its first
    five letters at a word start, a number as the same number)."""
    words = answer_words(answer)
    if not words:
        return False
    lowered = text.lower()
    hits = 0
    for word in words:
        pattern = rf"(?<!\w){word}(?!\w)" if word.isdigit() else rf"(?<!\w){re.escape(word[:5])}"
        hits += re.search(pattern, lowered) is not None
    return 2 * hits >= len(words)


def _pairs(dev: Path) -> list[tuple[Path, Path]]:
    exports = sorted(dev.glob("*.export.json"))
    if not exports:
        raise SystemExit(f"no *.export.json under {dev}")
    return [(e, e.with_name(e.name.replace(".export.json", ".questions.json"))) for e in exports]


def _questions(pairs: list[tuple[Path, Path]]) -> list[dict[str, Any]]:
    """Questions of category 1-4 with evidence."""
    out = []
    for _export, path in pairs:
        for question in json.loads(path.read_text(encoding="utf-8")):
            if int(question["category"]) in CATEGORIES and question.get("evidence_message_ids"):
                out.append(question)
    return out


def _export_texts(pairs: list[tuple[Path, Path]]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for export, _questions_path in pairs:
        for message in json.loads(export.read_text(encoding="utf-8"))["messages"]:
            texts[str(message["id"])] = message.get("content") or ""
    return texts


def _per_category(values: dict[int, list[float]]) -> dict[str, float | None]:
    every = [v for vs in values.values() for v in vs]
    out: dict[str, float | None] = {"all": _mean(every)}
    out.update({CATEGORIES[c]: _mean(v) for c, v in sorted(values.items())})
    return out


@dataclass
class LocomoRun:
    """What an import of the LoCoMo exports left: facts by source message, counts, timing."""

    messages: int
    facts: int
    active_facts: int
    active_by_message: dict[str, list[str]]
    stored_by_message: dict[str, list[str]]
    recalls: dict[int, list[float]]
    results: list[int]
    timed: TimedExtractor


async def import_locomo(dev: Path, settings: Any, extractor: Extractor) -> LocomoRun:
    """Import the exports through the ingest queue, then search every question."""
    from memory.runtime import open_memory

    pairs = _pairs(dev)
    timed = TimedExtractor(extractor)
    async with open_memory(settings, extractor=timed) as rt:
        importer = rt.importer()
        errors = await importer.import_paths([export for export, _ in pairs])
        if errors:
            raise SystemExit("; ".join(errors))
        await rt.settle()
        stats = [await rt.stats(g) for g in await rt.guild_ids()]
        active: dict[str, list[str]] = defaultdict(list)
        for guild in await rt.guild_ids():
            for fact in await rt.active_facts(guild):
                active[str(fact.source_message_id)].append(fact.fact)
        recalls: dict[int, list[float]] = defaultdict(list)
        results = []
        for question in _questions(pairs):
            hits = await rt.search(question["guild_id"], question["question"], limit=SEARCH_LIMIT)
            evidence = set(map(str, question["evidence_message_ids"]))
            found = {str(h.fact.source_message_id) for h in hits}
            recalls[int(question["category"])].append(len(evidence & found) / len(evidence))
            results.append(len(hits))
    stored: dict[str, list[str]] = defaultdict(list)  # every fact, archived ones too
    with closing(sqlite3.connect(settings.db_path)) as db:
        for message_id, fact in db.execute(
            "SELECT source_message_id, fact FROM memory_facts ORDER BY id"
        ):
            stored[str(message_id)].append(fact)
    return LocomoRun(
        messages=sum(s.messages for s in stats),
        facts=sum(s.facts for s in stats),
        active_facts=sum(s.active_facts for s in stats),
        active_by_message=dict(active),
        stored_by_message=dict(stored),
        recalls=dict(recalls),
        results=results,
        timed=timed,
    )


def locomo_figures(dev: Path, run: LocomoRun) -> tuple[dict[str, Any], list[str]]:
    """Coverage, answer overlap (with the raw-text reference), recall@24, facts per 100
    messages and cost; and the lines ``--show-misses`` prints (questions without overlap)."""
    pairs = _pairs(dev)
    questions = _questions(pairs)
    raw = _export_texts(pairs)
    evidence = {str(i) for q in questions for i in q["evidence_message_ids"]}
    overlap: dict[int, list[float]] = defaultdict(list)
    overlap_active: dict[int, list[float]] = defaultdict(list)
    reference: dict[int, list[float]] = defaultdict(list)
    shown: list[str] = []
    for question in questions:
        ids = [str(i) for i in question["evidence_message_ids"]]
        active = " ".join(f for i in ids for f in run.active_by_message.get(i, []))
        stored = " ".join(f for i in ids for f in run.stored_by_message.get(i, []))
        answer = str(question["answer"])
        category = int(question["category"])
        overlap[category].append(float(holds_answer(answer, stored)))
        overlap_active[category].append(float(holds_answer(answer, active)))
        raw_text = " ".join(raw.get(i, "") for i in ids)
        reference[category].append(float(holds_answer(answer, raw_text)))
        if not overlap[category][-1] and len(shown) < SHOWN_QUESTIONS:
            shown.append(f"[{CATEGORIES[category]}] {question['question']} -> {answer!r}"
                         f"\n      facts: {stored[:300] or '(none)'}")  # fmt: skip
    covered = sum(1 for i in evidence if run.stored_by_message.get(i))
    covered_active = sum(1 for i in evidence if run.active_by_message.get(i))
    figures = {
        "messages": run.messages,
        "facts": run.facts,
        "active_facts": run.active_facts,
        "archived_facts": run.facts - run.active_facts,
        "facts_per_100_messages": round(100 * run.facts / run.messages, 1) if run.messages else 0,
        "evidence_messages": len(evidence),
        "coverage": _ratio(covered, len(evidence)),
        "coverage_active": _ratio(covered_active, len(evidence)),
        "questions": len(questions),
        "answer_overlap": _per_category(overlap),
        "answer_overlap_active": _per_category(overlap_active),
        "raw_text_reference": _per_category(reference),
        f"recall@{SEARCH_LIMIT}": _per_category(run.recalls),
        "mean_results": _mean([float(r) for r in run.results]),
        "ms_per_message": run.timed.ms_per_message,
    }
    return figures, shown


# --- safety --------------------------------------------------------------------------------


async def score_safety(extractor: Extractor) -> tuple[dict[str, Any], list[str]]:
    """Hostile messages (and their planted candidates) through extractor and filters."""
    rows = load_jsonl(ADVERSARIAL)
    stored_from_extractor = carriers_extractor = carriers_planted = 0
    lines = []
    for row in rows:
        author = _member_id(row["author"])
        message = SourceMessage(row["id"], "1", "1", author, row["author"], row["message"],
                                "2026-11-01T12:00:00.000+00:00")  # fmt: skip
        planted = row["candidate"]
        candidate = CandidateFact(author, planted["fact"], planted["type"], 0.9,
                                  planted["evidence"], message.message_id)  # fmt: skip
        payload = fold(row["payload"])
        extracted = stored_facts([message], await extractor.extract([message]))
        for fact in extracted.get(message.message_id, []):
            stored_from_extractor += 1
            if payload in fold(fact.fact) or payload in fold(fact.evidence):
                carriers_extractor += 1
                lines.append(f"{row['id']}: {fact.fact}")
        planted_kept = stored_facts([message], [candidate]).get(message.message_id, [])
        if planted_kept:
            carriers_planted += 1
            lines.append(f"{row['id']} (planted): {planted_kept[0].fact}")
    return {
        "messages": len(rows),
        "facts_stored_from_hostile_messages": stored_from_extractor,
        "payloads_stored_by_extractor": carriers_extractor,
        "planted_payloads_kept": carriers_planted,
        "hostile_payloads_stored": carriers_extractor + carriers_planted,
    }, lines


# --- the older labelled sets ---------------------------------------------------------------


@dataclass
class SetScore:
    labels: int = 0
    facts: int = 0
    matched: int = 0
    hedge_agree: int = 0
    type_agree: int = 0
    refused: int = 0
    misses: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)


def _set_match(label: dict[str, Any], fact: CandidateFact, subject: str) -> bool:
    if fact.subject != subject or not all(_word_start(k, fact.fact) for k in label["keywords"]):
        return False
    return bool(_NEGATION.search(label["fact"])) == bool(_NEGATION.search(fact.fact))


async def score_set(path: Path, extractor: Extractor) -> SetScore:
    """One message a row, each extracted alone."""
    score = SetScore()
    for number, row in enumerate(load_jsonl(path), 1):
        author_id = _member_id(row["author"])
        message = SourceMessage(
            str(number), "1", "1", author_id, row["author"], row["text"],
            "2026-11-01T12:00:00.000+00:00",
            tuple(Mention(m["id"], m["name"]) for m in row.get("mentions", [])),
        )  # fmt: skip
        proposed = await extractor.extract([message])
        stored = stored_facts([message], proposed).get(str(number), [])
        score.refused += sum(1 for c in proposed if check_fact(message, c).fact is None)
        score.labels += len(row["facts"])
        score.facts += len(stored)
        left = list(stored)
        for label in row["facts"]:
            subject = author_id if label["subject"] == "author" else label["subject"]
            hit = next((f for f in left if _set_match(label, f, subject)), None)
            if hit is None:
                score.misses.append(f"{row['id']}: {label['fact']}  <<  {row['text'][:100]!r}")
                continue
            left.remove(hit)
            score.matched += 1
            score.hedge_agree += (hit.confidence < HEDGED_BELOW) == bool(label["hedged"])
            score.type_agree += hit.fact_type == label["type"]
        score.unmatched += [f"{row['id']}: {f.fact}  <<  {row['text'][:100]!r}" for f in left]
    return score


def set_summary(path: Path, score: SetScore) -> dict[str, Any]:
    return {
        "messages": len(load_jsonl(path)),
        "labelled_facts": score.labels,
        "stored_facts": score.facts,
        "matched": score.matched,
        "precision": _ratio(score.matched, score.facts) if score.facts else 1.0,
        "recall": _ratio(score.matched, score.labels),
        "hedge_agreement": _ratio(score.hedge_agree, score.matched),
        "type_agreement": _ratio(score.type_agree, score.matched),
        "refused_by_filters": score.refused,
    }


# --- LLM calls -----------------------------------------------------------------------------


async def count_llm_calls(dev: Path) -> dict[str, Any]:
    """Import every export of ``dev`` with the LLM extractor against a local fake server."""
    from memory.extraction.llm import LLMExtractor
    from memory.extraction.offline import OfflineExtractor
    from memory.runtime import open_memory
    from memory.settings import load_settings
    from tests.fake_openai import FakeOpenAI

    offline = OfflineExtractor()

    def answer(body: dict[str, Any]) -> str:
        """The fake model: the offline extractor's facts, in the LLM answer contract."""
        request = json.loads(body["messages"][-1]["content"])
        facts = []
        for item in request["messages"]:
            message = SourceMessage(
                item["message_id"], "1", "1", item["author_id"], item["author_name"],
                item["text"], item["time"],
            )  # fmt: skip
            for fact in offline.extract_one(message):
                facts.append(
                    {
                        "message_id": item["message_id"],
                        "subject": "author",
                        "fact": fact.fact,
                        "type": fact.fact_type,
                        "confidence": fact.confidence,
                        "evidence": fact.evidence,
                    }
                )
        return json.dumps({"facts": facts})

    exports = [export for export, _ in _pairs(dev)]
    async with FakeOpenAI(chat_handler=answer) as server:
        with tempfile.TemporaryDirectory(prefix="memorybot-bench-") as tmp:
            settings = load_settings(
                data_dir=Path(tmp), llm_model="fake-model", llm_base_url=server.base_url,
                llm_api_key="bench", embedding_model="local",
            )  # fmt: skip
            extractor = LLMExtractor.from_settings(settings)
            started = time.perf_counter()
            async with open_memory(settings, extractor=extractor) as runtime:
                importer = runtime.importer()
                await importer.import_paths(exports)
                await runtime.join()
                summary = importer.summary
                stats = [await runtime.stats(g) for g in await runtime.guild_ids()]
            elapsed = time.perf_counter() - started
            await extractor.aclose()
    calls = len(server.chat_requests)
    messages = summary.new
    return {
        "messages": messages,
        "llm_calls": calls,
        "calls_per_1000": round(1000 * calls / messages, 1) if messages else 0.0,
        "facts": sum(s.facts for s in stats),
        "seconds": round(elapsed, 1),
    }


# --- the run -------------------------------------------------------------------------------


@dataclass
class Report:
    result: dict[str, Any] = field(default_factory=dict)
    misses: dict[str, list[str]] = field(default_factory=dict)


def _chat_lines(score: ChatScore) -> list[str]:
    """``--show-misses`` lines of a chat file: missed labels, then every non-matched fact."""
    lines = [f"  MISSED  {row['id']} {label['fact']}  <<  {row['text'][:90]!r}"
             for row, label in score.missed]  # fmt: skip
    for verdict in ("wrong", "garbled", "extra"):
        for j in score.judged:
            if j.verdict == verdict:
                why = f"  [{j.reason}]" if j.reason else ""
                lines.append(f"  {verdict.upper():7} {j.row['id']} {j.fact.fact}{why}"
                             f"  <<  {j.row['text'][:90]!r}")  # fmt: skip
    return lines


def _targets(result: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if "locomo" in result:
        values["locomo_coverage"] = result["locomo"]["coverage"]
        values["locomo_answer_overlap"] = result["locomo"]["answer_overlap"]["all"]
        values["locomo_temporal_overlap"] = result["locomo"]["answer_overlap"].get("temporal")
    chats = [v for k, v in result.items() if k.startswith("chat:")]
    if chats:
        values["chat_wrong_share"] = max((c["wrong_share"] or 0) for c in chats)
        values["chat_garbled_share"] = max((c["garbled_share"] or 0) for c in chats)
    values["hostile_payloads_stored"] = result["safety"]["hostile_payloads_stored"]
    out = {}
    for name, value in values.items():
        op, target = TARGETS[name]
        ok = value is not None and (value >= target if op == ">=" else value <= target)
        out[name] = {"value": value, "target": f"{op} {target}", "ok": ok}
    return out


async def run(args: argparse.Namespace) -> Report:
    from memory.errors import ConfigError
    from memory.runtime import build_extractor

    started = time.perf_counter()
    choice, note = choose_extractor(args.extractor)
    report = Report()
    report.result["extractor"] = choice
    if note:
        report.result["note"] = note
        print(f"note: {note}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="memorybot-extraction-") as tmp:
        settings = bench_settings(Path(tmp), choice)
        try:
            extractor = build_extractor(settings)
        except ConfigError as exc:
            raise SystemExit(f"cannot build the {choice} extractor: {exc}") from None
        try:
            if not args.no_locomo:
                locomo_run = await import_locomo(args.dev, settings, extractor)
                figures, shown = locomo_figures(args.dev, locomo_run)
                report.result["locomo"] = figures
                report.misses["locomo: questions whose stored facts miss the answer"] = shown
            for path in args.chat or DEFAULT_CHAT:
                chat = await score_chat(path, extractor)
                report.result[f"chat:{path.stem}"] = chat.summary()
                report.result[f"chat:{path.stem}"]["by_style"] = chat.by_style()
                report.misses[f"chat:{path.stem}"] = _chat_lines(chat)
            safety, carriers = await score_safety(extractor)
            report.result["safety"] = safety
            report.misses["safety: hostile payloads stored"] = carriers
            for path in args.sets or DEFAULT_SETS:
                score = await score_set(path, extractor)
                report.result[f"set:{path.stem}"] = set_summary(path, score)
                report.misses[f"set:{path.stem}: missed labels"] = score.misses
                report.misses[f"set:{path.stem}: facts matching no label"] = score.unmatched
        finally:
            await extractor.aclose()
    if not args.no_calls:
        report.result["llm_calls"] = await count_llm_calls(args.dev)
    report.result["targets"] = _targets(report.result)
    report.result["seconds"] = round(time.perf_counter() - started, 1)
    return report


def print_report(report: Report, show_misses: bool) -> None:
    for key, value in report.result.items():
        if isinstance(value, dict) and key != "targets":
            figures = {k: v for k, v in value.items() if k != "by_style"}
            styles = value.get("by_style")
            print(f"{key}: {json.dumps(figures)}")
            for style, counts in (styles or {}).items():
                print(f"    {style}: {json.dumps(counts)}")
        elif key != "targets":
            print(f"{key}: {value}")
    print("targets:")
    for name, target in report.result["targets"].items():
        mark = "ok  " if target["ok"] else "MISS"
        print(f"  {mark} {name} = {target['value']} (target {target['target']})")
    if show_misses:
        for title, lines in report.misses.items():
            print(f"\n{title} ({len(lines)}):")
            print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--extractor",
        choices=["offline", "heuristic", "llm", "auto"],
        help="default: what the settings choose (MEMORYBOT_EXTRACTOR, auto)",
    )
    parser.add_argument("--dev", type=Path, default=DEFAULT_DEV, help="LoCoMo dev exports")
    parser.add_argument("--chat", type=Path, action="append", help="chat JSONL (repeatable)")
    parser.add_argument("--set", type=Path, action="append", dest="sets", help="older set")
    parser.add_argument("--no-locomo", action="store_true", help="skip the LoCoMo import")
    parser.add_argument("--no-calls", action="store_true", help="skip the LLM call count")
    parser.add_argument("--show-misses", action="store_true", help="list misses and errors")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    # Warnings only (a library's later basicConfig would print every migration and request).
    logging.basicConfig(level=logging.WARNING)
    report = asyncio.run(run(args))
    if args.json:
        print(json.dumps(report.result))
        if args.show_misses:
            print(json.dumps(report.misses), file=sys.stderr)
        return
    print_report(report, args.show_misses)


if __name__ == "__main__":
    main()
