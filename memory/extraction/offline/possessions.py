"""Facts about what is the speaker's, said without "I": "my sister is a nurse",
"dance is my go-to", "it stands for freedom" after "got a tattoo", "dancing makes me
happy"."""

from __future__ import annotations

import re

from memory.extraction.offline import dates, skipping
from memory.extraction.offline.drafts import HEDGED, PLAIN, RELATIONS, Draft, Speaker, draft
from memory.extraction.offline.phrases import cut, dangling, pronouns, says_something
from memory.extraction.offline.verbs import verb

POSSESSIVE_SUBJECT = re.compile(
    r"^(?:my|our)\s+(?P<np>[\w'-]+(?:,?\s+(?:and\s+)?[\w'-]+){0,4}?)\s+"
    r"(?P<verb>is|are|was|were|has|have|had|loves?|loved|likes?|liked|works?|worked|lives?|"
    r"lived|went|goes|got|gets|made|makes|just|also|still|really|will|can|doesn't|didn't|"
    r"isn't|wasn't|aren't|won't|can't)\b",
    re.I,
)
_OBJECT_ME = re.compile(
    r"^(?P<np>(?:[A-Za-z][\w'-]*ing|(?:the|a|an|this|that|these|those|their|his|her)\s+[\w'-]+)"
    r"(?:\s+[\w'-]+){0,2}?)\s+"
    r"(?P<verb>makes|made|helps|helped|reminds|reminded|gives|gave|keeps|kept|brings|"
    r"brought|inspires|inspired|motivates|motivated|calms|relaxes|relaxed|taught|teaches)"
    r"\s+me\b(?P<rest>.*)$",
    re.I,
)
_PRONOUN_NP = re.compile(r"^(?:it|this|that|they|he|she|you|there|these|those|everything|"
                         r"everyone|something|nothing|which|what|who)\b", re.I)  # fmt: skip


def possessive(text: str, speaker: Speaker, hedged: bool) -> Draft | None:
    """ "my sister is a nurse" → "Sarah's sister is a nurse": about the speaker's own people,
    pets and things, not hearsay about a friend's roommate or a neighbour."""
    owner = speaker.name
    rest = text.split(" ", 1)[1]
    words = [w.lower() for w in rest.split()]
    while len(words) > 1 and words[0] in _DESCRIBING:  # "my old car", not "my old manager"
        words.pop(0)
    head = words[0]
    if "'s" in head or not (RELATIONS.match(head) or head in _OWN_THINGS):
        return None
    said = cut(rest)
    if said is None or dangling(said) or len(said.split()) < 3:
        return None
    said, dated = dates.resolve(pronouns(said, speaker), speaker.said, past=False)
    lemma = "be"
    return draft(f"{owner}'s {said}", lemma, False, dated, HEDGED if hedged else PLAIN)


POSSESSION = frozenset({"have", "get", "buy", "make", "draw", "paint", "write", "build",
                        "create", "adopt", "own", "knit", "sew", "bake", "design", "find",
                        "receive", "craft", "carve", "compose"})  # fmt: skip
REFERRING = re.compile(r"^(?:it|this|that|they|these|those|he|she)\s+(?=\S)", re.I)
MY_THING = re.compile(r"\bmy\s+((?:[\w'-]+\s+){0,2}[\w'-]+)", re.I)


def about_thing(text: str, speaker: Speaker, thing: str, hedged: bool) -> Draft | None:
    """ "it stands for freedom" after "Got the tattoo a few years ago" → "Gina's tattoo
    stands for freedom"."""
    rest = REFERRING.sub("", text, count=1)
    first = rest.split()[0].lower()
    found = verb(first)
    if found is None and first not in ("is", "was", "are", "were", "has", "'s"):
        return None
    lemma = found[0] if found else "be"
    body = cut(" ".join(rest.split()[1:]))
    if body is None or skipping.is_empty_state(lemma, body) or dangling(body):
        return None
    if not says_something(body):
        return None
    body, dated = dates.resolve(pronouns(body, speaker), speaker.said, past=False)
    fact = f"{speaker.name}'s {thing} {first} {body}"
    return draft(fact, lemma, False, dated, HEDGED if hedged else 0.8)


IS_MINE = re.compile(
    r"^(?P<np>(?!(?:it|this|that|they|he|she|you|there|what|which|who|here)\b)"
    r"[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,3}?)(?:\s+(?P<be>is|are|was|were)|'s)\s+"
    r"(?:(?:really|definitely|totally|pretty much|always|still|so|also|basically)\s+)*"
    r"(?:my|our)\s+(?P<rest>\S.*)$",
    re.I,
)


def is_mine(match: re.Match[str], speaker: Speaker, hedged: bool) -> Draft | None:
    """ "Dance is my go-to for stress relief" → "Dance is Gina's go-to for stress relief"."""
    rest = cut(match.group("rest"))
    if rest is None or not rest.strip() or dangling(rest):
        return None
    rest, dated = dates.resolve(pronouns(rest, speaker), speaker.said, past=False)
    be = match.group("be") or "is"
    fact = f"{match.group('np')} {be} {speaker.name}'s {rest}"
    return draft(fact, "be", False, dated, HEDGED if hedged else PLAIN)


_DESCRIBING = frozenset({"old", "new", "first", "biggest", "little", "big", "older", "younger",
                         "best", "current", "favourite", "late", "own"})  # fmt: skip
_OWN_THINGS = frozenset({
    "favourite", "fav", "name", "birthday", "job", "work", "home", "house", "apartment",
    "flat", "place", "car", "bike", "dog", "dogs", "cat", "cats", "pet", "pets", "puppy",
    "kitten", "hamster", "parrot", "rabbit", "goal", "goals", "dream", "dreams", "plan",
    "plans", "art", "aim", "passion", "hobby", "hobbies", "store", "shop", "business",
    "studio", "band", "team", "garden", "book", "novel", "project", "degree", "major",
    "thesis", "channel", "podcast", "blog", "go-to",
    "relationships", "life", "health", "mental", "career", "school", "class", "classes",
    "students", "customers", "clients", "work's", "hometown", "country", "roots",
})  # fmt: skip


def object_me(text: str, speaker: Speaker, hedged: bool) -> Draft | None:
    """ "Dancing makes me so happy" → "Dancing makes Jon so happy"."""
    match = _OBJECT_ME.match(text)
    if match is None or _PRONOUN_NP.match(match.group("np")):
        return None
    rest = cut(match.group("rest").strip())
    if rest is None or not rest.strip():
        return None
    rest, dated = dates.resolve(pronouns(rest, speaker), speaker.said, past=False)
    fact = f"{match.group('np')} {match.group('verb')} {speaker.name} {rest}"
    return draft(fact, "make", False, dated, HEDGED if hedged else 0.75)
