"""Facts about what is the speaker's, said without "I": "my sister is a nurse",
"dance is my go-to", "it stands for freedom" after "got a tattoo", "dancing makes me
happy"."""

from __future__ import annotations

import re

from memory.extraction.offline import dates, skipping
from memory.extraction.offline.drafts import HEDGED, PLAIN, RELATIONS, Draft, Speaker, draft
from memory.extraction.offline.phrases import cut, dangling, pronouns, says_something
from memory.extraction.offline.verbs import is_past, verb

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


def possessive(match: re.Match[str], speaker: Speaker, hedged: bool) -> Draft | None:
    """ "my sister is a nurse" → "Sarah's sister is a nurse": about the speaker's own people,
    pets and things, not hearsay about a friend's roommate or a neighbour."""
    owner = speaker.name
    text = match.string
    rest = text.split(" ", 1)[1]
    phrase = match.group("np").lower().replace(",", " ").split()
    if any("'s" in word for word in phrase):
        return None  # hearsay: "my friend's roommate is …"
    if not any(RELATIONS.match(word) or word in _OWN_THINGS for word in phrase):
        return None  # "my online clothes store", "my old car"; not "my manager"
    said = cut(rest)
    if said is None or dangling(said) or len(said.split()) < 3:
        return None
    past = _said_in_past(text[match.start("verb") :])
    said, dated = dates.resolve(pronouns(said, speaker), speaker.said, past=past)
    lemma = "be"
    return draft(f"{owner}'s {said}", lemma, False, dated, HEDGED if hedged else PLAIN)


def _said_in_past(predicate: str) -> bool:
    """The verb group after the subject is past ("just had a baby on Tuesday": the last
    Tuesday, not the next)."""
    words = [w.lower() for w in predicate.split()[:3]]
    while words and words[0] in ("just", "also", "still", "really", "finally"):
        words.pop(0)
    return bool(words) and words[0] not in ("will", "can", "won't", "can't") and is_past(words[0])


POSSESSION = frozenset({"have", "get", "buy", "make", "draw", "paint", "write", "build",
                        "create", "adopt", "own", "knit", "sew", "bake", "design", "find",
                        "receive", "craft", "carve", "compose"})  # fmt: skip
REFERRING = re.compile(r"^(?:it|this|that|they|these|those|he|she)\s+(?=\S)", re.I)
MY_THING = re.compile(r"\bmy\s+((?:[\w'-]+\s+){0,2}[\w'-]+)", re.I)


def about_thing(text: str, speaker: Speaker, thing: str, hedged: bool) -> Draft | None:
    """ "it stands for freedom" after "Got the tattoo a few years ago" → "Gina's tattoo
    stands for freedom"."""
    plural_pronoun = _PLURAL_PRONOUN.match(text) is not None
    if _DUMMY_IT.match(text) or _plural(thing) != plural_pronoun:
        return None  # "It was great to see …" means no thing; "they" is not "the bowl"
    rest = REFERRING.sub("", text, count=1)
    first = rest.split()[0].lower()
    found = verb(first)
    if found is None and first not in ("is", "was", "are", "were", "has", "'s"):
        return None
    lemma = found[0] if found else "be"
    body = cut(" ".join(rest.split()[1:]))
    if body is None or skipping.is_empty_state(lemma, body) or dangling(body):
        return None
    if lemma == "be" and len(body.split()) <= 2 and not _NAMING.match(body):
        return None  # "It was tough": how the doing felt, not what the thing is
    if not says_something(body):
        return None
    body, dated = dates.resolve(pronouns(body, speaker), speaker.said, past=False)
    fact = f"{speaker.name}'s {thing} {first} {body}"
    return draft(fact, lemma, False, dated, HEDGED if hedged else 0.8)


_DUMMY_IT = re.compile(
    r"^(?:it|that)(?:'s|\s+is|\s+was|\s+will be)\s+(?:\w+\s+){0,2}?\w+\s+"
    r"(?:to|that|how|seeing|being|having|when|watching|hearing)\b",
    re.I,
)
_NAMING = re.compile(r"(?:a|an|the|my|our|\d+|one|two|three|from|for|in|on|at|by)\b", re.I)
_PLURAL_PRONOUN = re.compile(r"^(?:they|these|those)\b", re.I)


def _plural(noun: str) -> bool:
    last = noun.split()[-1].lower()
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))


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


_OWN_THINGS = frozenset({
    "favourite", "fav", "name", "birthday", "job", "work", "home", "house", "apartment",
    "flat", "place", "car", "bike", "dog", "dogs", "cat", "cats", "pet", "pets", "puppy",
    "kitten", "hamster", "parrot", "rabbit", "pig", "turtle", "tortoise", "snake", "lizard",
    "horse", "bird", "fish", "ferret", "gecko", "bunny", "goal", "goals", "dream", "dreams", "plan",
    "plans", "art", "aim", "passion", "hobby", "hobbies", "store", "shop", "business",
    "studio", "band", "team", "garden", "book", "novel", "project", "degree", "major",
    "thesis", "channel", "podcast", "blog", "go-to",
    "relationships", "life", "health", "mental", "career", "school", "class", "classes",
    "students", "customers", "clients", "work's", "hometown", "country", "roots",
})  # fmt: skip


_MATTERS_TO_ME = re.compile(
    r"^(?P<np>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,5}?)\s+"
    r"(?P<verb>(?:is|are|was|were|has|had|means|meant|matters|mattered|speaks|spoke)\b"
    r"(?:\s+[\w'-]+){0,6}?\s+(?:to|for))\s+me\b(?P<rest>.*)$",
    re.I,
)
_DEMONSTRATIVE_NP = re.compile(r"^(?:this|that|these|those)\s+(?=[a-z]{3,}\b)", re.I)
_SHOWN = re.compile(
    r"^(?:here's|here is|here are|heres|check out|check|look at)\s+"
    r"(?:(?:a|an|some|the)\s+)?(?:(?P<medium>pic|pics|picture|pictures|photo|photos|shot|"
    r"snap|video|clip|peek)\s+(?:of|from|at)\s+)?(?P<np>(?:my|our)\s+\S.*)$",
    re.I,
)


def shared_own(text: str, speaker: Speaker) -> Draft | None:
    """ "Here's a pic of my family camping at the beach" → "Melanie shared a pic of their
    family camping at the beach": what someone shows is theirs and worth knowing."""
    match = _SHOWN.match(text)
    if match is None:
        return None
    said = cut(match.group("np"))
    if said is None or dangling(said) or len(said.split()) < 2:
        return None
    said, dated = dates.resolve(pronouns(said, speaker), speaker.said, past=True)
    medium = match.group("medium")
    what = f"a {medium} of {said}" if medium else said
    return draft(f"{speaker.name} shared {what}", "share", False, dated, 0.75)


def object_me(text: str, speaker: Speaker, hedged: bool) -> Draft | None:
    """ "Dancing makes me so happy" → "Dancing makes Jon so happy"; "The mural is important
    to me" → "The mural is important to Jon"."""
    match = _OBJECT_ME.match(text)
    if match is None:
        return _matters_to_me(text, speaker, hedged)
    if _PRONOUN_NP.match(match.group("np")):
        return None
    rest = cut(match.group("rest").strip())
    if rest is None or not rest.strip():
        return None
    rest, dated = dates.resolve(pronouns(rest, speaker), speaker.said, past=False)
    fact = f"{match.group('np')} {match.group('verb')} {speaker.name} {rest}"
    return draft(fact, "make", False, dated, HEDGED if hedged else 0.75)


def _matters_to_me(text: str, speaker: Speaker, hedged: bool) -> Draft | None:
    match = _MATTERS_TO_ME.match(text)
    if match is None:
        return None
    np = _DEMONSTRATIVE_NP.sub("the ", match.group("np"))  # "This necklace" → "the necklace"
    if _PRONOUN_NP.match(np):
        return None
    rest = cut(match.group("rest")) or ""
    head = f"{np[0].upper()}{np[1:]} {match.group('verb')} {speaker.name}"
    if dangling(head) or skipping.is_about_addressee(head):
        return None
    fact, dated = dates.resolve(f"{head} {rest}", speaker.said, past=False)
    return draft(fact, "be", False, dated, HEDGED if hedged else 0.75)


_NAMED_MINE = re.compile(
    r"(?:^|,\s+)(?P<name>[A-Z][a-z]+),\s+(?:my|our)\s+(?P<what>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)$"
)


def named_mine(text: str, speaker: Speaker) -> Draft | None:
    """ "I do, Oscar, my guinea pig" → "Oscar is Caroline's guinea pig": a name and what
    of the speaker's it names."""
    match = _NAMED_MINE.search(text)
    if match is None:
        return None
    what = match.group("what")
    if not any(RELATIONS.match(w) or w in _OWN_THINGS for w in what.lower().split()):
        return None
    return draft(f"{match.group('name')} is {speaker.name}'s {what}", "be", False, False, PLAIN)
