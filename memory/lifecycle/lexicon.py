"""The word lists behind :mod:`memory.lifecycle.relation`: small, hand-written, English.

Every list is a plain frozenset or dict so it reads as data. Words are lowercase; verbs and
plurals are compared as lemmas (see :func:`memory.lifecycle.reading.lemma`), so a list holds
one form of each.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    """The space-separated words of ``text`` (word lists read best as prose)."""
    return frozenset(text.split())


STOPWORDS = _words(
    "a an the and or but of to in on at for with from by about as into onto than then "
    "is are was were be been being am has have had having do does did doing will would "
    "can could should shall might must may that this these those it its their theirs his "
    "her hers him them they he she i my me we our us you your yours 's there here what "
    "which who whom when where why how so very too also just still now always already "
    "again anymore any some all up out one own same such only even ever back"
)
"""Words that carry no content of their own in a short fact."""

FILLERS = _words(
    "lol lmao lmfao rofl haha hahaha omg tbh ngl fr rn af btw tho though ok okay yeah yes "
    "actually literally basically honestly lowkey highkey totally absolutely super kinda "
    "sorta pretty quite really truly definitely officially currently recently finally "
    "originally apparently probably mostly generally usually often sometimes daily weekly "
    "nightly these days big huge"
)
"""Chat fillers, intensifiers and hedges: dropped before two facts are compared."""

LIGHT_VERBS = frozenset({"be", "have", "do", "go", "get"})
"""Lemmas too common to tell two facts apart ("went to Paris" / "visited Paris")."""

NEGATORS = frozenset({"not", "never", "no", "nor", "neither", "nobody", "nothing"})

NEGATIVE_VERBS = {"hate": "like", "dislike": "like", "detest": "like", "loathe": "like"}
"""Verbs that say "not like": each counts as one negation and reads as ``like``."""

STOPPING_VERBS = frozenset({"quit", "stop", "cease"})
"""A habit ended ("quit smoking", "stopped going swimming"): one negation, then dropped."""

SYNONYMS = {
    # likes
    "love": "like", "adore": "like", "enjoy": "like", "prefer": "like",
    # going places
    "visit": "go", "attend": "go",
    # people and things
    "child": "kid", "children": "kid", "kiddo": "kid", "mom": "mother", "mum": "mother",
    "dad": "father", "bf": "boyfriend", "gf": "girlfriend", "fav": "favorite",
    "fave": "favorite", "favourite": "favorite", "colour": "color", "film": "movie",
    "uni": "university", "allergy": "allergic", "create": "make", "begin": "start",
    "purchase": "buy", "puppy": "dog", "pup": "dog", "doggo": "dog", "kitten": "cat",
    "kitty": "cat", "bunny": "rabbit",
}  # fmt: skip
"""Whole-word synonyms mapped to one canonical word (after lemmas)."""

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip

CONTRACTIONS = {
    "can't": "can not", "cannot": "can not", "won't": "will not", "ain't": "is not",
    "doesnt": "does not", "dont": "do not", "didnt": "did not", "isnt": "is not",
    "wasnt": "was not", "arent": "are not", "werent": "were not", "cant": "can not",
    "wont": "will not", "hasnt": "has not", "havent": "have not", "hadnt": "had not",
    "couldnt": "could not", "wouldnt": "would not", "shouldnt": "should not",
    "aint": "is not", "no longer": "not", "any more": "anymore", "w/": "with",
}  # fmt: skip
"""Rewritten before tokenising (``n't`` in general is handled by a pattern)."""

IS_AFTER_S = _words(
    "a an the not so very really just still now always never from in into on at off over "
    "back originally currently also allergic vegan vegetarian single married engaged "
    "divorced separated dating seeing based living moving going working studying learning "
    "obsessed into"
)
"""After "<name>'s", these words make the ``'s`` an "is" ("Ana's a vet", "Mo's divorced")."""

HAS_AFTER_S = _words("been got gotten moved gone had started quit become finished")
"""After "<name>'s", these make it a "has" ("Jay's moved to Denver")."""

MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
)
WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
DATE_WORDS = (
    frozenset(MONTHS.split("|"))
    | frozenset(WEEKDAYS.split("|"))
    | frozenset(day + "s" for day in WEEKDAYS.split("|"))
    | _words(
        "yesterday today tonight tomorrow tmrw morning evening afternoon week weekend month "
        "year day ago"
    )
)
"""Words of dates: never content shared by two facts."""

OCCUPATIONS = _words(
    "accountant actor actress administrator analyst architect artist assistant attorney "
    "baker banker barber barista bartender biologist bookkeeper builder butcher carpenter "
    "cashier chef chemist cleaner clerk coach consultant cook counselor counsellor courier "
    "dancer dentist designer developer director doctor driver economist editor electrician "
    "engineer farmer firefighter gardener hairdresser illustrator instructor janitor "
    "journalist judge lawyer lecturer librarian lifeguard manager mechanic midwife musician "
    "nanny nurse officer painter paramedic pharmacist photographer physician physicist "
    "physiotherapist pilot plumber policeman policewoman politician postman professor "
    "programmer psychologist receptionist reporter researcher salesman saleswoman "
    "scientist secretary singer soldier surgeon tailor teacher technician therapist "
    "translator tutor vet veterinarian waiter waitress welder writer tech intern recruiter "
    "caregiver dev"
)
"""Heads of an occupation: "is a nurse" names a job, "is a cat person" does not."""

PETS = {
    "dog": "dog", "puppy": "dog", "pup": "dog", "cat": "cat", "kitten": "cat",
    "guinea pig": "guinea pig", "hamster": "hamster", "rabbit": "rabbit", "bunny": "rabbit",
    "parrot": "parrot", "bird": "bird", "fish": "fish", "horse": "horse", "pony": "horse",
    "snake": "snake", "lizard": "lizard", "gecko": "gecko", "turtle": "turtle",
    "tortoise": "tortoise", "ferret": "ferret", "rat": "rat", "mouse": "mouse",
}  # fmt: skip
"""Kinds of pet, each mapped to the key its name is filed under."""

LANGUAGES = _words(
    "english spanish french german italian portuguese japanese chinese mandarin cantonese "
    "korean arabic russian hindi dutch swedish norwegian danish polish greek turkish "
    "hebrew latin welsh irish"
)
"""Studying a language is a pastime beside a degree, not the degree."""

MEATS = _words(
    "meat fish chicken beef pork bacon steak burger ham lamb turkey sausage seafood salmon "
    "tuna shrimp prawn"
)
ANIMAL_PRODUCTS = _words("cheese egg dairy milk butter honey yogurt yoghurt")
DIETS = {"vegetarian": MEATS, "vegan": MEATS | ANIMAL_PRODUCTS}
"""Diets, and what a member who keeps one does not eat."""

SLOT_CUES = _words(
    "live move relocate base reside work job employ employed unemployed retire retired "
    "fire fired quit teach single marry married engaged engage divorce divorced separate "
    "separated widowed dating date relationship boyfriend girlfriend partner husband wife "
    "break split call named name age turn old study major degree student university college "
    "school favorite grow born come vegetarian vegan meat eat"
)
"""Lemmas that may introduce an attribute slot: two facts sharing no content word are
compared further only when both hold one of these (or an occupation, or a number)."""
