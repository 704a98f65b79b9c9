"""The patterns of a member's routine (:mod:`memory.lifecycle.slots`): the shift they work
and where they work from (remote, hybrid or the office), whether they are on leave or back at
work, still an apprentice or qualified, how they get to work or school, when they go to bed and
get up (late or early, read from the hours they name), how many hours they sleep, and their
personal best at a distance (one at a time: "10k pb 45:02" / "new 10k pb, 43:50"). Built as
the patterns of :mod:`memory.lifecycle.slot_patterns` are, and read after them.
"""

from __future__ import annotations

import re

from memory.lifecycle.lexicon import DIETS
from memory.lifecycle.slot_patterns import _ADVERBS, _DET, SlotPattern
from memory.lifecycle.slot_patterns import SUBJECT as _S
from memory.lifecycle.slot_patterns import slot_pattern as _p
from memory.lifecycle.slot_patterns import subject_if as _s_if

_SHIFTS = (
    r"(?:nights?|days?|mornings?|afternoons?|evenings?|lates|earl(?:ys|ies)|overnights?"
    r"|graveyards?)"
)
_SHIFT = rf"(?P<value>{_SHIFTS})(?: shifts?)?"
"""A shift by its name ("nights", "earlies", "lates"), as people on a rota say it."""
_SHIFT_END = r"(?= only| now| permanently| from| for| at| in| this| since| [.,;:!?]|$)"
_TO_WORK = (
    r"(?:work|the office|(?:his|her|their) (?:\w+ )?(?:job|office|work)|school|uni|college)\b"
)
_ORDINAL = r"(?:1st|2nd|3rd|4th|first|second|third|fourth|final|last)"
_LEAVE = r"(?:maternity|paternity|parental|mat|pat|sick|medical|shared parental)"
"""Leave from work one comes back from ("on mat leave till sept" / "back at work")."""
_NEVER_IN = r"(?:(?: ngl| tbh| fr)?(?: ,)? (?:he |she |they )?never goes? (?:in|into the office)\b)"
"""Said of remote work: "is fully remote , never goes into the office"."""
_MODES = r"(?:bike|bicycle|foot|car|bus|train|tube|subway|metro|tram|scooter|motorbike|ferry)"
_TO_BED = (
    r"(?:goes to bed|go to bed|going to bed|gets to bed|in bed|falls asleep|fall asleep|asleep"
    r"|sleeps|sleeping|sleep|crashes|passes out|lights out|(?<!out of )bed)"  # not "out of bed"
)
_GETS_UP = r"(?:wakes up|wake up|woke up|wakes|gets up|get up|up|awake|out of bed|rises)"
_AT = r"(?:at|by|before|around|about|like|after|past)"
_AM = r"(?:am\b| am\b| a \. m\b|(?= |$)|:\d\d)(?! ?pm| p \. m)"
_PM = r"(?:pm\b| pm\b| p \. m\b|(?= |$)|:\d\d)(?! ?am| a \. m)"
_SMALL_HOURS = rf"(?:midnight|[1-5]{_AM})"
_AT_HOUR = r"(?:sleeps|sleeping|in bed|bed)"
"""Before an hour with its half of the day, a bedtime with no "at": "xavier - sleeps 11pm now"."""
_UP_UNTIL = rf"(?:midnight|[1-6]{_AM})"
"""Hours of the clock one is up until, late: up till 6 am is up all night."""
_EVENING = rf"(?:(?:8|9|10|11){_PM})"
_EARLY_HOURS = rf"(?:dawn|sunrise|[4-7]{_AM})"
_LATE_HOURS = rf"(?:noon|midday|lunch(?:time)?|(?:9|10|11|12){_AM})"
"""Hours of the clock as a bedtime (small hours: late; evening: early) or a waking time."""
_RATINGS = r"(?:elo|rapid|blitz|bullet|mmr|sr|rating|dpi|wpm|lp)"
_DISTANCE = (
    r"(?P<thing>\d{1,3}k|\d{2,5} ?m|half marathon|half|marathon|ultra|mile|parkrun|5 km|10 km"
    r"|ironman|\d+ ?(?:km|miles?))"
)
_BEST = r"(?:pb|pr|personal best|personal record|best time|record|best)"
_BEST_WORD = rf"\b{_BEST}\b"
_NEW_BEST = rf" new (?:\d{{1,3}}k )?{_BEST}"  # "new pb", "new 5k pb"
_BEST_END = r"(?=$| [.,;:!?]| (?:ever|yet|so far|now|lol|ngl|tbh)\b)"
"""What may follow a best said after its time: not "best run of the week"."""
_TIME = (
    r"(?P<value>\d{1,2} : \d\d(?: : \d\d)?(?: \. \d{1,3})?"
    r"|\d{1,2} (?:hours?|hrs?|h) (?:and )?\d{1,2}(?: (?:minutes?|mins?|m))?"
    r"|\d{1,3}(?: \. \d{1,3})? ?(?:minutes?|mins?|seconds?|secs?))\b"
)
"""A time: "45 : 02" (as ``reading.normalise`` spaces it), a lap's "1 : 58 . 3", "3 hours 20
minutes", "52 min"."""
_COURSE = (
    r"(?P<thing>(?!(?:his|her|their|a|an|the|new|personal|fastest|best|all|time|lap|is|in|at"
    r"|on)\b)[a-z][a-z0-9]+(?: (?!is\b)[a-z][a-z0-9]+)?)"
)
"""Where a best other than a distance was set, in a word or two: a track ("hockenheim",
"brands indy"), a route, a climb."""
_LAP = r"(?:personal best|best lap|fastest lap|best time|best|pb|pr|record)"
_LIFT = r"(?P<thing>bench|deadlift|squat)"
_WEIGHT = r"(?P<value>\d{2,3})(?: ?(?:kg|kgs|kilos?|lbs?)\b)?"
"""A lift and the weight of its best: "deadlift pb is 80 kg", "benches 60kg"."""
_TIME_AFTER = r"(?:ran|did|clocked|to|of|down to|is|now|:)"
"""What comes between a best and its time: "lowered his marathon best to 3 : 04"."""


def diet_kept(group: str, *, taken_up: bool = False) -> str:
    """A diet kept, right after the subject ("is vegetarian", "mo . fully vegan now", "follows
    a keto diet"), its name in ``group``; with ``taken_up``, one being taken up too ("going
    vegan"). The one pattern of the diet slot and of what a reading's diet rules out."""
    verbs = "is|became|went|turned|been|follows|is on|on|has (?:become|gone|turned|been)"
    verbs += "|is following|has been following|has followed|sticks to|is sticking to|keeps to|eats"
    verbs += "|doing|is doing|going" if taken_up else ""
    return (
        rf"(?:[.:,-] )?(?:no (?:meat|carbs|pork) [.:,-] )?(?:(?:now|still|just|strictly|fully"
        rf"|lowkey|basically) )*"
        rf"(?:(?:{verbs}) )?(?:(?:a|an|the|that|now|strictly|fully|strict|full on|full|committed"
        rf"|lifelong|proper|total|low[- ]carb ,?|low carb) )*(?P<{group}>{'|'.join(DIETS)})\b"
    )


ROUTINE_PATTERNS: tuple[SlotPattern, ...] = (
    # a personal best at a distance: "ruby . 10k pb 45 : 02", "pb for the marathon is 3 : 31"
    _p("best", rf"{_S}(?:'s |has (?:a |an )?|[.:,-] )?(?:(?:his|her|their|a|new) )?{_DISTANCE} "
               rf"{_BEST} (?:(?:is|of|now|:|=|>|-|\.) )*{_TIME}"),  # "new 5k pb . 23 : 40"
    _p("best", rf"{_s_if(_BEST_WORD)}(?:\S+ ){{0,3}}?{_BEST} (?:in|for|on|at) (?:the |a )?"
               rf"{_DISTANCE}(?: ,)? (?:(?:is|of|now|:|=|>|-) )*{_TIME}"),
    _p("best", rf"{_s_if(_NEW_BEST)}(?:\S+ ){{0,3}}?(?:ran|did|clocked|set) {_TIME} "
               rf"(?:at|in|for) (?:the |a )?(?:\S+ )?{_DISTANCE}(?: \S+){{0,4}}? ,? new "
               rf"(?:\d{{1,3}}k )?{_BEST}\b"),  # "ran 19:05 at (the bath) parkrun , new (5k) pb"
    _p("best", rf"{_s_if(' new ' + _BEST)}(?:\S+ ){{0,3}}?(?:ran|did|clocked) (?:a |an )?(?P<value>"
               rf"\d{{1,2}}(?: : \d\d)?)(?: something|ish)? {_DISTANCE}(?: \S+){{0,4}}?(?: ,)? new "
               rf"{_BEST}\b"),  # "ran a 49 something 10k on sunday , new pb": minutes
    _p("best", rf"{_s_if(_BEST_WORD)}(?:\S+ ){{0,3}}?(?:ran |did |clocked |got )?(?:a |the )?"
               rf"{_DISTANCE} in {_TIME}(?: \S+){{0,6}}? (?:(?:that 's|thats|so|is|[.,-]) )*"
               rf"(?:(?:his|her|their|a) )?(?:new )?{_BEST}{_BEST_END}"),  # "10k in 54 : 10 . pb"
    _p("best", rf"{_s_if(_BEST_WORD)}(?:\S+ ){{0,3}}?(?:ran|did|clocked|set|got) {_TIME} "
               rf"(?:at|in|for) (?:the |a )?{_DISTANCE}(?: \S+){{0,6}}? (?:so )?(?:that 's|thats"
               rf"|is) (?:(?:his|her|their) )?(?:new )?{_BEST}{_BEST_END}"),  # "that 's her best"
    _p("best", rf"{_s_if(_BEST_WORD)}(?:\S+ ){{0,4}}?{_DISTANCE} {_BEST} (?:\S+ ){{0,4}}?"
               rf"{_TIME_AFTER} {_TIME}"),  # "smashed her 10k pb , ran 46 : 50"
    _p("best", rf"{_s_if(_BEST_WORD)}(?:\S+ ){{0,3}}?(?:his |her |their |a |new )*{_BEST} "
               rf"(?:\S+ ){{0,4}}?(?:ran|clocked|did) {_TIME}"),  # its distance the other's
    # the best at a track or a course: "olga 's nordschleife best is 8 : 12", "paz . hockenheim pb
    # 1 : 58 . 3", "best lap at brands indy is a 52 . 8", "lowered her interlagos best to 1 : 50
    # . 9", "hockenheim 1 : 56 . 9 . new pb"
    _p("best", rf"{_S}(?:'s |[.:,-] )?(?!(?:is|has|was|did|ran|set|got)\b){_COURSE} {_BEST} "
               rf"(?:(?:is|of|now|:|=|-) )*(?:a )?{_TIME}"),
    _p("best", rf"{_S}(?:'s |[.:,-] )?{_LAP} (?:at|on|round|around) (?:the )?{_COURSE} (?:is|of|=)"
               rf" (?:now )?(?:a )?{_TIME}"),
    _p("best", rf"{_s_if(_BEST_WORD)}(?:lowered|knocked|cut|brought|took|got) (?:his|her|their) "
               rf"{_COURSE} {_BEST} (?:down )?to (?:a )?{_TIME}"),
    _p("best", rf"{_S}(?:[.:,-] )?{_COURSE} {_TIME} [.,] new {_BEST}\b"),
    # the best at a lift: "bea 's deadlift pb is 80 kg", "imani benches 60 kg", "pulled 90 kilos ,
    # new pb", "hit 70 on bench , new pr"
    _p("best", rf"{_S}(?:'s )?{_LIFT}(?: press)? (?:{_BEST} |max )?(?:is |: |= |of )?(?:now )?"
               rf"{_WEIGHT}"),
    _p("best", rf"{_S}{_ADVERBS}{_LIFT}(?:es|s) {_WEIGHT}"),
    _p("best", rf"{_s_if(' new (?:pb|pr|personal)')}(?:\S+ ){{0,3}}?(?:hit|pulled|lifted|did|got"
               rf"|benched|squatted|deadlifted) {_WEIGHT}(?: on (?:the )?{_LIFT})?(?: \S+){{0,6}}? "
               rf"new (?:pb|pr|personal best|personal record)\b"),
    # the shift they work, and where they work from
    _p("shift", rf"{_s_if(' shift')}(?:\S+ ){{0,6}}?(?<!not )(?P<value>night|day|morning|evening"
                rf"|afternoon|late|early|overnight|graveyard) shifts?\b"),
    _p("shift", rf"{_s_if(' rota')}(?:\S+ ){{0,6}}?(?<!not )(?:on|onto|to) (?:the |a )?"
                rf"(?P<value>night|day|morning|evening|late|early) rota\b"),  # "onto the day rota"
    # "works nights", "bao . days now", "pia . nights at the hospital"
    _p("shift", rf"{_S}(?:[.:,-] )?(?:(?:only|still|now|back|mostly|usually|just) )?"
                rf"(?:(?:is )?(?:works|working|doing|does|on)(?: in)? )?"
                rf"(?:(?:mostly|only|permanent|perm|long) )?"
                rf"(?P<value>night|day)s"
                rf"(?=$| now\b| [,.;!] | at\b| in\b| on\b| fr\b| rn\b| tbh\b| \d+ (?:till|to)\b)"),
    # "put on afternoons permanently", "moved to earlys for the rota", "off nights , days now"
    _p("shift", rf"{_s_if(' (?:on|to|,) (?:the )?' + _SHIFTS)}(?:\S+ ){{0,8}}?(?:on|to|,) (?:the )?"
                rf"{_SHIFT}{_SHIFT_END}"),
    _p("shift", rf"{_S}(?:[.:,-] )?(?:\S+ ){{0,7}}?{_SHIFT}[- ]only\b"),  # "terry . days only now"
    _p("workplace", rf"{_s_if(' remote')}(?:\S+ ){{0,4}}?works? (?:fully |full time |mostly "
                    rf"|100 % )?remote(?:ly)?\b", "remote"),
    # "works mornings at the pharmacy"
    _p("shift", rf"{_S}(?:\S+ )?(?:works|working|doing|does|on) (?:the )?(?P<value>morning"
                rf"|afternoon|evening)s?(?= at\b| in\b| now\b| , |$)"),
    _p("workplace", rf"{_s_if('from home| remote')}(?:\S+ ){{0,4}}?(?:works? from home|(?:is )?"
                    rf"(?:fully |full |100 % )?remote){_NEVER_IN}?(?=$| [.,;:!?]| (?:now|full"
                    rf"|every|since|he|she|they|rn|atm|fr|tbh|ngl|lol|these days)\b)",
       "remote"),  # "works from home", "is fully remote , never goes into the office"
    _p("workplace", rf"{_s_if(' remote')}(?:'s job is|(?:\S+ ){{0,2}}?does (?:his|her|their) "
                    rf"job) (?:like )?(?:fully |100 % )?remote(?:ly)?{_NEVER_IN}?\b",
       "remote"),  # "'s job is fully remote", "does her job remotely"
    _p("workplace", rf"{_S}(?:[.:,-] )?(?:'s (?:role|job|work) (?:is|has become) |is |works "
                    rf"|working )?(?:now )?hybrid(?=$| [.,;:!?]| (?:with|now|\d)\b)",
       "hybrid"),  # "'s role is hybrid with 2 office days", "wren - hybrid , 2 days office"
    _p("workplace", rf"{_s_if(' office')}(?:\S+ ){{0,6}}?(?:in|into|to) the office"
                    rf"(?=$| [.,;:!?]| (?:every|daily|full|now|\d)\b)", "office"),
    _p("workplace", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?(?:back )?(?:in )?(?:the )?"
                    rf"office(?= (?:now|rn|atm)\b)",
       "office"),  # "jules back in office 5 days a week now" (how often is read away)
    _p("workplace", rf"{_S}[.:,-] (?:in (?:the )?)?office(?=$| [.,;:!?]| (?:now|full|every)\b)",
       "office"),  # "pia . office tue+thu"
    # still learning a trade, or qualified in it
    _p("trainee", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is |'s )?(?:still )?(?:an? )?"
                  rf"(?:like )?(?:(?!was\b|former\b|ex\b)[\w-]+ ){{0,4}}?apprentice\b",
       "apprentice"),
    _p("trainee", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is )?(?:doing |in |on |started |starting )?"
                  rf"(?:an? |the |his |her |their )?(?:(?:{_ORDINAL} year (?:of )?|year \d of )"
                  rf"(?:an? |his |her |their )?)?(?:[\w-]+ )?apprenticeship\b",
       "apprentice"),  # "in her 1st year of a plumbing apprenticeship"
    _p("trainee", rf"{_s_if('qualified|finished|papers')}(?!'s )(?:\S+ ){{0,6}}?(?:(?<!not )(?<!un)"
                  rf"(?:fully )?qualified(?! for\b| to\b)|finished (?:his|her|their) "
                  rf"(?:apprenticeship|time)|got (?:his|her|their) papers)\b", "qualified"),
    # time away from work (parental or sick leave), and back from it
    _p("away", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is |'s |has been )?(?:still |currently )?(?:on )?"
               rf"(?:{_DET} )?{_LEAVE} leave\b", "leave"),  # "dani on mat leave til jan"
    _p("away", rf"{_S}(?:[.:,-] )?{_ADVERBS}(?:is |'s |has )?(?:been )?(?:(?:went|gone|got|came"
               rf"|going) )?back (?:at|to|in) (?:work|the office)\b", "back"),
    _p("away", rf"{_S}{_ADVERBS}(?:has )?(?:returned|switched) to (?:full-time |part-time )?"
               rf"(?:work|(?:his|her|their) (?:\S+ ){{0,2}}?job)\b", "back"),  # "went back to work"
    _p("away", rf"{_s_if(' leave')}(?:\S+ ){{0,6}}?(?:{_LEAVE} )?leave (?:is |'s )?(?:over|done)\b"
               rf"|{_s_if(' short')}(?:\S+ ){{0,6}}?cut (?:\S+ ){{0,2}}?leave short\b", "back"),
    # the hours they work: "works part-time at the nursery" / "is now working full-time"
    _p("hours", rf"{_s_if('time')}(?!'s )(?:\S+ ){{0,10}}?(?:works?|working|is|went|gone|going|has"
                rf"|got|started|found|took|landed) (?:(?:now|a|an) )?(?P<value>part|full)"
                rf"(?:-| - | )time\b"
                rf"(?! (?:student|mum|mom|dad|parent|carer|course|degree|studies|stay)\b)"),
    _p("diet", rf"{_S}{diet_kept('value', taken_up=True)}"),
    # a rating: "1500 rapid on chess com", "plays on 400 dpi"
    _p("rating", rf"{_s_if(_RATINGS)}(?:\S+ ){{0,8}}?(?P<value>\d{{2,5}}) (?P<thing>{_RATINGS})\b"),
    # how they get to work or school
    _p("commute", rf"{_s_if(_TO_WORK)}(?:\S+ ){{0,3}}?(?:commutes|gets|goes|travels|heads|comes)"
                  rf"(?: \S+){{0,2}}? (?:to|into) {_TO_WORK}(?: \S+){{0,3}}? (?:by|on|via) "
                  rf"(?:(?:the|a|his|her|their) )?(?P<value>{_MODES})\b"),
    _p("commute", rf"{_s_if(_TO_WORK)}(?:\S+ ){{0,3}}?(?:(?:\S+ ){{1,5}}?(?:and|so)"
                  rf"(?: he| she| they)? )?(?P<value>cycles|bikes|walks|drives|runs|trains|bus+es"
                  rf"|scoots"
                  rf"|(?<=started )(?:cycling|biking|walking|driving)"
                  rf"|rides (?:his |her |their |a )?(?:bike|scooter|motorbike)) (?:\S+ ){{0,2}}?"
                  rf"(?:to|into) {_TO_WORK}"),
    _p("commute", rf"{_s_if(_TO_WORK + '| in$')}(?!'s )(?:\S+ ){{0,3}}?"
                  rf"(?:(?:\S+ ){{1,3}}?(?:and|so)(?: he| she| they)? )?"
                  rf"(?:takes|gets|catches|rides) (?:the |a )?"
                  rf"(?P<value>{_MODES}) "  # "sold her car and takes the", "so he gets the bus in"
                  rf"(?:(?:\S+ ){{0,2}}?(?:to|into) {_TO_WORK}|in$)"),
    _p("commute", rf"{_s_if('commut')}(?:\S+ ){{0,3}}?commutes (?:\S+ ){{0,2}}?(?:by|on|via) "
                  rf"(?:(?:the|a|his|her|their) )?(?P<value>{_MODES}|rail)\b"),
    _p("commute", rf"{_s_if('commute')}(?:\S+ ){{0,3}}?commute (?:[:=-] |is (?:by |on )?)"
                  rf"(?:(?:the|a) )?(?P<value>{_MODES}|rail|cycles|bikes|walks|drives)\b"),
    _p("commute", rf"{_S}(?:[.:,-] )?(?:(?:the|a) )?(?P<value>{_MODES}) (?:to|into) {_TO_WORK}"),
    # when they go to bed and get up: late or early ("in bed before midnight": early, not
    # "never in bed before")
    _p("bedtime", rf"{_s_if(_TO_BED)}(?!(?:\S+ ){{0,8}}?(?:not|never) )(?:\S+ ){{0,8}}?"
                  rf"{_TO_BED} (?:\S+ ){{0,2}}?before (?:midnight|12{_AM})", "early"),
    _p("bedtime", rf"{_s_if(_TO_BED)}(?:\S+ ){{0,8}}?{_TO_BED} (?:\S+ ){{0,2}}?{_AT}"
                  rf"(?: like| about| around| at)? {_SMALL_HOURS}", "late"),
    _p("bedtime", rf"{_s_if(' up | online | on discord ')}(?:\S+ ){{0,8}}?(?:(?:(?:stays|stay"
                  rf"|staying|is) )?up|online|on discord)"
                  rf" (?:\S+ ){{0,2}}?(?:until|till|til|past) {_UP_UNTIL}", "late"),
    _p("bedtime", rf"{_s_if(_TO_BED)}(?:\S+ ){{0,8}}?(?<!never )(?<!not ){_TO_BED} (?:\S+ ){{0,2}}?"
                  rf"{_AT}(?: like| about| around)? {_EVENING}", "early"),
    _p("bedtime", rf"{_s_if(_TO_BED)}(?!(?:\S+ ){{0,8}}?(?:not|never) )(?:\S+ ){{0,8}}?"
                  rf"{_TO_BED} (?:really |very |super |pretty |quite )?(?P<value>early|late)\b"),
    _p("bedtime", rf"{_s_if('likes night')}(?:\S+ ){{0,8}}?(?<!not )likes night\b", "late"),
    _p("bedtime", rf"{_S}(?:[.:,-] )?(?:\S+ ){{0,2}}?{_AT_HOUR} [1-5] ?am\b", "late"),
    _p("bedtime", rf"{_S}(?:[.:,-] )?(?:\S+ ){{0,2}}?{_AT_HOUR} (?:8|9|10|11) ?pm\b", "early"),
    # how long they sleep: "sleeps 9 hours", "running on 4 hours sleep", "8 hours now"
    _p("sleep", rf"{_S}(?:[.:,-] )?(?:(?:only|still|now|usually) )?(?:sleeps|(?:is )?"
                rf"(?:gets|getting|running on|runs on|surviving on|survives on|lives on|living on)"
                rf"(?= (?:\S+ )?\d{{1,2}} hours? (?:of )?sleep\b)) (?:only |just |barely |like "
                rf"|about |around )?(?P<value>\d{{1,2}}) hours?\b"),
    _p("sleep", rf"{_s_if(' sleep ')}(?:\S+ ){{0,4}}?sleep (?:\S+ ){{0,3}}?, (?:(?:only|now) )?"
                rf"(?P<value>\d{{1,2}}) hours?\b"),  # "fixed his sleep sched , 8 hours now"
    _p("waketime", rf"{_s_if(_GETS_UP)}(?:\S+ ){{0,8}}?{_GETS_UP} (?:\S+ ){{0,2}}?{_AT}"
                   rf"(?: like| about| around)? {_EARLY_HOURS}", "early"),
    _p("waketime", rf"{_s_if(' sleep| lie| lies| stays')}(?:\S+ ){{0,8}}?(?:sleeps?|sleeping"
                   rf"|lies|lie|stays in bed)(?: in)? (?:until|till|til|past) {_LATE_HOURS}",
       "late"),
    _p("waketime", rf"{_s_if(_GETS_UP)}(?:\S+ ){{0,8}}?{_GETS_UP} (?:\S+ ){{0,2}}?(?:at|around"
                   rf"|after|like|about)(?: like| about| around)? {_LATE_HOURS}", "late"),
    _p("waketime", rf"{_s_if('likes morning')}(?:\S+ ){{0,8}}?(?<!not )likes mornings?\b",
       "early"),
    _p("waketime", rf"{_s_if('not likes morning|hates morning')}(?:\S+ ){{0,8}}?(?:not likes"
                   rf"|hates) mornings?\b", "late"),
)  # fmt: skip
"""What fills each routine slot (``value`` group, or the pattern's fixed value)."""

DISTANCES = {"parkrun": "5k", "5 km": "5k", "10 km": "10k", "half": "half marathon"}
"""One name per distance of a personal best ("a parkrun" is 5 km)."""


def best_time(value: str) -> str:
    """One way to write a time: "45 : 02" → "45:02", "3 hour and 20 minute" → "3:20", "52
    minutes" or a bare "52" → "52:00" (a lift's weight is written so on both sides too)."""
    hours = re.match(r"(\d+) (?:hours?|hrs?|h) (?:and )?(\d+)", value)
    if hours:
        return f"{int(hours.group(1))}:{int(hours.group(2)):02d}"
    minutes = re.match(r"(\d+) ?(?:minutes?|mins?)?$", value)
    if minutes:
        return f"{int(minutes.group(1))}:00"
    seconds = re.match(r"(\d+)(?: \. (\d+))? ?(?:seconds?|secs?)$", value)
    if seconds:  # a lap's "53 . 1 secs": "0:53.1"
        tenths = f".{seconds.group(2)}" if seconds.group(2) else ""
        return f"0:{int(seconds.group(1)):02d}{tenths}"
    return value.replace(" ", "")
