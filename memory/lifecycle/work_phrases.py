"""Work and money told in other words, rewritten to one form: working remotely ("works from
home", "has a remote job", "works from her home office", "never goes into the office",
"fully remote , never goes in"), working in the office an employer asks for, being out of
work, working for oneself ("works for himself", "self employed , own boss"), an employer who
poached someone, and saving ("puts money aside", "is putting money by"): a part of
:data:`memory.lifecycle.phrases.PHRASES`, run in its place there. :data:`LIVING_PHRASES` name
the job of what someone does "for a living" or "for work" ("fixes cars for a living" →
"works as a mechanic") and drop the words where no job is known for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_SELF = r"(?:himself|herself|themselves|themself|myself)"
WORK_PHRASES: list[tuple[tuple[str, ...], str, str]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("from home",), r"\b(works?|working|worked) from home\b", r"\1 remotely"),
    (("at home working", "working at home", "works at home"), r"\b(?:is at home working|(?:is )?"
     r"working at home|works at home)\b(?! (?:depot|bargains|base|store)\b)", "works remotely"),
    (("home office",), r"\b(works?|working|worked) from (?:his|her|their|a) home office\b",
     r"\1 remotely"),
    (("remote job",), r"\b(?:has )?(?:a )?remote job\b", "works remotely"),
    (("office",), r"\bnever (?:goes |comes )?(?:in|into|to) (?:(?:the|an|a) )?office\b",
     "works remotely"),  # "never goes into the office", "never in office"
    (("never goes in", "never comes in"), r"\b(remote(?:ly)?)(?: (?:ngl|tbh|fr))?(?: ,)? "
     r"(?:(?:he|she|they) )?never (?:goes|comes) in\b", r"\1"),  # "fully remote , never goes in"
    (("between jobs", "out of work"), r"\b(?:is )?(?:between jobs|out of work)\b",
     "is unemployed"),
    (("himself", "herself", "themsel", "myself"), rf"\bworks? (?:for|4) {_SELF} as (?:a |an )?",
     "works as a freelance "),  # "works for himself as a tax advisor"
    (("himself", "herself", "themsel", "myself"), rf"\bworks? (?:for|4) {_SELF}\b", "is freelance"),
    (("self",), r"\b(?:is )?self[- ]employed as (?:a |an )?", "works as a freelance "),
    (("self",), r"\bself[- ]employed\b", "freelance"),  # "a self-employed electrician"
    (("boss", "rather than"), r"(?: ,)? (?:like )?(?:no boss|(?:his|her|their|my) own boss|own boss"
     r"|rather than (?:for )?(?:an? |someone else 's )?(?:employer|boss|company))\b", ""),
    (("poached", "headhunted"), r"\b(?:got |was |has been |just got )?(?:poached|headhunted) by\b",
     "now works at"),  # "got poached by meta"
    (("office",), r"^(\S+) (?:'s )?(?:company|employer|boss|work|job|firm) (?:now )?(?:requires"
     r"|wants|makes|has made|made|is making|forces|has forced|is forcing|has ordered|ordered) "
     r"(?:him|her|them|me) (?:to )?(?:be |go |come |work )?(?:back )?(?:in|into|to) (?:the )?"
     r"office\b", r"\1 works in the office"),  # "'s company has made her go back to the office"
    (("money",), r"\b(?:puts|sets) (?:some )?money (?:aside|away|by)\b", "saves"),
    (("money",), r"\b(?:putting|setting) (?:some )?money (?:aside|away|by)\b", "saving"),
    (("sav",), r"\bsav(e|es|ing)(?: up)? (?:to buy|to purchase|up for)\b", r"sav\1 for"),
    # "saving up to buy a van", "saving to purchase land": "saving for"
]  # fmt: skip

_DONE_FOR = (
    ("mechanic", r"(?:fix|fixe|repair|service)s (?:up )?(?:cars|vehicles|engines|motors)"),
    ("plumber", r"(?:fix|fixe|repair)s (?:pipes|leaks|boilers)"),
    ("barista", r"(?:make|brew|serve|pull)s (?:the )?(?:coffees?|lattes|espressos|shots)"),
    ("developer", r"codes|writes (?:[\w-]+ )?(?:code|software)"),
    ("cook", r"cooks"),
    ("baker", r"bakes"),
    ("courier", r"delivers (?:parcels|packages)|drives (?:deliveries|(?:a )?delivery vans?)"),
    ("postman", r"delivers (?:the )?(?:post|mail|letters)"),
    ("midwife", r"delivers babies"),
    ("childminder", r"looks after (?:other (?:people|folks|families) 's )?(?:kids|children)"),
    ("hairdresser", r"(?:cuts|styles|does) hair"),
    ("bricklayer", r"lays bricks"),
    ("tattoo artist", r"does tat+o+s"),
    ("uber driver", r"drives (?:for )?uber"),
    ("taxi driver", r"drives (?:a )?(?:taxis?|cabs?)"),
    ("cleaner", r"cleans (?:houses|homes|offices)"),
    ("dentist", r"(?:does|fixes) teeth"),
    ("pilot", r"flies (?:planes|jets|aircraft)"),
)
"""What is done for a living and the job that names it, as the job slot reads it."""
_JOB_OF = [(job, re.compile(rf"(?:{doing})\b")) for job, doing in _DONE_FOR]
_LIVING = r"for (?:a|her|his|their) liv(?:ing|ng|eing|in)\b"
_FOR = rf"(?:{_LIVING}|for work\b)"


def _job_for(match: re.Match[str]) -> str:
    """ "ana fixes cars for a living" → "ana works as a mechanic"; left as it is where no job
    is known for what is done."""
    for job, pattern in _JOB_OF:
        if pattern.match(match.group("doing")):
            return f"{match.group('who')} works as a {job}"
    return match.group(0)


LIVING_PHRASES: list[tuple[tuple[str, ...], str, str | Callable[[re.Match[str]], str]]] = [
    (("for a liv", "r liv", "s liv", "for work"), rf"^(?P<who>\S+)(?: [.:,-])?(?: (?:now|just"
     rf"|basically|actually|still))? (?P<doing>[a-z]+s(?: (?!{_FOR})[\w'-]+){{0,6}}?) {_FOR}",
     _job_for),  # "makes coffee at a cafe for work"
    (("liv",), rf"\b{_LIVING}", " "),  # the rest: "does accounting for a living"
]  # fmt: skip
