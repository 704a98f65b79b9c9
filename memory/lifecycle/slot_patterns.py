"""The patterns that fill attribute slots (:mod:`memory.lifecycle.slots`): who a member
is (work, relationship, household, age, studies, family, favourites, rank, first
language). The other attributes are read by the ``*_patterns`` modules named for them (``home_``,
``pet_``, ``career_patterns``...), built with the parts defined here: :data:`SUBJECT`,
:func:`subject_if`, :func:`one_of`, :func:`slot_pattern`.

Each pattern reads a fact's normalised body and is anchored on its subject (the first word);
its ``value`` group, or its fixed value, fills its slot's key (with the partner it names, if
any). The first pattern of a key that matches wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from memory.lifecycle.lexicon import KINDS, LANGUAGES, OCCUPATIONS, PETS, UNIVERSITIES

SUBJECT = r"^\S+ "  # the subject


def subject_if(cue: str) -> str:
    """The subject, when ``cue`` comes somewhere after it: a cheap test before a pattern
    that tries many places in the fact ("(?:\\S+ ){1,8}?")."""
    return rf"^(?=.*(?:{cue}))\S+ "


def one_of(names: Iterable[str]) -> str:
    """An alternation of ``names``, the longest first ("guinea pig" before "pig")."""
    return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))


@dataclass(frozen=True)
class SlotPattern:
    key: str
    regex: re.Pattern[str]
    value: str | None = None  # a fixed value ("none" for "lost their job")
    place: bool = False  # its value must be a place the tables know ("babs . swansea now")


def slot_pattern(
    key: str, pattern: str, value: str | None = None, *, place: bool = False
) -> SlotPattern:
    return SlotPattern(key, re.compile(pattern), value, place)


_S, _s_if, _p = SUBJECT, subject_if, slot_pattern  # short names for the patterns below


_ADVERBS = (
    r"(?:(?:now|still|currently|recently|just|finally|actually|officially|also|really|originally"
    r"|already|again|happily|definitely|deffo|defo|totally|literally|lowkey|highkey|basically) )*"
)
_DET = r"(?:a|an|the|their|his|her|my|our)"
_NOT_DATED = (
    r"(?:therapist|counsel+or|physio\w*|doctor|gp|specialist|consultant|dentist|vet|coach|"
    r"trainer|tutor|psych\w+|chiropractor|nutritionist|dietitian|surgeon|show|movie|film|band"
    r"|gig|play|concert|lot|bit|few)\b"
)
"""Who or what is "seen" and not dated ("is seeing a physio for her knee")."""
_STOP = (
    r"(?=$| [.,;:!?()]| (?:and|but|with|w|for|since|because|near|now|at|on|in|from|to|while|during"
    r"|until|as|after|before|by|lol|lmao|tbh|ngl|fr|rn|again|anymore|though|tho|too|so|who|which"
    r"|where|when|if|full|part|originally|mostly|these|this|last|next|lets|finally|like"
    r"|specialising|specializing|rather|instead|around|born|raised)\b)"
)
_JOBS = one_of(OCCUPATIONS)
_THEY_ARE = r"(?:hes|shes|he is|she is|they are|theyre)"
_VALUE = rf"(?P<value>[\w'-]+(?: [\w'-]+){{0,3}}?){_STOP}"
_PETS = one_of(PETS)
_EXAMINED = r"[\w' -]*\b(?:records|tapes|videos|footage|recordings|songs|albums|clips)\b"
"""What one studies to learn from it, no course: "studies old jungle records for breaks"."""
_FAVOURITE = (
    r"(?:(?:all-time |all time |absolute |top )?(?:favorite|favourite|fav|fave)|go-to|main)"
)
_FRAGMENT_END = (
    r"(?: (?:now|today|these days|by far|rn|atm|lol|lmao|tho|btw|again|af|fr|ngl|tbh|i think"
    r"|i guess|i believe))*"
    r"(?=$| [.,;:!?()])"
)
"""What may follow a verb-less fragment ("ana nurse now", "priya 30 now lol", "aya 24 now,
bday yesterday")."""
_JOB_VERBS = (
    r"(?:works|is (?:now |currently |still )?(?:working|employed)|has worked|has been working"
    r"|worked|started working|does (?:\w+ )?shifts|(?:got|has|found|took|landed|has taken"
    r"|started|accepted) (?:a |a new )?(?:job|role|position)|has been employed"
    r"|(?:got|was|has been) hired)"
)
_FORMER_JOB = (
    r"(?:\S+ ){0,3}?worked (?:as|at|for) (?:\S+ ){1,4}?(?:during|while|when|back in|before"
    r"|in (?:college|uni|university|high school)|years ago)\b"
)
"""A job told as one held for a while in the past: "worked as a waitress during university",
"worked at the paper mill before it closed"."""
_FAV_IS = r"(?:is|:|\?|has always been|has been|has become|became|remains) (?:now |still )?"
_YEARS_OLD = r"(?: y\w{1,4} o(?:ld|dl|lf)| yo| y o| years? of age| years?(?= now\b| ,| \.|$))"
_AGE_END = (
    r"(?! on (?:the )?(?:bench|squat|deadlift)\b)"  # "hit 70 on bench": a lift, no age
    r"(?=$| [.,;:!?]| (?:now|today|and|yesterday|tomorrow|tmrw|hbd|lol|lmao|btw|this|last|over"
    r"|on|after|since|so|but|with|ngl|tbh|fr|rip|not going to lie|he|she|they|i|rn|atm|ytd|iirc"
    r"|yday|happy|sat|sun|mon|tue|wed|thu|fri|bday|birthday|like|lets)\b)"
)
_HAS_NO = r"has no|(?:has )?got no|do(?:es|s)? not have(?: any)?|has not got(?: any)?|not has any"
_SOME = r"(?:(?:a|an|one) |(?P<count>\d+) )?(?:[\w-]+ ){0,3}?"
"""How many, and a few words of what kind ("a three year old", "an older")."""
_SIBLING = r"(?P<value>brothers?|sisters?|bro|sis|siblings?)"
_CHILD = r"(?P<value>sons?|daughters?|kids?|child|children|baby|babies)"
_SAYS = r"(?:(?:says|said|thinks|reckons|decided) (?:that )?(?:honestly |actually )?)?"
_OVER = r"(?:now|these days|over|rather|instead)\b"  # after a favourite: "is her fave over x"
_TRANSFER = r"(?:transferred|transfered|has transferred|switched|changed schools|moved)"
_ATTENDS = (
    rf"(?:goes to|attends|is (?:now )?at|studies at|started at|(?:is )?enrolled (?:at|in)"
    rf"|is (?:now )?(?:a|an) (?:\w+ )?(?:student|pupil) at"
    rf"|{_TRANSFER}(?: schools?| unis?| colleges?)? to)"
)
_NOT_SUBJECT = (r"(?:(?:is|a|an|the|uni|university|college|grad|exchange|phd|masters|new|doctoral"
                r"|postgraduate|undergraduate|mature|international|visiting) )")  # fmt: skip
"""What "X student" tells of no subject: "a grad student", "a uni student at Aalto"."""
_LANGUAGES = "|".join(sorted(LANGUAGES))
_SUBJECTS = "|".join(sorted(KINDS["subject"] | {"computer science", "medicine", "law"}))
_KIN = (r"(?P<thing>(?:(?:older|younger|eldest|youngest|oldest|little|lil|big) )?(?:son|daughter"
        r"|kid|child|boy|girl|brother|sister|twins))")  # fmt: skip
_STUDY_DEGREE = r"(?:degree|phd|masters|master 's|ba|bsc|ma|msc|diploma|course)"


_TIER = (
    r"(?:gold nova|master guardian|legendary eagle|global elite|grand champion"
    r"|(?<!a )(?<!an )(?:grand)?masters|iron|bronze"
    r"|silver|gold|plat|platinum|diamond|ascendant|asc|immortal|radiant|emerald|master|grandmaster"
    r"|challenger|champion|champ|legend|mythic|predator|elite|supreme)"
)
"""The tiers of a game's ranked ladder ("Gold 2 in Valorant", "plat in league"; "hit masters",
not "a masters in data science")."""
_TIER_VALUE = rf"(?P<value>{_TIER}(?: (?:[1-5]|i{{1,3}}|iv|v))?)"
_RANK_END = r"(?:now|this|lets|rn|finally|after|last|yesterday|today|tonight|fr|ngl|tbh|again)"
"""What may follow a rank reached ("hit diamond 2 finally", "dropped to gold after a losing
streak"): no game's name."""
_RANK = (
    rf"{_S}(?:[.:,-] )?(?:[\w']+ ){{0,7}}?(?<!not )(?<!not be )(?:a |an |the )?{_TIER_VALUE}"
    rf"(?: rank| ranked)? (?:in|on) (?!(?:the|a|an|his|her|their|my) )"
    rf"(?P<thing>\w+(?: \w+)??){_STOP}"
)


_SCHOOL = r"(?:university|college|uni|high school|high|school|academy|primary|nursery|kita)"
_PARTNER_NAMED = r"(?:(?P<partner>[\w-]+)(?=$| [.,;:!?]))?"
"""A partner's name ends the fact ("'s wife is Ana"); "'s wife is a nurse" names none."""
_PARTNER = (
    r"(?:(?:a|an) (?:man|woman|guy|girl|person) (?:named|called) )?"
    r"(?!(?:his|her|their|my|a|an|the|this|that|some|someone|somebody)\b)(?P<partner>[\w-]+)"
)
"""A partner, by name: "married to Jun", "married to a man named Jun"."""
_CALLED = r"(?:called |named )?"
_GOT = r"(?:got|was|has been|just got)"
_LET_GO = (  # out of a job, and away from its employer: "was made redundant", "lost her position"
    rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:{_GOT} (?:fired|sacked)|(?:{_GOT} )?(?:laid off|made redundant)"
    rf"{_STOP}|(?:has )?(?:lost {_DET} (?:[\w-]+ )?(?:job|position)|(?:quit|left) {_DET} job)\b)"
)
PATTERNS: tuple[SlotPattern, ...] = (
    # work
    _p("job", rf"{_S}(?:[.:,-] )?(?!{_FORMER_JOB}){_ADVERBS}{_JOB_VERBS}"
              rf"(?: (?:in|at|for|on) [\w'-]+(?: [\w'-]+){{0,2}}?)? as (?:a |an )?{_VALUE}"),
    _p("job", rf"{_S}{_ADVERBS}(?:is|became|has become|has been) (?:now )?(?:a|an) "
              rf"(?P<value>(?:[\w-]+ ){{0,2}}(?:{_JOBS})){_STOP}"),
    _p("job", rf"{_S}'s (?:current |new )?(?:job|occupation|profession|job title|role) "
              rf"(?:is|:) (?:now )?(?:as )?(?!(?:at|with|for) |\w+ing |(?:fully |100 % )?remote"
              rf"|hybrid)(?:a |an )?{_VALUE}"),  # not "her job is fully remote": where she works
    _p("job", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:(?:a|an) )?(?P<value>(?:[\w-]+ )?"
              rf"(?:{_JOBS})){_FRAGMENT_END}"),  # a fragment: "ana nurse now"
    _p("job", rf"{_S}(?:[\w'-]+ ){{0,4}}, now (?:a |an )?(?P<value>(?:{_JOBS}))"
              rf"{_FRAGMENT_END}"),  # "ex-nurse, now lawyer"
    _p("job", rf"{_s_if(f' {_THEY_ARE} ')}(?!'s )(?:\S+ ){{1,8}}?{_THEY_ARE} "
              rf"(?:now )?(?:a |an )?(?P<value>(?:[\w-]+ )?(?:{_JOBS}))(?: now)?(?=$| [.,;:!?])"),
    _p("job", rf"{_s_if(' now(?:$| [.,;:!?])')}(?!'s )(?:\S+ ){{1,8}}?"
              rf"(?P<value>(?:[\w-]+ )?(?:{_JOBS})) now"
              rf"(?=$| [.,;:!?])"),  # "not testing anymore - product manager now"
    _p("job", rf"{_S}{_ADVERBS}(?:got |was |has been |just got )?promoted to (?:a |an )?"
              rf"(?P<value>(?:[\w-]+ ){{0,2}}(?:{_JOBS})){_STOP}"),  # "promoted to head chef"
    _p("job", rf"{_S}{_ADVERBS}teaches\b", "teacher"),
    _p("job", _LET_GO, "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:is|has) (?:now )?(?:unemployed|jobless|out of work"
              rf"|between jobs|retired)\b", "none"),
    _p("job", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is |'s )?(?:a |an )?(?:full-time |full time )?"
              rf"(?:stay-at-home|stays? at home) (?:mum|mom|dad|parent|mother|father)\b", "none"),
    _p("job", rf"{_S}{_ADVERBS}(?:retired|has retired|(?:is|'s) (?:a |an )?(?:retiree|pensioner)"
              rf"|does not work (?:anymore|any more))\b", "none"),  # "doesn't work anymore"
    _p("employer", rf"{_S}{_ADVERBS}(?:accepted|took|got|has accepted) (?:an? )?(?:new )?"
                   rf"(?:offer|job|position|role) (?:from|at|with) {_VALUE}"),
    _p("employer", rf"{_S}{_ADVERBS}is (?:a|an) (?P<value>\w+(?: \w+)?) employee\b"),
    _p("employer", rf"{_S}{_ADVERBS}(?:is|became|has become) (?:now )?(?:a|an) (?:[\w-]+ ){{0,2}}"
                   rf"(?:{_JOBS}) at (?!home\b|night|weekend){_VALUE}"),  # "a staff engineer at x"
    _p("employer", rf"{_S}'s (?:current |new )?(?:job|work) (?:is|:) (?:now )?at "
                   rf"{_VALUE}"),
    _p("employer", _LET_GO, "none"),  # from wherever they worked
    _p("employer", rf"{_S}(?!{_FORMER_JOB}){_ADVERBS}{_JOB_VERBS} (?:at|for|by) "
                   rf"(?!home\b|night|weekend|the weekend|a distance\b){_VALUE}"),
    _p("employer", rf"{_S}(?!{_FORMER_JOB}){_ADVERBS}{_JOB_VERBS} as (?:a|an) "
                   rf"(?:[\w-]+ ){{1,3}}?at "
                   rf"(?!home\b|night|weekend|the weekend){_VALUE}"),  # "works as a chef at x"
    _p("employer", rf"{_s_if(' works ')}(?!'s )(?:\S+ ){{1,8}}?, (?:now )?works (?:at|for) "
                   rf"(?!home\b|night|weekend){_VALUE}"),  # "quit tesco , works at lidl now"
    # relationship status (the patterns naming a partner first)
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:(?:is|got) )?married "
                 rf"(?:to|with(?! (?:\d|kids|children|twins|no)\b)) {_PARTNER}", "married"),
    _p("status", rf"{_S}and (?P<partner>[\w-]+) are (?:now )?(?P<value>married|engaged)\b"),
    _p("status", rf"{_S}and (?P<partner>[\w-]+) are (?:now )?(?:dating|a couple|together|an item)"
                 rf"\b", "dating"),
    _p("status", rf"{_S}'s (?:husband|wife|spouse) is {_CALLED}{_PARTNER_NAMED}", "married"),
    _p("status", rf"{_S}{_ADVERBS}(?:tied the knot|got hitched)(?: with (?P<partner>\w+))?",
       "married"),
    _p("status", rf"{_S}'s (?:girlfriend|boyfriend|partner|gf|bf) (?P<partner>\w+)$", "dating"),
    _p("status", rf"{_S}'s (?:girlfriend|boyfriend|partner|gf|bf) is {_CALLED}{_PARTNER_NAMED}",
       "dating"),
    _p("status", rf"{_S}{_ADVERBS}(?:(?:is|got) engaged to {_PARTNER}|has (?:a|an) fiancee?\b)",
       "engaged"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:(?:is|has been) )?(?:dating|seeing|going out with)"
                 rf" {_PARTNER}",
       "dating"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:(?:is|has been) )?courting\b", "dating"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:(?:is|has been) )?in a (?:relation|situation)ship"
                 rf"(?: (?:with|w) {_PARTNER})?", "dating"),
    _p("status", rf"{_S}{_ADVERBS}ended (?:the|her|his|their) (?:relationship|situationship)\b",
       "single"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:broke up|split up|split)(?: (?:with|w) "
                 rf"(?P<partner>\w+))?\b", "single"),
    _p("status", rf"{_S}(?:and \w+ )?{_ADVERBS}called (?:off {_DET} (?:engagement|wedding)\b"
                 rf"|{_DET} (?:engagement|wedding) off\b)", "single"),
    _p("status", rf"{_S}{_ADVERBS}(?:divorced|has divorced|separated from) (?P<partner>\w+)",
       "divorced"),
    _p("status", rf"{_S}and (?P<partner>\w+) (?:got divorced|divorced|separated)\b",
       "divorced"),
    _p("status", rf"{_S}{_ADVERBS}(?:married|has married) (?P<partner>\w+)", "married"),
    _p("status", r"^(?P<partner>\w+) is \S+ 's (?:wife|husband|spouse)$", "married"),
    _p("status", r"^(?P<partner>\w+) is \S+ 's (?:girlfriend|boyfriend|partner|gf|bf)$",
       "dating"),
    _p("status", rf"{_S}and (?P<partner>\w+) (?:broke up|split up|split|are over{_FRAGMENT_END})\b",
       "single"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is|got|has gotten|has got) {_ADVERBS}"
                 rf"(?P<value>single|married|engaged|divorced|separated|widowed)\b"),
    _p("status", rf"{_S}{_ADVERBS}has been (?P<value>married|engaged|divorced|single)\b"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:taken|cuffed){_FRAGMENT_END}", "dating"),
    _p("status", rf"{_S}(?:(?:[.:,-] )?{_ADVERBS}(?:(?:is|got|has been|has got) )?(?:bae would"
                 rf"|boo would|booed|coupled) up\b|and (?P<partner>\w+) are (?:a thing|an item)\b)",
       "dating"),  # "bae'd up w ...", "mia n josh r a thing"
    _p("status", rf"{_S}(?:and|n|&) (?P<partner>\w+) (?:{_ADVERBS}(?:got|are|have got|have) )?"
                 rf"{_ADVERBS}(?P<value>married)\b"),  # "dylan and meg got married"
    _p("status", rf"{_s_if(' taken| seeing someone')}(?!'s )(?:\S+ ){{0,8}}?(?:, (?:now )?taken"
                 rf"{_FRAGMENT_END}|(?<!not )(?:is )?seeing someone\b)", "dating"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?single again\b", "single"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?not (?:dating|seeing) anyone\b", "single"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?P<value>single|married|engaged|divorced|widowed)"
                 rf"{_FRAGMENT_END}"),
    _p("status", rf"{_S}(?:[.:,-] )?(?:bf|gf|boyfriend|girlfriend|partner) (?:now |is |: "
                 rf"|named |called )?"
                 rf"(?!material|goals|vibes|energy)(?P<partner>\w+){_FRAGMENT_END}", "dating"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:has|got|has got|found) (?:(?:a|an) )?(?:new )?"
                 rf"(?:boyfriend|girlfriend|partner|bf|gf)(?: (?:named|called) "
                 rf"(?P<partner>\w+))?\b", "dating"),
    _p("status", rf"{_S}(?:[.:,-] )?(?:(?:a|an) )?new (?:boyfriend|girlfriend|partner|bf|gf)\b",
       "dating"),  # "ava - new gf , met at freshers"
    _p("status", rf"{_S}(?:[.:,-] |'s )?{_ADVERBS}(?:(?:is|has been) )?(?:dating|seeing|going out"
                 rf" with) (?:someone|somebody|some|(?:a|an)(?! {_NOT_DATED}))\b", "dating"),
    # "tayla 's lowkey seeing a scaffolder", not "seeing a physio for her knee"
    _p("status", rf"{_S}{_ADVERBS}has (?:a|an) (?:husband|wife) (?:named|called) "
                 rf"(?P<partner>\w+)", "married"),
    _p("status", rf"{_S}(?:[.:,-] )?{_ADVERBS}has (?:a|an) (?:husband|wife)\b", "married"),
    _p("status", rf"{_S}{_ADVERBS}is not (?:in a relationship|seeing anyone|dating anyone)\b",
       "single"),
    # age
    _p("age", rf"{_S}{_ADVERBS}(?:is(?: turning)?|(?:has )?(?:just )?turned|turns|hit"
              rf"|celebrated turning) "
              rf"{_ADVERBS}(?:only )?(?:aged )?"
              rf"(?P<value>\d{{1,3}}){_YEARS_OLD}?{_AGE_END}"),  # "is only 16"
    _p("age", rf"{_S}{_SAYS}(?:he is|she is|they are|hes|shes) (?:now )?(?P<value>\d{{1,3}})"
              rf"{_YEARS_OLD}?{_AGE_END}"),
    _p("age", rf"{_S}'s age (?:is|:) (?:now )?(?P<value>\d{{1,3}})\b"),
    _p("age", rf"{_S}{_ADVERBS}(?:celebrated|had|has had) (?:{_DET} )?(?P<value>\d{{1,3}})"
              rf"(?:st|nd|rd|th)(?: birthday\b|(?= like\b| last\b)|{_AGE_END})"),
    _p("age", rf"{_S}(?:.*? (?:his|her|their|[,;.:-]) |(?:[.:-] )?)(?P<value>\d{{1,3}})"
              rf"(?:st|nd|rd|th) (?:birthday|bday)\b"),  # "an adult now, 18th bday was sat"
    _p("age", rf"{_S}(?:[.:,] )?{_ADVERBS}(?:aged |age )?(?P<value>\d{{1,3}}){_YEARS_OLD}?"
              rf"(?: iirc| i think| as of \w+)?(?: lol| lmao)?(?: bday| birthday)?{_FRAGMENT_END}"),
    _p("age", rf"{_S}(?:'s|has (?:a|an|1)) {_KIN} (?:\S+ ){{0,2}}?(?:(?:is|are|turned|turns|who is"
              rf"|aged) (?:now |actually )?|celebrated (?:his|her|their) )(?P<value>\d{{1,3}})"
              rf"(?:(?:st|nd|rd|th) (?:birthday|bday))?\b(?! (?:months?|weeks?)\b)"),
    # a child's or a sibling's age: "age:son"; "'s son just celebrated his 4th birthday"
    _p("age", rf"{_S}(?:(?:'s|has (?:a|an|1)) |(?:[.:,-] )?(?:(?:my|the|our) )?)(?:[\w-]+ )?"
              rf"(?P<thing>{_PETS}) (?:\S+ ){{0,2}}?(?:(?:is|'s|turned|turns|hit|[.:-]) "
              rf"(?:now |like |about |actually |only )?|(?=\d{{1,3}} years\b))"
              rf"(?P<value>\d{{1,3}})\b"),  # "'s dog is 3", "'s dog - 3 yrs", "- dog turned 5"
    # studies
    _p("studies", rf"{_S}{_ADVERBS}(?:majors|is majoring|has majored|majored) in {_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}(?:is doing|is taking|is pursuing|doing) (?:a |an )?"
                  rf"(?P<value>\w+(?: \w+)?) (?:degree|course|major)\b"),  # "a psych degree"
    _p("studies", rf"{_S}{_ADVERBS}(?:is )?doing (?P<value>{_SUBJECTS}){_STOP}"),  # "doing compsci"
    _p("studies", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:switched|swapped|changed)(?: from \w+)? to "
                  rf"(?P<value>{_SUBJECTS}){_STOP}"),  # "ravi switched (from law) to engineering"
    _p("schoolyear", rf"{_S}(?:\S+ ){{0,7}}?(?:year )?(?P<value>(?<=year )\d{{1,2}}"
                     rf"|grade \d{{1,2}})(?=$| (?:now|at|of|in|undergrad\w*|medic)\b| [.,])"),
    _p("studies", rf"{_S}{_ADVERBS}(?:is doing|is taking|is pursuing|has|is studying for) "
                  rf"(?:a |an |{_DET} )?{_STUDY_DEGREE} in {_VALUE}"),
    _p("studies", rf"{_S}{_ADVERBS}(?:switched|changed) "
                  rf"(?:{_DET} (?:{_STUDY_DEGREE}|major|studies) to |to (?:studying|majoring in) )"
                  rf"{_VALUE}"),
    _p("studies", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:studies|studys|is studying|has been studying"
                  rf"|studying) (?!for |to |a |an |the |hard\b|{_EXAMINED}){_VALUE}"),
    _p("studies", rf"{_S}(?:[.:,-] )?(?P<value>{_SUBJECTS}|comp sci|computer sci|compsci)"
                  rf"(?: major| student)?{_FRAGMENT_END}"),  # "mo - comp sci"
    _p("studies", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is (?:a |an )?)?(?!{_NOT_SUBJECT})"
                  rf"(?P<value>\w+(?: \w+)?) student\b"),
    _p("studies", rf"{_S}{_ADVERBS}(?:is )?in (?P<value>med|medical|law|nursing|dental|vet"
                  rf"|business|art|music|film) school\b"),
    _p("studies", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?(?:in|at) {_SCHOOL} (?:for|studying|doing) "
                  rf"{_VALUE}"),
    _p("studies", rf"{_S}(?:[.:,-] )?(?:uni|university|college|major) (?:[:-] )?(?P<value>\w+)"
                  rf"{_FRAGMENT_END}"),
    _p("school", rf"{_S}{_ADVERBS}is (?:a|an) (?:uni|university|college) student at (?:the )?"
                 rf"{_VALUE}"),
    _p("school", rf"{_S}{_ADVERBS}{_ATTENDS} "
                 rf"(?:the )?(?P<value>\w+(?: \w+)?) {_SCHOOL}\b"),
    _p("school", rf"{_S}{_ADVERBS}{_ATTENDS} "
                 rf"(?P<value>{'|'.join(sorted(UNIVERSITIES))}){_STOP}"),
    _p("school", rf"{_S}{_ADVERBS}{_ATTENDS} "
                 rf"the (?:university|college) of (?P<value>\w+(?: \w+)?){_STOP}"),
    # siblings and children, counted: none, or one named by its kind
    _p("siblings", rf"{_S}{_ADVERBS}(?:{_HAS_NO}) (?:siblings?|brothers? or sisters?)\b", "none"),
    _p("siblings", rf"{_S}{_ADVERBS}is an only child\b", "none"),
    _p("siblings", rf"{_S}(?:[.:,-] )?no siblings{_FRAGMENT_END}", "none"),
    _p("siblings", rf"{_S}{_ADVERBS}(?:has|got|grew up with) {_SOME}{_SIBLING}\b"),
    _p("siblings", rf"{_S}'s (?:\w+ )?{_SIBLING}\b"),
    _p("siblings", rf"{_S}{_ADVERBS}is (?:the )?(?:1|youngest|eldest|oldest|middle|second|third)"
                   rf" of (?P<among>\d+) (?P<value>children|kids|siblings)\b"),  # 1 of 4: 3
    _p("children", rf"{_S}{_ADVERBS}(?:{_HAS_NO}) (?:kids?|children|child)\b", "none"),
    _p("children", rf"{_S}(?:[.:,-] )?no (?:kids|children){_FRAGMENT_END}", "none"),
    _p("children", rf"{_S}{_ADVERBS}(?:had|got|has had|welcomed|has welcomed) (?:her|his|their) "
                   rf"(?P<count>second|third|fourth|fifth) {_CHILD}(?! (?:is |are )?(?:on|due)\b)"),
    _p("children", rf"{_S}{_ADVERBS}(?:has|had|got) {_SOME}{_CHILD}\b"),
    _p("children", rf"{_S}'s (?:\w+ )?{_CHILD}\b"),
    # "3 kids now", "dalia : 2 kids", "first baby arrived"
    _p("children", rf"{_s_if(' now')}(?:\S+ ){{0,8}}?(?P<count>\d+) {_CHILD} now\b"),
    _p("children", rf"{_S}(?:[.:,-] )?(?P<count>\d+) {_CHILD}{_FRAGMENT_END}"),
    _p("children", rf"{_S}(?:[.:,-] )?(?:\w+ )?{_CHILD} (?:arrived|was born|is here)\b"),
    _p("children", rf"{_S}{_ADVERBS}(?:became|has become|is now) (?:a )?(?:first-time |new )?"
                   rf"(?:dad|mum|mom|father|mother|parent)\b", "a child"),  # "became a dad"
    # favourites
    _p("favorite", rf"{_S}(?:'s |[.:,-] |{_SAYS})?(?:new )?{_FAVOURITE} "
                   rf"(?P<thing>[\w-]+(?: [\w-]+){{0,2}}?)(?: to (?:watch|play|read|eat|drink))?"
                   rf" (?:now |still )?{_FAV_IS}{_VALUE}"),  # "favourite streamer to watch is"
    _p("favorite", rf"{_S}(?:'s |[.:,-] |{_SAYS})?{_FAVOURITE} {_FAV_IS}{_VALUE}"),
    _p("favorite", rf"{_s_if(_FAVOURITE)}(?:\S+ ){{1,10}}?(?:,|\.|and|but) (?:that )?"
                   rf"(?P<value>\w+(?: \w+)?) (?:is|are) (?:now |still )?(?:his|her|their) "
                   rf"(?:new )?{_FAVOURITE}"
                   rf"(?: (?!now\b)(?P<thing>\w+))?{_FRAGMENT_END}"),  # ", and x is his fave now"
    _p("favorite", rf"{_s_if(_FAVOURITE)}(?:\S+ ){{1,10}}?(?:,|\.|and|but) (?:(?:his|her|their) )?"
                   rf"(?:new )?{_FAVOURITE} (?:is |: )?(?:now )?{_VALUE}"),  # "..., fave is x now"
    _p("favorite", rf"^(?:\S+ (?:now )?(?:says|said|thinks) (?:that )?)?"
                   rf"(?P<value>(?:(?! (?:is|and|but) )[\w' -])+?) (?:is|are) "
                   rf"(?:\S+ 's|\S+s|her|their) {_FAVOURITE}"
                   rf"(?: (?!now$)(?P<thing>\w+(?: (?!now$)\w+)?))?(?: now)?$"),
    _p("favorite", rf"{_S}{_SAYS}(?P<value>(?:(?! (?:is|and|but) )[\w' -])+?) (?:is|are) "
                   rf"(?:now |still )?(?:his|her|their) {_FAVOURITE} (?!now\b)(?P<thing>[\w-]+)"
                   rf"(?:{_FRAGMENT_END}| not\b)"),  # "x is her fave series , not the expanse"
    # "the prophet 5 is her fave over the juno", "in rainbows has become her all-time favourite
    # album", "anders 's les paul is his favourite , the tele is collecting dust"
    _p("favorite", rf"{_S}(?:'s |{_SAYS}|(?:mentioned|explained) (?:that )?)(?P<value>(?:(?! "
                   rf"(?:is|and|but|has) )[\w' -])+?) (?:is|are|has become|became) (?:now |still )?"
                   rf"(?:his|her|their) (?:new )?{_FAVOURITE}(?: (?!{_OVER})(?P<thing>[\w-]+))?"
                   rf"(?=$| [.,;:!?]| {_OVER})"),
    _p("favorite", rf"{_S}(?:'s |[.:,-] )?{_FAVOURITE} (?!is\b)(?P<thing>\w+) (?:now |still )?"
                   rf"(?P<value>\w+(?: \w+)??){_FRAGMENT_END}"),  # "ola fave band muse"
    # the team they support: one at a time, as a favourite team is (not "supports new nurses
    # as a preceptor")
    _p("favorite:team", rf"{_S}{_ADVERBS}(?:supports|is supporting|has supported|reps|is a "
                        rf"(?:\w+ )?supporter of|switched (?:his |her |their )?allegiances? to)"
                        rf" (?!(?:his|her|their|my|our|a|an|local)\b)"
                        rf"(?!.* as an? )(?:the )?{_VALUE}"),
    # the hand they write with
    _p("hand", rf"{_S}{_ADVERBS}(?:is )?(?:a )?(?P<value>(?:left|right|rigth)[- ]handed|lefty"
               rf"|righty){_FRAGMENT_END}"),
    _p("hand", rf"{_s_if(' hand')}(?:\S+ ){{0,3}}?(?:writes|eats|draws|bowls|throws) (?:with|w) "
               rf"(?:his|her|their) (?P<value>left|right) hand\b"),  # "writes with his left hand"
    # a game's rank
    _p("rank", _RANK),
    _p("rank", rf"{_S}(?:[.:,-] )?(?:finally |just |already )?(?:hit|hits|reached|ranked up to"
               rf"|ranked down to|deranked to|derankd to|dropped to|climbed (?:all the way )?to"
               rf"|made it to|is now|(?:is )?(?:hard ?)?stuck (?:in |at )?"
               rf"|(?:is )?back (?:down |up )?to|switched to|(?:has )?fallen to|fell to|is in"
               rf"|is|now)? ?"
               rf"{_TIER_VALUE}(?: rank| ranked)?(?: (?:in |on )?(?!{_RANK_END}\b|in\b|on\b)"
               rf"(?P<thing>[a-z][a-z0-9]{{1,6}}))?(?=$| [.,;:!?]| {_RANK_END}\b)"),
    # the language they grew up speaking
    _p("native", rf"{_S}'s (?:native|first|mother) (?:language|tongue|lang) {_FAV_IS}"
                 rf"(?:actually )?{_VALUE}"),
    _p("native", rf"{_S}(?:[.:,-] )?(?:native|first) (?:language|lang) :? ?{_VALUE}"),
    _p("native", rf"{_S}{_ADVERBS}is (?:a )?native (?P<value>\w+) speaker\b"),
    _p("native", rf"{_s_if(' tongue| language')}(?:\S+ ){{0,3}}?(?P<value>{_LANGUAGES}) is "
                 rf"(?:his|her|their) (?:native|first|mother) (?:language|tongue)\b"),
)  # fmt: skip
"""What fills each slot (``value`` group, or the pattern's fixed value)."""
