"""A change told as an event ends an older fact on the same topic.

    ended(read("jay lives in brooklyn"), read("jay in atl now fr, moved last month")) → True

People rarely restate an attribute when it changes; they tell what happened: "moved last
month", "single again", "dropped out of uni", "got laid off", "quit retail", "left the
hardware store", "Biscuit passed away". When the slots find no conflict (no new value to
compare, or a wording they do not know), such a change still ends the old fact when:

* a **topic cue** of the new fact (moved → home; single, split up, divorced → relationship;
  graduated, dropped out → studies; fired, laid off, retired → work; promoted, demoted → a
  community role, mod or admin; switched, transferred → whatever topic the new fact names
  too) meets a topic the old fact is about (its slots, or its words: "works retail" is about
  work); or
* an **object cue** (quit, left, stopped, sold, lost, dropped, replaced, uninstalled, gave
  up, stepped down or back, stood down, handed off or over, went off, swore off, dumped,
  binned, threw out, kicked or cut from, retired from, gave or handed to someone, pulled out
  of, came off, nuked, tore down, rip; died, passed away, renamed, is gone, got sold, fell
  off, is done, is dead to them, uninstalled, ended; closed, returned or removed, either
  side: "closed her etsy shop", "the etsy shop closed", "returned the 4070", "the mac got
  returned", not "returned to uni"; over, done, off or "is retired" said last, of the thing
  its clause starts with: "diet over", "masters done , phd now", "engagement off", "the old
  laptop is retired") stands next to a content word of the old fact, a word made from it
  (with a noun's ending: "chairman" / "chairmanship"), or a kind it is one of ("quit
  vaping" / "vapes", "left teaching" / "a teacher", "Biscuit passed away" / "a dog named
  Biscuit", "cut out caffeine" / "drinks coffee"); or
* a **switch** (switched, upgraded, migrated, swapped, changed) names a word of an old fact,
  one of the two facts being on no topic above, and does not keep all its words ("uses
  windows 10" / "upgraded to windows 11", "drives a golf to work" / "swapped her golf for a
  kia").

A plan ends only when cancelled, scrapped, abandoned or ditched ("is planning a trip to
Iran" / "cancelled the Iran trip").

Whatever the attribute, a new fact saying a thing of the old one was switched, swapped,
replaced or moved away from ("moved her streams from twitch"; not "moved from leeds", the
subject moving), or is no longer or not any more, ends it (:func:`replaced`: "dre mains
reyna" / "dre swapped reyna for jett", "joao lives in porto with his parents" / "joao not
living at parents house anymore"), when the two share a thing (a content word that is no
verb, or one after a preposition or determiner, "on twitch"; not "favourite" or "main":
"works as a cashier" / "doesnt work nights anymore" share a verb only) and the switch did not
go to it; "instead" does so when the old fact names a thing the new one does not ("drinks
tea" / "drinks tea instead of coffee" ends nothing), or names it as what was given up ("uses
a windows laptop" / "uses a chromebook instead of his windows laptop").

Not a change: a topic cue of someone else's ("Mike's brother is divorced"), a negated cue
("hasn't moved"), a plan or wish ("wants to move", "is moving", "thinking of quitting"; what
"had to" be done or was "decided" is done) and what follows it ("hopes to work in a hospital
once she graduates"), a death told of whoever a relative clause names ("married to a keen
fisherman who died" ends no "keen walker"), a part of a thing or a new edition of it
switched ("upgraded the RAM in his laptop", "upgraded to the producer edition"), a
change of an old fact that is a dated event ("went on a date with Tom on 4 June") or a wish
("wants to be a pilot"), an old fact that told the same change already ("broke up" /
"single"), a negated old fact, and a change that keeps the old value ("lives in Paris" /
"moved to a bigger flat in Paris", "lives in France" / "moved to Lyon"); a cue that ends a
value without telling a new one (graduated, broke up, retired) names what ended, not what
is kept ("graduated in graphic design").
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise, takewhile

from memory.extraction.offline.verbs import verb
from memory.lifecycle.cues import (
    AFTER_CUES,
    BEFORE_CUES,
    CLAUSE_OVER,
    DIET,
    ENDED_IT,
    ENDING_CUES,
    HOME,
    LOVE,
    NAMED_CUES,
    OWN_TOPIC_CUES,
    PET,
    PLAN_ENDERS,
    ROLE,
    STUDIES,
    TOPIC_CUES,
    WINDOW,
    WORK,
    find_cues,
)
from memory.lifecycle.kept import left_for_another, thing_kept
from memory.lifecycle.lexicon import (
    FAVOURITES,
    KINDS,
    MEATS,
    MEMBER_OF,
    OCCUPATIONS,
    PETS,
)
from memory.lifecycle.reading import PUNCTUATION, Reading, canonical, lemma, own_choice
from memory.lifecycle.slots import Verdict, compare_slots, find_slots
from memory.lifecycle.word_match import kin, words_match

_SLOT_TOPICS = {"home": HOME, "job": WORK, "employer": WORK, "status": LOVE,
                "studies": STUDIES, "school": STUDIES, "pets": PET, "household": HOME,
                "tenure": HOME, "distance": LOVE, "arrangement": LOVE,
                "commitment": LOVE}  # fmt: skip
_TOPIC_WORDS = {
    HOME: "live flat apartment house city town neighbourhood neighborhood reside",
    WORK: "work job employ employer career boss office shift retail company firm role "
    "position hire",
    LOVE: "boyfriend girlfriend partner wife married engaged fiance fiancee dating date "
    "relationship single wedding",
    STUDIES: "student studying studies major degree university college school course phd masters "
    "semester class programme program " + " ".join(KINDS["subject"]),
    PET: "pet named",
    DIET: "vegan vegetarian pescatarian meat diet plant-based keto",
    ROLE: "moderator administrator helper captain organiser organizer host committee",
}
_WORD_TOPICS: dict[str, str] = {
    **{word: topic for topic, words in _TOPIC_WORDS.items() for word in words.split()},
    **{word: WORK for word in OCCUPATIONS},
    **{word: PET for word in PETS},
    **{word: DIET for word in MEATS},
    **{word: ROLE for word in _TOPIC_WORDS[ROLE].split()},  # "admin": of a server, mostly
}


_HELD_DEGREE = re.compile(r"\b(?:has|holds?|earned|got|received) (?:\S+ ){0,4}?degree\b")
"""A degree held ("holds a bachelor 's degree in physics"): graduating ends no studies there."""


def ended(old: Reading, new: Reading) -> bool:
    """Whether ``new`` tells of a change that ends ``old`` (see the module's docstring)."""
    if old.negated or old.empty or new.empty or old.dates:
        return False  # a dated event stays true: "went on a date with Tom on 4 June"
    cues = find_cues(new.body)
    if new.wished:  # "hopes to work in child protection once she has graduated": not yet
        cues = tuple((cue, index) for cue, index in cues if index < new.wish_at)
    if not cues or (old.wished and PLAN_ENDERS.isdisjoint(cue for cue, _ in cues)):
        return False  # "wants to be a teacher" is no state a change can end, but "cancelled"
    if thing_kept(old, new):
        return False  # what changed is something else: "switched teams , still ubisoft"
    old_cues = find_cues(old.body)
    told = {cue for cue, _ in old_cues} | {
        topic for cue, _ in old_cues for topic in TOPIC_CUES.get(cue, ())
    }
    for cue, index in cues:
        if cue in told or (cue == "graduate" and _HELD_DEGREE.search(old.body)):
            continue  # told already; or a degree held, no studies a graduation ends
        if cue == "lose" and "fire" in told:
            continue  # "was laid off" / "lost his job at the bank": the loss told again
        if cue in OWN_TOPIC_CUES and not (topics(old) and topics(new)):
            same_owner = old.possessive == new.possessive or own_choice(old, _OWN_CHOICES)
            if same_owner and _shared_ended(cue, old, new):
                return True
        elif cue in TOPIC_CUES or cue in NAMED_CUES:
            if old.possessive == new.possessive and _topic_ended(cue, old, new, told):
                return True
            if cue in AFTER_CUES and _object_ended(cue, index, old, new):
                return True  # "retired from netball": a pastime, not a job
        elif _object_ended(cue, index, old, new):
            return True
    return False


_REPLACED = re.compile(
    r"\b(?:switched|swapped|replaced|no longer|anymore|any more)\b"
    r"|\bmoved (?:\S+ ){1,3}?from\b"  # "moved her streams from twitch": not "moved from leeds"
)
_INSTEAD = re.compile(r"\binstead\b")
_SWITCHES = frozenset({"switched", "swapped"})
_BEFORE_THINGS = frozenset({"on", "from", "at", "in", "a", "an", "the", "her", "his", "their",
                            "my", "its", "uses", "use", "using", "of"})  # fmt: skip


def replaced(old: Reading, new: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """Whether ``new`` says a thing of ``old`` was switched, swapped or replaced, or is no
    longer (see the module's docstring); ``core_a``, ``core_b``: their content words."""
    if old.possessive != new.possessive or old.wished or new.wished or old.dates or new.dates:
        return False
    if thing_kept(old, new):
        return False  # "works at ubisoft" / "switched teams , still ubisoft"
    things_a, things_b = _things(core_a, old.body), _things(core_b, new.body)
    if left_for_another(old, new):
        return True  # "aroha transferred from support to the qa team"
    shared = things_a & things_b
    if not shared or shared <= _switched_to(new.body):
        return False  # "plays valorant" / "switched to playing valorant on pc": still it
    if _REPLACED.search(new.body):
        return True
    if not _INSTEAD.search(new.body):
        return False
    return bool(things_a - things_b) or bool(shared & _after_instead_of(new.body))


def instead_of_it(old: Reading, new: Reading, core_a: frozenset[str]) -> bool:
    """``new`` names a thing of ``old`` as what was given up for another, even where their
    slots agree ("teaches maths" / "now teaches physics instead of maths": a teacher still)."""
    if old.possessive != new.possessive or old.negated or new.negated:
        return False
    things = _things(core_a, old.body)
    return bool((things | {lemma(thing) for thing in things}) & _after_instead_of(new.body))


def _things(core: frozenset[str], body: str) -> frozenset[str]:
    """The content words that name things: no verb, unless a preposition or a determiner
    says it is one here ("streams on twitch", "her streams")."""
    words = body.split()
    named = {lemma(w) for before, w in pairwise(words) if before in _BEFORE_THINGS}
    return (
        frozenset(w for w in core if (verb(w) is None or w in named) and not w.isdigit())
        - _OWN_CHOICES
    )


def _clause_lemmas(words: list[str]) -> set[str]:
    """The lemmas of ``words`` up to the first punctuation (the end of their clause)."""
    return {lemma(word) for word in takewhile(lambda word: word not in PUNCTUATION, words)}


def _after_instead_of(body: str) -> frozenset[str]:
    """The words (as lemmas) of what was given up for another: "uses a chromebook instead of
    his windows laptop"."""
    return frozenset(_clause_lemmas(body.partition(" instead of ")[2].split()))


def _switched_to(body: str) -> frozenset[str]:
    """The words (as lemmas) of what a switch went to: "switched to playing valorant on pc"."""
    words = body.split()
    found: set[str] = set()
    for index, word in enumerate(words[:-1]):
        if word in _SWITCHES and words[index + 1] in ("to", "into"):
            found |= _clause_lemmas(words[index + 2 :])
    return frozenset(found)


def tells_change(reading: Reading) -> bool:
    """Whether the fact tells of some change ("moved", "single again", "quit vaping")."""
    return bool(find_cues(reading.body))


def changed_topics(reading: Reading) -> frozenset[str]:
    """The topics whose facts a change told by the fact may end ("dropped out of uni": the
    studies; "switched to business": whatever the fact names)."""
    found: set[str] = set()
    for cue, _ in find_cues(reading.body):
        found |= TOPIC_CUES.get(cue) or NAMED_CUES.get(cue, frozenset()) & topics(reading)
    return frozenset(found)


def clear_cache() -> None:
    """Forget the cached cues and topics (benchmarks time cold calls with it)."""
    find_cues.cache_clear()
    topics.cache_clear()


@lru_cache(maxsize=8192)
def topics(reading: Reading) -> frozenset[str]:
    """What a fact is about: its slots' topics, else its words' ("works retail": work), as
    read or as written ("a student": studies; "learning": no studies)."""
    slots = find_slots(reading.body)
    if slots:
        return frozenset(_SLOT_TOPICS[slot.key] for slot in slots if slot.key in _SLOT_TOPICS)
    words = reading.core.union(reading.body.split())
    return frozenset(_WORD_TOPICS[word] for word in words if word in _WORD_TOPICS)


def _topic_ended(cue: str, old: Reading, new: Reading, told: set[str]) -> bool:
    """A cue of a topic the old fact is about, the old value not kept ("moved" / "lives in
    Paris": ended, unless the new fact still says they are in Paris, or in France)."""
    shared = topics(old) & (TOPIC_CUES.get(cue) or NAMED_CUES[cue] & topics(new))
    if not shared or shared & told:
        return False
    olds = [slot for slot in find_slots(old.body) if _SLOT_TOPICS.get(slot.key) in shared]
    news = [slot for slot in find_slots(new.body) if slot.key in {s.key for s in olds}]
    if news and compare_slots(olds, news) is not Verdict.CONFLICT:
        return False  # the same value told again, or one within the other
    body = f" {new.body} "
    said = (old.core - {old.subject}) - _WORD_TOPICS.keys()
    if any(_left(body, word) for word in said | {slot.value for slot in olds}):
        return True  # "resigned from latam, a flight attendant with azul now"
    if cue in ENDING_CUES:
        return True  # the value it names is the one ended: "jo and him broke up"
    if (said or old.core - {old.subject}) <= new.core:
        return False  # "jay in denver now" / "jay moved to denver", "a mod" / "promoted to mod"
    kept = {slot.value for slot in olds}
    return not any(
        (f" {value} " in body or f" {value}-" in body) and not _left(body, value)
        for value in kept
        if len(value) > 2
    )  # "lives in amsterdam" / "moved to a bigger flat in amsterdam-noord": kept


def _shared_ended(cue: str, old: Reading, new: Reading) -> bool:
    """A switch on the thing both facts name, the old fact's words not all kept ("uses
    windows 10" / "upgraded to windows 11"; not "plays valorant" / "switched to playing
    valorant on pc") or one of them named as what was left ("switched from valorant to
    overwatch"); or to another of a kind the old fact named, whatever both keep ("uses linux
    on his laptop" / "switched to windows on his laptop")."""
    said = old.core - {old.subject}
    shared = (said & new.core) - {cue}
    if not shared:
        return _rival(said, new.core - {cue})
    if _rival(said - shared, new.core - shared - {cue}):
        return True  # "uses linux on his laptop" / "switched to windows on his laptop"
    body = f" {new.body} "
    if all(_part_of(body, word) for word in shared):
        return False  # "upgraded the ram in his laptop": the laptop stays
    if " to " in body and " from " not in body:
        target = f" {body.split(' to ', 1)[1]}"
        kept = [word for word in said if verb(word) is None]
        if kept and all(f" {word}" in target for word in kept):
            return False  # "upgraded to the fl studio producer edition": a new edition of it
    return not said <= new.core or any(_left(new.body, word) for word in shared)


def _part_of(body: str, word: str) -> bool:
    """``word`` names what a part switched belongs to: "the ram in his laptop"."""
    return any(
        f" {place} {owner} {word} " in body
        for place in ("in", "of", "on", "for")
        for owner in ("his", "her", "their", "my")
    )


def _rival(said: frozenset[str], new: frozenset[str]) -> bool:
    """The switch names another of a kind the old fact named one of, and not that one
    ("uses an iphone" / "switched to a pixel", "mains valorant" / "swapped to fortnite")."""
    kinds = {kind for word in said for kind in MEMBER_OF.get(word, ())}
    return (
        bool(kinds)
        and not said & new
        and any(kinds & MEMBER_OF.get(word, frozenset()) for word in new)
    )


_OWN_CHOICES = FAVOURITES | {"main", "go-to", "usual"}
"""What a possessive fact may name as the subject's own choice ("Haruto's main game")."""


def _left(body: str, value: str) -> bool:
    """The new fact names the old value as what was left ("graduated from Uppsala", "moved out
    of Leeds", "out of his parents' place"; not "moved to another part of Leeds")."""
    return any(f" {word} {owner}{value} " in body
               for word in ("from", "left", "quit", "leaving", "out of", "out")
               for owner in ("", "the ", "his ", "her ", "their "))  # fmt: skip


_RELATIVE_PRONOUNS = frozenset({"who", "which", "that"})


def _object_ended(cue: str, index: int, old: Reading, new: Reading) -> bool:
    """A content word of both facts next to the cue, on the side the cue ends."""
    words = new.body.split()
    near = []
    if cue in AFTER_CUES:
        near += words[index + 1 : index + 1 + WINDOW]
    if cue == ENDED_IT:  # "bingo ? stopped it": whatever the fact named before
        near += words[1:index]
    elif cue == CLAUSE_OVER:  # "broken arm , cast off": the cast, not the arm
        near += list(takewhile(lambda word: word not in PUNCTUATION, reversed(words[1:index])))
    elif cue in BEFORE_CUES and index > 1 and words[index - 1] in _RELATIVE_PRONOUNS:
        near.append(words[index - 2])  # "a fisherman who died": him only, not "keen"
    elif cue in BEFORE_CUES:  # both ways for a few: "returned the 4070", "the mac got returned"
        near += words[max(0, index - WINDOW) : index]
    olds = old.core - {old.subject}
    return any(
        kin(said, mine) or words_match(said, mine) or said in MEMBER_OF.get(mine, ())
        for said in (canonical(word) for word in near)
        for mine in olds
    )
