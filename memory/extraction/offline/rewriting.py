"""A first-person clause rewritten as a self-contained third-person fact about its author.

"I just signed up for a pottery class yesterday" by Melanie on 3 July 2023 →
"Melanie signed up for a pottery class on 2 July 2023." The fact keeps the source's words:
only the subject (I / we / my X), the verb's agreement, pronouns and relative dates change,
so it is grounded by construction.

- subject: "I" → the author's name; "we" → the author and whom the message names ("with my
  kids" → "Name and their kids"), else "Name and others" ("we're both" → the author and the
  one other person of the conversation); "me and X" / "my X and I" → "Name and X"; statements
  without their "I" ("Took a trip to Rome", "Still working on it") get it back;
- verb: the first verb after the subject, agreed from the lexicon (:mod:`.verbs`):
  "love" → "loves", "went" stays, "I'm" → "is", "I've" → "has", "don't" → "doesn't";
- the rest: "my" → "their", "me" → the name, "you" → the one other person (else the clause
  is dropped), relative dates resolved (:mod:`.dates`), cut at the next clause;
- a fronted time or lead-in ("Last Friday I…", "Yesterday, I…", "Hey Mel, so I…") is moved
  after the verb phrase or dropped;
- a simple past without a date is dated by the message ("… by 8 May 2023").

Statements whose subject is the speaker's ("my sister is…", "it" after "got a tattoo") are
:mod:`.possessions`'; where an object ends and what it must not leave dangling is
:mod:`.phrases`.
"""

from __future__ import annotations

import dataclasses
import re

from memory.extraction.offline import dates, reordering, skipping
from memory.extraction.offline.drafts import GROUP, HEDGED, PLAIN, Draft, Speaker, draft
from memory.extraction.offline.phrases import (
    cut,
    dangling,
    demonstrative_object,
    ends_in_relative,
    movable,
    noun_phrase,
    pronouns,
    says_something,
    trailing,
    without_vocative,
)
from memory.extraction.offline.possessions import (
    IS_MINE,
    MY_THING,
    POSSESSION,
    POSSESSIVE_SUBJECT,
    REFERRING,
    about_thing,
    is_mine,
    named_mine,
    object_me,
    possessive,
    shared_own,
)
from memory.extraction.offline.verbs import FINITE, is_adjective, is_past, third_person, verb

_LEAD_IN = re.compile(
    r"^(?:(?:so|oh|ohh|well|yeah|yea|yes|yep|yup|nah|no|ok|okay|hey|hi|hello|wow|aww|anyway|"
    r"anyways|also|and|but|plus|actually|honestly|btw|update|guess what|fun fact|thanks|"
    r"thank you|omg|lol|haha|hmm|um|uh|tbh|now|then|and then|like|sadly|luckily|"
    r"unfortunately|fortunately|finally|recently|lately|basically|speaking of(?: which)?|"
    r"to be honest|i'll be honest|at least|in fact|by the way|oh yeah|oh and|i mean|"
    r"i think|i guess|i believe|i feel like|i'd say|pretty sure)\b[\s,!.:-]*)+",
    re.I,
)
_HEDGE = re.compile(
    r"\b(?:i think|i guess|i suppose|i believe|probably|prob|maybe|perhaps|possibly|kinda|"
    r"kind of|sort of|sorta|might|pretty sure|not sure|i feel like|likely|hopefully|"
    r"i reckon)\b",
    re.I,
)
_SUBJECT = re.compile(
    r"(?:^|(?<=\s))(?P<subject>"
    r"(?:[Mm]y|[Oo]ur)\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+I"
    r"|[Mm]e\s+and\s+(?:my\s+)?[\w'-]+(?:\s+[\w'-]+)?"
    r"|I'm|I've|I'll|I'd|I|[Ww]e're|[Ww]e've|[Ww]e'll|[Ww]e'd|[Ww]e"
    r")(?=\s|$)",
)
_WITH_ME = re.compile(r"(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+I\b", re.I)
_INDEFINITE = frozenset({"a", "an", "some", "another", "new", "two", "three", "my"})
_SUBORDINATOR = re.compile(
    r"(?:since|when|whenever|while|after|before|because|as|once|until|though|although|"
    r"now that|ever since|the day|the moment)",
    re.I,
)
_DROP_ADVERBS = frozenset({"just", "really", "actually", "literally", "totally", "honestly",
                           "basically", "seriously", "genuinely", "kinda", "sorta", "lowkey",
                           "highkey", "def", "definitely", "even", "truly", "so", "also",
                           "too", "officially"})  # fmt: skip
_KEEP_ADVERBS = frozenset({"never", "always", "usually", "often", "sometimes", "still",
                           "already", "finally", "recently", "mostly", "rarely", "once",
                           "barely", "hardly", "only", "now", "currently"})  # fmt: skip
_MODALS = {"can": "can", "can't": "can't", "cannot": "cannot", "will": "will", "won't": "won't",
           "must": "must", "might": "might", "may": "may"}  # fmt: skip
_HYPOTHETICAL_MODALS = frozenset({"should", "could", "would", "shall", "ought", "shouldn't",
                                  "couldn't", "wouldn't", "needa"})  # fmt: skip
_AUX_I = {"I'm": "is", "I've": "has", "I'll": "will"}
_AUX_WE = {"we're": "are", "we've": "have", "we'll": "will"}
_NEGATED_DO = {"don't": "doesn't", "do": "does", "didn't": "didn't", "did": "did",
               "doesn't": "doesn't"}  # fmt: skip


def rewrite(text: str, speaker: Speaker, thing: str | None = None) -> Draft | None:
    """The fact ``text`` (a cleaned statement clause) says about its speaker, or None.
    ``thing``: what the speaker's previous clause said they have, made or got."""
    hedged = bool(_HEDGE.search(text))  # before the lead-in goes: "I think I'm moving …"
    text = _LEAD_IN.sub("", text).strip(" ,.")
    if not text or skipping.is_aside(text):
        return None
    if (showing := shared_own(text, speaker)) is not None:  # "Here's a pic of my garden"
        return showing
    text = reordering.shown_as_statement(text)  # "Here's a self-portrait I made last week"
    implicit = _implicit_subject(text)  # "Took a trip to Rome", "Still working on my biz"
    if implicit:
        text = f"{implicit} {text[0].lower()}{text[1:]}"
    owned = POSSESSIVE_SUBJECT.match(text)
    if owned is not None and not _WITH_ME.match(text):
        return possessive(owned, speaker, hedged)
    mine = IS_MINE.match(text)
    if mine:
        return is_mine(mine, speaker, hedged)
    if (named := named_mine(text, speaker)) is not None:  # "Oscar, my guinea pig"
        return named
    match = _SUBJECT.search(text)
    if match is None:
        if thing is not None and REFERRING.match(text):
            return about_thing(text, speaker, thing, hedged)
        return object_me(text, speaker, hedged)
    prefix, subject = text[: match.start()], match.group("subject")
    if _SUBORDINATOR.fullmatch(prefix.strip(" ,")):  # "Since we last spoke, …": what follows
        _, comma, main = text[match.end() :].partition(", ")
        return rewrite(main, speaker, thing) if comma else None
    if subject[:1] in "WM":  # "We …", "Me and …", "My husband and I …"
        subject = subject[0].lower() + subject[1:]
    if reordering.names_object_first(prefix):  # "These figurines I bought yesterday …"
        ordered = reordering.in_order(prefix, text[match.end() :], speaker.said)
        return None if ordered is None else _first_person(subject, ordered, "", speaker, False)
    if not movable(prefix, speaker):
        return None
    after = text[match.end() :]
    if ends_in_relative(prefix):  # "the day when I graduated was great": up to "was"
        verb_word, _, rest = after.strip().partition(" ")
        after = f"{verb_word} {_MAIN_VERB.split(rest, maxsplit=1)[0]}"
    return _first_person(subject, after, prefix, speaker, hedged)


_MAIN_VERB = re.compile(r"\s*\b(?:is|was|are|were|has been|had been|will be)\b")


def _first_person(
    subject: str, after: str, prefix: str, speaker: Speaker, hedged: bool
) -> Draft | None:
    group = subject.lower().startswith("we")
    head = _subject(subject, speaker)
    words = after.split()
    while words and words[0].lower() in _DROP_ADVERBS:  # "I just / really / totally went"
        words.pop(0)
    verb_phrase, lemma, rest_words = _verb_phrase(subject, words, group=group)
    if verb_phrase is None:
        return None
    said = " ".join(rest_words)
    if skipping.is_phatic(f"{_plain_aux(subject)} {' '.join(words)}".strip()):
        return None
    feeling = lemma in _FEELING or verb_phrase.split()[0].lower() in ("is", "are", "was", "were")
    if skipping.is_about_addressee(said) and (speaker.partner is None or feeling):
        return None  # "I'm so happy for you", "I'm impressed by your …": about the other
    if skipping.is_reaction(lemma, said, speaker.previous_other):
        return None
    rest = cut(said)
    if rest is None or skipping.is_empty_state(lemma, rest) or dangling(rest):
        return None
    if not rest.strip(" ,.!") and lemma not in _EMPTY_OBJECT_OK:
        return None  # "since we talked", "I know"
    if group and speaker.partner and re.match(r"both\b", rest, re.I):
        head = f"{speaker.name} and {speaker.partner}"  # "we're both …": the two of them
    rest = without_vocative(demonstrative_object(rest))
    if not says_something(rest):
        return None
    event = _is_event(verb_phrase)
    rest, dated = dates.resolve(pronouns(rest, speaker), speaker.said, past=event)
    moved, moved_dated = dates.resolve(trailing(prefix), speaker.said, past=event)
    dated = dated or moved_dated
    when = ""
    if not (dated or moved or _THEN.search(rest)) and lemma not in _STATIVE:  # "when did …?"
        if event:  # "went to Paris by 8 May 2023", "has developed a video by …"
            when = f"by {dates.day(speaker.said)}"
        elif _ongoing(verb_phrase) and lemma != "go":  # "is reading X as of 8 May 2023"
            when = f"as of {dates.day(speaker.said)}"
    fact = f"{head} {verb_phrase} {rest} {moved} {when}"
    confidence = GROUP if group else (HEDGED if hedged else PLAIN)
    made = draft(fact, lemma, event, dated, confidence)
    if made is None or group:
        return made
    if lemma in POSSESSION and rest.split()[0].lower() in _INDEFINITE:  # "got a tattoo"
        return dataclasses.replace(made, thing=noun_phrase(rest))
    named = MY_THING.search(said)  # "took my kids to …": "they" may be the kids next
    if named is not None:
        return dataclasses.replace(made, thing=noun_phrase(named.group(1)))
    return made


def _subject(subject: str, speaker: Speaker) -> str:
    """The rewritten subject: the name, or the name and who else."""
    lower = subject.lower()
    if lower.startswith("we"):
        return f"{speaker.name} and {speaker.company or 'others'}"
    if lower.startswith(("my ", "our ")):  # "my husband and I"
        return f"{speaker.name} and their {subject.split(' ', 1)[1].rsplit(' and ', 1)[0]}"
    if lower.startswith("me and"):
        return f"{speaker.name} and {pronouns(subject[len('me and ') :], speaker)}"
    return speaker.name


def _plain_aux(subject: str) -> str:
    return {"I'm": "am", "I've": "have", "I'll": "will", "we're": "are", "we've": "have",
            "we'll": "will"}.get(subject, "")  # fmt: skip


def _verb_phrase(
    subject: str, words: list[str], *, group: bool
) -> tuple[str | None, str, list[str]]:
    """The agreed verb group, the main verb's lemma, and the words after it."""
    plural = group or " and " in subject or subject.lower().startswith("me and")
    kept: list[str] = []
    aux = (_AUX_WE if group else _AUX_I).get(subject)
    if subject in ("I'd", "we'd"):  # "I'd love to …" is a wish; only "I'd been" is not
        if not words or words[0].lower() != "been":
            return None, "", []
        aux = "had"
    if aux is not None:
        if plural and aux == "is":
            aux = "are"
        kept.append(aux)
        lemma = {"is": "be", "are": "be", "has": "have", "have": "have"}.get(aux, aux)
        return _after_aux(kept, words, lemma)
    while words and words[0].lower() in _KEEP_ADVERBS:
        kept.append(words.pop(0))
    if not words:
        return None, "", []
    first, rest = words[0], words[1:]
    lower = first.lower()
    if lower in _HYPOTHETICAL_MODALS:  # advice or a maybe, not what is
        return None, "", []
    if lower in _MODALS:
        return _after_aux([*kept, _MODALS[lower]], rest, lower)
    if lower in _NEGATED_DO:
        agreed = lower if plural else _NEGATED_DO[lower]
        return _after_aux([*kept, agreed], rest, "do")
    if lower in ("have", "had") and rest and is_past(rest[0]):  # "I have developed"
        return _after_aux([*kept, "has" if lower == "have" and not plural else lower], rest, "have")
    agreed_verb = lower if plural else third_person(lower)
    found = verb(lower)
    if agreed_verb is None or (found is None and lower not in ("am", "have", "was", "were")):
        return None, "", []
    if plural and lower == "am":
        agreed_verb = "are"
    lemma = found[0] if found else {"am": "be", "was": "be", "were": "be"}.get(lower, lower)
    if not plural and lower == "were":
        agreed_verb = "was"
    return " ".join([*kept, agreed_verb]), lemma, rest


def _after_aux(kept: list[str], words: list[str], lemma: str) -> tuple[str | None, str, list[str]]:
    """After an auxiliary: adverbs, "not", and the main verb's lemma when there is one."""
    words = list(words)
    while words and (words[0].lower() in _KEEP_ADVERBS | _DROP_ADVERBS or words[0] == "not"):
        word = words.pop(0)
        if word.lower() not in _DROP_ADVERBS:
            kept.append(word)
    if words:
        found = verb(words[0])
        if found is not None and (found[1] != "present" or lemma in ("will", "can", "do")):
            kept.append(words.pop(0))
            lemma = found[0]
    return " ".join(kept), lemma, words


_IMPLICIT_LEAD = frozenset({"just", "still", "finally", "also", "recently", "currently",
                            "already", "really", "actually", "been"})  # fmt: skip
_NOT_IMPLICIT = frozenset({
    "made", "meant", "thought", "loved", "liked", "sounded", "looked", "seemed", "felt",
    "said", "told", "heard", "saw", "agreed", "guessed", "missed", "wondered", "figured",
    "knew",
})  # fmt: skip


def _implicit_subject(text: str) -> str:
    """The subject a chat statement left out ("I", "I'm", "I've"), or "" when it has one or
    is no statement. "Took a trip to Rome last week", "Just got new shoes" → "I"; "Still
    working on my biz" → "I'm"; "Been reading a lot" → "I've". Imperatives ("Check out …")
    and "Sounds great" (whose subject is "it") are not statements of the author."""
    words = text.split()
    if len(words) < 3:
        return ""
    lead = words[0].lower()
    if lead == "been":
        return "I've"
    if lead == "going" and words[1].lower() == "to" and verb(words[2]) is not None:
        return "I'm"  # "Gonna continue my edu"
    if lead in ("can't", "cannot") and words[1].lower() == "wait":
        return "I"  # "Can't wait for tomorrow's grand opening"
    at = 1 if lead in _IMPLICIT_LEAD else 0
    head, after = words[at], [w.lower() for w in words[at + 1 : at + 4]]
    found = verb(head)
    if found is None or head.lower() in _NOT_IMPLICIT or (after and after[0] in ("me", "us")):
        return ""  # "took me 80 hours": its subject is "it"
    if set(after) & FINITE:  # "retired racers are the best": an adjective, not a verb
        return ""
    if found[1] == "past" and head.lower() != found[0]:  # not "set", "let", "put": imperatives
        return "I"
    if found[1] == "gerund" and lead in ("still", "currently", "just", "really"):
        return "I'm"
    if (
        found[1] == "gerund"
        and at == 0
        and not is_adjective(head)
        and after[0] not in ("but", "and", "so", "though", "too", "af", "tbh")
        and not {w.lower() for w in words} & _GERUND_SUBJECT
        and {w.lower().strip(",.!") for w in words[1:]} - _GERUND_FILLER
    ):
        return "I'm"  # "Researching adoption agencies"; not "Taking care of us is vital"
    return ""


_GERUND_FILLER = frozenset({"a", "an", "the", "little", "bit", "lot", "so", "too", "much",
                            "again", "now", "here", "there", "it", "this", "that", "you",
                            "them", "hard", "fast", "rn", "today", "tbh", "lol"})  # fmt: skip
_GERUND_SUBJECT = FINITE | {"makes", "made", "helps", "helped", "keeps", "brings",
                             "means", "sounds", "seems", "feels", "looks", "gives", "gave",
                             "isn't", "wasn't", "it's", "that's", "must", "should", "would",
                             "could"}  # fmt: skip


_FEELING = frozenset({"be", "feel", "love", "like", "appreciate", "admire", "envy", "miss",
                      "hope", "wish", "bet", "know", "think", "believe", "trust", "agree",
                      "thank", "root", "cheer", "care"})  # fmt: skip
_STATIVE = _FEELING | {
    "have",
    "want",
    "need",
    "prefer",
    "enjoy",
    "hate",
    "own",
    "live",
    "work",
    "see",
    "seem",
    "mean",
    "understand",
    "remember",
    "forget",
}
_EMPTY_OBJECT_OK = frozenset({"graduate", "retire", "move", "resign", "marry", "relocate",
                              "quit", "win", "lose", "travel", "volunteer", "recover"})  # fmt: skip
_THEN = re.compile(r"\b(?:then|by now|so far|ago)\b", re.I)
_PAST_AUX = frozenset({"has", "have", "had"})
_NOT_EVENTS = frozenset({"was", "were", "had", "did", "didn't", "been", "used"})


def _is_event(verb_phrase: str) -> bool:
    """Something that happened: a simple past ("went"), or a perfect ("has visited")."""
    words = verb_phrase.lower().split()
    last = words[-1]
    if last in _NOT_EVENTS or not is_past(last) or words[-2:] in (["has", "got"], ["have", "got"]):
        return False  # "has got two cats": a possession
    return len(words) == 1 or words[0] in _PAST_AUX or words[0] in _KEEP_ADVERBS


def _ongoing(verb_phrase: str) -> bool:
    """A present progressive: "is expanding", "are still reading"."""
    words = verb_phrase.lower().split()
    found = verb(words[-1])
    return words[0] in ("is", "are") and found is not None and found[1] == "gerund"
