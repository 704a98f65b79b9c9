"""What is not worth remembering as a fact about its author.

Questions, greetings and thanks; hypotheticals ("if I won…", "I could…"); other people's
words (quotes, "my mom says…"); sarcasm; phatic replies ("I know", "I agree", "I'm so happy
for you"); reactions to someone else's photo or news ("I love the colors!" after a
painting was shown); advice in the second person ("you should…", which has no first-person
subject and never reaches the rewriter); and states with nothing in them ("I'm tired").
"""

from __future__ import annotations

import re

from memory.extraction.offline.verbs import verb

_QUESTION_START = re.compile(
    r"^(?:do|does|did|are|is|was|were|am|can(?!.t)|could|would|should|will|shall|have|has|had|"
    r"who|what|what's|whats|when|where|why|how|which|anyone|anybody|is there|isn't|aren't|"
    r"don't you|won't|want to|wanna|ever)\b",
    re.I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|imagine|suppose|supposing|hypothetically|what if|pretend|if only|"
    r"I wish|wish I|in another life|someday|some day|dream(?:ing|t|ed)? of)\b",
    re.I,
)
_REPORTED = re.compile(
    r"^(?:my|our|his|her|their|the)\s+[\w'-]+(?:\s+[\w'-]+)?\s+"
    r"(?:says|said|say|tells|told|was like|goes|went like|asked|asks|thinks|claims|"
    r"used to say|would say|always says|always said)\b"
    r"|\b(?:says|said|tells me|told me|told us|was like|according to)\s*[:,]",
    re.I,
)
_SARCASM = re.compile(
    r"(?:^|\s)/s\b|\b(?:jk|jkjk|kidding|just kidding|sarcasm)\b|🙃|🙄|\b10/10\b"
    r"|^(?:oh yeah|oh sure|yeah right|sure|oh great|wow great)\b.*"
    r"\b(?:love|favou?rite|best|great)\b",
    re.I,
)
_ASKED = re.compile(r"^(?:\w+,?\s+)?(?:what|who|where|when|why|how)(?:'s|\b)", re.I)
_GREETING = re.compile(
    r"^(?:hey|hi|hello|hiya|yo|sup|howdy|good (?:morning|night|evening|afternoon)|gm|gn|"
    r"thanks|thank you|thx|ty|tysm|congrats|congratulations|welcome|bye|cya|see ya|"
    r"happy birthday|cheers|nice|cool|awesome|wow|aww|omg|lol|haha|yes|yeah|yep|no|nope|"
    r"ok|okay|sure|same|true|exactly|agreed|right|indeed|totally|definitely)\b[\s\w,!.']*$",
    re.I,
)
_PHATIC = re.compile(
    r"^(?:agree|agreed|mean|guess|bet|see|understand|suppose|feel you|know|knew|hope so|"
    r"think so|can imagine|can't imagine|can't believe|get it|got it|"
    r"(?:can't|cannot) wait(?!\s+(?:for|to)\s+(?!(?:it|that|this|you|them|see you)\b)\w)|"
    r"am glad|am so glad|am happy for|am so happy for|am proud of|am so proud of|am sorry|"
    r"am so sorry|appreciate|love that|love this|love it|like that|like this|like it|"
    r"hear you|feel the same|totally agree|remember that|wish you|hope you|bet you|"
    r"hear that|am with you|know what you mean|know right|see what you mean|"
    r"am (?:always )?here for|will (?:always )?be here for|am (?:so )?thankful for you|"
    r"am (?:so )?grateful for you|miss you|love you|wanted to (?:say hi|check in|let you know|"
    r"share|ask|tell you|catch up)|want to (?:say hi|check in|let you know|catch up)|"
    r"will be honest|have no idea|have no clue|meant|mean|"
    r"need to (?!(?:move|finish|get|start|find|take|pass|renew|buy|save|quit|learn)\b)\w+|"
    r"will (?:come|be there|cheer|try|check|see|think about it|let you know|keep you posted|"
    r"dm|send it|look into it)\b|"
    r"hope (?!to\b)|hoped (?!to\b)|"
    r"am (?:going|heading|off|leaving) (?:to )?(?:bed|sleep|the gym|the store|the shop|work|"
    r"lunch|dinner|eat|shower|home|out)\b|am having (?:a |some )?(?:lunch|dinner|breakfast|"
    r"snack|coffee|tea|drink|beer|nap|break|bath|shower|fun|blast|good time)|"
    r"am (?:eating|watching|drinking|sitting|waiting|listening|cooking|logging off|"
    r"getting ready|trying to sleep|dying|crying|"
    r"screaming|dead|done|back))\b",
    re.I,
)
_ABOUT_ADDRESSEE = re.compile(r"\b(?:you|your|you're|yours|yourself|u|ur)\b", re.I)
_EVALUATIVE = frozenset({"love", "like", "adore", "enjoy", "appreciate", "admire", "dig",
                         "hate", "envy", "miss"})  # fmt: skip
_POINTING = re.compile(r"^(?:the|that|this|these|those|it|how|what|all the)\b", re.I)
_WORD = re.compile(r"[a-z][a-z'-]{2,}")
_EMPTY_STATE = frozenset({"so", "very", "really", "super", "pretty", "too", "quite", "a bit",
                          "kinda", "extremely", "totally", "just", "all", "still", "now",
                          "right", "today", "though", "lately", "again", "as", "well"})  # fmt: skip
_STATE_VERBS = frozenset({"be", "feel", "get", "seem", "look", "sound"})


def is_question(text: str, asked: bool) -> bool:
    """A question, with or without its question mark ("bot what's my name")."""
    return asked or bool(_QUESTION_START.match(text) or _ASKED.match(text))


def is_sarcastic(sentence: str) -> bool:
    """Marked irony: "/s", 🙃, "10/10 would do again", "oh yeah I LOVE waiting…"."""
    return bool(_SARCASM.search(sentence))


def is_aside(text: str) -> bool:
    """A hypothetical, someone else's words, hyperbole ("I can't even keep a plant alive"),
    or a greeting / thanks."""
    return bool(
        _HYPOTHETICAL.search(text)
        or _REPORTED.search(text)
        or _GREETING.match(text)
        or _HYPERBOLE.search(text)
    )


_HYPERBOLE = re.compile(r"\b(?:can'?t even|cannot even|literally dying|i'?m dead)\b", re.I)


def is_phatic(predicate: str) -> bool:
    """A reply that only keeps the conversation going ("I know right", "I'm so happy for
    you"), an offer ("I can bring snacks") or a passing need ("I need that recipe"):
    ``predicate`` is what follows the subject, contractions expanded."""
    return bool(_PHATIC.match(predicate) or _OFFER.match(predicate) or _NEED.match(predicate))


_OFFER = re.compile(
    r"^can (?:also |totally |def |definitely |always )?(?:bring|help|send|lend|give|grab|pick|"
    r"cover|host|share|drop|take|make|buy|order|call|text|ping|dm|check|look|drive|swing by|"
    r"come|cook|bake|save|hold|set up|sort|show)\b",
    re.I,
)
_NEED = re.compile(
    r"^need (?:(?:that|this|those|these|it|them|pics|pictures|photos|details|more|"
    r"a (?:nap|break|drink|coffee|vacation|hug|minute|second|moment|sec)|"
    r"(?:some )?(?:sleep|coffee|food|caffeine|help|advice|ideas))\b"
    r"|.*\b(?:immediately|asap|right now|rn|so bad|so badly)\b)",
    re.I,
)


def is_about_addressee(rest: str) -> bool:
    return bool(_ABOUT_ADDRESSEE.search(rest))


def is_reaction(lemma: str, rest: str, previous_other: str) -> bool:
    """ "I love the colors!" right after someone else shared a painting: an evaluation of
    something pointed at ("the", "that", "it", …) that the other person's last turn named
    (or no object at all)."""
    if lemma not in _EVALUATIVE:
        return False
    if not rest.strip() or rest.strip().lower() in ("it", "that", "this", "them"):
        return True
    if not _POINTING.match(rest) or not previous_other:
        return False
    named = set(_WORD.findall(previous_other.lower()))
    pointed = set(_WORD.findall(rest.lower())) - {"the", "that", "this", "these", "those", "how"}
    return bool(pointed & named) or not pointed


def is_empty_state(lemma: str, rest: str) -> bool:
    """ "I'm tired", "I feel so good": a passing state with nothing to remember ("I'm
    vegan", "I'm pescatarian" say who someone is)."""
    if lemma not in _STATE_VERBS:
        return False
    content = [w for w in rest.split() if w.lower() not in _EMPTY_STATE]
    if len(content) == 1 and lemma == "be" and _is_identity(content[0]):
        return False
    return len(content) <= 1


def _is_identity(word: str) -> bool:
    """A one-word state that lasts: a lowercase word the verb lexicon has no participle or
    gerund for ("vegan", "diabetic", "single"), and no passing mood ("hungry", "sick")."""
    if not (word.isalpha() and word.islower() and len(word) >= 5) or word in _PASSING:
        return False
    found = verb(word)
    return found is None or found[1] == "present"


_PASSING = frozenset({
    "hungry", "thirsty", "sleepy", "happy", "great", "ready", "sorry", "awake", "alive",
    "sober", "nervous", "anxious", "curious", "lucky", "jealous", "grateful", "thankful",
    "sweaty", "okay", "alright", "online", "offline", "around", "outside", "inside", "early",
    "there", "upset", "angry", "crazy", "dying", "cranky", "grumpy", "lonely", "exhausted",
    "fine", "sick", "busy", "broke", "weird", "bored", "stressed", "proud", "thrilled",
    "excited", "pumped", "hyped", "stoked", "sad", "mad", "good", "bad", "late", "free",
    "certain", "positive", "serious", "honest", "right", "wrong", "aware", "unsure", "still",
    "really", "totally", "literally", "confused", "terrible", "awful", "amazing", "fantastic",
    "wonderful", "better", "worse", "sleeping", "working", "gaming", "streaming", "afraid",
    "scared", "worried", "careful", "famous", "first", "second", "third", "next", "last",
})  # fmt: skip
