"""Health told in everyday words, rewritten to the words the lifecycle reads ("cats trigger
his allergies" → "is allergic to cats", "can't have dairy" → "is lactose intolerant", "can't
sleep at night" → "has insomnia"), and fears ("planes make her anxious", "has a spider
phobia" → "is scared of ..."; what is feared by one name: "air travel" is "flying"): a part of
:data:`memory.lifecycle.phrases.PHRASES`, run in its place there. Texts arrive tokenised
("can't" → "can not").
"""

from __future__ import annotations

import re
from collections.abc import Callable

_ME = r"(?:him|her|them|me)"
_END = r"(?=$| [.,;:!?]| (?:a lot|so much|badly|to death|tbh|ngl|fr|af|lol)\b)"
"""After whom it scares: no word of theirs ("terrify her dog" is the dog's fear)."""
_SAID = r"(?:(?:says|said|thinks|mentioned|explained|shared|noted|admitted) (?:that )?)?"
_VERY = r"(?:(?:really|very|super|so|extremely|proper|properly|genuinely|a bit|quite|totally) )*"
_FEARED = {
    "flying": r"(?:getting on |being on |going on )?(?:(?:a|an) )?(?:planes?|aeroplanes?"
    r"|airplanes?|aircraft|air travel)",
    "heights": r"high (?:places|up|ledges)",
    "needles": r"(?:injections|jabs)",
    "confined spaces": r"(?:tight|small|enclosed|cramped) spaces",
}
"""What is feared, by one name ("scared of air travel": flying)."""
_OF = r"(?:(?<=scared of )|(?<=afraid of )|(?<=terrified of )|(?<=fear of )|(?<=phobia of ))"
_PHOBIAS = {"acro": "heights", "arachno": "spiders", "claustro": "confined spaces",
            "aero": "flying", "avio": "flying", "trypano": "needles", "cyno": "dogs"}  # fmt: skip

HEALTH_PHRASES: list[tuple[tuple[str, ...], str, str | Callable[[re.Match[str]], str]]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("dr .", "mr .", "mrs .", "ms .", "prof ."), r"\b(dr|mr|mrs|ms|prof) \. (?=[a-z])", r"\1 "),
    (
        ("digest",),
        r"\bcan not (?:digest|process) (lactose|gluten|dairy)(?: properly)?\b",
        r"is \1 intolerant",
    ),
    (
        ("trigger", "set off", "sets off"),
        r"^(\S+) (?:[.:,-] )?(?:(?:said|says|mentioned|explained|noted|shared|stated) (?:that )?)?"
        r"([\w-]+(?: [\w-]+)?) (?:triggers?|sets? off) (?:his|her|their|my) "
        r"(?:allergy|allergies)\b",
        r"\1 is allergic to \2",
    ),  # "bartek . cats trigger his allergies"
    (
        ("dairy",),
        r"\bcan not (?:have|eat|do|handle|take|digest) dairy\b(?![\w ]* lactose)"
        r"(?: ,? (?:as |cos |because )?(?:it|that) does not agree with (?:him|her|them|me)\b)?",
        "is lactose intolerant",
    ),  # "cant have dairy, it doesnt agree with her"
    (
        ("sleep",),
        r"\bcan not (?:sleep|get to sleep|fall asleep)(?: at night| at all| properly)?\b",
        "has insomnia",
    ),  # "isa - cant sleep at night. insomniac"
    (("diagnosed",), r"\b(?:has been|was|got|been|is) diagnosed with\b", "has"),
    (
        ("diagnosis",),
        r"\bhas (?:an? )?(?:official |formal |proper )?([\w-]+) diagnosis\b",
        r"has \1",
    ),
    (
        ("terrif", "scare", "frighten", "freak", "anxious", "nervous"),
        rf"^(\S+) (?:[.:,-] )?{_SAID}(?!(?:his|her|their|my)\b)((?:[\w'-]+ ){{0,3}}?"
        rf"[\w'-]+) {_VERY}(?:(?:terrify|terrifies|scare|scares|frighten|frightens) {_ME}{_END}"
        rf"|freaks? {_ME} out|makes? {_ME} {_VERY}(?:anxious|nervous|scared))\b",
        r"\1 is scared of \2",
    ),  # "getting on planes makes her very anxious", "snakes freak me out"
    (
        ("scared", "anxious", "nervous", "frightened", "panic"),
        rf"\b(?:gets? {_VERY}(?:scared|anxious|nervous|frightened|panicky|terrified)(?: af)?"
        rf"|{_VERY}panics) (?:on|in|around|about|of) ",
        "is scared of ",
    ),  # "gets very anxious on planes", "really panics in tight spaces"
    (
        ("phobi",),
        r"\b(?:has |is )?(?:like )?(?:an? )?(?:(?:real|proper|strong|huge|massive|serious) )?"
        r"(?:(acro|arachno|claustro|aero|avio|trypano|cyno)phobi(?:a|c)|([a-z]+) phobia)\b",
        lambda m: f"is scared of {_PHOBIAS.get(m.group(1), m.group(2))}",
    ),  # "has a spider phobia", "has acrophobia", "is claustrophobic"
    *((("of ",), rf"{_OF}(?:the )?{words}\b", name) for name, words in _FEARED.items()),
    (
        ("scared", "terrified", "afraid", "frightened", "phobia", "fear of"),
        r"\b(?:is |(?=not ))(not )?(?:(?:really|so|very|super) )?(?:scared|terrified|afraid"
        r"|frightened) of\b|\bhas (?:a )?(?:(?:real|strong|huge) )?(?:phobia|fear) of\b",
        r"\1fears",
    ),
]
