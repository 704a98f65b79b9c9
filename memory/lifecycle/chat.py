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
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.extraction.offline.verbs import verb

CHAT_WORDS = {
    # words of grammar
    "u": "you", "ur": "your", "r": "are", "n": "and", "b4": "before", "bc": "because",
    "cuz": "because", "coz": "because", "bcuz": "because", "abt": "about", "thru": "through",
    "gonna": "going to", "wanna": "want to", "gotta": "got to", "tryna": "trying to",
    "finna": "going to", "ppl": "people", "smth": "something", "sth": "something",
    "tmr": "tomorrow", "tmrw": "tomorrow", "nite": "night", "tonite": "tonight",
    "everyday": "every day", "w": "with", "hes": "he is", "shes": "she is",
    "theyre": "they are",
    # content
    "wfh": "work from home", "bestie": "best friend", "besties": "best friends",
    "bff": "best friend", "bffs": "best friends", "compsci": "computer science",
    "luv": "love", "luvs": "loves", "hitched": "married", "veggie": "vegetarian",
    "hubby": "husband", "wifey": "wife",
    "tues": "tuesday", "thurs": "thursday", "weds": "wednesday", "yr": "year", "yrs": "years",
    "wk": "week", "wks": "weeks", "hr": "hour", "hrs": "hours", "yday": "yesterday",
    # employers by their ticker or nickname
    "msft": "microsoft", "sbux": "starbucks", "amzn": "amazon", "jpm": "jpmorgan",
    "mcd": "mcdonalds", "mcds": "mcdonalds", "goog": "google",
    # games: the short name (their long names are rewritten to it by memory.lifecycle.phrases)
    "valo": "valorant", "ow": "overwatch", "ow2": "overwatch 2", "mc": "minecraft",
    "ff14": "ffxiv", "r6s": "r6", "cs2": "counterstrike 2", "csgo": "counterstrike",
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
    + r"|[a-z]{2,}in)(?![\w'])"
)


def respelled(text: str) -> str:
    """Lowercase ``text`` with each chat spelling replaced by what it stands for."""
    return _SPELLINGS.sub(lambda match: spelled(match.group(0)), text)
