"""The patterns of what a member goes by (:mod:`memory.lifecycle.slots`): their pronouns, one
set at a time ("goes by she/her" / "on they/them now"), the name they go by, and the visa
they live on, one at a time ("student visa" / "skilled worker visa came thru", "has
indefinite leave to remain"; a citizen's country read too: two citizenships can both hold),
and their driving licence (provisional, then full: "passed her test"). Built as the patterns
of :mod:`memory.lifecycle.slot_patterns` are.
"""

from __future__ import annotations

from memory.lifecycle.lexicon import LANGUAGES
from memory.lifecycle.places import COUNTRIES, DEMONYMS
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import SlotPattern, one_of
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_PAIR = r"(?P<value>she(?= her\b)|he(?= him\b)|they(?= them\b)|it(?= its\b)|any(?= pronouns\b))"
"""A set of pronouns as people write it ("she/her" is read "she her"): its first word."""
_ONE = r"(?P<value>she|he|they|it|any)"
_END = r"(?=$| [.,;:!?()]| (?:now|pronouns|lol|fr|ngl|tbh|btw)\b)"
_LANGUAGE_LEARNER = rf"(?!.*\b(?:{one_of(LANGUAGES)}) learners?\b)"
"""No learner driver: "an intermediate japanese learner"."""
_NATION = rf"(?P<nation>{one_of(DEMONYMS)}|uk|us|eu)"
"""Whose citizen one is: "a ghanaian citizen", "uk citizenship"."""
_COUNTRY_OF = {**DEMONYMS, "uk": "the uk", "us": "the us"}
_NO_DENIAL = r"(?!.*\b(?:not|never|no longer|wants?|hopes?|applying|applied)\b)"
"""No visa denied, wished for or applied for ("does not have a student visa", "applying for
ilr")."""

IDENTITY_PATTERNS: tuple[SlotPattern, ...] = (
    _p("pronouns", rf"{_s_if(' (?:she her|he him|they them|it its|any pronouns)')}"
                   rf"(?!'s )(?:\S+ ){{0,5}}?{_PAIR}"),  # "rowan . they/them", "goes by she/her"
    _p("pronouns", rf"{_S}(?:[.:,-] )?(?:\S+ )?(?:goes by|uses|use) {_ONE}(?: pronouns)?{_END}"),
    _p("pronouns", rf"{_S}'s pronouns (?:are|is|:) (?:now )?{_ONE}\b"),
    _p("pronouns", rf"{_S}(?:[.:,-] )?(?P<value>him|them){_END}"),  # "sky - he/him": "sky him"
    _p("name", rf"{_S}(?:[.:,-] )?(?:\S+ )?goes by (?!(?:she|he|they|it|any)\b)"
               rf"(?P<value>[\w-]+){_END}"),  # the name they go by: "goes by pet"
    _p("visa", rf"{_s_if(' visa')}{_NO_DENIAL}(?!'s )(?:\S+ ){{0,6}}?(?:on |has |got |holds )?"
               rf"(?:a |an |his |her |their )?(?P<value>student|skilled worker|work|working holiday"
               rf"|spouse|spousal|partner|family|tourist|visitor|graduate|tier 2|tier 4|h-?1b|f-?1"
               rf"|education) visa\b(?! (?:has )?(?:expired|ran out|ended|ends|runs out)\b)"),
    _p("visa", rf"{_s_if(' indefinite leave| ilr| permanent resid| green card| citizen')}"
               rf"{_NO_DENIAL}(?!'s )(?:\S+ ){{0,4}}?(?:has |got |holds |received |was granted "
               rf"|is now |became )?(?:a |an |his |her |their )?(?:{_NATION} )?"
               rf"(?P<value>indefinite leave to remain|ilr|permanent residency|permanent residence"
               rf"|permanent resident|green card|citizenship|citizen)\b"
               rf"(?: of (?P<country>{one_of(COUNTRIES)})\b)?"),
    # the driving licence they hold: a provisional one, or a full one once the test is passed
    _p("licence", rf"{_s_if('provisional|learner')}(?!.*\bno longer\b){_LANGUAGE_LEARNER}(?!'s )"
                  rf"(?:\S+ ){{0,4}}?"
                  rf"(?:on |has |got |holds )?(?:a |an |his |her |their )?(?:provisional|learner 's"
                  rf"|learners?)(?: driving| drivers?)?(?: licence| license| permit)?\b",
       "provisional"),
    _p("licence", rf"{_s_if('full')}(?!'s )(?:\S+ ){{0,4}}?(?:has|holds|got|gets|now has) "
                  rf"(?:a |an |his |her |their )?full (?:uk |us |eu )?(?:driving |drivers? |driver "
                  rf"'s )?(?:licence|license)\b", "full"),
    _p("licence", rf"{_s_if('passed')}(?!'s )(?:\S+ ){{0,4}}?passed (?:his|her|their|the) "
                  rf"(?:driving |practical |road )?test\b", "full"),  # "passed her test first time"
)  # fmt: skip
"""What fills the pronoun, name, visa and licence slots (their ``value`` group, or the
pattern's fixed value)."""

VISAS = {"indefinite leave to remain": "settled", "ilr": "settled",
         "permanent residency": "settled", "permanent resident": "settled",
         "permanent residence": "settled",
         "green card": "settled", "citizenship": "citizen", "tier 4": "study", "f1": "study",
         "f-1": "study", "tier 2": "skilled worker", "spousal": "spouse", "partner": "spouse",
         "visitor": "tourist", "education": "study"}  # fmt: skip
"""One name for each kind of visa or settled status ("student" is read "study" already)."""

PRONOUNS = {"him": "he", "them": "they"}
"""A set of pronouns by its first word (speech drops "he" after the subject: "sky he/him")."""


def visa_value(value: str, nation: str | None, country: str | None) -> str:
    """One name for a visa or status (``VISAS``), a citizen's with its country when told
    ("a ghanaian citizen", "a citizen of ghana": "citizen ghana")."""
    value = VISAS.get(value, value)
    named = _COUNTRY_OF.get(nation, nation) if nation else country
    return f"citizen {named}" if value == "citizen" and named else value
