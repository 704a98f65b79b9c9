"""The words around a statement's verb: where its object ends, what must not dangle,
pronouns made explicit, the thing a later "it" may mean, and what may stand before the
subject ("Last Friday, I…", "Mel, I…")."""

from __future__ import annotations

import re

from memory.extraction.offline import dates
from memory.extraction.offline.drafts import STOP_WORDS, Speaker
from memory.extraction.offline.verbs import third_person, verb

MAX_REST_WORDS = 22
_CUT = re.compile(
    r",?\s+(?:and|but|so|because|since|which|who|where|though|although|as|until|"
    r"unless|or|plus|then|cause)\s+(?=(?:it|it's|that|that's|this|they|they're|he|she|"
    r"you|there|those|these|everything|everyone|I|I'm|we|we're|my|our|he's|she's|"
    r"you're|nothing)\b)"
    r"|,?\s+(?:when|while)\s+(?=(?:it|it's|that|this|they|he|she|you|there)\b)"
    r"|,\s+(?=(?:\w+\s+){0,2}(?:is|are|was|were|has|have|had|been|will)\b)"
    r"|\s+and\s+(?=(?:the|my|our|his|her|their)\s+\w+\s+(?:is|are|was|were)\b)"
    r"|,\s+(?=(?:take a look|check it out|look|see|you know|right|trust me|believe me|"
    r"ignore|don't|dont|help|send|dm|ping|tag|ask|let|pls|please|wish me)\b)"
    r"|\s+(?=I\s+(?:could|would|might|should)\b)"
    r"|,?\s+(?:so|such|super|pretty|really)\s+(?:fun|cool|good|great|nice|bad|hard|awesome|"
    r"amazing|tired|happy|sad|excited|lovely|beautiful|special|relaxing|worth it)\b"
    r"|\s+-\s+|:\s+(?=(?:\S+\s+){5})|,\s+(?=(?:which|who|where|it|that|this|they|you)\b)"
    r"|\s+(?:lol|haha|lmao)\b"
    r"|,?\s+(?:but|and|so)\s+(?:yes|yeah|no|anyway|whatever|still|honestly|idk)\b(?=\W*$)",
    re.I,
)
_REST_PRONOUNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bmine\b", re.I), "theirs"),
    (re.compile(r"\b(?:my|our)\b", re.I), "their"),
    (re.compile(r"\bourselves\b", re.I), "themselves"),
]
_NP_STOP = frozenset({"to", "for", "in", "on", "at", "with", "from", "of", "by", "about",
                      "after", "before", "and", "or", "but", "because", "a", "an", "the",
                      "that", "which", "who", "when", "last", "yesterday", "today", "this",
                      "since", "as", "so", "too", "recently", "ago", "few", "just", "two",
                      "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                      "several", "every", "each", "all"})  # fmt: skip
DETERMINERS = frozenset({"a", "an", "the", "this", "that", "these", "those", "my", "their",
                          "some", "another", "our", "new"})  # fmt: skip


def noun_phrase(rest: str) -> str | None:
    """The thing at the head of an object ("the tattoo a few years ago" → "tattoo")."""
    words = rest.split()
    while words and words[0].lower() in DETERMINERS:
        words.pop(0)
    phrase: list[str] = []
    for word in words[:4]:
        bare = word.strip(",.!?")
        if bare.lower() in _NP_STOP or not bare.isalpha():
            break
        phrase.append(bare)
        if bare != word:
            break
    return " ".join(phrase) or None


_RELATIVE = r"\w\s+(?:where|when)\s*$"
_SUBORDINATE_END = re.compile(
    r"\b(?:because|so|and|but|then|once|now that|even though|though|although|why|"
    r"and now|so now)$|" + _RELATIVE,
    re.I,
)
_RELATIVE_END = re.compile(_RELATIVE, re.I)


def ends_in_relative(prefix: str) -> bool:
    """What stands before the subject ends in "where" / "when" ("moments where I felt …"):
    the clause is the speaker's own, up to the sentence's main verb."""
    return bool(_RELATIVE_END.search(prefix))


def movable(prefix: str, speaker: Speaker) -> bool:
    """What stands before the subject can go: nothing, a time, a vocative ("Mel,"), a
    subordinate clause ("after the accident,")."""
    prefix = prefix.strip(" ,.!-")
    if not prefix:
        return True
    if _is_vocative(prefix, speaker):  # "Caroline, I …"
        return True
    if _SUBORDINATE_END.search(prefix):  # "… moments where I felt tiny": what follows
        return True
    return bool(dates.TIME_LEAD.match(prefix))


def _is_vocative(prefix: str, speaker: Speaker) -> bool:
    """A name said to someone ("Caroline", "Hey Mel"): capitalised words that are no verb
    ("Realizing I can …" is no vocative)."""
    words = prefix.split()
    if words and words[0].lower() in ("hey", "hi", "hello", "thanks", "yo", "dear"):
        words = words[1:]
    if not 1 <= len(words) <= 2 or not all(w[:1].isupper() for w in words):
        return False
    return words[0] == speaker.partner or all(verb(w) is None for w in words)


def trailing(prefix: str) -> str:
    """A moved lead-in, without vocatives and commas (and nothing of a lead that ended in a
    conjunction: what it said is another clause)."""
    prefix = prefix.strip(" ,.!-")
    if _SUBORDINATE_END.search(prefix):
        return ""
    if re.fullmatch(r"(?:[A-Z][\w'-]*\s*){1,2}", prefix) and not re.match(
        r"(?:Last|This|Next|Yesterday|Today|Tonight|On|In)\b", prefix
    ):
        return ""
    return prefix[:1].lower() + prefix[1:] if prefix[:2] != "I " else prefix


_DEMONSTRATIVE = re.compile(
    r"^(?:this|that)\s+(?=[a-z])(?!(?:after|before|for|in|on|at|with|"
    r"to|from|when|while|because|since|and|but|so|is|was|one)\b)",
    re.I,
)
_VOCATIVE_END = re.compile(r",\s+[A-Z][\w'-]*$")


def demonstrative_object(rest: str) -> str:
    """ "I made this bowl" shows a photo; the fact stands alone as "made a bowl"."""
    match = _DEMONSTRATIVE.match(rest)
    if match is None:
        return rest
    following = rest[match.end() :]
    return ("an " if following[:1].lower() in "aeiou" else "a ") + following


def without_vocative(rest: str) -> str:
    """ "…, Mel" at the end addresses someone; it is no part of the fact."""
    return _VOCATIVE_END.sub("", rest)


_I_VERB = re.compile(r"\bI\s+([a-z]+)\b")
_UNRESOLVED = re.compile(r"\b(?:it|this|that|them|these|those)\b", re.I)
_FILLER_WORDS = STOP_WORDS | {"up", "so", "pretty", "very", "really", "much", "lot", "proud",
                         "glad", "happy", "sure", "keep", "kept", "going", "do", "done",
                         "again", "too", "more", "well", "good", "great", "fun"}  # fmt: skip


_VAGUE = re.compile(r"^(?:a thing|something|stuff|things|a lot|it all|everything|nothing)$", re.I)


def says_something(rest: str) -> bool:
    """An object with "it" / "them" and little else cannot stand alone ("proud of it",
    "keep it up"); with more words it still says something."""
    if _VAGUE.match(rest.strip(" .!")):  # "I did a thing"
        return False
    if not _UNRESOLVED.search(rest):
        return True
    content = [w for w in re.findall(r"[a-z']+", rest.lower())
               if w not in _FILLER_WORDS and not _UNRESOLVED.fullmatch(w)]  # fmt: skip
    return len(content) >= 2


_BARE_PRONOUN_BECAUSE = re.compile(
    r"^(?P<head>(?:\w+\s+){0,2}(?:it|them|this|that|those|these))\s+(?P<why>because|since)\s+"
)


_VAGUE_TAIL = re.compile(
    r",?\s+(?:all of that|and all that|and stuff|and things|and everything|and so on|etc\.?|"
    r"or something|or whatever|and whatnot)\W*$",
    re.I,
)


def cut(rest: str) -> str | None:
    """The object phrase up to the next clause; None when too long to stand as one fact.
    A reason after a bare pronoun stays ("chose them because they help …")."""
    reason = _BARE_PRONOUN_BECAUSE.match(rest)
    if reason:
        why = _CUT.split(rest[reason.end() :], maxsplit=1)[0]
        rest = f"{reason.group('head')} {reason.group('why')} {why}"
    else:
        rest = _CUT.split(rest, maxsplit=1)[0]
    rest = _VAGUE_TAIL.sub("", rest).strip(" ,.!?;:-")
    words = rest.split()
    if len(words) > MAX_REST_WORDS:
        rest = rest.split(",", 1)[0]
        words = rest.split()
    if len(words) > MAX_REST_WORDS:  # "made a window to remind myself that within us all …"
        rest = _LONG_TAIL.split(rest, maxsplit=1)[0]
        words = rest.split()
    if len(words) > MAX_REST_WORDS:
        return None
    return rest


_LONG_TAIL = re.compile(
    r"(?<=\S)\s+(?=(?:that|which|who|where|because|while|when|whereas|until|so that)\s)", re.I
)


def dangling(rest: str) -> bool:
    """An object that cannot stand alone: a bare pronoun, or one ending mid-phrase."""
    words = rest.lower().split()
    if not words:
        return False
    if words[-1] in ("a", "an", "the", "to", "of", "for", "with", "and", "or", "but", "my",
                     "their", "your", "in", "on", "at", "from", "by", "about", "because",
                     "that", "like", "so", "as", "than", "into", "is", "are"):  # fmt: skip
        return True
    return rest.lower() in ("it", "this", "that", "them", "these", "those", "one", "some")


def pronouns(rest: str, speaker: Speaker) -> str:
    """ "my" → "their", "me" → the name, "you" → the partner (the caller has made sure
    there is one when "you" occurs)."""
    for pattern, replacement in _REST_PRONOUNS:
        rest = pattern.sub(replacement, rest)
    rest = re.sub(r"\bme\b(?!-)", speaker.name, rest)
    rest = re.sub(r"\bwe\b", "they", rest, flags=re.I)
    rest = re.sub(r"\bus\b", "them", rest)
    rest = re.sub(r"\bI'm\b", f"{speaker.name} is", rest)
    rest = re.sub(r"\bI've\b", f"{speaker.name} has", rest)
    rest = _I_VERB.sub(lambda m: f"{speaker.name} {third_person(m.group(1)) or m.group(1)}", rest)
    rest = re.sub(r"\bI\b", speaker.name, rest)
    if speaker.partner:
        rest = re.sub(r"\byour\b", f"{speaker.partner}'s", rest, flags=re.I)
        rest = re.sub(r"\byou(?:'re)?\b", speaker.partner, rest, flags=re.I)
    return rest
