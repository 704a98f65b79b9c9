"""What must never become a memory: instructions aimed at the bot, and secrets.

Text is folded first — compatibility forms (fullwidth, mathematical letters), invisible and
format characters, look-alike letters of other scripts, case — so that ``ＩＧＮＯＲＥ``,
``ig\u200bnore`` and ``іgnоre`` (Cyrillic і, о) read as ``ignore``. Then every pattern
matches on word boundaries: "I build distributed systems", "I collect arcade tokens" and
"I use a password manager" are ordinary facts.

Each pattern (a ``Rule``) names the words or marks it cannot match without; a text is
searched only with the rules whose needs it contains, and the leftmost match wins, as in
one alternation of them all (``tests/test_safety.py`` checks that it finds the same). Most
chat lines contain the needs of two or three rules: a check costs a fifth of one search
of the alternation, which tried every pattern at every position.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

# Letters of Cyrillic, Greek, Armenian and a few Latin extensions that look like ASCII
# letters (a subset of Unicode's confusables, the ones keyboards and spammers produce).
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
        "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g", "ь": "b",
        "п": "n", "г": "r", "ո": "n", "ս": "u", "օ": "o", "ց": "g", "հ": "h",
        # Greek
        "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "ζ": "z", "η": "n", "ι": "i",
        "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "ς": "s", "σ": "o", "τ": "t", "υ": "u",
        "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
        # Latin look-alikes
        "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i", "ɪ": "i", "ʀ": "r", "ᴀ": "a", "ʙ": "b",
        "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ᴊ": "j", "ᴋ": "k", "ʟ": "l",
        "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v",
        "ᴡ": "w", "ʏ": "y", "ᴢ": "z", "ł": "l", "ø": "o", "đ": "d", "ħ": "h",
    }
)  # fmt: skip
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a",
                       "$": "s", "!": "i", "|": "l"})  # fmt: skip


def fold(text: str) -> str:
    """Casefolded ASCII-ish text for matching: compatibility forms, invisible characters
    and accents removed, look-alike letters mapped, whitespace collapsed."""
    if text.isascii():  # none of the steps below changes ASCII but the case and spacing
        return " ".join(text.lower().split())
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")  # zero-width, bidi
    text = text.casefold().translate(_CONFUSABLES)
    decomposed = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(text.split())


class Rule(NamedTuple):
    """One pattern, and the words (or marks) it cannot match without: a text that contains
    none of ``needs`` is not searched. Empty ``needs``: always searched."""

    needs: tuple[str, ...]
    pattern: re.Pattern[str]


def _rule(needs: tuple[str, ...], pattern: str) -> Rule:
    return Rule(needs, re.compile(pattern))


_W = r"[\s\W_]*"  # what may sit between the words of a phrase: spaces, punctuation
_PRIOR = (
    r"(?:all|any|the|your|my|these|those|every|of|previous|prior|above|earlier|preceding|"
    r"former|past|old|original|initial|existing|current|system|developer)"
)
_RULES = (
    r"(?:instructions?|directions?|directives?|prompts?|rules?|guidelines?|guardrails?|"
    r"commands?|orders?|messages?|context|programming|constraints?|restrictions?|"
    r"polic(?:y|ies)|training)"
)
_PASSWORD = (
    r"(?:password|passwd|passphrase|passcode|passwort|pwd|pw)(?!\s+(?:managers?|hygiene|"
    r"polic(?:y|ies)|resets?|strength|generators?|rules|day|game|vault|app)\b)"
)
_DISMISS_WORDS = (
    "ignore", "disregard", "forget", "skip", "override", "overrule", "bypass", "drop",
    "abandon", "discard", "dismiss", "neglect", "delete", "erase", "nevermind", "never mind",
)  # fmt: skip
_DISMISS = f"(?:{'|'.join(_DISMISS_WORDS)})"

# In the order the old single alternation had them: of two matches at one place, the first
# rule's is reported.
INSTRUCTION_RULES = (
    # "ignore all previous instructions", "disregard prior directions", "forget the rules"
    _rule(_DISMISS_WORDS, rf"\b{_DISMISS}\b{_W}(?:{_PRIOR}\b{_W}){{0,4}}{_RULES}\b"),
    _rule(
        ("pay",),
        rf"\bpay\s+no\s+(?:attention|heed|mind)\s+to\b{_W}(?:{_PRIOR}\b{_W}){{0,4}}{_RULES}\b",
    ),
    _rule(
        ("follow", "obey", "listen"),
        rf"\b(?:do\s+not|don'?t|stop)\s+(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)?\s+to)\b{_W}(?:{_PRIOR}\b{_W}){{0,4}}{_RULES}\b",
    ),
    _rule(("forget",), r"\bforget\s+(?:everything|all\s+(?:that|you))\b"),
    _rule(("now", "longer"), r"\byou\s*(?:are|'re|r)\s+(?:now|no\s+longer|from\s+now\s+on)\b"),
    _rule(
        ("now",),
        r"\bfrom\s+now\s+on\W+you\s+(?:are|will|must|shall|should|can|answer|reply|respond|act)\b",
    ),
    _rule(
        ("act", "behave", "role", "pose"),
        r"\b(?:act|behave|roleplay|role-play|pose)\s+(?:as|like)\b",
    ),
    _rule(
        ("respond", "pretend"),
        r"\b(?:respond|pretend)\s+(?:as|like)\s+(?:if\s+you|an?\s+(?:unrestricted|unfiltered|"
        r"uncensored|different|evil|new)\b|(?:an?\s+)?(?:ai|assistant|chatbot|language\s+model|llm|"
        r"gpt|chatgpt|dan|system|developer|admin(?:istrator)?|root)\b)",
    ),
    _rule(("pretend",), r"\bpretend\s+(?:to\s+be|you(?:'re|\s+are))\b"),
    _rule(
        ("prompt",),
        r"\bsystem\s*prompts?\b|\bsys\s*prompt\b|\binitial\s+prompt\b|\bhidden\s+prompt\b",
    ),
    _rule(
        ("mode",), r"\b(?:developer|dev|god|admin|debug|unrestricted|dan|jailbreak|sudo)\s*mode\b"
    ),
    _rule(
        ("break", "anything", "injection"),
        r"\bjail\s*break(?:s|ing|ed)?\b|\bdo\s+anything\s+now\b|\bprompt\s+injection\b",
    ),
    _rule(
        ("new",), r"\bnew\s+(?:system\s+)?(?:instructions?|rules|directives?|persona|prompt)\s*:"
    ),
    _rule(
        ("[[", "{{", "<"),
        r"\[\[.*?\]\]|\{\{.*?\}\}|<\|[^|]*\|>|<\s*/?\s*(?:system|assistant|instructions?|sys)\s*>",
    ),
    _rule(
        ("system", "assistant", "instruction"),
        r"(?:^|\n|\s)#{1,6}\s*(?:system|assistant|instructions?)\b|\b(?:system|assistant)\s*:",
    ),
    _rule(
        ("always", "never", "only"),
        r"\b(?:always|never|only)\s+(?:reply|respond|answer|mention|output|call\s+(?:everyone|him|her|them))\b",
    ),
    _rule(
        ("reply", "respond", "answer"),
        r"\b(?:reply|respond|answer)\s+(?:only\s+)?(?:with|using)\s+['\"“‘]",
    ),
    _rule(
        ("prompt", "instructions", "key", "token", "password", "secret", "config"),
        rf"\b(?:reveal|print|show|leak|output|repeat|dump|display|tell\s+(?:me|us))\b{_W}(?:\w+\W+){{0,4}}(?:system\s+prompt|instructions|prompt|api\s*keys?|tokens?|passwords?|secrets?|config(?:uration)?)\b",
    ),
    _rule(
        ("safety", "filter", "guardrail", "moderation", "restriction", "polic"),
        r"\b(?:override|bypass|disable|turn\s+off|remove|circumvent)\b\W+(?:\w+\W+){0,3}(?:safety|filters?|guardrails?|moderation|restrictions?|content\s+polic(?:y|ies))\b",
    ),
    _rule(
        ("ignore", "disregard"),
        r"\b(?:ignore|disregard)\s+(?:the\s+|all\s+)?(?:above|previous|prior|preceding)"
        r"(?:\s*$|\s*[.,;:!]|\s+(?:and|instead|then)\b)",
    ),
    _rule(
        ("model", "must", "should", "shall", "will"),
        r"\bas\s+an\s+ai\s+(?:language\s+)?model\b|\bthe\s+(?:bot|assistant|ai|model)\s+(?:must|should|shall|will)\s+(?:always|never|now|only|ignore|obey|reveal)\b",
    ),
    _rule(("(", "-rf", "<"), r"\b(?:execute|run|eval)\s*\(|\brm\s+-rf\b|<\s*script\b"),
)

# Provider key formats (case-folded text, so letter classes are lower case).
SECRET_RULES = (
    _rule(("sk-",), r"\bsk-(?:proj-|ant-(?:api\d\d-)?|live-|svcacct-|admin-)?[a-z0-9_\-]{16,}"),
    _rule(("gh", "github_pat_"), r"\bgh[pousr]_[a-z0-9]{20,}|\bgithub_pat_[a-z0-9_]{20,}"),
    _rule(("xox",), r"\bxox[abposre]-[a-z0-9\-]{10,}"),
    _rule(("akia", "asia"), r"\b(?:akia|asia)[0-9a-z]{16}\b"),
    _rule(("aiza",), r"\baiza[0-9a-z_\-]{30,}"),
    _rule(("_live_", "_test_"), r"\b(?:sk|rk|pk)_(?:live|test)_[0-9a-z]{12,}"),
    _rule(
        ("glpat-", "npm_", "hf_", "shpat_"),
        r"\bglpat-[0-9a-z_\-]{16,}|\bnpm_[0-9a-z]{30,}|\bhf_[a-z0-9]{30,}|\bshpat_[0-9a-f]{20,}",
    ),
    _rule(
        (".",), r"\b[mno][a-z0-9_\-]{23,27}\.[a-z0-9_\-]{6}\.[a-z0-9_\-]{27,}"
    ),  # Discord bot token
    _rule(("eyj",), r"\beyj[a-z0-9_\-]{8,}\.[a-z0-9_\-]{8,}\.[a-z0-9_\-]{8,}"),  # JSON web token
    _rule(("private",), r"-----\s*begin\b[a-z0-9 ]*\bprivate\s+key\s*-----|\bprivate\s+key\s*[:=]"),
    _rule(("ssh-",), r"\bssh-(?:rsa|ed25519|dss)\s+[a-z0-9+/]{40,}"),
    _rule(
        ("pass", "pw", "credential", "login"),
        rf"\b(?:{_PASSWORD}|credentials?|login)\b(?:\s+[\w.@-]+){{0,4}}?\W{{0,3}}(?:is|was|=|:|->)"
        r"\W{0,3}\S",
    ),
    _rule(
        ("pass", "pwd", "secret", "token", "api"),
        r"[a-z0-9_]*(?:password|passwd|passwort|pwd|secret|token|api_?key)[a-z0-9_]*\s*[=:]\s*\S",
    ),
    _rule(("pass",), r"\bpass\s*[=:]\s*\S"),
    _rule(("pin",), r"\bpin(?:\s+code|\s+number)?\W{0,3}(?:(?:is|was|=|:)\W{0,3})?\d{4,}"),
    _rule(
        ("pass", "pin"),
        r"\b(?:my|the|our|his|her|their)\s+(?:\w+\s+){0,2}(?:password|passwd|passphrase|passcode|pin)\s+(?:for\s+\S+\s+)?(?:is|was|=|:)",
    ),
    _rule(
        ("key", "token", "secret"),
        r"\b(?:api[\s_\-]?key|access[\s_\-]?key|secret[\s_\-]?key|access[\s_\-]?token|auth[\s_\-]?token|bearer[\s_\-]?token|bot[\s_\-]?token|refresh[\s_\-]?token|client[\s_\-]?secret|aws[\s_\-]?secret\w*)\b\W{0,3}(?:is|was|=|:|->)?\W{0,3}[a-z0-9_\-/+.]{12,}",
    ),
    _rule(("authorization",), r"\bauthorization\s*:\s*(?:bearer|basic)\s+\S{8,}"),
    _rule(
        ("phrase", "word", "key"),
        r"\b(?:seed|recovery|mnemonic|backup)\s+(?:phrase|words?|key)\b\W{0,3}(?:is|are|was|=|:)",
    ),
    _rule(("mnemonic",), r"\bmnemonic\b\W{0,3}(?:is|are|was|=|:)"),
    # A long random-looking run of letters and digits: both kinds, 32+ characters.
    _rule((), r"\b(?=[a-z0-9_\-+/]*\d)(?=[a-z0-9_\-+/]*[a-z])[a-z0-9_\-+/]{32,}"),
)


NEEDS = frozenset(need for rule in (*INSTRUCTION_RULES, *SECRET_RULES) for need in rule.needs)


@lru_cache(maxsize=256)
def _present(text: str) -> frozenset[str]:
    """The rules' needs that ``text`` contains (one pass for both kinds of rules)."""
    return frozenset(need for need in NEEDS if need in text)


def first_match(rules: tuple[Rule, ...], text: str) -> re.Match[str] | None:
    """The leftmost match of any rule in ``text`` (of two at one place, the earlier rule's):
    what one alternation of all the patterns would find, searched only where a rule's
    ``needs`` are in the text."""
    present = _present(text)
    best: re.Match[str] | None = None
    for rule in rules:
        if rule.needs and present.isdisjoint(rule.needs):
            continue
        match = rule.pattern.search(text)
        if match and (best is None or match.start() < best.start()):
            best = match
    return best


_CARD_CANDIDATE = re.compile(r"(?<![\d.])\d(?:[ \-]?\d){12,18}(?![\d.])")


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _card_numbers(text: str) -> Iterator[str]:
    for match in _CARD_CANDIDATE.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if len(digits) == 13 and digits.startswith(("978", "979")):
            continue  # an ISBN-13 (no card number of 13 digits starts so)
        if 13 <= len(digits) <= 19 and _luhn(digits) and len(set(digits)) > 1:
            yield match.group()


def _variants(text: str) -> tuple[str, ...]:
    folded = fold(text)
    leet = folded.translate(_LEET)
    return (folded,) if leet == folded else (folded, leet)


def instruction_reason(text: str) -> str | None:
    """Why ``text`` reads as an instruction to the bot (the matched words), else None."""
    return _instruction_in(_variants(text))


def secret_reason(text: str) -> str | None:
    """Why ``text`` looks like it holds a secret (the kind, never the secret), else None."""
    return _secret_in(fold(text))


def unsafe_reason(text: str) -> str | None:
    """The first reason ``text`` must not be remembered, or None when it may be."""
    variants = _variants(text)  # folded once for both checks
    return _instruction_in(variants) or _secret_in(variants[0])


def _instruction_in(variants: tuple[str, ...]) -> str | None:
    for variant in variants:
        match = first_match(INSTRUCTION_RULES, variant)
        if match:
            return f"instruction-like text ({match.group().strip()[:40]!r})"
    return None


def _secret_in(folded: str) -> str | None:
    if first_match(SECRET_RULES, folded):
        return "looks like a secret (key, token, password or private key)"
    for _card in _card_numbers(folded):
        return "looks like a payment card number"
    return None
