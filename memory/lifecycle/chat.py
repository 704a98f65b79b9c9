"""Chat spellings read as the words they stand for, before two facts are compared.

    spelled("b4") → "before"    spelled("wfh") → "work from home"    spelled("playin") → "playing"

People write facts in chat the way they type: "u", "n", "b4", "tryna", "wfh", "doin". A fact
told once that way and once in full shares too few words for the rules to see one fact. Two
kinds of repair, one token at a time:

* **Abbreviations** every chat reader knows (``CHAT_WORDS``): words of grammar ("u", "ur",
  "r", "n", "bc", "tryna"), a few of content ("wfh", "bestie", "compsci") and names games
  go by ("valo", "ow2"; their long names, "call of duty", become the short ones among the
  wordings of :mod:`memory.lifecycle.phrases`). Only spellings that mean one thing in a
  fact about a person: "lol" (League of Legends, or a laugh) and "cs" (Counter-Strike, or
  computer science) are left alone.
* **A dropped "g"**: "doin", "playin", "livin" read as "doing", "playing", "living" when
  the verb lexicon knows the word with its "g" and not without ("begin", "cousin" stay), and
  it is none of the few words and names the lexicon would misread ("raisin" is no
  "raising", ``NOT_DROPPED``).

And five habits of chat and speech, read before the words are: a Discord handle's underscores
and a full name ("mimi_k", "Lucas Oliveira": one subject, :func:`handle_joined`), a denial said
twice ("dont play tennis no more", :func:`unconcorded`), a verb said again to stress it ("hates
jazz like proper hates it", :func:`unrepeated`), what speech and second-language English put
between the subject and what is said of it ("gareth he works", "priya um she lives", "ulises
his home is", "mei have two cats", :func:`unspoken`), and a laugh after it ("turned 18 ayy",
:func:`unpadded`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.extraction.offline.verbs import third_person, verb
from memory.lifecycle.lexicon import (
    CONTRACTIONS,
    FILLERS,
    INTERJECTIONS,
    STOPWORDS,
    WEEKDAYS,
)

CHAT_WORDS = {
    # words of grammar
    "u": "you", "ur": "your", "r": "are", "n": "and", "b4": "before", "bc": "because",
    "cuz": "because", "coz": "because", "bcuz": "because", "abt": "about", "thru": "through",
    "gonna": "going to", "wanna": "want to", "gotta": "got to", "tryna": "trying to",
    "finna": "going to", "ppl": "people", "smth": "something", "sth": "something",
    "tmr": "tomorrow", "tmrw": "tomorrow", "nite": "night", "tonite": "tonight",
    "everyday": "every day", "w": "with", "hes": "he is", "shes": "she is",
    "theyre": "they are", "rly": "really", "rlly": "really", "realy": "really", "sais": "says",
    "sayz": "says",
    "sez": "says", "brokeup": "broke up", "js": "javascript", "k8s": "kubernetes", "nvim": "neovim",
    "deffo": "definitely", "defo": "definitely", "def": "definitely",
    # content
    "wfh": "work from home", "bestie": "best friend", "besties": "best friends",
    "bff": "best friend", "bffs": "best friends", "compsci": "computer science",
    "luv": "love", "luvs": "loves", "hitched": "married", "veggie": "vegetarian",
    "hubby": "husband", "wifey": "wife",
    "tues": "tuesday", "thurs": "thursday", "weds": "wednesday", "yr": "year", "yrs": "years",
    "grader": "grade", "comms": "commissions", "comm": "commission", "dnb": "drum and bass",
    "minis": "miniatures", "nihongo": "japanese", "jp": "japanese",
    "wk": "week", "wks": "weeks", "hr": "hour", "hrs": "hours", "yday": "yesterday",
    "mins": "minutes", "hols": "holidays", "fulltime": "full time", "parttime": "part time",
    "preggo": "pregnant", "preggers": "pregnant", "hca": "healthcare assistant",
    "swe": "software engineer", "mgr": "manager", "govt": "government", "dept": "department",
    "appt": "appointment", "vids": "videos", "telly": "tv", "brekkie": "breakfast",
    "cuppa": "cup of tea", "ldn": "london", "weeb": "anime fan", "boba": "bubble tea",
    "vino": "wine", "prem": "premier league", "macbook": "mac", "macbooks": "macs",
    "insted": "instead", "instaed": "instead", "tiem": "time", "photog": "photographer",
    "photogs": "photographers", "yt": "youtube", "insta": "instagram", "fe": "frontend",
    "char": "character", "sahm": "stay at home mum", "sahd": "stay at home dad",
    "sahp": "stay at home parent",
    # employers by their ticker or nickname
    "msft": "microsoft", "sbux": "starbucks", "amzn": "amazon", "jpm": "jpmorgan",
    "mcd": "mcdonalds", "mcds": "mcdonalds", "goog": "google", "maccies": "mcdonalds",
    "maccas": "mcdonalds", "utd": "united",
    # football clubs by their fans' names for them
    "gooner": "arsenal fan", "gooners": "arsenal fans", "gunners": "arsenal", "toon": "newcastle",
    "magpies": "newcastle", "spurs": "tottenham", "coys": "tottenham", "toffees": "everton",
    "bvb": "dortmund", "barca": "barcelona", "juve": "juventus", "bhoys": "celtic",
    # games: the short name (their long names are rewritten to it by memory.lifecycle.phrases)
    "valo": "valorant", "ow": "overwatch", "ow2": "overwatch 2", "mc": "minecraft",
    "ff14": "ffxiv", "r6s": "r6", "cs2": "counterstrike 2", "csgo": "counterstrike",
    # languages by their own names
    "espanol": "spanish", "castellano": "spanish", "francais": "french", "deutsch": "german",
    "italiano": "italian", "portugues": "portuguese",
    "nederlands": "dutch", "svenska": "swedish", "polski": "polish", "turkce": "turkish",
}  # fmt: skip
"""Chat abbreviations and the words they stand for (lowercase, whole tokens)."""

NOT_DROPPED = frozenset({"robin", "raisin", "basin", "satin", "muffin", "puffin", "bobbin",
                         "pippin", "jerkin", "aspirin", "dustin", "calvin", "tintin"})  # fmt: skip
"""Words in "-in" that read as an "-ing" form with a "g" added: nouns and names."""


@lru_cache(maxsize=65536)
def spelled(token: str) -> str:
    """``token`` as the word or words it stands for (itself when it is no chat spelling)."""
    found = CHAT_WORDS.get(token)
    if found is not None:
        return found
    if (
        len(token) > 3 and token.endswith("in") and token.isalpha()
        and token not in NOT_DROPPED and verb(token) is None
    ):  # fmt: skip
        full = token + "g"
        if verb(full) is not None:
            return full
    return token


_SPELLINGS = re.compile(
    r"(?<![\w'])(?:"
    + "|".join(re.escape(word) for word in sorted(CHAT_WORDS, key=len, reverse=True))
    + r"|[a-z]{2,}in)(?=(?:'s)?(?![\w']))"  # a possessive too: "quit mcd's"
)


_ENDS = re.compile(r" ?(?:$|[.,;:!?()]|(?:fr|tbh|ngl|rn|atm|lol|now)\b)")
"""What ends a clause: a letter there is no word of chat ("drives a golf r fr": no "are")."""


def respelled(text: str) -> str:
    """Lowercase ``text`` with each chat spelling replaced by what it stands for; a lone "r"
    ending a clause is a letter (a model's: "golf r", "m3 r"), no "are"."""

    def word(match: re.Match[str]) -> str:
        token = match.group(0)
        return token if token == "r" and _ENDS.match(text, match.end()) else spelled(token)

    return _SPELLINGS.sub(word, text)


_HANDLE = re.compile(r"^\s*\w+")
_CONCORD = re.compile(
    r"((?<![\w'])(?:not|never|\w+n't|"
    + "|".join(re.escape(key) for key, value in CONTRACTIONS.items() if value.endswith(" not"))
    + r")(?![\w'])[^,.;:!?]*?)(?<![\w'])no (?:more|longer)(?![\w'])"
)
_HESITATIONS = frozenset({"um", "umm", "uh", "uhh", "er", "erm", "hmm"})
_SPOKEN_FILLERS = _HESITATIONS | {"yeah", "so", "well", "oh", "ah", "okay", "ok", "ngl", "tbh",
                                   "tbf", "imo", "honestly"}  # fmt: skip
_SPOKEN_PAIRS = frozenset({("yeah", "no"), ("turns", "out"), ("i", "think"), ("you", "know"),
                           ("wait", "no")})  # fmt: skip
SUBJECT_PRONOUNS = frozenset({"he", "she", "they"})
_POSSESSIVE_PRONOUNS = frozenset({"his", "her", "their"})
_AFTER_LIKE = (
    frozenset({"does", "did", "is", "was", "has", "had", "never", "not", "can", "will", "always",
               "just"}) | SUBJECT_PRONOUNS | _POSSESSIVE_PRONOUNS
)  # fmt: skip
"""What follows "like" said as a filler right after the subject ("farhan like never touches
it", "nia like she moved"): no liking, which names a thing."""


def handle_joined(text: str) -> str:
    """``text`` (not yet lowercased) with its subject made one word: a Discord handle's
    underscores left out ("mimi_k", "big_dave"), a full name of two capitalised words joined
    ("Lucas Oliveira works at Nubank", "Mei Ling's son"), not a sentence's first words ("On
    Saturday evenings, Rafael ...")."""
    if "_" in text:
        return _HANDLE.sub(lambda match: match.group(0).replace("_", ""), text, count=1)
    first, _, rest = text.partition(" ")
    second = rest.split(" ", 1)[0].removesuffix("'s")
    if not (_capitalised(first) and _capitalised(second)) or _NO_NAME & {
        first.lower(),
        second.lower(),
    }:
        return text
    return first + rest


_NO_NAME = STOPWORDS | frozenset(WEEKDAYS.split("|"))


def _capitalised(word: str) -> bool:
    return len(word) > 1 and word.isalpha() and word[0].isupper() and word[1:].islower()


_SAID_AGAIN = re.compile(
    r"(?:,? like)? (?:really|proper|properly|actually|literally|seriously|genuinely|totally"
    r"|absolutely|so) (\w+) (?:it|them|that)\b"
)
"""A verb said again of the same thing, to stress it ("hates coriander like really hates it")."""


def unrepeated(text: str) -> str:
    """Lowercase ``text`` without a verb said again of the same thing to stress it ("hates jazz
    like proper hates it": "hates jazz"), which would count a denial twice."""
    found = _SAID_AGAIN.search(text)
    if found is None or f" {found.group(1)} " not in text[: found.start()] + " ":
        return text
    return text[: found.start()] + text[found.end() :]


def unconcorded(text: str) -> str:
    """Lowercase ``text`` with "no more" or "no longer" after a negation in the same clause
    read "anymore": one denial said twice ("dont play tennis no more"), not two that undo
    each other."""
    return _CONCORD.sub(r"\1anymore", text) if "no " in text else text


def _said_once(tokens: list[str]) -> list[str]:
    """The tokens with a word or two said twice in a row said once ("works as a as a
    midwife", "she 's she 's coeliac", "has a a severe allergy"), and no hesitation ("married
    to er emeka")."""
    if len(set(tokens)) == len(tokens) and _HESITATIONS.isdisjoint(tokens):
        return tokens  # no word said twice (most facts): nothing to look for
    kept: list[str] = []
    for token in tokens:
        if kept and token in _HESITATIONS:
            continue
        kept.append(token)
        for size in (1, 2):
            if kept[-size:] == kept[-2 * size : -size] and kept[-1] != "not":  # "not not"
                del kept[-size:]
                break
    return kept


_REPAIRS = (("no", "sorry"), ("no", "wait"), ("i", "mean"), ("sorry",))
"""What speech puts before the words that replace the ones said just before ("62 no sorry
63")."""


def _ends_span(token: str) -> bool:
    """A word that is no part of a value said again: a small word, a mark, a pronoun."""
    return token in STOPWORDS or token in FILLERS or not token[0].isalnum()


def _restarted(tokens: list[str]) -> list[str]:
    """The tokens with a sentence started again said once: a pronoun for the subject, then
    the words said before it again ("aoife does not like um she does not like cats", its
    hesitation gone already: "aoife does not like cats")."""
    for index in range(2, min(len(tokens), 6)):
        said = tokens[1:index]
        if tokens[index] in SUBJECT_PRONOUNS and tokens[index + 1 : 2 * index] == said:
            return [tokens[0], *tokens[index + 1 :]]
    return tokens


def _self_repaired(tokens: list[str]) -> list[str]:
    """The tokens with a slip of the tongue left out: as many words before "no sorry", "no
    wait", "i mean" or "sorry" as follow it ("is 62 no sorry 63": "is 63"; "lives in halifax
    no wait huddersfield he 's in huddersfield": "lives in huddersfield ...")."""
    index = 2
    while index < len(tokens):
        marker = next((m for m in _REPAIRS if tuple(tokens[index : index + len(m)]) == m), None)
        if marker is None:
            index += 1
            continue
        after = index + len(marker)
        span = 0
        while span < 3 and after + span < len(tokens) and not _ends_span(tokens[after + span]):
            span += 1
        if span == 0 or index - span < 2:
            index += 1
            continue
        tokens = tokens[: index - span] + tokens[after:]
        index -= span
    return tokens


def unpadded(tokens: list[str]) -> list[str]:
    """The tokens without the laughs and interjections chat ends a fact with ("rio just
    turned 18 ayy !", "dex hit gold nova ngl"): what ends a fact is then its value. "lol"
    after a verb of playing or "in" is League of Legends ("plays lol") and stays."""
    kept = list(tokens)
    while len(kept) > 2 and (
        (kept[-1] in INTERJECTIONS and not (kept[-1] == "lol" and kept[-2] in _BEFORE_GAME))
        or (not kept[-1][:1].isalnum() and kept[-2] in INTERJECTIONS)
    ):
        kept.pop()
    return kept


_BEFORE_GAME = frozenset({"play", "plays", "playing", "played", "in", "on", "main", "mains"})


def unspoken(tokens: list[str]) -> list[str]:
    """The tokens without what speech and second-language English put between the subject
    and what is said of it: fillers ("priya um she lives"), a pronoun saying the subject
    again ("gareth he works", "desmond he 's 64"), a possessive pronoun for the subject's
    own ("ulises his home is": "ulises 's home is"); "like" after "is" ("is like learning
    korean"); a word or two said twice in a row,
    said once ("works as a as a midwife"); a slip of the tongue left out ("62 no sorry
    63")."""
    tokens = _restarted(_self_repaired(_said_once(tokens)))
    rest = 1
    while rest < len(tokens) - 2:
        if tuple(tokens[rest : rest + 2]) in _SPOKEN_PAIRS:
            rest += 2
        elif tokens[rest] in _SPOKEN_FILLERS or (
            tokens[rest] == "like" and tokens[rest + 1] in _AFTER_LIKE
        ):
            rest += 1
        else:
            break
    if rest >= len(tokens) - 1:
        return tokens
    if tokens[rest] in SUBJECT_PRONOUNS:
        rest += 1
        if tokens[rest] == "'s":  # "arjun he 's a mod": "arjun is a mod", not "arjun 's"
            had = tokens[rest + 1 : rest + 2] in (["got"], ["been"])
            tokens = [*tokens[:rest], "has" if had else "is", *tokens[rest + 1 :]]
    elif tokens[rest] in _POSSESSIVE_PRONOUNS and tokens[rest + 1] != "and":
        return [tokens[0], "'s", *tokens[rest + 1 :]]
    elif tokens[rest] in _POSSESSIVE_PRONOUNS:
        rest += 1  # "margit her and stefan got divorced": margit and stefan
    if tokens[rest] in _BARE_VERBS:  # "olga play tennis": "olga plays tennis"
        tokens = [*tokens[:rest], third_person(tokens[rest]) or tokens[rest], *tokens[rest + 1 :]]
    elif tokens[rest : rest + 2] == ["is", "like"] and tokens[rest + 2 :][:1] != ["a"]:
        tokens = [*tokens[: rest + 1], *tokens[rest + 2 :]]  # "is like teaching herself"
    return tokens if rest == 1 else [tokens[0], *tokens[rest:]]


_BARE_VERBS = frozenset({
    "have", "go", "live", "work", "play", "love", "hate", "speak", "study", "drive",
    "eat", "drink", "take", "make", "teach", "run", "swim", "cook", "prefer", "know",
    "sleep", "wake", "watch", "listen", "read", "write", "use", "ride", "walk", "visit",
    "stay", "do", "enjoy", "learn", "grow", "sing", "paint", "draw", "cycle", "volunteer",
})  # fmt: skip
"""Verbs second-language English says of a member as of "I" ("mei have two cats", "kenji go
to the gym"): read as said of someone else ("has", "goes"). Not "like", chat's filler."""
