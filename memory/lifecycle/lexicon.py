"""The word lists behind :mod:`memory.lifecycle.relation`: small, hand-written, English.

Every list is a plain frozenset or dict so it reads as data. Words are lowercase; verbs and
plurals are compared as lemmas (see :func:`memory.lifecycle.reading.lemma`), so a list holds
one form of each.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    """The space-separated words of ``text`` (word lists read best as prose)."""
    return frozenset(text.split())


def _names(text: str) -> frozenset[str]:
    """The comma-separated names of ``text`` (names of more than one word)."""
    return frozenset(name.strip() for name in text.split(","))


STOPWORDS = _words(
    "a an the and or but of to in on at for with from by about as into onto than then "
    "is are was were be been being am has have had having do does did doing will would "
    "can could should shall might must may that this these those it its their theirs his "
    "her hers him them they he she i my me we our us you your yours 's there here what "
    "which who whom when where why how so very too also just still now always already "
    "again anymore any some all up out one own same such only even ever back more over rather "
    "during yet someday eventually"
)
"""Words that carry no content of their own in a short fact."""

INTERJECTIONS = _words(
    "lol lmao lmfao rofl haha hahaha omg tbh ngl fr af btw smh ong deadass istg bruh tbf imo "
    "imho idk ayy ayyy yay woo woohoo yass xd ofc"
)
"""Laughs and asides chat ends a fact with ("turned 18 ayy"): not its value."""
FILLERS = INTERJECTIONS | _words(
    "rn tho though ok okay yeah yes actually literally basically honestly lowkey highkey "
    "totally absolutely super kinda sorta pretty quite really truly definitely officially "
    "currently recently finally originally apparently probably mostly generally usually often "
    "sometimes daily weekly nightly these days big huge irl prolly obv legit lowk asf fully "
    "completely entirely sm atm alot um umm uh uhh er erm lately"
)
"""Chat fillers, intensifiers and hedges, the interjections too: dropped before two facts are
compared."""

NAMING_WORDS = _words("named called name")
"""How a name is given ("a cat named Sushi", "her cat is called Sushi"): no content of its
own once the name is there (the pre-check still reads them as slot cues)."""

GENERIC_WORDS = _words(
    "music food stuff thing things person people activity activities life disease disorder"
)
"""Head nouns that add nothing to the word before them ("jazz music", "spicy stuff"): left
out when two facts are compared for a merge."""

LIGHT_VERBS = frozenset(
    {"be", "have", "do", "go", "get", "mention", "say", "tell", "explain", "reveal", "confirm"}
)
"""Lemmas too common to tell two facts apart ("went to Paris" / "visited Paris"), and verbs
of saying ("Nadia mentioned that Pepper is her cat" says that Pepper is Nadia's cat)."""

NEGATORS = frozenset({"not", "never", "no", "zero", "nor", "neither", "nobody", "nothing",
                      "nvr", "nevr", "neva", "avoid", "avoids", "avoided", "avoiding", "abstain",
                      "abstains", "abstained", "abstaining"})  # fmt: skip
"""Words that deny what their clause says (chat spellings of "never" included; "avoids
pork" denies eating it as "never eats pork" does)."""

NEGATIVE_VERBS = dict.fromkeys(("hate", "dislike", "detest", "loathe", "dread"), "like")
"""Verbs that say "not like": each counts as one negation and reads as ``like``."""

WISHES = frozenset({"want", "wants", "wanted", "wish", "wishes", "hope", "hopes", "hoping",
                    "plan", "plans", "planning", "dream", "dreams", "someday"})  # fmt: skip
"""Words of a wish or a plan ("wants to move", "hopes to be a nurse"): no state, no event."""

STOPPING_VERBS = frozenset({"quit", "stop", "cease"})
"""A habit ended ("quit smoking", "stopped going swimming"): one negation, then dropped."""

SYNONYMS = {
    # likes
    "love": "like", "adore": "like", "enjoy": "like", "prefer": "like",
    # going places, learning
    "visit": "go", "attend": "go", "learn": "study",
    # people and things
    "child": "kid", "children": "kid", "kiddo": "kid", "grandchild": "grandkid",
    "grandchildren": "grandkid", "mom": "mother", "mum": "mother",
    "dad": "father", "bf": "boyfriend", "gf": "girlfriend", "fav": "favorite", "writer": "author",
    "fave": "favorite", "favourite": "favorite", "colour": "color", "film": "movie",
    "uni": "university", "allergy": "allergic", "create": "make", "begin": "start",
    "purchase": "buy", "puppy": "dog", "pup": "dog", "doggo": "dog", "kitten": "cat",
    "kitty": "cat", "bunny": "rabbit", "dish": "food", "meal": "food", "cuisine": "food",
    "novel": "book", "tune": "song", "flick": "movie", "beverage": "drink", "own": "have",
    "physician": "doctor", "attorney": "lawyer", "programmer": "developer",
    "coder": "developer", "university": "university", "varsity": "university",
    "teetotal": "drink", "teetotaler": "drink", "sober": "drink", "spouse": "wife",
    "husband": "wife", "employee": "work", "employed": "work", "divorce": "married",
    "marry": "married", "engagement": "engaged", "eater": "eat", "student": "study",
    # who does it: "is a hockey player" / "plays hockey"
    "player": "play", "runner": "run", "reader": "read", "swimmer": "swim", "climber": "climb",
    "hiker": "hike", "surfer": "surf", "cyclist": "cycle", "knitter": "knit", "dancer": "dance",
    "drinker": "drink", "speaker": "speak", "supporter": "like", "collector": "collect",
    "support": "like", "bike": "cycle", "insurance": "insure",
    # chat abbreviations
    "mod": "moderator", "moderate": "moderator", "admin": "administrator",
    "administer": "administrator", "bro": "brother",
    "sis": "sister", "lil": "little", "bday": "birthday", "val": "valorant", "pic": "photo",
    "vid": "video", "doc": "doctor", "psych": "psychology", "bio": "biology", "chem": "chemistry",
    "econ": "economics", "math": "maths", "alcohol": "drink", "booze": "drink",
    "stan": "like", "fluent": "speak", "fluently": "speak", "asthmatic": "asthma",
    "diabetic": "diabetes", "epileptic": "epilepsy", "natively": "native", "eldest": "oldest",
    "remotely": "remote", "grind": "play", "pupper": "dog", "cig": "smoke", "ketogenic": "keto",
    "cigarette": "smoke", "ciggie": "smoke", "ciggy": "smoke", "fag": "smoke", "graft": "work",
    "retirement": "retire", "flog": "sell", "coriander": "cilantro", "sax": "saxophone",
    "childs": "kid", "insomniac": "insomnia", "flunk": "fail", "synth": "synthesizer",
    "produce": "make", "tab": "tablet", "footie": "football", "footy": "football", "lb": "pound",
    "skint": "break", "kilo": "kg", "kilogram": "kg", "kilometre": "km", "kilometer": "km",
    "pescetarian": "pescatarian", "retiree": "retire", "pensioner": "retire", "relocate": "move",
    "resit": "retake", "farsi": "persian", "grad": "graduate",
}  # fmt: skip
"""Whole-word synonyms mapped to one canonical word (after lemmas: "skint" is "break")."""

CONTRACTIONS = {
    "can't": "can not", "cannot": "can not", "won't": "will not", "ain't": "is not",
    "doesnt": "does not", "dont": "do not", "didnt": "did not", "isnt": "is not",
    "wasnt": "was not", "arent": "are not", "werent": "were not", "cant": "can not",
    "wont": "will not", "hasnt": "has not", "havent": "have not", "hadnt": "had not",
    "couldnt": "could not", "wouldnt": "would not", "shouldnt": "should not",
    "aint": "is not", "dosen't": "does not", "dosn't": "does not", "dosent": "does not",
    "dosnt": "does not", "no longer": "not", "no more": "not", "any more": "anymore",
    "w/": "with", "@": "at",
}  # fmt: skip
"""Rewritten before tokenising (``n't`` in general is handled by a pattern)."""

IS_AFTER_S = _words(
    "a an the not so very really just still now always never from in into on at off over "
    "back originally currently also allergic vegan vegetarian single married engaged "
    "divorced separated dating seeing based living moving going working studying learning "
    "obsessed into fully totally completely definitely literally basically actually officially "
    "finally pretty super pregnant unemployed pescatarian out freelance self-employed self"
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
    "caregiver dev solicitor coder medic cop physio tester animator streamer trader "
    "optician surveyor sailor stylist tattooist dispatcher paralegal swe sde sre barback "
    "childminder bricklayer plasterer roofer scaffolder joiner boilermaker tiler glazier labourer "
    "laborer stonemason postie postwoman brickie sparky sparkie fireman firewoman headteacher "
    "headmaster headmistress principal supervisor caretaker adviser advisor hygienist seafarer "
    "seaman examiner paraprofessional"
)
"""Heads of an occupation: "is a nurse" names a job, "is a cat person" does not."""

FAVOURITES = frozenset({"favorite", "favourite", "fav", "fave"})
"""A favourite as written ("fave"): the words ``SYNONYMS`` reads as "favorite"."""
PETS = {
    "dog": "dog", "puppy": "dog", "pup": "dog", "cat": "cat", "kitten": "cat",
    "guinea pig": "guinea pig", "hamster": "hamster", "rabbit": "rabbit", "bunny": "rabbit",
    "parrot": "parrot", "bird": "bird", "fish": "fish", "horse": "horse", "pony": "horse",
    "snake": "snake", "lizard": "lizard", "gecko": "gecko", "turtle": "turtle",
    "tortoise": "tortoise", "ferret": "ferret", "rat": "rat", "mouse": "mouse",
    "goldfish": "fish", "parakeet": "bird", "budgie": "bird", "cockatiel": "bird",
    "gerbil": "gerbil", "chinchilla": "chinchilla", "hedgehog": "hedgehog", "axolotl": "axolotl",
    "bearded dragon": "lizard", "beardie": "lizard",
    # breeds, as the animal
    "greyhound": "dog", "labrador": "dog", "retriever": "dog", "poodle": "dog", "beagle": "dog",
    "husky": "dog", "corgi": "dog", "pug": "dog", "dachshund": "dog", "chihuahua": "dog",
    "terrier": "dog", "spaniel": "dog", "collie": "dog", "bulldog": "dog", "whippet": "dog",
    "rottweiler": "dog", "schnauzer": "dog", "pomeranian": "dog", "tabby": "cat",
    "ragdoll": "cat", "siamese": "cat",
}  # fmt: skip
"""Kinds of pet, each mapped to the key its name is filed under."""

LANGUAGES = _words(
    "english spanish french german italian portuguese japanese chinese mandarin cantonese "
    "korean arabic russian hindi dutch swedish norwegian danish polish greek turkish "
    "hebrew latin welsh irish vietnamese thai indonesian malay tagalog filipino samoan tongan "
    "maori hawaiian swahili yoruba igbo hausa twi amharic somali zulu xhosa afrikaans persian "
    "farsi urdu bengali punjabi tamil telugu gujarati marathi nepali ukrainian czech slovak "
    "hungarian romanian bulgarian serbian croatian finnish estonian latvian lithuanian "
    "icelandic catalan basque galician nahuatl quechua kurdish armenian georgian"
)
"""Studying a language is a pastime beside a degree, not the degree."""

IE_NOUNS = _words(
    "movie cookie calorie zombie selfie hoodie smoothie brownie rookie pie tie lie genie indie"
    " foodie techie bookie veggie newbie sweetie prairie goalie aussie beanie birdie budgie"
    " collie roomie bestie boogie groupie junkie hippie pixie cutie auntie onesie freebie"
    " walkie talkie hottie lingerie eerie necktie magpie kiddie"
)
"""Nouns whose singular ends in -ie ("movies" → "movie", not "movy")."""
SAME_IN_PLURAL = _words(
    "series species physics economics politics mathematics linguistics statistics electronics "
    "genetics robotics ethics athletics gymnastics aerobics graphics windows"
)

MEATS = _words(
    "meat fish chicken beef pork bacon steak burger ham lamb turkey sausage seafood salmon "
    "tuna shrimp prawn"
)
ANIMAL_PRODUCTS = _words("cheese egg dairy milk butter honey yogurt yoghurt")
ALCOHOL = _words(
    "alcohol booze beer wine whiskey whisky vodka gin rum tequila sake soju cider cocktail "
    "lager ale prosecco champagne pint"
)
SOFT_DRINKS = _words("coffee tea water juice milk soda coke pop lemonade smoothie matcha")
"""What "drinks" may name that is no alcohol: "doesn't drink" (is sober) / "drinks tea"."""
KINDS = {
    "meat": (MEATS - _words("meat fish seafood salmon tuna shrimp prawn"))
    | _words("kebab pepperoni salami kofta veal venison duck meatball"),  # fish is no meat here
    "instrument": _words(
        "piano guitar violin drum flute cello sax saxophone trumpet bass ukulele clarinet harp "
        "accordion trombone viola banjo harmonica oboe tuba synth"
    ),
    "sport": _words(
        "football soccer basketball volleyball tennis cricket rugby baseball hockey badminton "
        "golf boxing handball netball padel squash judo karate jiu-jitsu bjj mma wrestling "
        "fencing rowing softball lacrosse"
    ),
    "caffeine": _words("coffee espresso latte cappuccino americano redbull cola matcha"),
    "coffee": _words("espresso latte cappuccino americano macchiato mocha cortado"),
    "gluten": _words("bread pasta pizza noodle bagel croissant wheat toast sandwich"),
    "dairy": _words("milk cheese butter yogurt yoghurt cream"),
    "console": _words("ps5 ps4 playstation xbox switch"),
    "car": _words(
        "toyota honda ford vauxhall fiat volkswagen vw bmw audi mercedes tesla kia hyundai "
        "nissan peugeot renault skoda mazda subaru volvo jeep citroen dacia lexus porsche suzuki "
        "chevy chevrolet corolla prius yaris astra corsa qashqai octavia"
    ),
    "game": _words(
        "fortnite minecraft valorant apex overwatch roblox genshin zelda mario pokemon cod "
        "warzone cs2 csgo dota fifa tetris osu halo destiny gta league lol rust terraria "
        "hearthstone smash tekken elden skyrim stardew hades celeste witcher cyberpunk palworld "
        "helldivers baldur starfield pubg warframe runescape osrs wow ffxiv tarkov dayz sims "
        "splatoon kirby metroid persona fallout doom undertale deltarune brawlhalla deadlock "
        "smite paladins r6 siege rocket"
    ),
    "sweet": _words("candy chocolate cake cookie dessert donut brownie"),
    "phone": _words("iphone pixel galaxy android samsung huawei xiaomi oneplus nokia motorola"),
    "os": _words("windows linux macos mac ubuntu fedora debian chromeos arch manjaro gentoo nixos"),
    "browser": _words("firefox chrome chromium safari edge brave opera vivaldi"),
    "editor": _words(
        "vscode vim neovim nvim emacs intellij pycharm webstorm jetbrains sublime zed helix xcode"
    ),
    "cloud": _words("aws gcp azure digitalocean linode hetzner vercel heroku netlify"),
    "programming": _words(
        "python java javascript typescript kotlin swift ruby php scala haskell elixir clojure "
        "golang perl lua dart julia fortran cobol"
    ),
    "framework": _words(
        "react vue svelte angular django flask rails laravel nextjs nuxt spring fastapi"
    ),
    "language": LANGUAGES,
    "subject": _words(
        "physics chemistry biology maths mathematics economics psychology philosophy "
        "architecture accounting linguistics sociology geography geology literature pharmacy "
        "dentistry journalism politics statistics anthropology astronomy neuroscience "
        "biochemistry engineering history law nursing finance marketing pharmacology "
        "physiotherapy zoology theology criminology midwifery genetics microbiology archaeology"
    ),
}
"""Kinds and some of their members ("plays the piano": an instrument): a kind denied whole
is denied of each ("does not play any instrument" / "plays the piano")."""
MEMBER_OF = {
    word: frozenset(kind for kind, members in KINDS.items() if word in members)
    for word in frozenset().union(*KINDS.values())
}
"""Each member word, and the kinds it belongs to ("piano": instrument)."""
KIND_OF_FOOD = frozenset({"meat", "caffeine", "coffee", "gluten", "dairy", "sweet"})
"""Kinds that are eaten or drunk: whatever verb tells it ("had a chicken burger")."""

_KETO = _words("bread pasta rice potato potatoes noodles sugar cake carb carbs")
_PESCATARIAN = MEATS - _words("fish seafood salmon tuna shrimp prawn")
_PORK = _words("pork bacon ham")
DIETS = {
    "vegetarian": MEATS,
    "vegan": MEATS | ANIMAL_PRODUCTS,
    "pescatarian": _PESCATARIAN, "pescetarian": _PESCATARIAN,
    "keto": _KETO, "ketogenic": _KETO,
    "carnivore": _words("vegetables salad fruit bread pasta rice"),
    "halal": _PORK | ALCOHOL,
    "kosher": _PORK | _words("shrimp prawn shellfish"),
}  # fmt: skip
"""Diets, and what a member who keeps one does not eat; a diet's other spellings share its
set ("pescetarian", "ketogenic"), and ``SYNONYMS`` names them as the diet ("veggie" is read
"vegetarian" before, with chat's spellings)."""

UNIVERSITIES = _words(
    "ucla nyu mit usc ucl lse kcl stanford harvard yale princeton berkeley columbia cornell "
    "oxford cambridge caltech duke imperial sorbonne eth uc"
)
"""Universities often named alone ("goes to nyu"): a school even without "university"."""

ZONE_ABBREVIATIONS = _words(
    "utc gmt bst cet cest eet eest wet est edt cst cdt mst mdt pst pdt ast akst hst ist jst kst "
    "aest aedt awst nzst nzdt wat sast brt pht sgt hkt wib ict msk gst trt"
)
"""Time zones by their abbreviation, as the time-zone slot reads them."""

NAME_CUES = ZONE_ABBREVIATIONS | _words(
    "tz pacific eastern central mountain atlantic alaska hawaii iron bronze silver gold plat "
    "platinum diamond ascendant immortal radiant emerald grandmaster challenger lefty righty"
)
"""Slot cues that are names (time zones, a game's ranks): never what a typo is repaired to
("easter" is no "eastern")."""
SLOT_CUES = (
    _words(
        "live move relocate base reside work job employ employed unemployed retire retired "
        "fire fired quit teach single marry married engaged engage divorce divorced separate "
        "separated widowed dating date relationship boyfriend girlfriend partner husband wife "
        "break split call named name age turn old study major degree student university college "
        "school favorite grow born come vegetarian vegan meat eat home residence hometown "
        "occupation profession rename transfer go-to see settle hire role position spouse "
        "flat apartment house birthday enrol enroll hometown lay laid sack sacked offer employee "
        "drop graduate dropout breakup resign sibling brother sister bro sis child kid son "
        "daughter baby pet drink hand language tongue native timezone rank speak switch swap "
        "upgrade migrate uninstall replace stop alone roommate flatmate housemate place office "
        "remote shift bed asleep sleep wake awake dawn childhood commute moderator administrator "
        "helper captain organiser organizer promote demote demodded uninstalled pescatarian "
        "fiance fiancee rota lates earlies earlys derank deranked diamond platinum plat emerald "
        "ascendant immortal radiant grandmaster challenger predator guardian nova carnivore keto "
        "gaff controller gamepad mnk kbm monitor course cuff bae boo booed couple visa ilr "
        "residency residence citizenship reroll rerolled realm provisional pass rent dad mum "
        "midfielder midfield defender striker goalkeeper keeper winger wing lock prop hooker "
        "flanker guard shortstop pitcher catcher setter libero edit support allegiance mortgage "
        "remortgage remortgaged tracker monogamous ldr exclusive casual relapse junior senior "
        "bump staff print physical digital kindle dub undergraduate undergrad postgrad msc "
        "bootcamp a1 a2 b1 b2 c1 c2 n1 n2 n3 n4 n5 jlpt goethe testdaf dele siele delf dalf hsk "
        "topik celi cils beginner elementary intermediate advanced"
    )
    | UNIVERSITIES
    | frozenset(PETS)
    | ALCOHOL
    | NAME_CUES
)
"""Lemmas that may introduce an attribute slot: two facts sharing no content word are
compared further only when both hold one of these (or an occupation, or a number). Also
the words a typo may be repaired to (:mod:`memory.lifecycle.spelling`), names aside."""

NEWER_WORDS = _words("frontend backend fullstack devops webtoon webtoons livestream")
"""Words newer than the dictionary, that a typo is never repaired from ("frontend" is no
"fronted")."""

CHANGE_CUES = _words("leave sell lose ditch delete cancel abandon trade scrap rehome die flog rip "
                     "nuke return remove pregnant baby birth")  # fmt: skip
"""Lemmas of a change that may end a fact with no word in common ("left h&m, at uniqlo
now", "pregnant" / "the baby arrived"): cues of the pre-check, as the slot cues are, but no
word a typo is repaired to ("leage" is no "leave")."""

JOB_ALIASES = {
    "physician": "doctor", "gp": "doctor", "medic": "doctor", "attorney": "lawyer",
    "solicitor": "lawyer", "software engineer": "developer", "software developer": "developer",
    "swe": "developer", "sde": "developer",
    "programmer": "developer", "coder": "developer", "dev": "developer",
    "web developer": "developer", "veterinarian": "vet", "cop": "police officer",
    "policeman": "police officer", "policewoman": "police officer", "prof": "professor",
    "physio": "physiotherapist", "shrink": "therapist", "instructor": "teacher",
    "ta": "teaching assistant", "sub": "substitute teacher", "supply teacher": "substitute teacher",
    "headmaster": "headteacher", "headmistress": "headteacher", "head teacher": "headteacher",
    "seaman": "seafarer", "legal assistant": "paralegal", "advisor": "adviser",
}  # fmt: skip
"""Synonyms and abbreviations of a job, mapped to one name (values of job)."""
STUDY_ALIASES = {
    "med": "medicine", "medical": "medicine", "compsci": "computer science",
    "comp sci": "computer science", "cs": "computer science", "poli sci": "political science",
    "polisci": "political science", "maths": "mathematics", "math": "mathematics",
    "psych": "psychology", "bio": "biology", "chem": "chemistry", "econ": "economics",
    "engineer": "engineering", "nurse": "nursing", "law school": "law",
}  # fmt: skip
"""Abbreviations of a subject, and the student's word for it ("a med student", "a nursing
student"), mapped to one name (values of studies)."""
