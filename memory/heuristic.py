"""The offline extractor: first-person self-disclosures and standing requests, by rule.

A message is cleaned (code, quoted lines, quotations, links, emoji and markup removed;
``im``/``dont``-style contractions repaired), split into clauses, and each clause that is a
plain statement by the speaker is matched against rules for identity, name, job, study,
location, age, family, partners, pets, likes / dislikes / favourites, allergies, diet,
habits, projects, plans and events with their dates, and requests ("call me…", "from now
on…", "please remember…"). A match is rewritten as a self-contained third-person fact that
names the speaker ("Sarah works as a nurse."); its evidence is the source sentence as typed.

Nothing is taken from questions, hypotheticals ("if I were…", "I'd love…"), quotations of
other people, sarcasm marked ``/s`` or transient states ("I'm tired"). Negations stay
negations: "I don't like olives" → "Sarah does not like olives.". Hedged statements ("I
think", "probably", "kinda") get confidence 0.6, plain ones 0.9.

Precision matters more than recall here: a wrong memory is worse than a missing one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from memory.extraction import MAX_FACTS_PER_MESSAGE, BaseExtractor, ContextTurn, SourceMessage
from memory.models import CandidateFact

PLAIN = 0.9
HEDGED = 0.6
MAX_OBJECT_WORDS = 10
MAX_EVIDENCE = 220

# --- cleaning ------------------------------------------------------------------------------

_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_QUOTE_LINE = re.compile(r"^\s*>.*$", re.M)
_URL = re.compile(r"\b(?:https?://|www\.)\S+", re.I)
_CUSTOM_EMOJI = re.compile(r"<a?:\w+:\d+>|(?<!\w):[a-z0-9_+\-]{2,}:(?!\w)", re.I)
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_OTHER_MENTION = re.compile(r"<[#@][&!]?\d+>")
_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\ufe0f\u200d"
    "\U000e0000-\U000e007f]+"
)
_DOUBLE_QUOTED = re.compile(r"\"[^\"\n]{1,300}\"|“[^”\n]{1,300}”|«[^»\n]{1,300}»")
_SINGLE_QUOTED = re.compile(r"(?<!\w)['‘][^'’\n]{3,300}['’](?!\w)")
_MARKDOWN = re.compile(r"(\*\*|__|\*|~~|\|\||^#+\s+|^-#\s+)", re.M)
_CONTRACTIONS = [
    (re.compile(r"\bi\s*['’]?\s*m\b(?!['’])", re.I), "I'm"),
    (re.compile(r"\bim\b", re.I), "I'm"),
    (re.compile(r"\bive\b", re.I), "I've"),
    (re.compile(r"\bi\s*['’]\s*ve\b", re.I), "I've"),
    (re.compile(r"\bi\s*['’]\s*d\b", re.I), "I'd"),
    (re.compile(r"\bid\s+(?=(?:love|like|rather|prefer|be|go|buy|never|probably|want)\b)", re.I),
     "I'd "),
    (re.compile(r"\bi\s*['’]\s*ll\b", re.I), "I'll"),
    (re.compile(r"\bill\s+(?=(?:be|go|have|probably|try|start|move|never)\b)", re.I), "I'll "),
    (re.compile(r"\b(do|does|did|is|are|was|were|ca|wo|have|has|had|could|would|should)n['’]?t\b",
                re.I), r"\1n't"),
    (re.compile(r"\bcant\b", re.I), "can't"),
    (re.compile(r"\bwont\b", re.I), "won't"),
    (re.compile(r"\bgonna\b", re.I), "going to"),
    (re.compile(r"\bwanna\b", re.I), "want to"),
    (re.compile(r"\bgotta\b", re.I), "got to"),
    (re.compile(r"\bI've\s+got\b", re.I), "I have"),
    (re.compile(r"\bw/\s*", re.I), "with "),
    (re.compile(r"\bu\b", re.I), "you"),
    (re.compile(r"\bur\b", re.I), "your"),
    (re.compile(r"\bfav(?:ou?rite|e|)?\b", re.I), "favourite"),
    (re.compile(r"\bfavorite\b", re.I), "favourite"),
    (re.compile(r"’"), "'"),
]  # fmt: skip


def _clean(message: SourceMessage) -> str:
    text = message.text
    # Each pass only runs when its marker character is there (most messages have none).
    if "`" in text:
        text = _INLINE_CODE.sub(" ", _CODE_BLOCK.sub(" . ", text))
    if ">" in text:
        text = _QUOTE_LINE.sub(" ", text)
    if "http" in text or "www." in text:
        text = _URL.sub(" ", text)
    if ":" in text:
        text = _CUSTOM_EMOJI.sub(". ", text)
    if "<" in text:
        names = {m.id: m.name for m in message.mentions}
        text = _USER_MENTION.sub(lambda m: names.get(m.group(1), "someone"), text)
        text = _OTHER_MENTION.sub(" ", text)
    if not text.isascii():
        text = _EMOJI.sub(". ", text)  # in chat an emoji usually ends a thought
    # Quoted words are someone else's: "my mom always says "I love gardening"". A quoted
    # title without first-person words ('Private Eyes') stays.
    if '"' in text or not text.isascii():
        text = _DOUBLE_QUOTED.sub(_drop_first_person_quote, text)
    if "'" in text or "‘" in text:
        text = _SINGLE_QUOTED.sub(_drop_first_person_quote, text)
    if any(mark in text for mark in "*_~|#"):
        text = _MARKDOWN.sub("", text)
    if text.isupper():  # shouting: "I'M A NURSE"
        text = text.lower()
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return _REPEATED_WORD.sub(r"\1", text)  # "i love love love sushi"


_REPEATED_WORD = re.compile(r"\b(\w+)(?:\s+\1\b)+", re.I)
_QUOTED_FIRST_PERSON = re.compile(r"\b(?:i|im|i'm|i've|ive|my|me|mine)\b", re.I)


def _drop_first_person_quote(match: re.Match[str]) -> str:
    quote = match.group()
    return " " if _QUOTED_FIRST_PERSON.search(quote) else quote.strip("\"'“”‘’«»")


# --- clauses -------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+|(?<=[.!?])$|\s*;\s*|\s+(?:--|—|–)\s+")
_CLAUSE_JOIN = re.compile(
    r",?\s+(?:but|and|&|so|plus|also|though|although|cuz|cause|because|bc|while|whereas)"
    r"\s+(?=(?:I|I'm|I've|I'd|I'll|my|me)\b(?!\s+(?:are|were|have been)\b))"
    r"|,\s+(?=(?:I|I'm|I've|my)\b)|\s+(?:lol|lmao|haha+)\s+"
    r"|,?\s+(?=if\s)",
    re.I,
)
_TRAILING_ASK = re.compile(
    r"[,\s]*(?:and\s+)?(?:you|wbu|hbu|how about you|what about you|anyone else|right)\s*\?+\s*$",
    re.I,
)
_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|well|yeah|yea|yes|yep|nah|no(?!\s+longer)|oh|ah|hey|hi|hello|lol|lmao|haha+|"
    r"honestly|tbh|ngl|fr|btw|fyi|also|anyway|anyways|update|fun fact|psa|um+|uh+|"
    r"guys|y'all|yall|folks|welp|omg|bruh|dude|jk|but|and|tho|though|plus|"
    r"hot take|confession|reminder|real talk|quick context|context|side note|note)\b[,:!.\s-]*)+",
    re.I,
)


_COUPLE_HEAD = re.compile(r"^(?:my\s+[\w-]+(?:\s+[\w'-]+)?|me)$", re.I)


def _joined(parts: list[str]) -> Iterator[str]:
    """Undo a split inside "my husband and I …" / "me and my wife …"."""
    carry = ""
    for part in parts:
        if carry:
            part, carry = f"{carry} and {part}", ""
        if _COUPLE_HEAD.match(part.strip()):
            carry = part.strip()
            continue
        yield part
    if carry:
        yield carry


def _clauses(text: str) -> Iterator[str]:
    for sentence in _SENTENCE_END.split(text):
        for clause in _joined(_CLAUSE_JOIN.split(sentence or "")):
            clause = _FILLER.sub("", clause.strip(" ,.-–—:*~\t"))
            if clause:
                yield clause


# --- gates ---------------------------------------------------------------------------------

_QUESTION_START = re.compile(
    r"^(?:do|does|did|are|is|was|were|am|can|could|would|should|will|shall|have|has|had|"
    r"who|what|whats|what's|when|where|why|how|which|anyone|anybody|any1|does anyone|"
    r"is there|isn't|aren't|don't you|won't|wanna|want to)\b",
    re.I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|imagine|suppose|supposing|hypothetically|what if|"
    r"pretend|in another life|someday|some day|one day|dream(?:ing)? of|would|wouldn't|"
    r"I wish|wish I|wishing|"
    r"I'd|could|might have|should have|if only)\b",
    re.I,
)
_REPORTED = re.compile(
    r"\b(?:says|said|say|tells me|told me|told us|was like|goes|asked|asks|quote|quoting|"
    r"according to|claims|claimed|thinks|thought that|texted|wrote)\b\s*[:,]?",
    re.I,
)
_SARCASM = re.compile(r"(?:^|\s)/s\b|\b(?:not|jk|jkjk|kidding|joking|just kidding)\s*$|\bsarcasm\b",
                      re.I)  # fmt: skip
_HEDGE = re.compile(
    r"\b(?:i think|i guess|i suppose|i believe|probably|prob|maybe|perhaps|possibly|kinda|"
    r"kind of|sort of|sorta|might|"
    r"(?<!\bin )(?<!\bon )(?<!\bby )(?<!\bof )(?<!\bearly )(?<!\blate )(?<!\bmid )(?<!\bnext )"
    r"(?<!\bthis )(?<!\blast )(?<!\buntil )(?<!\bsince )may(?!\s+\d)|"
    r"pretty sure|fairly sure|not sure|i feel like|idk|"
    r"likely|apparently|hopefully|hoping|planning to maybe|i reckon|ish)\b",
    re.I,
)
_HEDGE_STRIP = re.compile(
    r"\b(?:i think|i guess|i suppose|i believe|pretty sure|fairly sure|i feel like|i reckon|"
    r"idk|probably|prob|maybe|perhaps|possibly|kinda|sorta|kind of|sort of|honestly|"
    r"literally|actually|really|totally|absolutely|genuinely|seriously|def|definitely|"
    r"lowkey|highkey|low key|high key|just|still|also|too|ngl|tbh|fr|btw)\b\s*",
    re.I,
)


def _is_statement(clause: str) -> bool:
    if clause.rstrip().endswith("?") or _QUESTION_START.match(clause):
        return False
    head = clause.split(",")[0]
    return not (_HYPOTHETICAL.search(clause) or _REPORTED.search(head) or _SARCASM.search(clause))


# --- objects -------------------------------------------------------------------------------

_OBJECT_STOP = re.compile(
    r"\s+(?:lol|lmao|lmfao|haha\w*|hehe\w*|tbh|ngl|fr|rn|tho|though|btw|xd|"
    r"because|cuz|cause|bc|since|but|so|so that|which|who|when|while|until|unless|"
    r"if|and I|and my|and it|anyway|anyways|honestly|lowkey|irl|atm|pls|plz|please|thx|"
    r"not|at all|no joke|for real|fight me|dm me|wish me luck|come say hi|"
    r"and (?:honestly|also|then|now|tbh|ngl)|and \w+ (?:is|are|was|were))\b.*$",
    re.I,
)
_PRONOUN_HEAD = re.compile(
    r"^(?:it|this|that|these|those|them|him|her|you|everything|everyone|anything|something|"
    r"nothing|how|when|what|why|where|who|whoever|whatever|being|not|so|such|too|very|"
    r"a lot(?! of)|lots(?! of)|so much|way too)\b",
    re.I,
)
_BAD_OBJECT = re.compile(
    r"^(?:it|this|that|these|those|them|him|her|you|ya|yall|y'all|u|us|everyone|everything|"
    r"anything|something|nothing|stuff|things|how|when|what|why|where|who|the way|the fact|"
    r"to|a lot|lots|so much|so|too|very|here|there|one|ones|mine|yours|myself|yourself|"
    r"the idea|the vibe|the vibes|being|the|a|an|my|your|his|their|our|its|all|some|more|"
    r"much|most|many|none|none of|each|other|others|both|either|neither|the same)$",
    re.I,
)
_PRONOUN_FIX = [
    (re.compile(r"\bmy\b", re.I), "their"),
    (re.compile(r"\bour\b", re.I), "their"),
    (re.compile(r"\bmine\b", re.I), "theirs"),
    (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bme\b", re.I), "them"),
    (re.compile(r"\bI'm\b", re.I), "they are"),
    (re.compile(r"\bI\b", re.I), "they"),
]


def _cut_at_comma(text: str) -> str:
    """Keep a short list ("pizza, pasta and sushi"), drop an afterthought ("coffee, tea
    person through and through")."""
    head, comma, tail = text.partition(",")
    if not comma:
        return text
    tail_words = [w.lower() for w in tail.split()]
    is_list = len(tail_words) <= 6 and ("and" in tail_words or "or" in tail_words)
    return text if is_list else head


def _object(text: str, *, words: int = MAX_OBJECT_WORDS) -> str | None:
    """The object phrase of a clause: trimmed of chatter, at most ``words`` words."""
    text = _cut_at_comma(text)
    text = _OBJECT_STOP.sub("", text)
    text = re.sub(r"[\s,.;:!?~*()\[\]\"-]+$", "", text.strip())
    text = re.sub(
        r"(?:\s+(?:now|anymore|too|as well|either|again|already|lately))+$", "", text, flags=re.I
    )
    text = re.sub(r"^[\s,:;-]+", "", text)
    text = re.sub(r"\s+", " ", text)
    if not text or _BAD_OBJECT.match(text) or len(text.split()) > words:
        return None
    if _PRONOUN_HEAD.match(text):
        return None
    if not re.search(r"[^\W\d_]", text):  # no letters: emoji leftovers, numbers
        return None
    for pattern, repl in _PRONOUN_FIX:
        text = pattern.sub(repl, text)
    return text


# --- vocabulary ----------------------------------------------------------------------------

ROLES = {
    "accountant", "actor", "actress", "admin", "administrator", "analyst", "animator",
    "architect", "artist", "astronomer", "athlete", "attorney", "author", "baker", "barista",
    "bartender", "biologist", "blacksmith", "blogger", "bookkeeper", "builder", "butcher",
    "carpenter", "cashier", "chef", "chemist", "cleaner", "clerk", "coach", "coder",
    "consultant", "cook", "counselor", "counsellor", "courier", "dancer", "dentist",
    "designer", "dev", "developer", "dietitian", "doctor", "driver", "drummer", "economist",
    "editor", "electrician", "engineer", "entrepreneur", "farmer", "firefighter", "founder",
    "freelancer", "gardener", "geologist", "guitarist", "hairdresser", "historian",
    "illustrator", "instructor", "intern", "janitor", "journalist", "judge", "lawyer",
    "lecturer", "librarian", "lifeguard", "linguist", "machinist", "manager", "mechanic",
    "medic", "midwife", "musician", "nanny", "nurse", "officer", "painter", "paralegal",
    "paramedic", "pharmacist", "photographer", "physicist", "physiotherapist", "pianist",
    "pilot", "plumber", "poet", "policeman", "postdoc", "producer", "professor",
    "programmer", "psychologist", "publisher", "radiographer", "receptionist", "recruiter",
    "reporter", "researcher", "sailor", "salesman", "scientist", "secretary", "singer",
    "soldier", "streamer", "student", "surgeon", "tailor", "teacher", "technician",
    "therapist", "translator", "tutor", "veterinarian", "vet", "waiter", "waitress",
    "welder", "writer", "youtuber", "sysadmin", "mathematician", "statistician", "cto",
    "ceo", "pm", "tester", "qa", "mod", "moderator", "volunteer", "caregiver", "carer",
    "mom", "mum", "dad", "father", "mother", "parent", "grandma", "grandpa", "twin",
    "vegan", "vegetarian", "pescatarian", "introvert", "extrovert", "gamer", "nerd",
    "runner", "climber", "cyclist", "swimmer", "lifter", "knitter", "golfer",
    "skater", "surfer", "hiker", "birder", "collector", "cosplayer", "dj", "rapper",
    "bassist", "violinist", "cellist", "vocalist", "composer", "fan", "freshman",
    "sophomore", "junior", "senior", "undergrad", "grad", "phd", "apprentice", "trainee",
    "owner", "lead", "contractor", "resident", "citizen", "immigrant", "native",
    "newbie", "beginner", "retiree", "homeowner", "vet tech", "night owl", "morning person",
    "snob", "lover", "enthusiast", "addict", "geek", "buff", "person", "fanatic", "junkie",
    "foodie", "dork", "weeb", "otaku", "audiophile", "cinephile", "bookworm", "homebody",
    "coworker", "sommelier", "barber", "florist", "jeweler", "potter", "woodworker",
    "furry", "brony", "swiftie", "trekkie", "whovian", "potterhead",
}  # fmt: skip
NATIONALITIES = {
    "american", "argentinian", "argentine", "australian", "austrian", "belgian", "brazilian",
    "british", "bulgarian", "canadian", "chilean", "chinese", "colombian", "croatian",
    "cuban", "czech", "danish", "dutch", "egyptian", "english", "estonian", "ethiopian",
    "filipino", "filipina", "finnish", "french", "german", "ghanaian", "greek", "hungarian",
    "icelandic", "indian", "indonesian", "iranian", "irish", "israeli", "italian",
    "jamaican", "japanese", "kenyan", "korean", "lebanese", "lithuanian", "malaysian",
    "mexican", "moroccan", "nepali", "nigerian", "norwegian", "pakistani", "peruvian",
    "polish", "portuguese", "romanian", "russian", "scottish", "serbian", "singaporean",
    "slovak", "spanish", "swedish", "swiss", "taiwanese", "thai", "turkish", "ukrainian",
    "venezuelan", "vietnamese", "welsh", "puerto rican", "south african", "kiwi",
}  # fmt: skip
STATES = {
    "vegan", "vegetarian", "pescatarian",
    "retired", "unemployed", "self-employed", "left-handed", "right-handed",
    "colorblind", "colourblind", "deaf", "autistic", "diabetic", "celiac", "coeliac",
    "lactose intolerant", "gluten intolerant", "gluten free", "gluten-free", "sober",
    "bilingual", "trilingual", "adopted", "an only child", "a twin", "pregnant",
    "introverted", "extroverted", "nocturnal", "dyslexic", "asthmatic", "epileptic",
    "trans", "nonbinary", "non-binary", "bi", "gay", "lesbian", "queer", "straight",
    "type 1 diabetic", "type 2 diabetic", "blind", "hard of hearing",
    "neurodivergent", "a vegetarian", "a vegan", "disabled", "hearing impaired",
    "ace", "asexual", "catholic", "muslim", "jewish", "christian", "hindu", "buddhist",
    "atheist", "agnostic", "homeschooled", "a morning person", "a night owl",
}  # fmt: skip
FAMILY = (
    r"wife|husband|partner|boyfriend|girlfriend|bf|gf|fianc[eé]e?|spouse|son|daughter|"
    r"kid|kids|child|children|baby|mom|mum|mother|dad|father|parents|brothers?|sisters?|"
    r"sons|daughters|siblings?|grandma|grandmother|grandpa|grandfather|grandparents|cousins?|"
    r"aunts?|uncles?|"
    r"twin|niece|nephew|stepdad|stepmom|stepbrother|stepsister|roommate|flatmate|"
    r"best friend|bestie|bff|in-laws|mother-in-law|father-in-law"
)
PETS = (
    r"dog|dogs|cat|cats|puppy|pup|kitten|kitty|bunny|rabbit|hamster|parrot|bird|birds|"
    r"fish|goldfish|turtle|tortoise|snake|lizard|gecko|ferret|horse|pony|chickens?|"
    r"guinea pigs?|rats?|mouse|mice|hedgehog|axolotl|doggo|pupper|corgi|husky|"
    r"retriever|labrador|pug|beagle|poodle|terrier|shepherd|spaniel|tabby|budgie|"
    r"iguana|tarantula|dachshund|chihuahua|bulldog|greyhound|cockatiel|crab|frog"
)
_NUMBER = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"
_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
DATE = (
    rf"(?:(?:on|this|next|coming|last)\s+{_WEEKDAY}|"
    rf"(?:this|next|coming)\s+(?:week(?:end)?|month|year|summer|winter|spring|fall|autumn|"
    rf"semester|term)|"
    rf"(?:in|on|by|from|around|until|till|starting|early|late|mid)?\s*(?:early\s+|late\s+|"
    rf"mid[- ])?{_MONTH}\b(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+\d{{4}})?|"
    rf"(?:on\s+)?(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)(?:\s+of\s+{_MONTH})?|"
    rf"(?:on\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\b|"
    rf"(?:that|this|next|the following)\s+(?:week(?:end)?|month)|end of (?:the )?(?:month|year)|"
    rf"(?:in|by)\s+(?:19|20)\d\d|"
    rf"(?:in|within)\s+(?:a|an|one|two|three|four|five|six|\d+|a few|a couple(?: of)?)\s+"
    rf"(?:days?|weeks?|months?|years?)|"
    rf"tomorrow|tmrw|tmr|day after tomorrow|tonight|this evening|"
    rf"\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?)"
)
_DATE_RE = re.compile(rf"\b{DATE}\b", re.I)


@dataclass(frozen=True, slots=True)
class Rule:
    """A clause pattern and how to write the fact it states (``None``: nothing to keep)."""

    pattern: re.Pattern[str]
    fact_type: str
    render: Callable[[re.Match[str], str], str | None]
    final: bool = True  # False: later rules may add another fact of the same clause


def _rule(
    pattern: str,
    fact_type: str,
    render: Callable[[re.Match[str], str], str | None],
    *,
    final: bool = True,
) -> Rule:
    return Rule(re.compile(pattern, re.I), fact_type, render, final)


def _third(verb: str) -> str:
    """``verb`` conjugated for he/she/they-singular ("play" → "plays")."""
    lower = verb.lower()
    irregular = {"have": "has", "do": "does", "go": "goes", "be": "is", "am": "is"}
    if lower in irregular:
        return irregular[lower]
    if re.search(r"(?:s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


Check = Callable[[re.Match[str], str], bool]


def _with(
    template: str, words: int = MAX_OBJECT_WORDS, *, when: Check | None = None
) -> Callable[[re.Match[str], str], str | None]:
    """A renderer of ``template``: ``{name}``, ``{obj}`` (the cleaned object, or no fact),
    every named group as matched and lower-cased (``{verb_l}``), and for a ``verb`` group
    ``{v}`` (third person: "plays"), ``{vp}`` (a phrase: "cannot stand"), ``{negv}`` (with the
    ``neg`` group: "does not like", "never drinks") and ``{not_}`` ("not " when negated).
    ``when(match, obj)`` may refuse the fact."""

    def render(match: re.Match[str], name: str) -> str | None:
        obj = _object(match.group("obj"), words=words)
        if obj is None or (when is not None and not when(match, obj)):
            return None
        groups = {k: (v or "") for k, v in match.groupdict().items()}
        values = {**groups, **{f"{k}_l": v.lower() for k, v in groups.items()}}
        values["obj"] = obj
        verb, neg = groups.get("verb", ""), groups.get("neg", "")
        if verb:
            values |= {"v": _third(verb), "vp": _third_phrase(verb)}
            values["negv"] = _negated(neg, verb) if neg else ""
        values["not_"] = "not " if neg else ""
        return template.format(name=name, **values)

    return render


def _role(match: re.Match[str], name: str) -> str | None:
    obj = _object(match.group("obj").split(",")[0], words=8)
    if obj is None:
        return None
    head = re.split(r"\s+(?:at|for|in|from|with|of|on|by)\s+", obj, maxsplit=1)[0].lower()
    words = head.split()
    if not words or (words[-1] not in ROLES and head not in ROLES):
        return None
    if words[-1] == "fan" and len([w for w in words if w not in {"big", "huge"}]) < 2:
        return None  # "a big fan" of nothing named
    negated = "not " if match.groupdict().get("neg") else ""
    return f"{name} is {negated}{match.group('art')} {obj}"


_STATE_QUALIFIER = re.compile(r"^(?:on|in|at|since|for)\b", re.I)


def _state(match: re.Match[str], name: str) -> str | None:
    """Durable states ("vegan", "left-handed", "Japanese"), with a short qualifier
    ("vegetarian on weekdays", "deaf in my left ear")."""
    words = re.sub(r"\([^)]*\)", " ", match.group("obj")).split()
    for width in range(min(4, len(words)), 0, -1):
        head = " ".join(words[:width]).lower().strip(",.!")
        if head not in STATES and head not in NATIONALITIES:
            continue
        rest = " ".join(words[width:])
        qualifier = _object(rest, words=5) if _STATE_QUALIFIER.match(rest) else None
        value = head.title() if head in NATIONALITIES else head
        return f"{name} is {value}" + (f" {qualifier}" if qualifier else "")
    return None


_INTENT = {
    "planning": "plans to",
    "plan": "plans to",
    "hoping": "hopes to",
    "going": "is going to",
    "trying": "is trying to",
}


def _singular(who: str) -> str:
    return {"bf": "boyfriend", "gf": "girlfriend", "bestie": "best friend"}.get(who, who)


def _negated(neg: str, verb: str) -> str:
    """ "never" / "no longer" + the verb in the third person; "does not" + the bare verb."""
    lower = neg.lower()
    if lower in {"never", "no longer"}:
        return f"{lower} {_third(verb.lower())}"
    return f"{_negate(neg)} {verb.lower()}"


def _negate(neg: str) -> str:
    neg = neg.lower()
    return {
        "don't": "does not", "do not": "does not", "dont": "does not", "never": "never",
        "no longer": "no longer", "can't": "cannot", "cannot": "cannot", "won't": "will not",
        "will not": "will not", "didn't": "did not",
    }.get(neg, "does not")  # fmt: skip


def _third_phrase(verb: str) -> str:
    lower = verb.lower()
    if lower in {"can't stand", "cannot stand"}:
        return "cannot stand"
    return _third(lower)


def _third_or_past(verb: str) -> str:
    lower = verb.lower()
    return lower if lower.endswith("ed") else _third(lower)


def _named(rest: str) -> str:
    match = re.match(r"\s*,?\s*(?:named|called|whose name is|name(?:d)?)\s+([\w'-]+)", rest, re.I)
    return f" named {match.group(1)}" if match else ""


_HABIT_VERBS = {
    "eat", "drink", "run", "walk", "swim", "bike", "cycle", "cook", "bake", "read", "write",
    "play", "go", "wake", "sleep", "work", "meditate", "journal", "study", "train", "lift",
    "practice", "practise", "watch", "listen", "skip", "take", "make", "wear", "use",
    "drive", "ride", "visit", "call", "stream", "code", "pray", "hike", "climb", "paint",
    "draw", "knit", "order", "get", "do", "have", "buy", "brew", "stretch", "jog", "skate",
    "surf", "fish", "garden", "shower", "commute", "tea", "put", "check",
}  # fmt: skip


_NOT_HABITS = {
    "am", "was", "were", "be", "been", "feel", "think", "forget", "say", "said", "seem",
    "wonder", "know", "want", "need", "try", "end", "lose", "mess", "get", "got", "have",
    "had", "do", "did", "mean", "hope", "wish", "love", "like", "hate", "regret", "lie",
    "fall", "fail", "miss", "die", "cry", "scream", "laugh", "sleep", "will", "can",
    "could", "would", "should", "must", "may", "might", "find", "see", "hear", "guess",
    "break", "burn", "ruin", "screw", "end up", "come", "happen", "manage", "tell",
}  # fmt: skip


def _habit_verb(verb: str) -> bool:
    lower = verb.lower()
    return lower in _HABIT_VERBS or (lower not in _NOT_HABITS and lower.isalpha())


def _habit(match: re.Match[str], obj: str) -> bool:
    return _habit_verb(match.group("verb"))


def _hobby(match: re.Match[str], obj: str) -> bool:
    return _hobby_object(match.group("verb"), obj)


def _hobby_object(verb: str, obj: str) -> bool:
    """ "I play guitar" is a hobby; "I play it safe" / "I read that" are not."""
    lower = obj.lower()
    if verb.lower() in {"run", "build", "restore", "grow"} and _project_object(obj):
        return False  # "I run a small shop": the project rule's
    if re.match(r"^(?:it|this|that|them|him|her|you|with|along|around|too|a lot|lots)\b", lower):
        return False
    if verb.lower() in {"read", "write", "run", "build", "main", "train", "lift", "box"}:
        return (len(lower.split()) >= 1 and not re.match(r"^(?:a|an|the|my)\s+\w+$", lower)) or (
            verb.lower() in {"run", "build", "main"}
        )
    return True


def _project_object(obj: str) -> bool:
    return bool(
        re.search(
            r"\b(?:server|shop|store|podcast|channel|blog|business|company|startup|bakery|"
            r"cafe|café|restaurant|bar|club|group|team|guild|community|discord|subreddit|"
            r"youtube|twitch|stream|newsletter|website|site|app|game|mod|library|project|"
            r"repo|bot|band|league|etsy|farm|studio|nonprofit|charity|magazine|zine|"
            r"book club|meetup|dnd|d&d|campaign|tournament|workshop|class|lab)\b",
            obj,
            re.I,
        )
    )


def _project(match: re.Match[str], name: str) -> str | None:
    obj = _object(match.group("obj"), words=12)
    if obj is None:
        return None
    what = match.group("what").lower()
    if what in {"running", "starting", "playing", "practicing", "practising"} and not (
        _project_object(obj) or _DATE_RE.search(obj)
    ):
        return None
    if re.match(r"^(?:on it|dinner|lunch|breakfast|food|tea|coffee|a sandwich|a nap)$", obj, re.I):
        return None
    what = "teaching themselves" if what == "teaching myself" else what
    return f"{name} is {what} {obj}"


_NOT_PLANS = re.compile(
    r"^(?:offline|online|busy|away|afk|late|back|gone|out|off|around|free|unavailable|"
    r"quiet|on|here|there|home|asleep|sleeping|working|at work|mia|slow)\b",
    re.I,
)


def _plan_of(match: re.Match[str], name: str, aux: str) -> str | None:
    obj = _object(match.group("obj"), words=14)
    if obj is None or not _DATE_RE.search(obj) or _NOT_PLANS.match(obj):
        return None
    what = match.group("what").lower()
    if aux == "is":
        return f"{name} is {what} {obj}"
    if aux == "will":
        return f"{name} will {what} {obj}"
    return f"{name} {_third(what)} {obj}"


def _event_of(match: re.Match[str], name: str) -> str | None:
    obj = _object(match.group("obj"), words=14)
    if obj is None or not _DATE_RE.search(obj):
        return None
    if not re.search(
        r"\b(?:exam|test|interview|appointment|surgery|operation|meeting|flight|trip|"
        r"wedding|concert|gig|recital|match|game|race|marathon|tournament|presentation|"
        r"deadline|defense|defence|show|party|date|shift|class|lesson|audition|vacation|"
        r"holiday|conference|ceremony|graduation|recital|checkup|final|finals|midterm)s?\b",
        obj,
        re.I,
    ):
        return None
    return f"{name} has {obj}"


def _my_event(match: re.Match[str], name: str) -> str | None:
    obj = _object(match.group("obj"), words=10)
    if obj is None:
        return None
    what = match.group("what").lower()
    if what in {"bday", "b-day"}:
        what = "birthday"
    if not _DATE_RE.search(obj) and not re.match(r"^(?:on\s+)?\d", obj):
        return None
    return f"{name}'s {what} is {obj}"


_CLOSE = (
    r"wife|husband|partner|boyfriend|girlfriend|bf|gf|fianc[eé]e?|spouse|brother|sister|"
    r"son|daughter|roommate|flatmate|best friend|bestie|twin|mom|mum|dad"
)


def _close_one(match: re.Match[str], name: str) -> str | None:
    who = (match.group("who") or match.group("who2") or "").lower()
    who = {"bf": "boyfriend", "gf": "girlfriend", "bestie": "best friend"}.get(who, who)
    named = match.group("nm") or match.group("nm2")
    return f"{name} has a {who}" + (f" named {named}" if named else "")


def _duration(match: re.Match[str], name: str) -> str | None:
    obj = _object(match.group("obj"), words=8)
    if obj is None:
        return None
    duration = re.sub(r"\b(?:like|about)\s+", "", match.group("dur").strip(), flags=re.I)
    duration = re.sub(r"\bI was\b", "they were", duration, flags=re.I)
    if not duration.lower().startswith(("for", "since")):
        duration = "for " + duration
    return f"{name} has {match.group('verb').lower()} {obj} {duration}"


_NOT = r"(?:don't|do not|dont|never|no longer|can't|cannot|won't|will not|didn't)"
_LIKE = r"love|like|enjoy|adore|dig|prefer"
_HATE = r"hate|dislike|despise|loathe|detest|can't stand|cannot stand"
_INTENS = r"(?:(?:really|absolutely|totally|truly|honestly|genuinely|literally|just|also|still|actually|kinda|kind of|sort of|lowkey|highkey|do|so)\s+)*"  # noqa: E501

RULES: list[Rule] = [
    # --- names and requests about them
    _rule(
        r"^(?:please\s+)?(?:from now on\s*,?\s*|going forward\s*,?\s*|pls\s+|please\s+)*"
        r"(?:don't|do not|never|stop)\s+call(?:ing)?\s+me\s+(?P<obj>.+)$",
        "preference",
        _with("{name} does not want to be called {obj}", words=4),
    ),
    _rule(
        r"^(?:please\s+)?(?:from now on\s*,?\s*|going forward\s*,?\s*|pls\s+|please\s+|"
        r"you can\s+|u can\s+|just\s+|everyone\s+)*call\s+me\s+(?P<obj>.+)$",
        "preference",
        _with("{name} wants to be called {obj}", words=4),
    ),
    _rule(
        r"^(?:my\s+)?name(?:'s| is)\s+(?P<obj>.+)$",
        "profile",
        _with("{name}'s name is {obj}", words=4),
    ),
    _rule(
        r"^my\s+nick(?:name)?(?:'s| is)\s+(?P<obj>.+)$",
        "profile",
        _with("{name}'s nickname is {obj}", words=4),
    ),
    _rule(
        r"^(?:people|everyone|everybody|friends|my friends|most people|they all)\s+calls?\s+me\s+"
        r"(?P<obj>.+)$",
        "profile",
        _with("{name}'s nickname is {obj}", words=4),
    ),
    _rule(r"^I\s+go\s+by\s+(?P<obj>.+)$", "profile", _with("{name} goes by {obj}", words=4)),
    _rule(
        r"^my\s+pronouns\s+are\s+(?P<obj>.+)$",
        "profile",
        _with("{name}'s pronouns are {obj}", words=3),
    ),
    # --- people named in relation to the speaker
    _rule(
        rf"^(?P<who>(?-i:[A-Z][\w'-]+)(?:\s+(?-i:[A-Z][\w'-]+))?)\s+is\s+my\s+"
        rf"(?P<rel>(?:(?:little|younger|older|big|baby|twin|step|half|best)[- ]?)?(?:{FAMILY}|"
        rf"friend|boss|coworker|colleague|neighbou?r|mentor|teacher))\b",
        "relationship",
        lambda m, n: f"{n}'s {m.group('rel').lower()} is {m.group('who')}",
    ),
    _rule(
        rf"^(?:my\s+(?P<who>{_CLOSE})(?:\s+(?P<nm>(?-i:[A-Z][\w'-]+)))?\s+and\s+(?:I|me)|"
        rf"me\s+and\s+my\s+(?P<who2>{_CLOSE})(?:\s+(?P<nm2>(?-i:[A-Z][\w'-]+)))?)\b",
        "relationship",
        _close_one,
        final=False,
    ),
    _rule(
        rf"^(?:my\s+(?P<who>{_CLOSE})\s+and\s+(?:I|me)|me\s+and\s+my\s+(?P<who2>{_CLOSE}))\s+"
        r"(?:are|were)\s+(?P<what>[a-z]+ing)\s+(?P<obj>.+)$",
        "project",
        lambda m, n: (
            f"{n} and their {(m.group('who') or m.group('who2')).lower()} are "
            f"{m.group('what').lower()} {o}"
            if (o := _object(m.group("obj"), words=12)) and _DATE_RE.search(o)
            else None
        ),
    ),
    _rule(
        r"^(?P<who>(?-i:[A-Z][\w'-]+))\s+and\s+(?:I|me)\s+are\s+(?P<rel>roommates|flatmates|"
        r"siblings|cousins|twins|best friends|friends|married|engaged|dating|neighbou?rs|"
        r"coworkers|co-workers|colleagues|partners|classmates|teammates)\b",
        "relationship",
        lambda m, n: f"{n} and {m.group('who')} are {m.group('rel').lower()}",
    ),
    # --- standing requests about replies and pings
    _rule(
        r"^(?:please\s+|pls\s+|always\s+)*(?:reply|respond|talk|speak|write|answer)\s+"
        r"(?:to me\s+)?in\s+(?P<obj>[A-Z]\w+)\b",
        "preference",
        _with("{name} wants replies in {obj}", words=2),
    ),
    _rule(
        r"^(?:please\s+|pls\s+)*(?:don't|do not|stop|never)\s+(?:ping(?:ing)?|@|tag(?:ging)?|"
        r"dm(?:ing)?|mention(?:ing)?|message|messaging)\s+me\s+(?P<obj>(?:for|about|during|"
        r"after|before|on|in|at)\s+.+)$",
        "preference",
        _with("{name} does not want to be pinged {obj}", words=8),
    ),
    # --- time zone
    _rule(
        r"^I(?:'m| am)\s+(?:on|in)\s+(?P<obj>(?:GMT|UTC|EST|EDT|PST|PDT|CST|CDT|MST|CET|CEST|"
        r"BST|IST|JST|KST|AEST|AEDT|NZST|EET|WET)(?:\s*[+-]\s*\d{1,2})?)\b",
        "profile",
        lambda m, n: f"{n} is on {m.group('obj').replace(' ', '')} time",
    ),
    # --- work and study
    _rule(
        r"^I\s+(?P<verb>work|worked)\s+as\s+(?P<art>an?|the)?\s*(?P<obj>.+)$",
        "profile",
        lambda m, n: (
            f"{n} works as {m.group('art') or ''} {o}".replace("  ", " ")
            if (o := _object(m.group("obj"), words=8))
            else None
        ),
    ),
    _rule(
        r"^I\s+(?:currently\s+)?work\s+(?P<when>(?:nights|days|weekends|part[- ]time|"
        r"full[- ]time|remotely|remote|freelance|mornings|evenings)\s+)?(?P<prep>at|for|in|on|"
        r"with|from)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} works {when}{prep} {obj}", words=8),
    ),
    _rule(
        r"^I(?:'m| am)\s+no\s+longer\s+(?:working|employed)\s+(?P<prep>at|for|with|in|as)\s+"
        r"(?P<obj>.+)$",
        "profile",
        _with("{name} no longer works {prep} {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:just\s+)?(?:started|start)\s+(?:(?:working|a new job|my new job|a job)\s+)?"
        r"(?P<prep>at|for|as|in)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} started working {prep} {obj}", words=10),
    ),
    _rule(
        r"^I\s+(?:just\s+)?got\s+(?:a|the)\s+(?:new\s+)?job\s+(?P<prep>at|as|with|in)\s+"
        r"(?P<obj>.+)$",
        "profile",
        _with("{name} got a job {prep} {obj}", words=10),
    ),
    _rule(r"^my\s+job\s+is\s+(?P<obj>.+)$", "profile", _with("{name}'s job is {obj}")),
    _rule(
        r"^I\s+(?:do|work in)\s+(?P<obj>.+?)\s+for\s+a\s+living$",
        "profile",
        _with("{name} does {obj} for a living"),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?P<neg>not\s+)?(?:currently\s+|now\s+|also\s+)?(?P<art>an?)\s+"
        r"(?P<obj>.+)$",
        "profile",
        _role,
    ),
    _rule(
        r"^I\s+(?:currently\s+)?(?P<verb>study|teach|major in|minor in)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} {v} {obj}", words=8),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?:currently\s+)?(?P<what>studying|majoring in|minoring in|"
        r"doing (?:a|my|an) (?:degree|masters|master's|phd|bachelor's|bachelors|diploma|course|"
        r"mba|apprenticeship|internship|residency|postdoc) in|"
        r"training to be|training as|in school for)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} is {what} {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:go to|attend)\s+(?P<obj>.+?(?:university|uni|college|school|academy|"
        r"institute|polytechnic|\bU\b|high school)\b.*)$",
        "profile",
        _with("{name} goes to {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:graduated|graduate)\s+from\s+(?P<obj>.+)$",
        "profile",
        _with("{name} graduated from {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:have|got|hold)\s+(?P<obj>an?\s+(?:phd|doctorate|degree|masters?|master's|"
        r"bachelor'?s|ba|bsc|msc|ma|mba)\b.*)$",
        "profile",
        _with("{name} has {obj}", words=10),
    ),
    # --- where they live
    _rule(
        r"^I(?:'m| am)\s+(?:originally\s+)?from\s+(?P<obj>.+)$",
        "profile",
        _with("{name} is from {obj}", words=6),
    ),
    _rule(
        r"^I\s+(?:currently\s+)?(?P<verb>live|stay)\s+(?P<prep>in|near|outside|on|at)\s+"
        r"(?P<obj>.+)$",
        "profile",
        _with("{name} {v} {prep} {obj}", words=8),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?:currently\s+)?(?:based|living|located)\s+(?P<prep>in|near|"
        r"outside|out of)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} lives {prep} {obj}", words=8),
    ),
    _rule(
        r"^I\s+grew\s+up\s+(?P<prep>in|on|near|around)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} grew up {prep} {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:just\s+|recently\s+)?moved\s+(?P<prep>to|here from|from)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} moved {prep} {obj}", words=8),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?P<what>moving|relocating)\s+(?P<prep>to|back to)\s+(?P<obj>.+)$",
        "project",
        _with("{name} is {what} {prep} {obj}", words=10),
    ),
    # --- age, languages, identity states
    _rule(
        r"^I(?:'m| am)\s+(?:turning\s+)?(?P<obj>\d{1,2})(?:\s*(?:years old|yrs old|y/o|yo|"
        r"years))?(?:\s*[,.!]|\s+(?:now|btw|lol|and|but|so|tho|today|this year|next|not)\b|$)",
        "profile",
        lambda m, n: f"{n} is {m.group('obj')} years old",
    ),
    _rule(
        r"^I\s+(?:just\s+)?turned\s+(?P<obj>\d{1,2})\b",
        "profile",
        lambda m, n: f"{n} is {m.group('obj')} years old",
    ),
    _rule(r"^I\s+(?P<verb>speak)\s+(?P<obj>.+)$", "profile", _with("{name} {v} {obj}", words=8)),
    _rule(
        r"^I(?:'m| am)\s+(?:also\s+|actually\s+|fully\s+|now\s+|a\s+proud\s+|"
        r"technically\s+)?(?P<obj>[a-z].*)$",
        "profile",
        _state,
    ),
    _rule(
        r"^I\s+(?:have|got)\s+(?P<obj>adhd|add|asthma|diabetes|celiac|coeliac|epilepsy|"
        r"dyslexia|autism|anxiety|tinnitus|migraines|long covid|type 1 diabetes|"
        r"type 2 diabetes|a peanut allergy|a nut allergy|\w+ allergy|allergies to .+|"
        r"a (?:\w+ )?allergy)\b",
        "profile",
        _with("{name} has {obj}", words=6),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?:(?:really|so|very|super|kinda|low-?key|genuinely|deathly|also)\s+)*"
        r"(?P<what>scared of|afraid of|terrified of|obsessed with|addicted to|crazy about|"
        r"passionate about|hooked on|bad at|terrible at|good at|great at|"
        r"awful at|hopeless at|terrible with|bad with|good with)\s+(?P<obj>.+)$",
        "preference",
        _with("{name} is {what} {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:can't|cannot|can not)\s+(?P<obj>swim|drive|cook|dance|sing|whistle|skate|"
        r"ski|ride a bike|read music|touch type|speak \w+)\b",
        "profile",
        _with("{name} cannot {obj}", words=3),
    ),
    _rule(
        rf"^I(?:'ve| have)\s+(?P<verb>used|had|played|owned|known|run|lived in|lived at|"
        rf"worked at|worked as|worked in|worked for|been|taught|studied|practiced|practised|"
        rf"collected|coached)\s+(?P<obj>.+?)\s+(?P<dur>(?:(?:for|since)\s+)?(?:(?:like|about|"
        rf"almost|over|nearly|around|roughly)\s+)?(?:\d+|a|an|one|two|three|four|five|six|"
        rf"seven|eight|nine|ten|twelve|fifteen|twenty|a few|a couple of|several|many)\s+"
        rf"(?:years?|yrs|months?|decades?)|since\s+(?:I was|{_MONTH}|(?:19|20)\d\d|"
        rf"high school|college|uni|childhood|forever)\b[^,.;!?]*)",
        "profile",
        _duration,
    ),
    _rule(
        r"^I(?:'ve| have)\s+never\s+(?P<verb>been to|been|seen|watched|played|tried|eaten|read|"
        r"had|driven|used|left|met|owned|flown|ridden|learned|learnt)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} has never {verb} {obj}", words=6),
    ),
    _rule(
        r"^(?P<obj>\w+/\w+(?:/\w+)?)\s+pronouns\b",
        "profile",
        lambda m, n: f"{n} uses {m.group('obj').lower()} pronouns",
    ),
    _rule(
        r"^I(?:'ve| have)\s+(?:recently\s+|finally\s+)?become\s+(?P<obj>an?\s+.+)$",
        "profile",
        _with("{name} has become {obj}", words=6),
    ),
    _rule(
        r"^I\s+(?:just\s+|recently\s+|finally\s+)?(?P<verb>finished|completed|got|earned)\s+"
        r"(?P<obj>(?:my|a|an)\s+(?:phd|doctorate|degree|masters?|master's|bachelor'?s|mba|"
        r"diploma|certificate|certification|apprenticeship|residency)\b.*)$",
        "profile",
        _with("{name} {verb} {obj}", words=10),
    ),
    _rule(
        r"^I(?:'m| am)\s+going\s+to\s+(?P<what>start learning|learn|take up|get into|start|"
        r"try learning|pick up)\s+(?P<obj>.+)$",
        "project",
        _with("{name} is going to {what} {obj}", words=8),
    ),
    # --- allergies and diet
    _rule(
        r"^I(?:'m| am)\s+(?:(?:very|super|severely|extremely|deathly|mildly|a bit|"
        r"slightly|kinda|also)\s+)*allergic\s+to\s+(?P<obj>.+)$",
        "profile",
        _with("{name} is allergic to {obj}", words=8),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?P<obj>lactose|gluten|fructose)\s+intolerant",
        "profile",
        lambda m, n: f"{n} is {m.group('obj').lower()} intolerant",
    ),
    _rule(
        rf"^I\s+(?P<neg>{_NOT})\s+(?P<verb>eat|drink|smoke|drive|own|play|watch|use|have|wear|"
        r"celebrate|read|listen to|do)\s+"
        r"(?P<obj>.+)$",
        "preference",
        _with("{name} {negv} {obj}", words=6),
    ),
    _rule(
        r"^I\s+(?:can't|cannot|can not)\s+(?P<verb>eat|have|drink)\s+(?P<obj>.+)$",
        "profile",
        _with("{name} cannot {verb} {obj}", words=6),
    ),
    # --- family and partners
    _rule(
        rf"^I\s+(?:have|got)\s+(?P<obj>{_NUMBER}\s+(?:(?:little|younger|older|big|baby|"
        rf"twin|step|half)[- ]?)?(?:{FAMILY}))\b(?P<rest>.*)$",
        "relationship",
        lambda m, n: (
            f"{n} has {o}" if (o := _object(m.group("obj") + m.group("rest"), words=10)) else None
        ),
    ),
    _rule(
        rf"^my\s+(?P<who>(?:(?:little|younger|older|big|baby|twin|step|half|eldest|"
        rf"youngest|oldest)[- ]?)?(?:{FAMILY}|{PETS}))(?:'s|s)?\s+name\s+is\s+(?P<obj>[\w'-]+)",
        "relationship",
        lambda m, n: f"{n} has a {_singular(m.group('who').lower())} named {m.group('obj')}",
    ),
    _rule(
        rf"^my\s+(?P<who>(?:(?:little|younger|older|big|baby|twin|step|half|eldest|"
        rf"youngest|oldest)[- ]?)?(?:{FAMILY}))(?:'s|\s+(?P<be>is|are))\s+(?P<obj>.+)$",
        "relationship",
        lambda m, n: _with(f"{{name}}'s {{who}} {(m.group('be') or 'is').lower()} {{obj}}", 10)(
            m, n
        ),
    ),
    _rule(
        rf"^my\s+(?P<who>(?:(?:little|younger|older|big|baby|twin|step|half)[- ]?)?"
        rf"(?:{FAMILY}))\s+(?P<verb>works|lives|studies|plays|teaches|runs|owns|goes|"
        rf"has|just got|got|moved|is getting|lives|loves|hates|live|work|own|run|have|are|"
        rf"passed away|died|passed)\s*"
        rf"(?P<obj>.+)$",
        "relationship",
        _with("{name}'s {who} {verb} {obj}", words=10),
    ),
    _rule(
        rf"^my\s+(?P<who>(?:(?:little|younger|older|big|baby|twin)\s+)?(?:{FAMILY}))\s+"
        r"(?P<obj>(?-i:[A-Z][a-z]+))(?:\s+(?:is|just|and|has|lives|works|got|was|will)\b|$)",
        "relationship",
        lambda m, n: f"{n} has a {m.group('who').lower()} named {m.group('obj')}",
    ),
    _rule(
        r"^I(?:'m| am)\s+(?P<obj>(?:happily\s+|newly\s+)?(?:married|engaged|dating|seeing|single|"
        r"divorced|widowed|separated|in a relationship)\b.*)$",
        "relationship",
        _with("{name} is {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:just\s+)?(?P<what>got married|got engaged|got divorced)\b(?P<obj>.*)$",
        "relationship",
        lambda m, n: f"{n} {m.group('what').lower()} {_object(m.group('obj')) or ''}",
    ),
    _rule(
        r"^I\s+(?:have|got)\s+(?:a|an)\s+(?P<who>wife|husband|partner|boyfriend|girlfriend|"
        r"fianc[eé]e?|twin)\b(?P<rest>.*)$",
        "relationship",
        lambda m, n: f"{n} has a {m.group('who').lower()}{_named(m.group('rest'))}",
    ),
    # --- pets
    _rule(
        rf"^I\s+(?:have|got|own|adopted|just got|just adopted|rescued)\s+"
        rf"(?P<obj>{_NUMBER}\s+(?:\w+\s+)?(?:{PETS}))\b(?P<rest>.*)$",
        "relationship",
        lambda m, n: f"{n} has {m.group('obj')}{_named(m.group('rest'))}",
    ),
    _rule(
        rf"^my\s+(?P<pet>(?:\w+\s+)?(?:{PETS}))(?:'s name is|\s+is\s+(?:named|called)|"
        r"\s+name is)\s+(?P<obj>[\w'-]+)",
        "relationship",
        lambda m, n: f"{n} has a {m.group('pet').lower()} named {m.group('obj')}",
    ),
    _rule(
        rf"^my\s+(?P<pet>(?:\w+\s+)?(?:{PETS}))\s+(?P<obj>(?-i:[A-Z][a-z]+))\b",
        "relationship",
        lambda m, n: f"{n} has a {m.group('pet').lower()} named {m.group('obj')}",
    ),
    # --- likes, dislikes, favourites
    _rule(
        r"^(?:my\s+)?(?:absolute\s+|all[- ]time\s+)?favourite\s+(?P<what>[\w' -]{2,30}?)\s+"
        r"(?:is|are|has to be|would be|=|:)\s+(?P<obj>.+)$",
        "preference",
        _with("{name}'s favourite {what} is {obj}", words=8),
    ),
    _rule(
        r"^(?P<obj>[\w' -]{2,40}?)\s+(?:is|are)\s+(?:(?:definitely|easily|honestly|still|"
        r"probably)\s+)?my\s+(?:absolute\s+|all[- ]time\s+)?favourite(?:\s+(?P<what>[\w' -]"
        r"{2,30}))?$",
        "preference",
        lambda m, n: (
            f"{n}'s favourite {(m.group('what') or 'thing').strip()} is {o}"
            if (o := _object(m.group("obj"), words=6))
            else None
        ),
    ),
    _rule(
        rf"^I\s+{_INTENS}(?P<neg>{_NOT})\s+{_INTENS}(?P<verb>{_LIKE})\s+(?P<obj>.+)$",
        "preference",
        _with("{name} {negv} {obj}", words=8),
    ),
    _rule(
        rf"^I\s+{_INTENS}(?P<verb>{_HATE}|love)\s+when\s+(?P<obj>(?:people|someone|you|ppl|"
        rf"folks|others)\s+.+)$",
        "preference",
        _with("{name} {vp} when {obj}", words=10),
    ),
    _rule(
        rf"^I\s+{_INTENS}(?P<verb>{_LIKE}|{_HATE})\s+(?P<obj>.+)$",
        "preference",
        _with("{name} {vp} {obj}", words=8),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?:(?:such|a|really|very|so|super|totally|also|huge|big|massive|"
        r"the biggest)\s+)*(?P<neg>not\s+(?:a\s+)?(?:(?:big|huge)\s+)?)?(?:a\s+)?"
        r"(?:(?:big|huge|massive|die-hard|diehard)\s+)?fan\s+of\s+(?P<obj>.+)$",
        "preference",
        _with("{name} is {not_}a fan of {obj}", words=8),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?P<neg>not\s+)?(?:(?:really|so|very|super|big|huge|deeply|also|"
        r"heavily|kinda)\s+)*into\s+(?P<obj>.+)$",
        "preference",
        _with("{name} is {not_}into {obj}", words=8),
    ),
    _rule(
        r"^I\s+(?:much\s+|really\s+|always\s+)?(?P<verb>prefer)\s+(?P<obj>.+)$",
        "preference",
        _with("{name} {v} {obj}", words=10),
    ),
    # --- habits and hobbies
    _rule(
        r"^I\s+(?P<adv>always|usually|often|never|rarely|sometimes|normally|regularly|"
        r"typically|religiously)\s+(?P<verb>[a-z]+)\s+(?P<obj>.+)$",
        "other",
        _with("{name} {adv_l} {v} {obj}", when=_habit),
    ),
    _rule(
        r"^(?:every|each)\s+(?P<when>morning|day|night|evening|weekend|week|sunday|"
        r"saturday|friday|monday|tuesday|wednesday|thursday|summer|winter|year)\s*,?\s*I\s+"
        r"(?P<verb>[a-z]+)\s+(?P<obj>.+)$",
        "other",
        _with("{name} {v} {obj} every {when_l}", when=_habit),
    ),
    _rule(
        r"^I\s+(?P<verb>[a-z]+)\s+(?P<obj>.+?)\s+(?P<when>every\s+(?:morning|day|night|"
        r"evening|weekend|week|day|sunday|saturday|friday|monday|tuesday|wednesday|thursday)|"
        r"daily|on weekends|most days|twice a week|once a week|three times a week|"
        r"before work|after work)$",
        "other",
        _with("{name} {v} {obj} {when_l}", when=_habit),
    ),
    _rule(
        r"^I\s+(?P<verb>play|collect|knit|crochet|paint|draw|bake|brew|garden|climb|surf|"
        r"skate|ski|snowboard|swim|fish|hunt|sew|sing|dance|write|code|program|stream|"
        r"volunteer|mentor|coach|main|restore|build|grow|foster|speedrun|lift|box|"
        r"practice|practise|train|ride|race|run|cycle|hike|meditate|journal|homebrew|"
        r"cosplay|read|bike|walk|commute|skateboard)\s+(?P<obj>.+)$",
        "other",
        _with("{name} {v} {obj}", words=12, when=_hobby),
    ),
    _rule(
        r"^I(?:'ve| have)\s+been\s+(?P<obj>[a-z]+ing\s+.+?\s+for\s+(?:(?:about|almost|over|"
        r"like|nearly|around)\s+)?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|"
        r"ten|twenty|a few|a couple of|many|several)\s+(?:years?|months?|decades?)).*$",
        "other",
        _with("{name} has been {obj}", words=14),
    ),
    _rule(
        r"^I\s+(?:use|run|daily drive)\s+(?P<obj>(?:arch|linux|ubuntu|debian|fedora|"
        r"windows|mac\s?os|macos|a mac|an iphone|android|vim|neovim|emacs|vs ?code|"
        r"nixos|gentoo|mint)\b.*)$",
        "preference",
        _with("{name} uses {obj}", words=6),
    ),
    _rule(
        r"^I\s+(?P<verb>do)\s+(?P<obj>(?!(?:not|it|that|this|the same|so|too|love|like|"
        r"think|want|need|know|hope|wonder|feel|agree|believe|miss|enjoy|hate|mind|care)\b)"
        r".+)$",
        "other",
        _with("{name} {v} {obj}", words=8),
    ),
    # --- projects
    _rule(
        r"^I(?:'m| am)\s+(?:currently\s+|slowly\s+|finally\s+|also\s+|still\s+|now\s+)*"
        r"(?P<what>building|making|writing|developing|working on|learning|coding|designing|"
        r"creating|restoring|training for|studying for|saving for|saving up for|"
        r"organizing|organising|renovating|recording|publishing|starting|launching|"
        r"running|teaching myself|knitting|painting|composing|producing|brewing|"
        r"growing|practicing|practising|translating|modding|maintaining|hosting|getting into|"
        r"taking up|picking up)\s+"
        r"(?P<obj>.+)$",
        "project",
        _project,
    ),
    _rule(
        r"^I\s+(?P<verb>run|own|maintain|host|founded|co-founded|started|moderate|mod|"
        r"organize|organise|manage|lead)\s+(?P<obj>(?:a|an|my|our|the)\s+.+)$",
        "project",
        lambda m, n: (
            f"{n} {_third_or_past(m.group('verb'))} {o}"
            if (o := _object(m.group("obj"), words=10)) and _project_object(o)
            else None
        ),
    ),
    _rule(
        r"^my\s+(?:side\s+|current\s+|pet\s+|passion\s+)?project\s+is\s+(?P<obj>.+)$",
        "project",
        _with("{name}'s project is {obj}", words=12),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?P<what>in|part of|on)\s+(?P<obj>(?:a|an|the|my)\s+(?:\w+\s+){0,3}"
        r"(?:band|choir|team|club|league|orchestra|group|crew|guild|squad|company|lab|"
        r"program|programme|startup|collective)\b.*)$",
        "other",
        _with("{name} is {what} {obj}", words=10),
    ),
    _rule(
        r"^I(?:'m| am)\s+(?P<what>planning|plan|hoping|going|trying)\s+to\s+(?P<obj>.+)$",
        "project",
        lambda m, n: (
            f"{n} {_INTENT[m.group('what').lower()]} {o}"
            if (o := _object(m.group("obj"), words=14)) and _DATE_RE.search(o)
            else None
        ),
    ),
    _rule(
        r"^I\s+(?:plan|intend)\s+to\s+(?P<obj>.+)$",
        "project",
        _with("{name} plans to {obj}", words=14),
    ),
    # --- plans and events with dates
    _rule(
        r"^I(?:'m| am)\s+(?P<what>going|flying|traveling|travelling|heading|driving|"
        r"visiting|starting|running|getting|taking|having|hosting|graduating|leaving|"
        r"attending|competing|performing|playing|giving|doing|presenting|speaking|adopting|"
        r"quitting|buying|selling|launching|opening|expecting|celebrating|moving|coming|"
        r"joining|finishing|defending|retiring|switching)\s*(?P<obj>.+)$",
        "project",
        lambda m, n: _plan_of(m, n, "is"),
    ),
    _rule(
        r"^I(?:'ll| will)\s+(?P<what>be|start|move|go|fly|visit|graduate|begin|leave|"
        r"attend|run|take|switch|quit|adopt|join|finish|retire|get|do)\s+(?P<obj>.+)$",
        "project",
        lambda m, n: _plan_of(m, n, "will"),
    ),
    _rule(
        r"^I\s+(?P<aux>might|may)\s+(?P<what>[a-z]+)\s+(?P<obj>.+)$",
        "project",
        lambda m, n: (
            f"{n} {m.group('aux').lower()} {m.group('what').lower()} {o}"
            if (o := _object(m.group("obj"), words=12))
            and _DATE_RE.search(o)
            and m.group("what").lower() not in _NOT_HABITS - {"do", "get"}
            else None
        ),
    ),
    _rule(
        r"^I\s+(?P<what>have|got)\s+(?P<obj>(?:a|an|my|the|two|three)\s+.+)$",
        "project",
        lambda m, n: _event_of(m, n),
    ),
    _rule(
        r"^I\s+(?P<what>start|begin|fly|leave|move|graduate)\s+(?P<obj>.+)$",
        "project",
        lambda m, n: _plan_of(m, n, ""),
    ),
    _rule(
        r"^my\s+(?P<what>birthday|bday|b-day|wedding|graduation|exam|exams|finals|"
        r"interview|surgery|operation|recital|concert|gig|defense|defence|thesis defense|"
        r"due date|flight|trip|move|first day|last day|anniversary|marathon|race|"
        r"tournament|show|match|appointment|vacation|holiday|party)\s+(?:is|are|'s)\s+"
        r"(?P<obj>.+)$",
        "project",
        _my_event,
    ),
]


_PLEASE_REMEMBER = re.compile(
    r"^(?:hey\s+\w+\s*,?\s*)?(?:(?:please|pls|plz)\s+)?(?:remember|note|keep in mind|"
    r"don't forget|never forget|fyi|for the record|for future reference)\s*(?:that|:|,)?\s+",
    re.I,
)
_FROM_NOW_ON = re.compile(r"^(?:from now on|going forward|for future reference)\s*[,:]?\s+", re.I)


def _sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the message's sentences as typed (for evidence)."""
    spans = []
    for match in re.finditer(r"(?:<@!|[^.!?\n])+[.!?]*", text):
        start, end = match.span()
        chunk = match.group()
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            spans.append((start + lead, end - (len(chunk) - len(chunk.rstrip()))))
    return spans


def _evidence(text: str, fact: str) -> str:
    """The sentence of ``text`` (as typed) that shares the most words with ``fact``."""
    fact_words = {w.lower() for w in re.findall(r"\w+", fact) if len(w) > 2}
    best, best_score = "", -1
    for start, end in _sentences(text):
        sentence = text[start:end]
        score = len(fact_words & {w.lower() for w in re.findall(r"\w+", sentence)})
        if score > best_score:
            best, best_score = sentence, score
    best = " ".join(best.split())
    if len(best) > MAX_EVIDENCE:
        best = best[:MAX_EVIDENCE].rsplit(" ", 1)[0]
    return best


class HeuristicExtractor(BaseExtractor):
    """Rule-based, offline, deterministic; see the module docstring."""

    name = "heuristic"
    batch_size = 512
    batch_gap = 0.0

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        facts: list[CandidateFact] = []
        for message in messages:
            facts += self.extract_one(message)
        return facts

    def extract_one(self, message: SourceMessage) -> list[CandidateFact]:
        """The facts of one message (at most ``MAX_FACTS_PER_MESSAGE``)."""
        name = " ".join(message.author_name.split()) or "This member"
        cleaned = _clean(message)
        if _SARCASM.search(cleaned) or re.search(r"(?:^|\s)/s\b", message.text):
            return []
        out: list[CandidateFact] = []
        seen: set[str] = set()
        for clause in _clauses(cleaned):
            for fact, fact_type, hedged in self._clause_facts(clause, name):
                key = fact.lower()
                if key in seen:
                    continue
                seen.add(key)
                out.append(
                    CandidateFact(
                        subject=message.author_id,
                        fact=fact,
                        fact_type=fact_type,
                        confidence=HEDGED if hedged else PLAIN,
                        evidence=_evidence(message.text, fact),
                        source_message_id=message.message_id,
                    )
                )
                if len(out) == MAX_FACTS_PER_MESSAGE:
                    return out
        return out

    def _clause_facts(self, clause: str, name: str) -> Iterator[tuple[str, str, bool]]:
        clause = _TRAILING_ASK.sub("", clause).strip()
        request = False
        for prefix in (_PLEASE_REMEMBER, _FROM_NOW_ON):
            stripped = prefix.sub("", clause, count=1)
            if stripped != clause:
                clause, request = stripped.strip(), True
        if not _MAY_STATE.search(clause) and not _IMPLIED_START.match(clause):
            return  # nothing about the speaker: no rule could match
        uptalk = clause.endswith("?") and _FIRST_PERSON.match(_HEDGE_STRIP.sub("", clause))
        if uptalk:  # "i kind of like pineapple on pizza?" states, unsure
            clause = clause.rstrip("?").strip()
        if not clause or not _is_statement(clause):
            return
        hedged = bool(_HEDGE.search(clause)) or bool(uptalk) or bool(_THINK.match(clause))
        plain = _THINK.sub("", clause)
        plain = _HEDGE_STRIP.sub("", plain).strip(" ,")
        plain = re.sub(r"^(?:that|:)\s+", "", plain, flags=re.I)
        plain = re.sub(r"^I\s+(?:might|may|could)\s+be\b", "I'm", plain, flags=re.I)
        plain = _implied_subject(plain)
        if request and not re.match(
            r"^(?:I|I'm|I've|my|call|don't|do not|never|stop|please|reply|respond|talk|speak)\b",
            plain,
            re.I,
        ):
            return
        if _TRANSIENT_STATE.match(plain):
            return
        for rule in RULES:
            match = rule.pattern.match(plain)
            if match is None:
                continue
            fact = rule.render(match, name)
            if fact is None:
                continue
            fact = re.sub(r"\s+([,;:!?])", r"\1", " ".join(fact.split())).rstrip(" ,;:") + "."
            yield fact[0].upper() + fact[1:], rule.fact_type, hedged
            if rule.final:
                return


_FIRST_PERSON = re.compile(r"^(?:I|I'm|I've|my)\b", re.I)
_MAY_STATE = re.compile(
    r"\b(?:I|I'm|I've|I'll|my|me|mine|favourite|pronouns|reply|respond)\b", re.I
)
_THINK = re.compile(r"^(?:think|thinking|guess|pretty sure)\s+(?=(?:I|I'm|I've|my)\b)", re.I)
# Chat drops the "I": "moving to Berlin in March", "been sober 2 years", "not a fan of X".
_IMPLIED = [
    (re.compile(r"^(?=(?:learning|moving|starting|going|working on|building|making|writing|"
                r"developing|planning|trying|giving|heading|flying|visiting|studying|training|"
                r"saving|doing|getting|adopting|quitting|launching|running|hosting|"
                r"attending|taking)\b)", re.I), "I'm "),
    (re.compile(r"^(?=(?:not a fan of|not into|no longer|obsessed with|allergic to|"
                r"scared of|afraid of)\b)", re.I), "I'm "),
    (re.compile(r"^(?=been\b)", re.I), "I've "),
    (re.compile(r"^(?=(?:started|switched|moved|adopted|finished|graduated|joined|quit|"
                r"grew up|live|work|love|hate)\b)", re.I), "I "),
]  # fmt: skip


_IMPLIED_START = re.compile(
    r"^(?:(?:think|thinking|guess|pretty sure)\s+)?(?:"
    + "|".join(p.pattern.removeprefix("^(?=").removesuffix(")") for p, _ in _IMPLIED)
    + ")",
    re.I,
)


def _implied_subject(clause: str) -> str:
    for pattern, subject in _IMPLIED:
        if pattern.match(clause):
            return subject + clause
    return clause


_TRANSIENT_STATE = re.compile(
    r"^I(?:'m| am)\s+(?:so\s+|really\s+|very\s+|super\s+|kinda\s+|a bit\s+|just\s+|still\s+)*"
    r"(?:tired|sleepy|hungry|thirsty|bored|sick|sad|happy|mad|angry|annoyed|excited|hyped|"
    r"nervous|stressed|dying|dead|done|back|here|home|late|early|busy|free|ready|fine|good|"
    r"ok|okay|alright|confused|lost|sorry|glad|sure|afk|online|offline|on my way|omw|"
    r"gonna|about to|literally|crying|screaming|laughing|heading out|off|logging off|"
    r"going to (?:bed|sleep)|at (?:the|work|school|home))\b",
    re.I,
)
