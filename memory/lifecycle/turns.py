"""Turns a later fact tells of an earlier one's state, each a contradiction of it: a habit
stopped then taken up again, an ailment then well again, none of a kind then a first one
got, a thing done on other days or at another time, a date put off or brought forward, a
thing worked for then done; none of a thing at home then one put in, a term renewed or ended
early, drinking again, a local club left by a move; off a waiting list, a relapse.

    resumed(read("quit smoking"), read("smoking again"), ...) → True
    rescheduled(read("lev: practice 6am"), read("lev - practice moved to evenings"), ...) → True
    postponed(read("moving out on the 30th"), read("the move got pushed to the 7th"), ...) → True

Each takes the two readings (the older first) and, where it needs them, their content words
with the subject's names left out (see :func:`memory.lifecycle.relation.relation`, step 5).
"""

from __future__ import annotations

import re
from itertools import pairwise

from memory.extraction.offline.verbs import verb
from memory.lifecycle.lexicon import ALCOHOL, GENERIC_WORDS, PETS
from memory.lifecycle.places import is_place
from memory.lifecycle.reading import Reading
from memory.lifecycle.slot_values import values_agree
from memory.lifecycle.slots import find_slots
from memory.lifecycle.when import apart, leaves_a_part
from memory.lifecycle.word_match import words_match


def resumed(old: Reading, new: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """A habit stopped, then taken up again: "quit smoking" / "smoking again, a pack a day"."""
    return (
        old.stopped
        and not new.negated
        and not new.stopped
        and "again" in new.body.split()
        and not new.wished  # "wants to smoke again" is no smoking
        and bool(core_a & core_b)
    )


_AILMENTS = frozenset({"injure", "injured", "injury", "break", "broken", "tear", "torn",
                       "sprain", "fracture", "pain", "hurt", "sore", "sick", "ill", "flu",
                       "covid", "recover", "surgery", "strain", "tendonitis", "splint",
                       "concussion", "cast", "sideline"})  # fmt: skip
_BODY = frozenset({"knee", "ankle", "wrist", "calf", "shin", "shoulder", "hip", "hamstring",
                   "foot", "hand", "arm", "leg", "elbow", "neck", "achilles", "acl", "toe",
                   "finger", "rib", "head", "groin", "quad", "thumb"})  # fmt: skip
_OUT_INJURED = re.compile(
    r"\bout (?:injured|for the season|for (?:a|the) (?:bit|while|month|rest of the season)"
    rf"|with (?:a |an |his |her |their )?(?:\w+ )?(?:{'|'.join(sorted(_BODY))}))\b"
)
"""Out of a team for a while: an ailment told by what it stops ("acl . out for the season",
"out with a bad knee")."""
_WELL_AGAIN = re.compile(
    r"\b(?:healed|recovered|all good|is fine|fine now|fully fit|cleared|cast off|pain free"
    r"|good as new|(?:back|switched) (?:to |at |on |in )?(?:training|running|work|gigging"
    r"|playing|the gym|school))\b"
)
"""An ailment's end: "fully healed", "knee all good now", "back training"."""
_RECOVERED_FROM = re.compile(r"\b(?:recovered|healed) from\b")
"""An ailment named as what is over: "has recovered from her hamstring injury"."""


def recovered(old: Reading, new: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """An injury or an illness, then well again: "has a broken wrist" / "got the cast off, the
    wrist is fine", "knee pain" / "knee all good now" (not another part of the body)."""
    told_over = _RECOVERED_FROM.search(new.body) is not None
    ailing = core_a & _AILMENTS or _OUT_INJURED.search(old.body) is not None
    if not ailing or (core_b & _AILMENTS - {"cast", "recover"} and not told_over):
        return False  # "broken arm, cast off in 3 weeks" is broken still
    if new.negated or old.dates:
        return False  # "broke his wrist in 2022" stays true
    if _WELL_AGAIN.search(new.body) is None:
        return False
    whose_old, whose_new = _owned(old), _owned(new)  # "uma 's son ...": "son"
    own_body = not whose_old and whose_new in _BODY
    return core_b & _BODY <= core_a and (whose_old == whose_new or own_body)


def _owned(reading: Reading) -> str:
    """What of the subject's a possessive fact is about ("uma 's son": "son"), else ""."""
    words = reading.body.split()
    return words[2] if reading.possessive and len(words) > 2 else ""


_GETTING = frozenset({"get", "adopt", "rescue", "buy", "have", "birth", "welcome", "bring"})
_GOT = frozenset({"got", "get", "gets", "getting"})
_FIRST_ONES = {
    "pets": frozenset(PETS.values()) | {"pet"},
    "children": frozenset({"kid", "baby", "son", "daughter", "twin", "boy", "girl"}),
}
"""What a member with none of a kind gets first: a pet, a child."""


_BORN = re.compile(
    r"\b(?:gave birth|has given birth|had (?:the|her|their) baby|baby (?:\w+ )?(?:arrived|was born)"
    r"|(?:was|were) born)\b"
)


def born(old: Reading, new: Reading) -> bool:
    """Pregnant, then the baby born: "is expecting her first" / "her baby girl arrived"."""
    return "pregnant" in old.core and not old.negated and _BORN.search(new.body) is not None


_WORKING_FOR = re.compile(
    r"\b(?:studying|revising|training|preparing|prepping|cramming) for (?:the |his |her |their "
    r"|an? )?(?:first )?((?:[\w-]+ ){0,2}[\w-]+)"
)
_DONE = r"(?:passed|completed|finished|ran|did|sat|aced|smashed|got through|cleared)"


def achieved(old: Reading, new: Reading) -> bool:
    """Working for a thing, then the thing done: "studying for the nclex" / "passed the
    nclex", "training for her first half marathon" / "completed her first half marathon"."""
    working = _WORKING_FOR.search(old.body)
    if working is None or old.negated or new.wished:
        return False
    words = working.group(1).split()
    for end in range(len(words), 0, -1):  # "the nclex every night": "nclex"
        thing = re.escape(" ".join(words[:end]))
        done = rf"(?<!not ){_DONE} (?:the |his |her |their |an? )?(?:first )?{thing}\b"
        if re.search(done, new.body):
            return True
    return False


def first_one(old: Reading, new: Reading, core_a: frozenset[str]) -> bool:
    """None had, then one got: "no pets" / "got a kitten", "has no kids" / "gave birth to a
    baby boy", "has never owned a pet" / "adopted a rescue cat"."""
    getting = new.core & _GETTING or _GOT.intersection(new.body.split())  # "got" is read as no word
    if new.negated or new.wished or new.possessive != old.possessive or not getting:
        return False
    nones = {slot.key for slot in find_slots(old.body) if slot.value == "none"}
    if old.negated and core_a - _GETTING in ({"pet"}, {"kid"}):
        nones.add("pets" if "pet" in core_a else "children")
    return any(new.core & _FIRST_ONES[key] for key in nones if key in _FIRST_ONES)


def first_time(old: Reading, new: Reading, core_a: frozenset[str], core_b: frozenset[str]) -> bool:
    """Never done, then done a first time: "has never played pathfinder" / "played her first
    pathfinder session", "has never been to japan" / "went to japan for the first time"; the
    two share a thing, not only a verb ("never played" / "played her first game of chess")."""
    if not old.negated or new.negated or old.possessive != new.possessive or new.wished:
        return False
    words = new.body.split()
    if "never" not in old.body.split() or "first" not in words:
        return False
    firsts = {after for before, after in pairwise(words) if before == "first"}
    shared = {word for word in core_a if any(words_match(word, other) for other in core_b)}
    return any(verb(word) is None or _done_first(word, firsts)
               for word in shared - GENERIC_WORDS - {"first"})  # fmt: skip


def _done_first(word: str, firsts: set[str]) -> bool:
    """The word, or one the rules match with it, said right after "first" ("never cosplayed" /
    "did his first cosplay": a verb the dictionary does not know)."""
    return any(words_match(word, first) for first in firsts)


_MOVED = frozenset({"move", "moved", "switch", "switched", "change", "changed", "shift",
                    "shifted", "reschedule", "rescheduled", "now", "instead"})  # fmt: skip
"""What tells a day changed, not one more: "moved the streams to sundays", "sundays now"."""
_MOVED_TO = _MOVED - {"now", "instead"}
"""What tells a time moved, not one more ("practice moved to evenings")."""
_ADDED = frozenset({"too", "also", "and"})
"""What tells a time added, not moved ("runs in the evenings now too")."""
_CLOCK = re.compile(r"\b(\d{1,2})(?::\d\d)? ?([ap]m)\b|\b(morning|afternoon|evening|night)s?\b")


def _times(body: str) -> frozenset[str]:
    """The hours ("6am", "8 pm") and parts of the day ("evenings") a fact names."""
    return frozenset(
        f"{int(match[1])}{match[2]}" if match[1] else match[3] for match in _CLOCK.finditer(body)
    )


def rescheduled(first: Reading, second: Reading, core_a: frozenset[str],
                 core_b: frozenset[str]) -> bool:  # fmt: skip
    """The same thing done on other days or at another time, told as a change ("streams
    every friday" / "moved her streams to sunday afternoons", "saturday runs moved . sundays
    now", "practice 6am" / "practice moved to evenings", "runs in the mornings" / "only runs
    at night now": another part of the day, told with "now" and not "too"; "gym after work
    now , not mornings": the old part named as left)."""
    words = second.body.split()
    if _MOVED.isdisjoint(words) or first.negated:
        return False
    if not (core_a & core_b) - _NO_THING:
        return False
    if second.negated:  # only the time left: "gym after work now , not mornings"
        return leaves_a_part(second.body) and _new_part(first, second, words)
    if apart(first.days, second.days):
        return True
    if _new_part(first, second, words):
        return True
    if _MOVED_TO.isdisjoint(words):
        return False
    if first.days and second.days - first.days:
        return True  # "saturday runs moved . sundays now": the day it moved from named too
    times_a, times_b = _times(first.body), _times(second.body)
    return bool(times_a) and bool(times_b) and not times_a & times_b


_ONE_DAY = re.compile(r"^\S+ 's (?:\S+ ){1,3}?(?:day )?(?:is|are)(?: on)?$")
"""What a thing of the subject's falls on, its day taken out: "wendy 's bin day is"."""


def day_changed(first: Reading, second: Reading) -> bool:
    """A thing of the subject's that falls on one day, said of another day ("Wendy's bin day is
    Thursday" / "... is Monday"; not a habit done on both, "runs on mondays" / "on tuesdays"),
    or on one date, said of another ("Grace's school breaks up on 19 July" / "... on 23 July
    this year")."""
    if first.body != second.body:
        return False
    if _ONE_DAY.match(first.body) is not None:
        return len(first.days) == len(second.days) == 1 and first.days != second.days
    dates_a, dates_b = _calendar(first.dates), _calendar(second.dates)
    one_each = len(dates_a) == len(dates_b) == 1
    return one_each and dates_a != dates_b and _THING_OF.match(first.body) is not None


_THING_OF = re.compile(r"^\S+ 's ")
"""A fact about a thing of the subject's ("grace 's school ...")."""


def _calendar(dates: frozenset[str]) -> frozenset[str]:
    """The dates of a day in the calendar ("19 july", "the 30th"; not "this year")."""
    return frozenset(date for date in dates if any(char.isdigit() for char in date))


_POSTPONED = re.compile(
    r"\b(?:pushed|postponed|delayed|put back|moved back|rescheduled|bumped|brought forward"
    r"|moved forward|extension)\b|\b(?:moved|changed) to(?: the \d{1,2}(?:st|nd|rd|th)\b)?$"
)
"""A date put off or brought forward; "moved to" only as the date's own verb, the date read
out of the body ("the ceremony was moved to 21 july": "... was moved to")."""
_DAY_OF_MONTH = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b")


def postponed(first: Reading, second: Reading, core_a: frozenset[str],
              core_b: frozenset[str]) -> bool:  # fmt: skip
    """A date set, then put off or brought forward ("move-in date is 1 september" / "was
    pushed back to 15 september", "moving out on the 30th" / "the move got pushed to the 7th",
    "wedding on 3 june" / "postponed to july", "due on 2 may" / "got an extension , now due on
    16 may"): the two share a thing, the dates differ."""
    if first.negated or second.negated or _POSTPONED.search(second.body) is None:
        return False
    old, new = _dated(first), _dated(second)
    return bool(old) and bool(new) and not old & new and bool(core_a & core_b - GENERIC_WORDS)


def _dated(reading: Reading) -> frozenset[str]:
    """The dates a fact names, and the days of a month ("on the 30th")."""
    return reading.dates | frozenset(_DAY_OF_MONTH.findall(reading.body))


_INSTALLED = re.compile(r"\b(?:installed|fitted|put in)\b")
_NO_THING_HAD = GENERIC_WORDS | {"build", "place", "flat", "house", "home", "room", "landlord"}


def installed(first: Reading, second: Reading, core_a: frozenset[str],
              core_b: frozenset[str]) -> bool:  # fmt: skip
    """None of a thing at home, then one put in: "her flat has no central heating" / "the
    landlord installed central heating", "got no dishwasher" / "got a dishwasher installed"."""
    if not first.negated or second.negated or _INSTALLED.search(second.body) is None:
        return False
    return bool(core_a & core_b - _NO_THING_HAD)


_ENDS = re.compile(r"\b(?:ends?|expires?|is up|up|runs out|till|until|finishes)\b")
_RENEWED = re.compile(
    r"\b(?:renewed|extended|cut short|ended (?:\w+ ){0,2}?early|terminated|broke (?:the|his|her"
    r"|their) (?:lease|contract))\b"
)
_TERMS = frozenset({"lease", "tenancy", "contract", "visa", "membership", "subscription", "deal",
                    "loan", "agreement", "permit", "insurance", "plan"})  # fmt: skip
"""Things held for a term that ends, and may be renewed or ended early."""


def renewed(first: Reading, second: Reading, core_a: frozenset[str],
            core_b: frozenset[str]) -> bool:  # fmt: skip
    """A term with an end, then renewed, extended or ended early: "his tenancy ends in
    december" / "renewed his tenancy for another year", "lease till june" / "lease cut short"."""
    if first.negated or second.negated or _ENDS.search(first.body) is None:
        return False
    return _RENEWED.search(second.body) is not None and bool(core_a & core_b & _TERMS)


def drinks_again(first: Reading, second: Reading) -> bool:
    """Not drinking, then drinking as a habit: "never drinks on match days" / "has a couple of
    pints before every home game", "teetotal" / "beers before every game now" (not a dated
    once: "had a glass of wine at the wedding")."""
    return (
        first.negated and "drink" in first.core and not second.negated and not second.dates
        and bool(second.core & ALCOHOL)
    )  # fmt: skip


_LOCAL = re.compile(
    r"\b(?:team|club|side|league|squad|choir|band|gym|crew) (?:in|from) ([a-z]+(?: [a-z]+)?)\b"
)


def left_town(first: Reading, second: Reading) -> bool:
    """A club or team in a place, then a move elsewhere: "plays cricket for a club in
    bradford" / "moved to leicester , plays for a club there now"."""
    local = _LOCAL.search(first.body)
    if local is None or second.negated:
        return False
    place = next((p for p in (local.group(1), local.group(1).split()[0]) if is_place(p)), "")
    home = next((slot.value for slot in find_slots(second.body) if slot.key == "home"), "")
    return bool(place) and bool(home) and not values_agree("home", place, home)


_WAITING = re.compile(r"\b(?:on (?:the |a )?(?:waiting ?list|waitlist|list)|waiting) for\b")
_SEEN = re.compile(
    r"\b(?:off the (?:waiting ?list|waitlist|list)|had (?:his|her|their|the|a|my|it)|started"
    r"|saw|seen|first (?:session|appointment))\b"
)
_LISTED = frozenset({"list", "waitlist", "wait", "waiting"})


def off_the_list(first: Reading, second: Reading, core_a: frozenset[str],
                 core_b: frozenset[str]) -> bool:  # fmt: skip
    """On a waiting list, then seen: "on the waiting list for knee surgery" / "had his knee
    surgery on 4 february", "waitlist for ent" / "finally saw ent yday , off the list"."""
    if first.negated or second.negated or _WAITING.search(first.body) is None:
        return False
    return _SEEN.search(second.body) is not None and bool(core_a & core_b - GENERIC_WORDS - _LISTED)


_SOBER = frozenset({"sober", "clean"})
_RELAPSED = re.compile(
    r"\b(?:relapsed|relapse|back to day (?:1|one)|fell off the wagon|using again)\b"
)


def relapsed(first: Reading, second: Reading) -> bool:
    """Sober, then a relapse: "has been sober for 200 days" (read "does not drink") /
    "relapsed last weekend", "5 yrs clean" / "back to day 1"."""
    words = set(first.body.split())
    sober = (first.negated and "drink" in first.core) or (not first.negated and _SOBER & words)
    return bool(sober) and _RELAPSED.search(second.body) is not None


def _new_part(first: Reading, second: Reading, words: list[str]) -> bool:
    """Another part of the day than the first fact's, not one more ("runs mornings" /
    "evening runner now", "runs in the evening now , mornings are too cold"; not "too")."""
    return bool(first.parts) and bool(second.parts - first.parts) and not _added(words)


def _added(words: list[str]) -> bool:
    """A time added, not moved: "also", "and", "too" said last ("runs in the evenings now
    too"; not "mornings are too cold")."""
    ends = [*words[1:], "."]
    return any(
        word in _ADDED and (word != "too" or not following.isalpha())
        for word, following in zip(words, ends, strict=True)
    )


_NO_THING = frozenset({"move", "switch", "change", "shift", "play", "go", "do", "have", "make",
                       "take", "get", "work"})  # fmt: skip
"""Words two facts share that name no one thing done ("plays football" / "plays tennis")."""
