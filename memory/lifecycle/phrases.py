"""Wordings of a fact rewritten to one form before it is compared: what an extractor reports
("Ana mentioned that she ..." → "ana ..."), likings ("is a big fan of", "is into", "can't
stand"), habits ended ("gave up" → "stopped"), diets (gluten-free too), who plays an
instrument ("is a cellist"), a night owl, moderating a server, where someone is from by the
word for its people ("is brazilian"), and a few names of one place or game.

Each entry is (words one of which must be in the text, pattern, replacement): most facts
hold none of the words, so most patterns are never run. Texts arrive lowercased and
tokenised by :func:`memory.lifecycle.reading.normalise` ("can't" → "can not", "one" → "1").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.lifecycle.community_phrases import COMMUNITY_PHRASES
from memory.lifecycle.event_phrases import EVENT_PHRASES
from memory.lifecycle.fan_phrases import FAN_PHRASES
from memory.lifecycle.health_phrases import HEALTH_PHRASES
from memory.lifecycle.learning_phrases import LEARNING_PHRASES
from memory.lifecycle.lexicon import LANGUAGES
from memory.lifecycle.measure_phrases import MEASURE_PHRASES
from memory.lifecycle.phrase_parts import (
    BAD,
    DEMONYM,
    FRAME,
    GLUTEN_FREE,
    GOOD,
    MEDICINES,
    NO_THING,
    PLAYER,
    PLAYERS,
    SAYING,
    TOOL,
    TOOLS,
    YEARS,
    has_children,
    has_younger,
    is_from,
    plays,
    school_year,
)
from memory.lifecycle.places import DEMONYMS
from memory.lifecycle.word_phrases import WORD_PHRASES
from memory.lifecycle.work_phrases import LIVING_PHRASES, WORK_PHRASES
from memory.lifecycle.zones import CLOCK_OF_PLACE, ZONE_NAME, clock_of_place, zone

_LINGUAL = {"bi": 2, "tri": 3, "quadri": 4}
_COUPLE_OVER = (
    r"(?:and|n|&) ([\w-]+)(?: \?)? (?:are |r )?(?:done|over|finished)"
    r"(?=$| [.,;:!?]| (?:now|lol|fr|for good|tbh|ngl)\b)"
)
"""A couple said to be over: "(him) and jay ? over", "(kim) and ross are done" (not "over
the moon", "done with the shop")."""
_SYSTEMS = r"(?:arch|fedora|ubuntu|debian|mint|manjaro|gentoo|nixos|windows|linux|macos|mac)\b"
_ROUTINE_AHEAD = r"(?![\w' ]* (?:(?:at|on|for) (?:the )?weekends?|every|each|most)\b)"
"""After "went back to" (a switch back: "went back to windows", "tank . back on windows"),
what makes it a routine, no switch: "goes back to his mum's at weekends"."""
_KEEN = r"(?:big |huge |proper |real |total |true )?"
"""How keen a "person" or "lover" of a thing may be said to be: "a proper night owl"."""
_FANS = ("person", "lover", "enjoyer", "girlie", "addict", "nerd", "fiend", "junkie")
_FAN = rf"(?:{'|'.join(_FANS)})"
"""Who likes a thing, as chat names them: "a dog person", "a wine girlie", "a prem nerd"."""
PHRASES: list[tuple[tuple[str, ...], str, str | Callable[[re.Match[str]], str]]] = [
    (SAYING, FRAME + r"(?:she|he|they|i) 's ", r"\1 is "),  # "says she's sick of it"
    (SAYING, FRAME + r"(?:she|he|they|i) ", r"\1 "),  # what was said, as said of Ana
    (SAYING, FRAME + r"(?:her|his|their|my) ", r"\1 's "),
    (SAYING, FRAME + r"(?=1 of (?:her|his|their|my) )", r"\1 "),  # "one" is read as 1
    (("according",), r"^according to [^,]+ , ", ""),
    *FAN_PHRASES,
    (("never ",), r"\bnever (?:miss|skip)\w*(?: (?:a|an|1) (?:day|week|session|game))?\b", " "),
    (("no cap",), r"\bno cap\b", " "),  # slang for "no lie", no denial
    (("no ",), r"\bno (?:skips?|days? off|excuses?|rest days?|exceptions?|matter what)\b", " "),
    # how keen a habit is, no denial: "hits the gym daily no skips", "6x a week no days off"
    (("like",), r"(?<=\w )(?<!would )(?<!'d )(?<!feels )(?<!looks )(?<!seems )"
     r"like (?=(?:really|so|super|totally|literally|actually|very|kinda"
     r"|lowkey|honestly|basically)\b)", ""),  # "allergic to peanuts like really badly"
    (("coffee shop", "coffeeshop"), r"\bcoffee ?shop\b", "cafe"),
    (("widow",), r"\b(is )?(?:now )?(?:a )?widow(?:er)?\b", r"\1widowed"),  # "nigel . widower"
    (("passed away", "died", "lost"), r"^(\S+) (?:'s )?(?:(?:wife|husband|spouse) (?:passed away"
     r"|died)|lost (?:her|his|their) (?:wife|husband|spouse))\b", r"\1 is widowed"),
    (("user",), r"\b(?:is )?(?:an? )?(?!power |heavy |new |casual |daily |active )(\w+) user\b",
     r"uses \1"),
    (("unpaid",), r"\bdoes unpaid work\b", "volunteers"),
    (("free",), r"\b(dairy|sugar|nut|alcohol|caffeine|lactose|egg|soy|debt|mortgage)[- ]free\b",
     r"no \1"),
    (("fan of",), r"\b(?:is |(?=not ))(not )?(?:a )?(?:big |huge |massive |great )?fan of\b",
     r"\1likes"),
    (("fan", "stan"),
     r"\bis (not )?(?:a |an )?(?:(?:big|huge|massive|great|die-hard|diehard|passionate|avid"
     r"|lifelong|loyal|devoted|hardcore|true|proper|total|full|certified|complete) )?"
     r"(?!big |huge |massive |great )((?:[\w-]+ )?[\w-]+) (?:fan|stan)\b", r"\1likes \2"),
    (("fan",), r"^(\S+) (?:[.:,-] )?(?:a )?(?:big |huge |massive )?((?:[\w-]+ ){0,2}[\w-]+) fan"
     r"(?=$| [.,;:!?])", r"\1 likes \2"),  # "musa . chelsea fan", "sol . hollow knight fan"
    (("nope", "gross", "disgusting", "yuck"), r"^(\S+) (?:[.:,-] )?([\w ]+?) (?:nope|gross"
     r"|disgusting|yuck)(?=$| [.,;:!?])", r"\1 hates \2"),  # "kat - snow = nope"
    (BAD, rf"^(\S+) (?:[.:,-] )?(?:(?:says|thinks|finds|feels|reckons|said|thought|found"
     rf"|considers) (?:that )?)?(?!{NO_THING})([\w' -]+?) (?:(?:is|are|was|=|tastes like"
     rf"|taste like) )?(?:(?:now|so|just|kinda|pure|straight|absolute|total|lowkey|literally"
     rf"|honestly|really|too|the|a) )*(?:{'|'.join(BAD)})\b[^.,;:!?]*?(?=$| [.,;:!?])",
     r"\1 hates \2"),
    # "says hyperpop is cringe now", "finds spin classes boring", "cilantro = soap"
    (GOOD, rf"^(\S+) (?:[.:,-] )?(?:\w+ , )?(?:(?:says|thinks|reckons) (?:that )?)?"
     rf"((?:(?!{NO_THING}|says|thinks|reckons)[\w'-]+ ?){{1,4}}?) (?:is|are|=) "
     rf"(?:(?:now|so|lowkey|actually|kinda|literally|honestly) )*"
     rf"(?:{'|'.join(GOOD)})(?=$| [.,;:!?]| now\b)", r"\1 likes \2"),  # "x is goated now"
    (("hobb", "pastime", "passion"), r"(?:\b1 of )?(?:'s|\b(?:his|her|their|my)) (?:favorite )?"
     r"(?:hobbies|hobby|pastimes|pastime|passions|passion) (?:is|are|include|includes)\b",
     "likes"),
    (("free time", "spare time"), r"\b(?:in|during) (?:his|her|their|my) (?:free|spare) time\b",
     " "),
    *LIVING_PHRASES,
    (("hooked", "addicted", "enough of", "in love with", "stop"), r"\b(?:is |has become |became "
     r"|got )?(?:hooked on|addicted to|can not get enough of|(?:has )?(?:fallen|fell) in love with"
     r"|can not stop (?:playing|watching|listening to|reading))\b", "likes"),
    (("sick of", "tired of", "fed up", "out on", "out of love"),
     r"\b(?:is |(?:has )?(?:grown|become|gotten|fallen) |grew |became |got |fell )?(?:sick of|tired"
     r" of|fed up with|(?:totally |completely |so )?(?:burnt|burned) out on|out of love with)\b",
     "not likes"),
    (("interest",), r"\b(?:has |have )?(?:like )?(?:(?:zero|no|0) interest (?:in|for)|lost (?:all "
     r"|any |(?:his|her|their) )?interest in)\b", "not likes"),  # "has lost all interest in"
    (("into",), r"(?:\bis |(?=not )|^(\S+) (?:[.:,-] )?)(not )?(?:(?:really|so|super|very|lowkey"
     r"|kinda|actually|highkey|well) )*into\b(?! (?:a |an |the |his |her |their )?(?:uni|college"
     r"|school|university)\b)", r"\1 \2likes"),  # "luz . actually into swimming now"
    (("obsessed", "passionate", "keen", "crazy", "mad about", "fond"),
     r"(?:\bis |\b(?:has )?(?:become|became|gotten|got) |^(\S+ ))(not )?"
     r"(?:(?:really|so|super|very|lowkey|kinda) )*(?:obsessed"
     r" (?:with|w)|passionate about|keen on|crazy about|mad about|fond of)\b", r"\1\2likes"),
    (("come around", "come round", "came around", "came round"),
     r"\b(?:has |have )?(?:come|came) a?round to\b", "likes"),  # "has come around to cilantro"
    (("stand", "handle", "stomach", "deal"),
     r"\bcan not (?:stand|handle|stomach|deal (?:with|w))\b", "hates"),
    (("away from", "clear of"), r"\b(?:stay|keep|kept|steer)(?:s|ed|ing)?(?: (?:her|him|them)"
     r"(?:self|selves)?)? (?:away from|clear of)\b", "avoids"),  # "steers clear of curry"
    ((" mid", "overrated", " trash"), r"^(\S+) (?:thinks|says|finds|reckons) (?:that )?"
     r"((?:\S+ ){1,4}?)(?:is|are) (?:so |kinda |lowkey |totally )?(?:mid|overrated|trash)"
     r"(?=$| [.,;:!?]| (?:tbh|fr|ngl|lol)\b)", r"\1 dislikes \2"),  # "thinks k-pop is mid"
    ((" up",), r"\b(?:gave|give|gives|giving|has given) up(?: on)?\b", "stopped"),
    *EVENT_PHRASES,
    *LEARNING_PHRASES,
    *MEASURE_PHRASES,
    *HEALTH_PHRASES,
    *WORD_PHRASES,
    (("hung up", "hang up", "hangs up"), r"\b(?:has )?(?:hung|hangs|hang) up (?:his|her|their|the) "
     r"(?!(?:phone|call|washing|laundry|coat|jacket|clothes|picture)\b)", "quit "),  # his boots
    (("habit",), r"\b(?:kicked|kicks|has kicked|broke|has broken) (?:the |his |her |their |a )?"
     r"([\w ]{1,20}?) (?:habit|addiction)\b", r"stopped \1"),  # "kicked the red bull habit"
    (("sidelined",), r"\b(?:has (?:him|her|them) |is |(?:has )?been )?sidelined from\b", "not"),
    (("through and through", "with a passion"), r"\b(?:through and through|with a passion)\b", " "),
    (("layoff",), r"\b(?:got cut|lost (?:his|her|their) job) in (?:the |a )?layoffs?\b",
     "got laid off"),
    (("girls", "boys"), r"\bhas (\d+) (?:little |young )?(girls|boys)\b", has_children),
    (("quits",), r"\b(?:called|call|calls|calling) it quits\b", "broke up"),
    (("relationship",), r"\bended (?:their|the|his|her) relationship\b", "broke up"),
    (("done", "over", "finished"), rf"\b(?:him|her|them|he|she|they) {_COUPLE_OVER}",
     r"and \1 broke up"),  # "him and jay ? over"
    (("done", "over", "finished"), rf"^(\S+) {_COUPLE_OVER}", r"\1 and \2 broke up"),
    (("wagon",), r"\b(?:fell|falls|has fallen) off the ([\w-]+) wagon\b", r"stopped \1"),
    (("era", "szn", "phase"), r"\b([\w-]+) (?:era|szn|phase) (?:is )?(?:over|done|ended)\b",
     r"stopped \1"),  # "bulk szn over", "steak era over"
    (("finish",), r"\bfinish(?:ed|es)? (?:the |her |his |their )?(?:\w+ ){0,3}?(?:study|studies"
     r"|degree|course|program|programme)\b(?: of \w+)?", "graduated"),
    (("retrain",), r"\bretrained (?:and (?:is )?now (?:works as )?|as |to be |to become )(?:an? )?",
     "is now a "),  # "retrained as an electrician", "retrained and now works as a ..."
    (("considers", "names"), r"^(\S+) (?:considers|names) (.+?) (?:as )?(?:his|her|their) "
     r"(favou?rite|fave?) (\w+)\b", r"\1 's \3 \4 is \2"),  # "names radio 2 as her favourite"
    (("moved on from", "moving on from"), r"\b(?:has )?(?:moved|moving) on from\b", "stopped"),
    (("off",), r"\b(?:moved|came|switched) off (\S+(?: \S+)?) (?:to|for|onto)\b",
     r"switched from \1 to"),  # "moved off garageband to reaper"
    (("handed in", "hands in"), r"\b(?:handed|hands|has handed) in (?:his|her|their|my) "
     r"(?:notice|resignation)(?: at)?\b", "quit"),
    (("put",), r"\b(?:has )?put (?:the |his |her |their )?([\w ]{1,30}?) down (?:completely|for"
     r" good)\b", r"stopped \1"),  # "has put apex legends down completely"
    (("cut",), r"\b(?:has )?cut (\w+) out\b", r"stopped \1"),  # "cut sugar out of her tea"
    (("over",), r"(?:\b(?:is|are|'s) (?:so |totally |completely |officially )?|^(\S+) "
     r"(?:[.:,-] )?(?:(?:lowkey|so|totally|completely|kinda|officially) )?)"
     r"over (?!the moon|there|here|it\b|that\b|\d)", r"\1 not likes "),
    (("done w",), r"\b(?:is )?done (?:with|w)\b", "stopped"),
    (("used to",), r"\bused to\b", "not"),
    (("on",), rf"^(\S+) (?:[.:,-] )?(?:is |'s |has been |been )?(?:still |now )?on "
     rf"(?:the |her |his |their )?({MEDICINES})\b", r"\1 takes \2"),  # "nell is on warfarin"
    (("diet",), r"\b(?:follows|eats|keeps|has|is on) (?:a |an )?(vegan|vegetarian|plant-based"
     r"|plant based) diet\b", r"is \1"),
    (("plant",), r"\bplant[- ]based\b", "vegan"),
    (("gluten",), GLUTEN_FREE, r"\1 does not eat gluten"),  # "is gluten-free"
    (("animal product", "animal stuff"),
     r"\b(?:(?:does not|do not|never) eats? (?:like )?(?:any )?|no )animal (?:products|stuff)\b",
     "is vegan"),
    (("washington",), r"\bwashington,? dc\b", "dc"),
    (("non smoker",), r"\bnon smoker\b", "non-smoker"),
    (("smoker",), r"\bis (not )?(?:a )?(non-)?smoker\b", r"\1\2smokes"),
    (("smoker",), r"^(\S+) (?:[.:,-] )?(?:a )?(?:heavy |chain )?smoker(?=$| [.,;:!?])",
     r"\1 smokes"),  # "igor . smoker"
    (("non-",), r"\bnon-", "not "),
    (("ex-",), r"(?<![\w-])ex-(?=smoker|vegan|vegetarian|drinker|gamer|player|fan)", "not "),
    (("alcohol", "booze"), r"\b(drinks?|drinking) (?:alcohol|booze)\b", r"\1"),
    (("teetotal", "sober", "straight edge", "straight-edge"),
     r"\b(?:is )?(?:teetotal|a teetotall?er|sober|straight[- ]edge)\b", "does not drink"),
    (("touch",), r"\b(?:never touches|does not touch|will not touch) (?:alcohol|booze|a drop|a "
     r"drink)\b", "does not drink"),  # "never touches alcohol"
    (("refuse",), r"\brefus(?:es|ed|e|ing) to\b", "does not"),  # "refuses to watch it now"
    (("notice",), r"\b(?:handed|hands|hand|handing|gave|given|put) (?:in )?(?:his|her|their|my) "
     r"notice(?: in)?(?: at)?\b", "quit"),  # "handed his notice in at the call centre"
    (("done being",), r"\b(?:is |'s )?done being\b", "stopped being"),
    (("arc", "era", "phase"), r"\b([\w-]+) (?:arc|era|phase) (?:is |'s )?(?:over|done|ended"
     r"|finished)\b", r"stopped \1"),  # "gym arc is over"
    (("never again",), r"\b([\w-]+) (?:= )?never again(?=$| [.,;:!?])", r"stopped \1"),
    (("from home",), r"\bworks? from home\b", "works remotely"),
    (("over it", "over them", "over that"), r"\b(?:is |'s |are |am )?(?:so |totally |completely )?"
     r"over (?:it|them|that)(?=$| [.,;:!?]| (?:now|lol|tbh|ngl|fr)\b)", "stopped it"),
    (("smoke-free", "smoke free"), r"\b(?:is|has been|stayed) (?:\w+ )?smoke[- ]free\b",
     "quit smoking"),
    (tuple(PLAYERS), PLAYER, plays),
    (("natively",), r"\bspeaks (\w+) natively\b", r"is a native \1 speaker"),  # the slot's
    *COMMUNITY_PHRASES,
    (("up late", "bed late", "up really late", "up very late", "bed very late",
      "bed really late", "up super late", "up so late"),
     r"\b(?:stays|stay|staying|stayed|is|goes to bed|go to bed|going to bed|gets to bed) "
     r"(?:up )?(?:(?:really|very|super|so) )?late\b", "is a night person"),
    (("up late", "up really late", "up very late", "up super late", "up so late"),
     r"^(\S+) (?:[.:,-] )?(?:always |usually )?up (?:(?:really|very|super|so) )?late\b",
     r"\1 is a night person"),  # "dev . always up super late"
    (("number 1", "# 1", "no . 1"), r"\b(?:number|#|no \.) 1 (?=\w)", "favorite "),
    (("clock",), r"\b(\d{1,2}) (?:o'clock|oclock|o clock)\b", r"\1"),  # "at 6 o'clock": at 6
    (("remarried",), r"\b(?:has )?remarried\b", "got married"),
    (("bad at", "terrible at", "awful at", "rubbish at", "useless at", "hopeless at", "crap at"),
     r"\b(?:is|'s) (?:(?:really|so|pretty|very|quite|super|kinda|just) )?(?:bad|terrible|awful"
     r"|rubbish|useless|hopeless|crap) at\b", "can not"),  # "is bad at cooking": can't cook
    (("main",), r"^(\S+) (?:[.:,-] )?([\w-]+) main(?=$| [.,;:!?]| now\b)", r"\1 mains \2"),
    (("main",), r"^(\S+) (?:[.:,-] )?(?:(?:went|switched to|is now|now) (?:a |an )?([\w-]+) main"
     r"|(?:main :|'s main (?:is|:)) ([\w-]+))\b",
     lambda m: f"{m.group(1)} mains {m.group(2) or m.group(3)}"),  # "kai's main is kazuha"
    (("main",), r"^(\S+) (?:is|'s) an? ([\w-]+) main\b", r"\1 mains \2"),  # "is a rein main"
    (("other",), r"\b(?:likes|loves|prefers|enjoys) ([\w ]+?) (?:more than|over|above) (?:any|all)"
     r" (?:the )?other (\w+?)s?\b", r"favorite \2 is \1"),
    (("early bird", "early riser"), r"\b(?:an )?early (?:bird|riser)\b", "a morning person"),
    (("night owl",), r"\bnight owl\b", "night person"),
    (("person not",), r"(?<=person) not (?=(?:a |an )?\w+ person\b)", " , not "),  # two clauses
    (_FANS, r"\b(?:is |(?=not ))(?:(?:really|just|totally|so|definitely) )?(not )?(?:a |an )?"
     rf"{_KEEN}((?:\w+ )?\w+) {_FAN}\b", r"\1likes \2"),
    (_FANS, rf"^(\S+) (?:[.:,-] )?(?:a )?{_KEEN}(\w+) {_FAN}"
     r"(?=$| [.,;:!?]| now\b)", r"\1 likes \2"),  # "ana - big dog person", "bo . a morning person"
    (tuple(PLAYERS), rf"^(\S+) (?:[.:,-] )?(?:a |an )?({'|'.join(PLAYERS)})(?=$| [.,;:!?])",
     lambda m: f"{m.group(1)} plays {PLAYERS[m.group(2)]}"),  # "tam . drummer"
    (("instrument",), r"^(\S+) 's (?:main |first )?instrument (?:is|=|:) (?:the |a |an )?",
     r"\1 plays "),  # "ezra's instrument is the sax"
    (tuple(f" {tool} " for tool in TOOLS),
     rf"^(\S+) (?:(?:'s )?{TOOL} (?:is|=|:) |[.:,-] {TOOL} (?:(?:is|=|:) )?)(?:now )?"
     r"(?:a |an |the )?", r"\1 uses "),  # "bo . daw = reaper", "'s editor is neovim"
    (("goat",), r"\bis (?:the |a )?goat (\w+)\b", r"is their favorite \1"),
    (("years", "months"), r"\b(?:from|since) (\d+|a few|few|many|several) (years|months)\b",
     r"for \1 \2"),  # "lives in krakow since 5 years"
    (("language",), rf"\bthe ({'|'.join(LANGUAGES)}) language\b", r"\1"),
    (("home with",), r"\bshares? (?:a |the |her |his |their )?(?:home|house|flat|place) with\b",
     "lives with"),
    (("home",), r"^(\S+) (?:(?:says|said) (?:that )?)?(\w+(?: \w+)?) (?:has been|is) "
     r"(?:his|her|their) home\b",
     r"\1 lives in \2"),  # "amsterdam has been her home for years"
    (("final year",), r"\b(?:is )?in (?:his |her |their |the )?final year (?:of|at|in) high "
     r"school\b", "in grade 12"),
    (("pair of",), r"\ba pair of\b", "2"),
    (("second", "2nd", "third", "3rd"), r"\b(got|gets|has|have|adopted|bought|welcomed|had) "
     r"(?:now |just )?a (second|2nd|third|3rd) (\w+?)s?\b",
     lambda m: f"{m.group(1)} {2 if m.group(2) in ('second', '2nd') else 3} {m.group(3)}s"),
    # "just got a second cat": two now
    (("has got",), r"\bhas got (?=a |an |\d)", "has "),  # "kenji's got 2 sisters"
    (("period",), r" period$", ""),  # "is vegan period"
    (("little",), r"\blittle (brothers?|sisters?|siblings?)\b", r"younger \1"),
    (("cs ",), r"\bcs (major|degree|student|grad|graduate)\b", r"computer science \1"),
    (("by profession", "by trade"), r"\bby (?:profession|trade)\b", " "),
    (("nyc", "york city"), r"\b(?:nyc|new york city)\b", "new york"),  # names of one place
    (("la",), r"\bla\b", "los angeles"),
    (("intellij idea",), r"\bintellij idea\b", "intellij"),
    (("call of duty",), r"\bcall of duty\b", "cod"),  # names of one game: the short one
    (("league of legends",), r"\bleague of legends\b", "league"),
    (("apex legends",), r"\bapex legends\b", "apex"),
    (("genshin impact",), r"\bgenshin impact\b", "genshin"),
    (("rainbow", "siege"), r"\b(?:rainbow (?:six|6) siege|rainbow (?:six|6)|siege)\b", "r6"),
    (("world of warcraft",), r"\bworld of warcraft\b", "wow"),
    (("final fantasy",), r"\bfinal fantasy (?:xiv|14)\b", "ffxiv"),
    (("grand theft auto",), r"\bgrand theft auto\b", "gta"),
    (("counter",), r"\bcounter[- ]strike\b", "counterstrike"),
    (("gym",), r"\b(?:hits|hit|hitting) the gym\b", "goes to the gym"),
    (("gym rat", "the gym"), r"\b(?:(?:is )?(?:a )?(?:total |huge |big )?gym rat"
     r"|(?:basically )?lives (?:at|in) the gym|is (?:always|basically always) at the gym)\b",
     "goes to the gym"),
    (("playstation",), r"\bplaystation ?([1-5])\b", r"ps\1"),
    # what a member uses, told by its model number or name: "rocks a 3070", "on arch"
    (("uses", "rocks", "runs", "running", "using", "rocking"),
     r"\b(?:uses|rocks|runs|is running|is using|is rocking) (?=(?:a |an |the )?(?:rtx |gtx |rx )?"
     r"\d(?!\d* ?(?:(?:km|k|miles?|mi|m|kilometres?|kilometers?|minutes?|mins?|hours?|hrs?"
     r"|times?|x|days?|percent)\b|%)))", "has "),
    (("rtx", "gtx"), r"\b(?:rtx|gtx) (?=\d)", ""),  # "runs an rtx 3070 in his rig"
    (("rig", "build", "setup"), r"\bin (?:his|her|their|my) (?:rig|build|setup)\b", " "),
    (("card", "gpu"), r"(?<=\d) (?:graphics card|graphcs card|gpu|card)\b", ""),
    (("linux",), r"\b(arch|fedora|ubuntu|debian|manjaro|gentoo|nixos) linux\b", r"\1"),
    (("runs", "is on", "running"), rf"\b(?:runs|is on|is running) (?={_SYSTEMS})", "uses "),
    ((" on ",), rf"^(\S+) (?:[.:,-] )?on (?={_SYSTEMS})", r"\1 uses "),  # "tank on linux btw"
    (("lol",), r"\b(plays?|playing|played) lol\b", r"\1 league"),  # the game, not a laugh
    (("main",), r"^(\S+) 's main in ([\w ]+?) is (?:a |an )?([\w ]+)$", r"\1 mains \3 in \2"),
    (("main",), r"\b(?:is|'s) (?:a|an) ([\w-]+) main\b", r"mains \1"),  # "a raiden main"
    (("main",), r"^(\S+) main (?!(?:camera|character|account|job|reason|thing|goal|game)\b)",
     r"\1 mains "),  # "taro main support in ow"
    (("most", "exclusive", "only plays", "onetrick", "one-trick"), r"\b(?:plays (\w+) (?:most of"
     r" the time|mostly|(?:pretty much |almost )?exclusively)|only plays (\w+)(?= [,.;:!?]|$)"
     r"|(?:one-?tricks|mostly plays) (\w+))\b",
     lambda m: f"mains {next(filter(None, m.groups()))}"),
    (("percent",), r"\b(\d+) percent\b", r"\1"),  # "60%" reads "60"
    (("streams",), r"^(\S+) 's streams (?:are|is) ", r"\1 streams "),
    (("gaming on", "games on"), r"^(\S+) (?:[.:,-] )?(?:is )?(?:games|gaming) on\b",
     r"\1 plays on"),
    (("gamer",), r"\b(?:is )?(?:a )?(pc|console|mobile|switch|xbox|playstation|ps5) gamer\b",
     r"plays on \1"),
    (("go live", "goes live", "went live", "going live"), r"\b(?:goes|go|going|went) live\b",
     "streams"),
    (("big time",), r"\bbig time\b", " "),
    (("back to", "back on"), rf"(?:\b(?:went|goes|going|gone|switched|is|has gone)|^(\S+)"
     rf"(?: [.:,-])?) back (?:to|on)\b{_ROUTINE_AHEAD}", r"\1 switched to"),
    (("meat", "fish", "dairy", "egg", "cheese", "carb", "sugar"), r"\bswitched to (meat|fish"
     r"|chicken|pork|beef|seafood|dairy|eggs?|cheese|carbs|sugar)\b", r"eats \1 again"),
    (("clock", "time"), CLOCK_OF_PLACE, clock_of_place),  # "the same clock as new york"
    (("time", "tz"), ZONE_NAME, zone),  # "pacific time" / "pst", "amsterdam time"
    (tuple(DEMONYMS), DEMONYM, is_from),
    (("meat free", "meat-free"), r"\b(?:(?:follows|eats|has|is on|keeps|goes) )?(?:a )?"
     r"meat[- ]free(?: diet)?\b", "does not eat meat"),
    (("expecting",), r"\bis expecting(?: (?:a|her|their|his)(?: first| second| third)?(?: baby"
     r"| child| kid)?)?\b", "is pregnant"),
    (("bilingual", "talk in"), r"\b(?:is )?bilingual in\b|\bcan (?:talk|speak) in\b", "speaks"),
    (("lingual",), r"\b(?:is )?(?:a )?(bi|tri|quadri)lingual\b(?! in)",
     lambda match: f"speaks {_LINGUAL[match.group(1)]} languages"),  # "trilingual"
    (("divorcee",), r"\b(is )?(?:a )?divorcee\b", r"\1divorced"),
    (("years",), r"^(\S+) (?:has|have) (\d{1,3}) years(?: old)?(?=$| [.,;:!?]| now\b)",
     r"\1 is \2"),  # an age told as a Romance language tells it: "has 31 years"
    (("years",), r"^(\S+) (?:just )?(?:make|makes|made|has made|did) (\d{1,3}) years\b",
     r"\1 turned \2"),
    (("big",), r"\b(?:hit|hits|turned|turns) the big (\d)-?(?:(\d)|oh?)\b",
     lambda m: f"turned {m.group(1)}{m.group(2) or 0}"),  # "the big 4-0", "the big 3-oh"
    (("fresh", "sophomore", "junior", "senior"),
     r"\b(?:is )?(?:a |an )?(freshman|freshmen|fresher|sophomore|junior|senior)(?: student)? "
     r"(?:at|in) (?:the |a )?(high school|uni|university|college)\b", school_year),
    (("high school",), r"\b(?:is )?(?:a )?high school (freshman|sophomore|junior|senior)\b",
     lambda m: f"in grade {YEARS[m.group(1)] + 8}"),
    (("first", "second", "third", "fourth", "fifth", "1st", "2nd", "3rd", "4th", "5th"),
     r"\b(?:is )?(?:in )?(?:(?:his|her|their|my|the|a) )?(first|second|third|fourth|fifth|1st|2nd"
     r"|3rd|4th|5th)[- ]year(?: student)?(?! of (?:work|working|marriage|dating|the)\b)"
     r"(?=$| (?:of|at|in|now|and|but|undergrad|undergraduate|medic|med)\b| [.,;:!?])",
     lambda m: f"in year {YEARS[m.group(1)]}"),
    (("grade",), r"\b(?:in )?(?:the )?(\d{1,2})(?:th|st|nd|rd) grade\b", r"in grade \1"),
    (("utc-", "gmt-"), r"\b(?:utc|gmt)-(\d{1,2})\b", r"utc minus \1"),  # "gmt+3" reads "gmt 3"
    (("plus",), r"\b(utc|gmt) plus (?=\d)", r"\1 "),  # "utc plus 3"
    (("ahead of", "behind"), r"\b(\d{1,2}) hours? ahead of (?:utc|gmt)\b", r"utc \1"),
    (("ahead of", "behind"), r"\b(\d{1,2}) hours? behind (?:utc|gmt)\b", r"utc minus \1"),
    (("software",), r"\bsoftware (?:engineer|developer|dev)\b", "developer"),
    *WORK_PHRASES,
    (("mum of", "mom of", "dad of", "mama of"), r"\b(?:is )?(?:a )?(cat|dog) (?:mum|mom|dad|mama)"
     r" of (\d+)\b", r"has \2 \1s"),  # "a cat mum of two"
    (("mom of", "mum of", "mother of", "dad of", "father of", "parent of", "mom to", "mum to",
      "mother to", "dad to", "father to", "parent to"),
     r"\b(?:is )?(?:a |the )?(?:mom|mum|mother|dad|father|parent) (?:of|to) (\d+)"
     r"(?: (kids|children|girls|daughters|boys|sons))?\b", has_children),
    (("brother of", "sister of", "sibling of", "brother to", "sister to", "sibling to"),
     r"\bis (?:the |a )?(?:older|big|elder|eldest) (?:brother|sister|sibling) (?:of|to) (\d+) "
     r"(girls|sisters|boys|brothers|kids|siblings)\b", has_younger),
    (("allerg", "alerg"),
     r"\bhas (?:a |an )?(?:(?:severe|bad|mild|serious) )?(?:(\w+) allergy|allergy to)\b",
     r"is allergic to \1"),
    (("allerg", "alerg"), r"\bcan not (?:eat|have|take) (\w+(?: \w+)?) (?:because of|bc of|bc"
     r"|cuz of|cos of|cos|due to|from) (?:an? |her |his |their )?allerg(?:y|ies)\b",
     r"is allergic to \1"),
    (("allerg", "alerg"), r"\bcan not (?:eat|have|take) (\w+(?: \w+)?) , (?:she|he|they) (?:is|are)"
     r" allergic\b", r"is allergic to \1"),  # "cant take penicillin, she is allergic"
    (("goated", "cracked"), r"\b(?:is )?(?:goated|cracked) (?:at|in)\b", "is good at"),
    (("life",), r"\b(?:(?:in|all) (?:my|his|her|their) (?:whole |entire )?|(?:my|his|her|their)"
     r" (?:whole|entire) )life\b", " "),
    (("and only",), r"^(\S+) is 1 and only\b", r"\1 's only"),  # "rania's one and only pet"
    (("and only",), r"\b1 and only\b", "only"),
    (("a lot", "moment", "all", "well", "now", "days"),
     r"\b(?:a lot|at the moment|at all|after all|as well|right now|these days|for now)\b", " "),
    (("like",), r"(?<=\w) like (?=\d+ |half\b|a (?:pack|bottle|few|couple|ton|lot)\b)"
     r"|(?:(?<=ve is)|(?<=te is)) like (?!a\b)", " "),  # a hedge: "drinks like 4 energy drinks
    # a day", "smokes like half a pack a day", "her fave is like helvellyn these days"
]  # fmt: skip
PHRASE_PATTERNS = [(keys, re.compile(pattern), new) for keys, pattern, new in PHRASES]
_KEYS = frozenset(key for keys, _, _ in PHRASES for key in keys)


def rewritten(text: str) -> str:
    """``text`` with each wording of ``PHRASES`` rewritten, in order; a pattern runs only
    when one of its words is in the text as it stands then."""
    present = {key for key in _KEYS if key in text}
    for keys, pattern, replacement in PHRASE_PATTERNS:
        if present.isdisjoint(keys):
            continue
        changed = pattern.sub(replacement, text)
        if changed != text:
            text = changed
            present = {key for key in _KEYS if key in text}
    return text
