"""The patterns of a member's pets (:mod:`memory.lifecycle.slots`): a pet's name, one per
kind ("Biscuit" / "her dog is called Max"), how many of a kind, none or some ("has no pets"
/ "adopted a kitten", "2 cats" / "just the one cat left", "a proud cat owner"), and their
only pet. Built as the patterns of :mod:`memory.lifecycle.slot_patterns` are, from its parts.
"""

from __future__ import annotations

from memory.lifecycle.lexicon import PETS
from memory.lifecycle.slot_patterns import (
    _ADVERBS,
    _DET,
    _FRAGMENT_END,
    _HAS_NO,
    _SOME,
    _STOP,
    SlotPattern,
    one_of,
)
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_PETS = one_of(PETS)
_PET = f"(?P<pet>{_PETS})"
_ANY_PET = f"(?P<value>{_PETS})s?"
_NAME = rf"(?P<value>[\w'-]+){_STOP}"
"""A pet's name: one word."""

PET_PATTERNS: tuple[SlotPattern, ...] = (
    _p("pet", rf"{_S}'s (?:only )?(?:[\w-]+ )?{_PET} (?:is )?(?:(?:now|still|actually|really) )?"
              rf"(?:called|named) {_NAME}"),
    _p("pet", rf"{_S}(?:\S+ ){{0,4}}?{_PET}s?(?: 's| \.)? name (?:is |: )?(?:actually |really )?"
              rf"(?P<value>[\w'-]+)(?:{_STOP}|(?= not\b))"),  # "dog name: x", "name is actually x"
    _p("pet", rf"{_S}'s {_PET} 's name is {_NAME}"),
    _p("pet", rf"{_S}{_ADVERBS}(?:has|owns) (?:a|an|1) (?:[\w-]+ )?{_PET}(?: ,)? (?:called|named) "
              rf"{_NAME}"),
    _p("pet", rf"{_S}[.:,-] {_PET} : {_NAME}"),  # "jia . dog : bean"
    _p("pet", rf"{_S}{_ADVERBS}(?:named|renamed|has renamed|called|calls) {_DET} {_PET} "
              rf"(?:to )?{_NAME}"),
    _p("pet", rf"^(?P<value>\w+) is \S+ 's {_PET}$"),
    _p("pets", rf"{_S}{_ADVERBS}(?:{_HAS_NO}|has never (?:had|owned) (?:a|any)) pets?\b", "none"),
    _p("pets", rf"{_S}(?:[.:,-] )?no pets{_FRAGMENT_END}", "none"),
    _p("pets", rf"{_s_if(' no pets')}(?:\S+ ){{1,12}}?(?:[.,;:-]|so) no pets(?: (?:in|at) the \w+)?"
               rf"{_FRAGMENT_END}", "none"),  # "luna got rehomed . no pets"
    _p("pets", rf"{_S}{_ADVERBS}(?:has got|has|got|adopted|owns|has adopted) "
               rf"(?!(?:\S+ ){{0,3}}?(?:eat|eating|ate|cooking|cooked)\b){_SOME}{_ANY_PET}\b"),
    # not "started eating fish"; "has got 2 cats" (2 of them)
    _p("pets", rf"{_S}(?:[.:,-] )?(?:(?:now|still|only|just) )?(?P<count>\d+) {_ANY_PET}"
               rf"(?: left)?{_FRAGMENT_END}"),  # "bella . 2 cats", "bella - 1 cat (left) now"
    _p("pets", rf"{_s_if(' left')}(?:\S+ ){{1,8}}?(?:just|only) (?:the )?(?P<count>\d+) {_ANY_PET} "
               rf"left\b"),  # "rehomed 1 , just the 1 dog left"
    _p("only_pet", rf"{_S}(?:'s |[.:,-] )?(?:only|1 and only) pet (?:now )?(?:is |: |= )?"
                   rf"(?:now )?(?:a |an )?(?:[\w-]+ )?{_ANY_PET}\b"),
    _p("only_pet", rf"{_S}{_ADVERBS}has (?:only )?1 pet ,? (?:a |an )?(?:[\w-]+ )?{_ANY_PET}\b"),
    _p("pets", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?(?:a |an )?(?:proud |new |first time )?"
               rf"{_ANY_PET} (?:owner|mum|mom|dad|parent)(?: x ?(?P<count>\d+))?"
               rf"\b"),  # "is a proud cat owner", "a cat mum x2"
)  # fmt: skip
"""What fills the pet, pets and only-pet slots (``value`` group; ``pet``: the pet's kind)."""
