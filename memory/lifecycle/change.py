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
  up, stepped down, handed off, went off, swore off, dumped, kicked from, retired from, gave
  or handed to someone, pulled out of, came off, nuked, tore down, rip; died, passed away,
  renamed, is gone, got sold, fell off, is done, is dead to them, uninstalled, ended; closed,
  returned or removed, either side: "closed her etsy shop", "the etsy shop closed", "returned
  the 4070", "the mac got returned", not "returned to uni") stands next to
  a content word of the old fact, a word made from it, or a kind it is one of ("quit
  vaping" / "vapes", "left teaching" / "a teacher", "Biscuit passed away" / "a dog named
  Biscuit", "cut out caffeine" / "drinks coffee"); or
* a **switch** (switched, upgraded, migrated, swapped, changed) names a word of an old fact,
  one of the two facts being on no topic above, and does not keep all its words ("uses
  windows 10" / "upgraded to windows 11", "drives a golf to work" / "swapped her golf for a
  kia").

A plan ends only when cancelled, scrapped, abandoned or ditched ("is planning a trip to
Iran" / "cancelled the Iran trip").

Not a change: a topic cue of someone else's ("Mike's brother is divorced"), a negated cue
("hasn't moved"), a plan or wish ("wants to move", "is moving", "thinking of quitting"; what
"had to" be done or was "decided" is done), a part of a thing or a new edition of it
switched ("upgraded the RAM in his laptop", "upgraded to the producer edition"), a
change of an old fact that is a dated event ("went on a date with Tom on 4 June") or a wish
("wants to be a pilot"), an old fact that told the same change already ("broke up" /
"single"), a negated old fact, and a change that keeps the old value ("lives in Paris" /
"moved to a bigger flat in Paris", "lives in France" / "moved to Lyon"); a cue that ends a
value without telling a new one (graduated, broke up, retired) names what ended, not what
is kept ("graduated in graphic design").
"""

from __future__ import annotations

from functools import lru_cache

from memory.extraction.offline.verbs import verb
from memory.lifecycle.lexicon import KINDS, MEATS, MEMBER_OF, OCCUPATIONS, PETS, SYNONYMS
from memory.lifecycle.reading import CLAUSE_ENDS, Reading, lemma
from memory.lifecycle.slots import Verdict, compare_slots, find_slots
from memory.lifecycle.spelling import kin

HOME, WORK, LOVE, STUDIES, PET, DIET = "home", "work", "relationship", "studies", "pet", "diet"
ROLE = "role"  # a member's part in a community: mod, admin, captain

_SLOT_TOPICS = {"home": HOME, "job": WORK, "employer": WORK, "status": LOVE,
                "studies": STUDIES, "school": STUDIES, "pets": PET, "household": HOME}  # fmt: skip
_TOPIC_WORDS = {
    HOME: "live flat apartment house city town neighbourhood neighborhood reside",
    WORK: "work job employ employer career boss office shift retail company firm role "
    "position hire",
    LOVE: "boyfriend girlfriend partner wife married engaged fiance fiancee dating date "
    "relationship single wedding",
    STUDIES: "student studying studies major degree university college school course phd masters "
    "semester class " + " ".join(KINDS["subject"]),
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

_TOPIC_CUES: dict[str, frozenset[str]] = {
    "move": frozenset({HOME}), "relocate": frozenset({HOME}), "emigrate": frozenset({HOME}),
    "single": frozenset({LOVE}), "split": frozenset({LOVE}), "breakup": frozenset({LOVE}),
    "divorce": frozenset({LOVE}), "divorced": frozenset({LOVE}), "dump": frozenset({LOVE}),
    "separate": frozenset({LOVE}), "separated": frozenset({LOVE}),
    "widowed": frozenset({LOVE}), "graduate": frozenset({STUDIES}),
    "dropout": frozenset({STUDIES}), "fire": frozenset({WORK}), "fired": frozenset({WORK}),
    "sack": frozenset({WORK}), "sacked": frozenset({WORK}), "retire": frozenset({WORK}),
    "retired": frozenset({WORK}), "unemployed": frozenset({WORK}),
    "jobless": frozenset({WORK}), "redundant": frozenset({WORK}),
    "retirement": frozenset({WORK}), "resign": frozenset({WORK, ROLE}),
    "promote": frozenset({ROLE}), "demote": frozenset({ROLE}), "demodded": frozenset({ROLE}),
}  # fmt: skip
"""Cues that name the topic they change on their own."""
_ENDING_CUES = frozenset(_TOPIC_CUES) - {"move", "relocate", "emigrate", "promote", "demote"}
"""Topic cues that end a value and tell no new one: the value they name is the one ended."""

_NAMED_CUES: dict[str, frozenset[str]] = {
    "switch": frozenset({STUDIES, WORK, DIET, HOME}),
    "transfer": frozenset({STUDIES, WORK}),
    "change": frozenset({STUDIES, WORK, DIET}),
}  # fmt: skip
"""Cues that change whatever topic the new fact names too ("switched her major")."""

_AFTER_CUES = frozenset({"quit", "leave", "stop", "sell", "lose", "ditch", "drop", "replace",
                         "uninstall", "uninstalled", "wipe", "delete", "cancel", "abandon",
                         "giveup", "stepdown", "handoff", "shutdown", "trade", "scrap",
                         "rehome", "rehomed", "forget", "off", "retire", "retired", "give",
                         "hand", "dump", "rip", "flog", "nuke", "return", "remove",
                         "closed"})  # fmt: skip
"""Cues that end the thing after them ("quit retail", "left the hardware store", "replaced
his Deathadder with a G Pro", "handed off the wiki", "retired from netball", "gave ziggy to
her cousin")."""
_GIVEN = frozenset({"give", "hand"})
"""Cues that end a thing only when it goes to someone ("gave bubu to her niece", "gave the
cat away"; not "gave a talk")."""
_DETERMINERS = frozenset({"his", "her", "their", "my", "a", "an", "the", "some", "someone",
                          "somebody", "another"})  # fmt: skip
_SERVICES = frozenset({"lesson", "lessons", "class", "classes", "talk", "talks", "advice", "tip",
                       "tips", "feedback", "lecture", "lectures", "speech", "ride", "rides",
                       "tour", "tours", "help", "shoutout", "update", "updates", "massage",
                       "hug", "hugs", "chance", "hand"})  # fmt: skip
"""What is given without being given away ("gives piano lessons to kids")."""
_BEFORE_CUES = frozenset({"die", "rename", "pass", "gone", "sold", "expire", "lapse", "dead",
                          "done", "return", "remove", "closed", "uninstalled",
                          "ended"})  # fmt: skip
"""Cues that end the thing before them ("Biscuit passed away", "the dog was renamed", "the
1660 is gone", "the xbox got sold")."""
_PHRASES = {("break", "up"): "breakup", ("drop", "out"): "dropout", ("lay", "off"): "fire",
            ("laid", "off"): "fire", ("call", "off"): "split", ("give", "up"): "giveup",
            ("step", "down"): "stepdown", ("hand", "off"): "handoff", ("hand", "over"): "handoff",
            ("shut", "down"): "shutdown", ("pack", "in"): "quit", ("cut", "out"): "quit",
            ("get", "rid"): "ditch", ("run", "out"): "expire", ("swear", "off"): "quit",
            ("cut", "off"): "quit", ("fall", "off"): "gone", ("kick", "from"): "leave",
            ("kick", "out"): "leave", ("pull", "out"): "quit", ("sell", "up"): "move",
            ("come", "off"): "quit", ("tear", "down"): "shutdown", ("dip", "from"): "leave",
            ("jump", "ship"): "leave", ("step", "away"): "leave",
            ("part", "ways"): "split"}  # fmt: skip
_PASSIVE = frozenset({"got", "get", "was", "were", "been", "is", "are"})
"""Before "sold", what makes the thing sold the word before ("the 2060 got sold")."""
_ENDS = frozenset({"", ",", ".", ";", "!", "?", "now", "lol", "lmao", "and", "but"})
"""After a word, the end of its clause ("xbox sold, pc now")."""
_GOING_OFF = frozenset({"is", "was", "went", "go", "goes", "been", "got", "now", "fully",
                        "completely", "totally", "officially"})  # fmt: skip
"""Before "off", what makes it a habit left ("juno off keto", "went off mushrooms")."""
_OFF_A_WHILE = frozenset({"work", "duty", "today", "tomorrow", "tonight", "school", "shift",
                          "sick", "the", "for", "to", "on"})  # fmt: skip
"""After "off", what makes it time away ("off work today"), not a habit left."""
_OWN_TOPIC_CUES = frozenset({"switch", "upgrade", "migrate", "swap", "change"})
"""Named cues that also end a fact on no known topic when the two share a word ("uses
windows 10" / "upgraded to windows 11", "mains jett in valorant" / "switched her valorant
main to sage")."""
_ALL_CUES = (_TOPIC_CUES.keys() | _NAMED_CUES.keys() | _AFTER_CUES | _BEFORE_CUES
             | _OWN_TOPIC_CUES)  # fmt: skip
_WINDOW = 5
_NEGATORS = frozenset({"not", "never", "no"})
_GOING_BACK = frozenset({"to", "from", "home", "back", "for", "after", "with", "in"})
_TRADES = frozenset({"sell", "sells", "selling", "drops", "dropping"})
_PLAN_ENDERS = frozenset({"cancel", "scrap", "abandon", "ditch"})
"""Cues that end a plan too ("is planning a trip to Iran" / "cancelled the Iran trip")."""
_PLANS = frozenset({"to", "will", "might", "may", "could", "would", "should", "gonna",
                    "wanna", "about", "of", "considering", "planning", "thinking", "hoping",
                    "if", "maybe"})  # fmt: skip
"""A word before a cue that makes it a plan or a wish, not a change."""


def ended(old: Reading, new: Reading) -> bool:
    """Whether ``new`` tells of a change that ends ``old`` (see the module's docstring)."""
    if old.negated or old.empty or new.empty or old.dates:
        return False  # a dated event stays true: "went on a date with Tom on 4 June"
    cues = _cues(new.body)
    if not cues or (old.wished and _PLAN_ENDERS.isdisjoint(cue for cue, _ in cues)):
        return False  # "wants to be a teacher" is no state a change can end, but "cancelled"
    old_cues = _cues(old.body)
    told = {cue for cue, _ in old_cues} | {
        topic for cue, _ in old_cues for topic in _TOPIC_CUES.get(cue, ())
    }
    for cue, index in cues:
        if cue in told:
            continue  # the old fact told this change already
        if cue in _OWN_TOPIC_CUES and not (topics(old) and topics(new)):
            same_owner = old.possessive == new.possessive or _own_choice(old)
            if same_owner and _shared_ended(cue, old, new):
                return True
        elif cue in _TOPIC_CUES or cue in _NAMED_CUES:
            if old.possessive == new.possessive and _topic_ended(cue, old, new, told):
                return True
            if cue in _AFTER_CUES and _object_ended(cue, index, old, new):
                return True  # "retired from netball": a pastime, not a job
        elif _object_ended(cue, index, old, new):
            return True
    return False


def tells_change(reading: Reading) -> bool:
    """Whether the fact tells of some change ("moved", "single again", "quit vaping")."""
    return bool(_cues(reading.body))


def changed_topics(reading: Reading) -> frozenset[str]:
    """The topics whose facts a change told by the fact may end ("dropped out of uni": the
    studies; "switched to business": whatever the fact names)."""
    found: set[str] = set()
    for cue, _ in _cues(reading.body):
        found |= _TOPIC_CUES.get(cue) or _NAMED_CUES.get(cue, frozenset()) & topics(reading)
    return frozenset(found)


def clear_cache() -> None:
    """Forget the cached cues and topics (benchmarks time cold calls with it)."""
    _cues.cache_clear()
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


@lru_cache(maxsize=8192)
def _cues(body: str) -> tuple[tuple[str, int], ...]:
    """The change cues of a fact's body, with their word positions; plans and denials left
    out (cached: a member's facts are compared with many)."""
    words = body.split()
    found: list[tuple[str, int]] = []
    for index, word in enumerate(words):
        base = lemma(word)
        following = words[index + 1] if index + 1 < len(words) else ""
        base = _PHRASES.get((base, following), _PHRASES.get((word, following), base))
        if base == "pass" and following != "away":
            continue
        if base == "return" and following in _GOING_BACK:
            continue  # "returned to PUC-Rio": back, not giving it back
        sold_before = word == "sold" and following in _ENDS  # "xbox sold, pc now"
        if word in _TRADES and base in ("sell", "drop") and following != "out":
            continue  # "sells her scarfs on etsy", "drops novellas on kdp": a trade, not a loss
        if base == "sell" and index and (words[index - 1] in _PASSIVE or sold_before):
            base = "sold"  # "the 2060 got sold": what was sold comes before
        elif base == "do" and word == "done" and words[index - 1] in ("is", "'s", "are"):
            if following not in _ENDS:
                continue  # "is done with it" is read as "stopped" (phrases)
            base = "done"  # "vegan arc is done"
        elif base == "dead" and following not in _ENDS | {"to"}:
            continue  # "chelsea dead to him", "league is dead now"; not "dead by daylight"
        elif _no_end_told(base, words, index):
            continue
        elif base == "go" and word == "gone":
            base = "gone"
        elif word == "closed" or (word == "ended" and following in _ENDS):
            base = word  # "closed her etsy shop", "the contract ended" (not "ended up")
        if base not in _ALL_CUES:
            continue
        before = words[max(0, index - 3) : index]
        done = before[-2:] in (["had", "to"], ["decided", "to"])  # "had to rehome juno"
        if _NEGATORS.intersection(before) or (before and before[-1] in _PLANS and not done):
            continue
        ongoing = bool(before) and before[-1] in {"is", "are", "am"}
        if word.endswith("ing") and (ongoing or base in _TOPIC_CUES):
            continue  # "is moving to", "graduating this year": a plan
        found.append((base, index))
    return tuple(found)


def _no_end_told(base: str, words: list[str], index: int) -> bool:
    """ "off" or "gave" at ``index`` that ends nothing ("off work today", "gave a talk")."""
    if base == "off":
        return not _left_off(words, index)
    if base in _GIVEN:
        return not _given_away(words, index)
    return False


def _given_away(words: list[str], index: int) -> bool:
    """A thing given at ``index`` goes to someone or away: "gave ziggy the gecko to her
    cousin", "handed the bot to vee", "gave the cat away"."""
    clause = []
    for word in words[index + 1 : index + 1 + _WINDOW + 2]:
        if word in CLAUSE_ENDS:
            break
        clause.append(word)
    if _SERVICES.intersection(clause):
        return False
    recipients = [
        clause[at + 1] for at in range(1, len(clause) - 1) if clause[at] == "to"
    ]  # "to her cousin", "to vee"; not "a treat to celebrate"
    return (
        "away" in clause
        or "over" in clause
        or any(word in _DETERMINERS or verb(word) is None for word in recipients)
    )


def _left_off(words: list[str], index: int) -> bool:
    """ "off" at ``index`` tells a habit left: "juno off keto", "went off mushrooms" (not
    "day off", "off work today"; "off the cigarettes" as "off cigarettes")."""
    following = words[index + 1] if index + 1 < len(words) else ""
    if following == "the" and index + 2 < len(words):
        following = words[index + 2]
    return (index == 1 or words[index - 1] in _GOING_OFF) and following not in _OFF_A_WHILE | _ENDS


def _topic_ended(cue: str, old: Reading, new: Reading, told: set[str]) -> bool:
    """A cue of a topic the old fact is about, the old value not kept ("moved" / "lives in
    Paris": ended, unless the new fact still says they are in Paris, or in France)."""
    shared = topics(old) & (_TOPIC_CUES.get(cue) or _NAMED_CUES[cue] & topics(new))
    if not shared or shared & told:
        return False
    olds = [slot for slot in find_slots(old.body) if _SLOT_TOPICS.get(slot.key) in shared]
    news = [slot for slot in find_slots(new.body) if slot.key in {s.key for s in olds}]
    if news and compare_slots(olds, news) is not Verdict.CONFLICT:
        return False  # the same value told again, or one within the other
    body = f" {new.body} "
    said = (old.core - {old.subject}) - _WORD_TOPICS.keys()
    if any(_left(body, word) for word in said):
        return True  # "resigned from latam, a flight attendant with azul now"
    if cue in _ENDING_CUES:
        return True  # the value it names is the one ended: "jo and him broke up"
    if said and said <= new.core:
        return False  # "jay in denver now" / "jay moved to denver"
    kept = {slot.value for slot in olds}
    return not any(
        f" {value} " in body and not _left(body, value) for value in kept if len(value) > 2
    )


def _shared_ended(cue: str, old: Reading, new: Reading) -> bool:
    """A switch on the thing both facts name, the old fact's words not all kept ("uses
    windows 10" / "upgraded to windows 11"; not "plays valorant" / "switched to playing
    valorant on pc") or one of them named as what was left ("switched from valorant to
    overwatch")."""
    said = old.core - {old.subject}
    shared = (said & new.core) - {cue}
    if not shared:
        return _rival(said, new.core - {cue})
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


_OWN_CHOICES = frozenset({"main", "favorite", "favourite", "fav", "fave", "go-to", "usual"})


def _own_choice(reading: Reading) -> bool:
    """A possessive fact about the subject's own choice, not about someone of theirs
    ("Haruto's main game is Valorant", not "Haruto's sister plays Valorant")."""
    words = reading.body.split()
    return reading.possessive and len(words) > 2 and words[2] in _OWN_CHOICES


def _left(body: str, value: str) -> bool:
    """The new fact names the old value as what was left ("graduated from Uppsala", "moved out
    of Leeds"; not "moved to another part of Leeds")."""
    return any(f" {word} {value} " in body or f" {word} the {value} " in body
               for word in ("from", "left", "quit", "leaving", "out of", "out"))  # fmt: skip


def _object_ended(cue: str, index: int, old: Reading, new: Reading) -> bool:
    """A content word of both facts next to the cue, on the side the cue ends."""
    words = new.body.split()
    near = []
    if cue in _AFTER_CUES:
        near += words[index + 1 : index + 1 + _WINDOW]
    if cue in _BEFORE_CUES:  # both ways for a few: "returned the 4070", "the mac got returned"
        near += words[max(0, index - _WINDOW) : index]
    olds = old.core - {old.subject}
    return any(
        kin(said, mine) or said in MEMBER_OF.get(mine, ())  # "cut out caffeine" / "coffee"
        for said in (SYNONYMS.get(lemma(word), lemma(word)) for word in near)
        for mine in olds
    )
