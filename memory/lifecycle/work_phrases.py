"""Work and money told in other words, rewritten to one form: working remotely ("works from
home", "has a remote job", "works from her home office", "never goes into the office",
"fully remote , never goes in"), being out of work, and saving ("puts money aside", "is
putting money by"): a part of :data:`memory.lifecycle.phrases.PHRASES`, run in its place
there.
"""

from __future__ import annotations

WORK_PHRASES: list[tuple[tuple[str, ...], str, str]] = [
    # (words one of which must be in the text, pattern, replacement)
    (("from home",), r"\b(works?|working|worked) from home\b", r"\1 remotely"),
    (("home office",), r"\b(works?|working|worked) from (?:his|her|their|a) home office\b",
     r"\1 remotely"),
    (("remote job",), r"\b(?:has )?(?:a )?remote job\b", "works remotely"),
    (("office",), r"\bnever (?:goes |comes )?(?:in|into|to) (?:(?:the|an|a) )?office\b",
     "works remotely"),  # "never goes into the office", "never in office"
    (("never goes in", "never comes in"), r"\b(remote(?:ly)?)(?: (?:ngl|tbh|fr))?(?: ,)? "
     r"(?:(?:he|she|they) )?never (?:goes|comes) in\b", r"\1"),  # "fully remote , never goes in"
    (("between jobs", "out of work"), r"\b(?:is )?(?:between jobs|out of work)\b",
     "is unemployed"),
    (("money",), r"\b(?:puts|sets) (?:some )?money (?:aside|away|by)\b", "saves"),
    (("money",), r"\b(?:putting|setting) (?:some )?money (?:aside|away|by)\b", "saving"),
    (("sav",), r"\bsav(e|es|ing)(?: up)? (?:to buy|to purchase|up for)\b", r"sav\1 for"),
    # "saving up to buy a van", "saving to purchase land": "saving for"
]  # fmt: skip
