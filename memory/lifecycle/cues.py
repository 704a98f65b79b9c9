"""The change cues of a fact (:mod:`memory.lifecycle.change`): the words that tell something
changed, where they stand, and what they change.

    find_cues("jay in atl now fr , moved last month") → (("move", 4),)

A cue is a lemma, or a phrase read as one ("broke up" → "breakup", "dipped from" →
"leave"). Left out: a cue denied ("hasn't moved"), planned or wished ("wants to move", "is
moving"; what "had to" be done or was "decided" is done), and words that only look like one
("off work today", "gave a talk", "his left foot", "sells her scarfs on etsy", "returned to
uni").
"""

from __future__ import annotations

from functools import lru_cache

from memory.extraction.offline.verbs import verb
from memory.lifecycle.reading import CLAUSE_ENDS, PUNCTUATION, lemma

HOME, WORK, LOVE, STUDIES, PET, DIET = "home", "work", "relationship", "studies", "pet", "diet"
ROLE = "role"  # a member's part in a community: mod, admin, captain

TOPIC_CUES: dict[str, frozenset[str]] = {
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
ENDING_CUES = frozenset(TOPIC_CUES) - {"move", "relocate", "emigrate", "promote", "demote"}
"""Topic cues that end a value and tell no new one: the value they name is the one ended."""

NAMED_CUES: dict[str, frozenset[str]] = {
    "switch": frozenset({STUDIES, WORK, DIET, HOME}),
    "transfer": frozenset({STUDIES, WORK}),
    "change": frozenset({STUDIES, WORK, DIET}),
}  # fmt: skip
"""Cues that change whatever topic the new fact names too ("switched her major")."""

AFTER_CUES = frozenset({"quit", "leave", "stop", "sell", "lose", "ditch", "drop", "replace",
                         "uninstall", "uninstalled", "wipe", "delete", "cancel", "abandon",
                         "giveup", "stepdown", "handoff", "shutdown", "trade", "scrap",
                         "rehome", "rehomed", "forget", "off", "retire", "retired", "give",
                         "hand", "dump", "rip", "flog", "nuke", "return", "remove",
                         "closed", "withdraw", "over-take", "resign", "yeet", "yeeted",
                         "discontinue", "writeoff", "dropout", "bury", "bin",
                         "endown"})  # fmt: skip
"""Cues that end the thing after them ("quit retail", "left the hardware store", "replaced
his Deathadder with a G Pro", "handed off the wiki", "retired from netball", "withdrew from
her degree", "gave ziggy to her cousin", "dropped out of the thursday league", "buried his
cat", "ended his campaign": "ended" before what it ends, not "ended up", nor "books that end
on cliffhangers")."""
_GIVEN = frozenset({"give", "hand"})
"""Cues that end a thing only when it goes to someone ("gave bubu to her niece", "gave the
cat away"; not "gave a talk")."""
_DETERMINERS = frozenset({"his", "her", "their", "my", "a", "an", "the", "some", "someone",
                          "somebody", "another"})  # fmt: skip
_SERVICES = frozenset({"lesson", "lessons", "class", "classes", "talk", "talks", "advice", "tip",
                       "tips", "feedback", "lecture", "lectures", "speech", "ride", "rides",
                       "tour", "tours", "help", "shoutout", "update", "updates", "massage",
                       "hug", "hugs", "chance", "hand", "lift", "lifts"})  # fmt: skip
"""What is given without being given away ("gives piano lessons to kids")."""
ENDED_IT = "ended it"
"""A cue that ends a thing named before it in the fact, by a pronoun ("bingo? stopped it",
"monster makes her sick now, done w it", "no car anymore, sold it")."""
CLAUSE_OVER = "ended-said-last"
"""A cue that ends the thing its clause starts with ("diet over", "masters done , phd now")."""
BEFORE_CUES = frozenset({CLAUSE_OVER, "die", "rename", "pass", "gone", "sold", "expire",
                          "lapse", "dead", "done", "return", "remove", "closed", "uninstalled",
                          "ended", "steal", "dethrone", ENDED_IT, "writeoff",
                          "disband"})  # fmt: skip
"""Cues that end the thing before them ("Biscuit passed away", "the dog was renamed", "the
1660 is gone", "the xbox got sold", "had her bike stolen", "sfah got dethroned")."""
_PHRASES = {("break", "up"): "breakup", ("drop", "out"): "dropout", ("lay", "off"): "fire",
            ("laid", "off"): "fire", ("call", "off"): "split", ("give", "up"): "giveup",
            ("step", "down"): "stepdown", ("stand", "down"): "stepdown",
            ("step", "back"): "stepdown", ("cut", "from"): "leave", ("hand", "off"): "handoff",
            ("hand", "over"): "handoff", ("throw", "out"): "ditch", ("throw", "away"): "ditch",
            ("shut", "down"): "shutdown", ("pack", "in"): "quit", ("cut", "out"): "quit",
            ("get", "rid"): "ditch", ("run", "out"): "expire", ("swear", "off"): "quit",
            ("cut", "off"): "quit", ("fall", "off"): "gone", ("kick", "from"): "leave",
            ("kick", "out"): "leave", ("pull", "out"): "quit", ("sell", "up"): "move",
            ("come", "off"): "quit", ("tear", "down"): "shutdown", ("dip", "from"): "leave",
            ("jump", "ship"): "leave", ("step", "away"): "leave",
            ("part", "ways"): "split", ("write", "off"): "writeoff",
            **{("ended", whose): "endown" for whose in ("his", "her", "their", "the")}}  # fmt: skip
_SIDES = frozenset({"foot", "feet", "hand", "handed", "leg", "arm", "knee", "ankle", "eye", "ear",
                   "shoulder", "hip", "wrist", "side", "wing", "lane", "turn", "back"})  # fmt: skip
"""After "left", what makes it a side, not a leaving ("his left foot")."""
_AT_END = frozenset({"", ",", ".", ";", "!", "?", "now", "lol", "lmao", "and", "for"})
"""After "fell off", what makes it the thing that fell off ("the bear fell off for her")."""
_GROUPS = frozenset({"band", "team", "group", "crew", "club", "duo", "squad", "choir", "clan"})
"""What splits up without being a couple ("the band split up", "his team broke up")."""
_PASSIVE = frozenset({"got", "get", "was", "were", "been", "is", "are"})
"""Before "sold", what makes the thing sold the word before ("the 2060 got sold")."""
ENDS = frozenset({"", ",", ".", ";", "!", "?", "now", "lol", "lmao", "and", "but"})
"""After a word, the end of its clause ("xbox sold, pc now")."""
_GOING_OFF = frozenset({"is", "was", "went", "go", "goes", "gone", "been", "got", "now", "fully",
                        "completely", "totally", "officially"})  # fmt: skip
"""Before "off", what makes it a habit left ("juno off keto", "went off mushrooms")."""
_OFF_A_WHILE = frozenset({"work", "duty", "today", "tomorrow", "tonight", "school", "shift",
                          "sick", "the", "for", "to", "on"})  # fmt: skip
"""After "off", what makes it time away ("off work today"), not a habit left."""
OWN_TOPIC_CUES = frozenset({"switch", "upgrade", "migrate", "swap", "change"})
"""Named cues that also end a fact on no known topic when the two share a word ("uses
windows 10" / "upgraded to windows 11", "mains jett in valorant" / "switched her valorant
main to sage")."""
_ALL_CUES = (TOPIC_CUES.keys() | NAMED_CUES.keys() | AFTER_CUES | BEFORE_CUES
             | OWN_TOPIC_CUES)  # fmt: skip
WINDOW = 5
_NEGATORS = frozenset({"not", "never", "no"})
_GOING_BACK = frozenset({"to", "from", "home", "back", "for", "after", "with", "in"})
_TRADES = frozenset({"sell", "sells", "selling", "drops", "dropping"})
PLAN_ENDERS = frozenset({"cancel", "scrap", "abandon", "ditch"})
"""Cues that end a plan too ("is planning a trip to Iran" / "cancelled the Iran trip")."""
_PLANS = frozenset({"to", "will", "might", "may", "could", "would", "should", "gonna",
                    "wanna", "about", "of", "considering", "planning", "thinking", "hoping",
                    "if", "maybe"})  # fmt: skip
"""A word before a cue that makes it a plan or a wish, not a change."""


@lru_cache(maxsize=8192)
def find_cues(body: str) -> tuple[tuple[str, int], ...]:
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
        if base == "gone" and following == "off":
            after_off = words[index + 2] if index + 2 < len(words) else ""
            if after_off not in _AT_END:  # "fell off the gym"; not "the handle fell off"
                base = "quit"
        if base in ("split", "breakup") and index and words[index - 1] in _GROUPS:
            base = "gone"  # "the band split up": the band ended, no couple
        if base == "return" and following in _GOING_BACK:
            continue  # "returned to PUC-Rio": back, not giving it back
        sold_before = word == "sold" and following in ENDS  # "xbox sold, pc now"
        if word in _TRADES and base in ("sell", "drop") and following != "out":
            continue  # "sells her scarfs on etsy", "drops novellas on kdp": a trade, not a loss
        if base == "sell" and index and (words[index - 1] in _PASSIVE or sold_before):
            base = "sold"  # "the 2060 got sold": what was sold comes before
        elif word == "given" and following in ("to", "away"):
            base = "gone"  # "the parrot given to his brother", "was given away"
        elif base in _DONE_TO and word != base and _told_after(words, index, following):
            base = "gone"  # "apex deleted", "the astra got scrapped": the thing comes before
        elif base in AFTER_CUES and following in _PRONOUNS and index > 2:
            base = ENDED_IT  # "bingo ? stopped it"
        elif (
            word in _OVER
            and following in ENDS
            and _thing_first(words, index)
            and (
                word != "retired" or words[index - 1] in _BEING  # not "fully retired": a job
            )
        ):
            base = CLAUSE_OVER  # "masters done , phd now", "diet over", "engagement off"
        elif base == "do" and word == "done" and words[index - 1] in ("is", "'s", "are"):
            if following not in ENDS:
                continue  # "is done with it" is read as "stopped" (phrases)
            base = "done"  # "vegan arc is done"
        elif word == "fire":
            continue  # "the fire station", "on fire": a noun, no one fired
        elif base == "dead" and following not in ENDS | {"to"}:
            continue  # "chelsea dead to him", "league is dead now"; not "dead by daylight"
        elif _no_end_told(base, words, index):
            continue
        elif base == "go" and word == "gone":
            base = "gone"
        elif word == "closed" or (word == "ended" and following in ENDS):
            base = word  # "closed her etsy shop", "the contract ended" (not "ended up")
        if base not in _ALL_CUES:
            continue
        before = words[max(0, index - 3) : index]
        done = before[-2:] in (["had", "to"], ["decided", "to"])  # "had to rehome juno"
        if _NEGATORS.intersection(before) or (before and before[-1] in _PLANS and not done):
            continue
        ongoing = bool(before) and before[-1] in {"is", "are", "am"}
        if word.endswith("ing") and (ongoing or base in TOPIC_CUES):
            continue  # "is moving to", "graduating this year": a plan
        found.append((base, index))
    return tuple(found)


def _no_end_told(base: str, words: list[str], index: int) -> bool:
    """ "off", "gave" or "left" at ``index`` that ends nothing ("off work today", "gave a
    talk", "his left foot")."""
    if words[index] == "left" and index + 1 < len(words):
        return words[index + 1] in _SIDES
    if base == "off":
        return not _left_off(words, index)
    if base in _GIVEN:
        return not _given_away(words, index)
    return False


def _given_away(words: list[str], index: int) -> bool:
    """A thing given at ``index`` goes to someone or away: "gave ziggy the gecko to her
    cousin", "handed the bot to vee", "gave the cat away"."""
    clause = []
    for word in words[index + 1 : index + 1 + WINDOW + 2]:
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
    """ "off" at ``index`` tells a habit left: "juno off keto", "went off mushrooms", "took
    her off metformin", "emily . off sushi" (not "day off", "off work today"; "off the
    cigarettes" as "off cigarettes")."""
    following = words[index + 1] if index + 1 < len(words) else ""
    if following == "the" and index + 2 < len(words):
        following = words[index + 2]
    taken_off = index >= 2 and words[index - 1] in _TAKEN and lemma(words[index - 2]) == "take"
    starts = index == 1 or words[index - 1] in PUNCTUATION  # "juno off keto", "gav . off keto"
    return (
        starts or words[index - 1] in _GOING_OFF or taken_off
    ) and following not in _OFF_A_WHILE | ENDS


_PRONOUNS = frozenset({"it", "them", "that"})
_DONE_TO = frozenset({"delete", "scrap", "ditch", "dump", "cancel", "wipe", "nuke", "uninstall",
                      "abandon"})  # fmt: skip
"""Cues of a thing ended that may follow it, in a passive or a fragment ("apex deleted",
"the astra got scrapped", "tiktok uninstalled, more sleep")."""


def _told_after(words: list[str], index: int, following: str) -> bool:
    """The cue at ``index`` follows the thing it ends: after "got", "was" ("got scrapped"), or
    at the end of its clause ("apex deleted")."""
    return index > 1 and (words[index - 1] in _PASSIVE or following in ENDS)


_OVER = frozenset({"done", "over", "off", "retired"})
"""Words that end the thing their clause starts with, said last ("diet over", "the exchange is
over", "engagement off", "vaporflys are retired"); not time off ("day off")."""
_TIME_AWAY = frozenset({"day", "days", "time", "night", "week", "weekend", "shift", "all"})
_BEING = frozenset({"is", "'s", "are", "was"})
_OWNERS = frozenset({"the", "his", "her", "their", "my"})
_NOT_A_THING = PUNCTUATION | _OWNERS | _BEING | frozenset({"it", "that", "this", "all", "i"})


def _thing_first(words: list[str], index: int) -> bool:
    """The word ``index`` closes a clause that starts with a thing, past the subject or
    punctuation: "adwoa masters done", "tenzin : ... , diet over", "kai ... , the exchange is
    over", "ember razer deal over", ", the old laptop is retired" (not "has her hair done",
    "took the day off", "maureen 's retired")."""
    at = index - 1
    if at > 1 and words[at] in _BEING:
        at -= 1
    if at < 1 or words[at] in _TIME_AWAY or words[at] in _NOT_A_THING:
        return False
    if at > 1 and verb(words[at - 1]) is None and words[at - 1] not in _NOT_A_THING:
        at -= 1  # a thing of two words: "razer deal over", "old laptop"
    if at > 1 and words[at - 1] in _OWNERS:
        at -= 1
    return at == 1 or words[at - 1] in PUNCTUATION


_TAKEN = frozenset({"him", "her", "them", "me"})
"""Between "took" and "off", whom a thing was taken from ("the doctor took her off
metformin")."""
