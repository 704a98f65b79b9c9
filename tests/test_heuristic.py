"""The offline extractor against the design's contract, one Discord message at a time.

First-person self-disclosures and standing requests become third-person facts naming the
speaker (0.9 plain, 0.6 hedged); questions, hypotheticals, quotes, transient states,
gossip, code and sarcasm become nothing; negations stay negations.
"""

from __future__ import annotations

import pytest

from memory.extraction import MAX_FACTS_PER_MESSAGE, Mention, SourceMessage
from memory.fact_filter import check_fact
from memory.heuristic import HeuristicExtractor
from memory.models import CandidateFact

GUILD = "111111111111111111"
CHANNEL = "111111111111111112"
SARAH_ID = "300000000000000001"
EMMA = Mention("300000000000000003", "Emma")
MESSAGE_ID = "500000000000000001"
CREATED = "2026-10-12T18:03:11.123+00:00"
PLAIN = 0.9
HEDGED = 0.6
PREF, PROF, REL, PROJ, OTHER = "preference", "profile", "relationship", "project", "other"

Fact = tuple[str, str, float]


def source(
    text: str, mentions: tuple[Mention, ...] = (), message_id: str = MESSAGE_ID
) -> SourceMessage:
    return SourceMessage(message_id, GUILD, CHANNEL, SARAH_ID, "Sarah", text, CREATED, mentions)


def extract(text: str, mentions: tuple[Mention, ...] = ()) -> list[CandidateFact]:
    return HeuristicExtractor().extract_one(source(text, mentions))


def facts(text: str, mentions: tuple[Mention, ...] = ()) -> list[Fact]:
    """(fact, type, confidence) of each fact Sarah's message ``text`` yields."""
    return [(f.fact, f.fact_type, f.confidence) for f in extract(text, mentions)]


# Plain statements, one fact each: an id, Sarah's message, the fact and its type (0.9).
STATED: list[tuple[str, str, str, str]] = [
    # identity
    ("identity", "im autistic", "Sarah is autistic.", PROF),
    ("identity-lol", "im left-handed lol", "Sarah is left-handed.", PROF),
    ("nationality-flag", "i'm japanese 🇯🇵", "Sarah is Japanese.", PROF),
    ("age", "i'm 25 lol", "Sarah is 25 years old.", PROF),
    ("pronouns", "my pronouns are she/her", "Sarah's pronouns are she/her.", PROF),
    ("languages", "i speak french and spanish", "Sarah speaks french and spanish.", PROF),
    # name and nickname
    ("name", "my name's Sarah Jane", "Sarah's name is Sarah Jane.", PROF),
    ("nickname", "my nickname's sunny lol", "Sarah's nickname is sunny.", PROF),
    ("friends-call-me", "my friends call me sunny", "Sarah's nickname is sunny.", PROF),
    ("go-by", "i go by sam", "Sarah goes by sam.", PROF),
    # job
    ("job-im", "im a nurse lol", "Sarah is a nurse.", PROF),
    ("job-emoji", "i'm a software engineer 💻", "Sarah is a software engineer.", PROF),
    ("job-work-as", "i work as a nurse", "Sarah works as a nurse.", PROF),
    ("job-work-at-wbu", "i work at google, wbu?", "Sarah works at google.", PROF),
    ("job-nights", "i work nights at the ER", "Sarah works nights at the ER.", PROF),
    ("job-place", "i'm a teacher at a high school", "Sarah is a teacher at a high school.", PROF),
    # study
    ("study", "i study biology at uni", "Sarah studies biology at uni.", PROF),
    ("major", "im majoring in computer science", "Sarah is majoring in computer science.", PROF),
    ("university", "i go to mcgill university", "Sarah goes to mcgill university.", PROF),
    ("student", "i'm a 3rd year med student", "Sarah is a 3rd year med student.", PROF),
    # location
    ("live-in", "i live in berlin", "Sarah lives in berlin.", PROF),
    ("based-in", "i'm based in toronto", "Sarah lives in toronto.", PROF),
    ("from", "im from brazil originally", "Sarah is from brazil originally.", PROF),
    ("moved", "i moved to lisbon last year", "Sarah moved to lisbon last year.", PROF),
    # family
    ("sister-job", "my sister is a lawyer", "Sarah's sister is a lawyer.", REL),
    (
        "brother-named",
        "i have a little brother named Max",
        "Sarah has a little brother named Max.",
        REL,
    ),
    ("kids", "i have 3 kids", "Sarah has 3 kids.", REL),
    ("mom-named", "my mom Linda is visiting", "Sarah has a mom named Linda.", REL),
    ("parents-live", "my parents live in ohio", "Sarah's parents live in ohio.", REL),
    ("sister-named-emma", "Emma is my sister", "Sarah's sister is Emma.", REL),
    # partners
    ("boyfriend", "i have a boyfriend", "Sarah has a boyfriend.", REL),
    ("husband-job", "my husband is a chef", "Sarah's husband is a chef.", REL),
    ("husband-and-i", "my husband and i just bought a house", "Sarah has a husband.", REL),
    ("dating", "i'm dating someone new", "Sarah is dating someone new.", REL),
    ("bf-named", "my bf Jake is visiting", "Sarah has a bf named Jake.", REL),
    # pets
    ("cat-named", "i have a cat named Mochi", "Sarah has a cat named Mochi.", REL),
    ("dogs-emoji", "i have 2 dogs 🐶🐶", "Sarah has 2 dogs.", REL),
    ("cats-name-is", "my cat's name is Luna", "Sarah has a cat named Luna.", REL),
    ("dog-lol", "my dog Biscuit is so dumb lol", "Sarah has a dog named Biscuit.", REL),
    # likes, dislikes, favourites
    ("love-caps-lol", "i LOVE sushi lol", "Sarah loves sushi.", PREF),
    ("love-exclaim", "i love sushi!!! 🍣🍣", "Sarah loves sushi.", PREF),
    ("like", "i like pineapple on pizza", "Sarah likes pineapple on pizza.", PREF),
    ("hate", "i hate mondays", "Sarah hates mondays.", PREF),
    ("hate-slang", "fr i hate cilantro 🤢", "Sarah hates cilantro.", PREF),
    ("cant-stand", "i can't stand cilantro", "Sarah cannot stand cilantro.", PREF),
    ("fav", "my fav color is green", "Sarah's favourite color is green.", PREF),
    (
        "favourite-after",
        "radiohead is my favourite band",
        "Sarah's favourite band is radiohead.",
        PREF,
    ),
    ("obsessed", "im obsessed with taylor swift", "Sarah is obsessed with taylor swift.", PREF),
    ("my-job", "honestly i love my job lol", "Sarah loves their job.", PREF),
    # negations stay negations
    ("dont-like", "i dont like olives", "Sarah does not like olives.", PREF),
    ("don't-like", "i don't like olives", "Sarah does not like olives.", PREF),
    ("really-dont-like", "i really don't like olives lol", "Sarah does not like olives.", PREF),
    ("dont-love", "i don't love mondays", "Sarah does not love mondays.", PREF),
    ("dont-eat", "i don't eat pork", "Sarah does not eat pork.", PREF),
    ("not-a-fan", "i'm not a fan of horror movies", "Sarah is not a fan of horror movies.", PREF),
    ("not-into", "i'm not into sports", "Sarah is not into sports.", PREF),
    ("not-a-nurse", "i'm not a nurse", "Sarah is not a nurse.", PROF),
    ("dont-have", "i don't have a dog", "Sarah does not have a dog.", PREF),
    # allergies and diet
    ("allergic", "im allergic to peanuts", "Sarah is allergic to peanuts.", PROF),
    ("allergic-lol", "i'm allergic to cats lol", "Sarah is allergic to cats.", PROF),
    ("allergy", "i have a peanut allergy", "Sarah has a peanut allergy.", PROF),
    ("cant-eat", "i cant eat gluten", "Sarah cannot eat gluten.", PREF),
    ("vegan", "im vegan", "Sarah is vegan.", PROF),
    ("vegan-years", "i've been vegan for 3 years", "Sarah has been vegan for 3 years.", PROF),
    # habits
    ("every-morning", "i run every morning", "Sarah runs every morning.", OTHER),
    (
        "coffee-emoji",
        "i drink coffee every morning ☕",
        "Sarah drinks coffee every morning.",
        OTHER,
    ),
    (
        "every-morning-first",
        "every morning i go for a run",
        "Sarah goes for a run every morning.",
        OTHER,
    ),
    ("always", "i always drink tea before bed", "Sarah always drinks tea before bed.", OTHER),
    ("never-skip", "i never skip leg day", "Sarah never skips leg day.", OTHER),
    ("hobby", "i play guitar", "Sarah plays guitar.", OTHER),
    ("weekend", "i bake bread every weekend", "Sarah bakes bread every weekend.", OTHER),
    # projects
    ("building", "i'm building a discord bot", "Sarah is building a discord bot.", PROJ),
    (
        "working-on-rn",
        "working on a game in godot rn",
        "Sarah is working on a game in godot.",
        PROJ,
    ),
    (
        "side-project",
        "my side project is a budgeting app",
        "Sarah's project is a budgeting app.",
        PROJ,
    ),
    ("writing", "im writing a fantasy novel", "Sarah is writing a fantasy novel.", PROJ),
    ("learning", "i'm learning japanese", "Sarah is learning japanese.", PROJ),
    (
        "keyboard-lol",
        "building a mechanical keyboard lol",
        "Sarah is building a mechanical keyboard.",
        PROJ,
    ),
    # plans and events with their dates
    ("moving-march", "im moving to berlin in march", "Sarah is moving to berlin in march.", PROJ),
    (
        "flying-next-week",
        "i'm flying to tokyo next week",
        "Sarah is flying to tokyo next week.",
        PROJ,
    ),
    ("bday-emoji", "my bday is march 3rd 🎂", "Sarah's birthday is march 3rd.", PROJ),
    ("birthday", "my birthday is on june 5", "Sarah's birthday is on june 5.", PROJ),
    ("exam", "i have an exam on friday", "Sarah has an exam on friday.", PROJ),
    ("wedding", "i'm getting married in august", "Sarah is getting married in august.", PROJ),
    (
        "marathon",
        "i'm training for a marathon in october",
        "Sarah is training for a marathon in october.",
        PROJ,
    ),
    (
        "appointment",
        "i have a dentist appointment on tuesday",
        "Sarah has a dentist appointment on tuesday.",
        PROJ,
    ),
    ("flight-ordinal", "my flight is on the 14th", "Sarah's flight is on the 14th.", PROJ),
    ("graduating", "i'm graduating next june", "Sarah is graduating next june.", PROJ),
    # standing requests
    ("call-me", "call me sam", "Sarah wants to be called sam.", PREF),
    (
        "from-now-on-call-me",
        "from now on, please call me Sammy",
        "Sarah wants to be called Sammy.",
        PREF,
    ),
    ("dont-call-me", "dont call me sarah", "Sarah does not want to be called sarah.", PREF),
    ("reply-in", "from now on reply in Spanish", "Sarah wants replies in Spanish.", PREF),
    ("dont-ping", "dont ping me after 10pm", "Sarah does not want to be pinged after 10pm.", PREF),
    (
        "from-now-on-dont-ping",
        "from now on dont ping me for raids",
        "Sarah does not want to be pinged for raids.",
        PREF,
    ),
    ("please-remember", "please remember that i'm vegetarian", "Sarah is vegetarian.", PROF),
    ("pls-remember", "pls remember i hate cilantro", "Sarah hates cilantro.", PREF),
    (
        "remember-dog",
        "please remember that i have a dog named Rex",
        "Sarah has a dog named Rex.",
        REL,
    ),
    (
        "remember-birthday",
        "please remember my birthday is june 5",
        "Sarah's birthday is june 5.",
        PROJ,
    ),
    ("tired-but", "i'm tired but i love my job", "Sarah loves their job.", PREF),
    # what is left once a quote, a code block or a question is set aside
    ("after-quote-line", "> i love cats\ni love dogs", "Sarah loves dogs.", PREF),
    (
        "after-code-block",
        '```python\nprint("I love Python")\n```\ni love rust tho',
        "Sarah loves rust.",
        PREF,
    ),
    ("before-question", "i have a dog. do you have a dog?", "Sarah has a dog.", REL),
]

# Hedged statements, one fact each (0.6).
HEDGED_STATED: list[tuple[str, str, str, str]] = [
    ("i-think", "i think i like jazz", "Sarah likes jazz.", PREF),
    ("i-guess", "i guess i like jazz", "Sarah likes jazz.", PREF),
    ("kinda", "i kinda like jazz", "Sarah likes jazz.", PREF),
    ("ngl-kinda-into", "ngl i'm kinda into kpop", "Sarah is into kpop.", PREF),
    ("pretty-sure", "pretty sure i'm lactose intolerant", "Sarah is lactose intolerant.", PROF),
    ("think-allergic", "i think i'm allergic to cats", "Sarah is allergic to cats.", PROF),
    (
        "probably-moving",
        "im probably moving to berlin in march",
        "Sarah is moving to berlin in march.",
        PROJ,
    ),
    (
        "might-move",
        "i might move to berlin next year",
        "Sarah might move to berlin next year.",
        PROJ,
    ),
    ("maybe", "maybe i'm a nurse", "Sarah is a nurse.", PROF),
    ("uptalk", "i kind of like pineapple on pizza?", "Sarah likes pineapple on pizza.", PREF),
    ("idk-i-think", "idk i think im a night owl", "Sarah is a night owl.", PROF),
]

# Several statements in one message.
SEVERAL: list[tuple[str, str, list[Fact]]] = [
    (
        "two-clauses",
        "im a nurse but i hate hospitals lol",
        [("Sarah is a nurse.", PROF, PLAIN), ("Sarah hates hospitals.", PREF, PLAIN)],
    ),
    (
        "three-clauses",
        "i'm a nurse and i love hiking and i have a dog named Rex",
        [
            ("Sarah is a nurse.", PROF, PLAIN),
            ("Sarah loves hiking.", PREF, PLAIN),
            ("Sarah has a dog named Rex.", REL, PLAIN),
        ],
    ),
]


@pytest.mark.parametrize(
    ("text", "fact", "fact_type"), [c[1:] for c in STATED], ids=[c[0] for c in STATED]
)
def test_statement(text: str, fact: str, fact_type: str) -> None:
    assert facts(text) == [(fact, fact_type, PLAIN)]


@pytest.mark.parametrize(
    ("text", "fact", "fact_type"),
    [c[1:] for c in HEDGED_STATED],
    ids=[c[0] for c in HEDGED_STATED],
)
def test_hedged_statement(text: str, fact: str, fact_type: str) -> None:
    assert facts(text) == [(fact, fact_type, HEDGED)]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in SEVERAL], ids=[c[0] for c in SEVERAL]
)
def test_several_statements(text: str, expected: list[Fact]) -> None:
    assert facts(text) == expected


NOTHING: list[tuple[str, str]] = [
    # questions
    ("question", "do you like sushi?"),
    ("anyone-else", "anyone else hate mondays?"),
    ("anyone-else-no-mark", "anyone else love sushi"),
    ("why", "why do i hate mondays"),
    ("what-if", "what if i moved to japan"),
    # hypotheticals and wishes
    ("if-i-were", "if i were rich i'd buy a boat"),
    ("i'd-love", "i'd love to live in japan"),
    ("id-love", "id love to live in japan"),
    ("wish", "i wish i lived in japan"),
    ("if-i-had", "if i had a dog i'd name it max"),
    ("would", "i would love a cat"),
    ("someday", "someday i'll move to japan"),
    ("could", "i could be a nurse"),
    # quotes of other people
    ("mom-says-double", 'my mom always says "i love gardening"'),
    ("mom-says-single", "my mom always says 'i love gardening'"),
    ("mom-says-curly", "my mom always says “i love gardening”"),
    ("mom-says-bare", "my mom says i love gardening"),
    ("she-said", 'she said "i\'m a nurse"'),
    ("told-me", "my dad told me i'm a natural born leader"),
    ("quote-line", "> i work at google"),
    ("quote-line-reply", "> i work at google\nlol same"),
    # transient states
    ("tired", "im so tired lol"),
    ("at-the-store", "i'm at the store"),
    ("at-the-store-rn", "i'm at the store rn"),
    ("hungry", "im hungry"),
    ("at-work", "i'm at work"),
    ("gym", "im at the gym lol"),
    ("dead", "im dead 💀"),
    ("sick", "i'm sick"),
    ("done", "im so done lol"),
    # third-person gossip
    ("gossip", "mike works at google"),
    ("gossip-lol", "mike works at google lol"),
    ("gossip-capital", "Mike is a nurse"),
    ("friend", "my friend jake is a nurse"),
    ("she", "she loves sushi"),
    # code
    ("code-block", "```\nI love Python\n```"),
    ("inline-block", "here's my code ```I love Python``` cool right"),
    ("inline-code", "`I love Python`"),
    # sarcasm
    ("sarcasm", "i love mondays /s"),
    ("sarcasm-caps", "oh yeah i LOVE waiting in line /s"),
    ("sarcasm-job", "i'm a nurse /s"),
    ("jk", "i love mondays jk"),
    ("not", "i love getting stuck in traffic... not"),
    # nothing durable
    ("same", "lol same"),
    ("love-you-guys", "i love you guys"),
    ("this-song", "omg i love this song"),
    ("going-to-gym", "i'm going to the gym"),
    ("not-vegan", "i'm not vegan"),
    ("dont-hate-it", "i dont hate it"),
]


@pytest.mark.parametrize("text", [c[1] for c in NOTHING], ids=[c[0] for c in NOTHING])
def test_no_fact(text: str) -> None:
    assert facts(text) == []


ALL_STATED = [(c[0], c[1]) for c in STATED + HEDGED_STATED] + [(c[0], c[1]) for c in SEVERAL]


@pytest.mark.parametrize("text", [c[1] for c in ALL_STATED], ids=[c[0] for c in ALL_STATED])
def test_evidence_is_verbatim_and_fact_passes_the_filter(text: str) -> None:
    message = source(text)
    for fact in HeuristicExtractor().extract_one(message):
        assert fact.evidence
        assert fact.evidence in text
        assert fact.subject == SARAH_ID
        assert fact.source_message_id == MESSAGE_ID
        verdict = check_fact(message, fact)
        assert verdict.fact is not None, verdict.reason


def test_negation_is_never_turned_around() -> None:
    for text in ["i dont like olives", "i don't like olives", "i do not like olives"]:
        stated = facts(text)
        assert stated == [("Sarah does not like olives.", PREF, PLAIN)]
        assert all("likes olives" not in fact for fact, _, _ in stated)


def test_at_most_four_facts_per_message() -> None:
    text = (
        "i'm a nurse. i live in berlin. i have a cat named Mochi. "
        "i love hiking. i hate olives. i'm allergic to peanuts."
    )
    extracted = extract(text)
    assert len(extracted) == MAX_FACTS_PER_MESSAGE == 4
    assert [f.fact for f in extracted] == [
        "Sarah is a nurse.",
        "Sarah lives in berlin.",
        "Sarah has a cat named Mochi.",
        "Sarah loves hiking.",
    ]
    assert [f.evidence for f in extracted] == [
        "i'm a nurse.",
        "i live in berlin.",
        "i have a cat named Mochi.",
        "i love hiking.",
    ]


def test_subject_and_source_message() -> None:
    (fact,) = HeuristicExtractor().extract_one(source("i work as a nurse", message_id="987"))
    assert fact == CandidateFact(
        subject=SARAH_ID,
        fact="Sarah works as a nurse.",
        fact_type=PROF,
        confidence=PLAIN,
        evidence="i work as a nurse",
        source_message_id="987",
    )


async def test_extract_batch_ties_facts_to_their_messages() -> None:
    batch = [
        source("i live in berlin", message_id="1"),
        source("im so tired lol", message_id="2"),
        source("i'm a nurse and i love hiking", message_id="3"),
        source("my cat's name is Luna", message_id="4"),
    ]
    extractor = HeuristicExtractor()
    extracted = await extractor.extract(batch)
    assert [(f.source_message_id, f.fact) for f in extracted] == [
        ("1", "Sarah lives in berlin."),
        ("3", "Sarah is a nurse."),
        ("3", "Sarah loves hiking."),
        ("4", "Sarah has a cat named Luna."),
    ]
    assert {f.subject for f in extracted} == {SARAH_ID}
    by_message = {m.message_id: m.text for m in batch}
    assert all(f.evidence in by_message[f.source_message_id] for f in extracted)
    await extractor.aclose()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"<@{EMMA.id}> is my sister", [("Sarah's sister is Emma.", REL, PLAIN)]),
        (
            f"my sister <@{EMMA.id}> is a nurse",
            [("Sarah has a sister named Emma.", REL, PLAIN)],
        ),
    ],
    ids=["mention-is-my-sister", "my-sister-mention"],
)
def test_mention_is_named(text: str, expected: list[Fact]) -> None:
    assert facts(text, mentions=(EMMA,)) == expected
    for fact in extract(text, mentions=(EMMA,)):
        assert fact.subject == SARAH_ID
        assert fact.evidence in text


# Cases a review found wrong once; each stays fixed.
REGRESSIONS: list[tuple[str, str, list[Fact]]] = [
    ("going-to-a-place", "i'm going to paris next week",
     [("Sarah is going to paris next week.", PROJ, PLAIN)]),
    ("never-conjugates", "i never drink coffee", [("Sarah never drinks coffee.", PREF, PLAIN)]),
    ("no-longer-conjugates", "i no longer eat meat", [("Sarah no longer eats meat.", PREF, PLAIN)]),
    ("relative-name", "my sister's name is Anna",
     [("Sarah has a sister named Anna.", REL, PLAIN)]),
    ("gf-name", "my gf's name is Emma", [("Sarah has a girlfriend named Emma.", REL, PLAIN)]),
    ("everyone-calls-me", "everyone calls me sunny", [("Sarah's nickname is sunny.", PROF, PLAIN)]),
    ("plural-siblings", "i have two brothers", [("Sarah has two brothers.", REL, PLAIN)]),
    ("may-the-month", "i graduate in may", [("Sarah graduates in may.", PROJ, PLAIN)]),
    ("may-the-hedge", "i may move to spain next year",
     [("Sarah may move to spain next year.", PROJ, HEDGED)]),
    ("repeated-verb", "i love love love sushi", [("Sarah loves sushi.", PREF, PLAIN)]),
    ("quoted-title", "my favorite song is 'private eyes' by hall & oates",
     [("Sarah's favourite song is private eyes by hall & oates.", PREF, PLAIN)]),
    ("lowercase-i-in-object", "i collect arcade tokens from every arcade i visit",
     [("Sarah collects arcade tokens from every arcade they visit.", OTHER, PLAIN)]),
    ("shop-is-a-project", "i run a small etsy shop",
     [("Sarah runs a small etsy shop.", PROJ, PLAIN)]),
    ("shouting", "I'M A NURSE", [("Sarah is a nurse.", PROF, PLAIN)]),
    ("married-is-a-relationship", "im married", [("Sarah is married.", REL, PLAIN)]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"), [pytest.param(t, e, id=i) for i, t, e in REGRESSIONS]
)
def test_regression(text: str, expected: list[Fact]) -> None:
    assert facts(text) == expected


def test_a_mention_with_an_exclamation_mark_keeps_the_whole_sentence_as_evidence() -> None:
    (fact,) = extract("<@!300000000000000003> is my sister lol", (EMMA,))
    assert fact.evidence == "<@!300000000000000003> is my sister lol"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("my kids are embarrassed of me", ["Sarah's kids are embarrassed of them."],
                     id="plural-relatives-keep-are"),
        pytest.param("im learning so much about everyone this week", [], id="so-much-is-no-object"),
        pytest.param("I work as a graphic designer tbh, mostly packaging and book covers",
                     ["Sarah works as a graphic designer, mostly packaging and book covers."],
                     id="no-space-before-comma"),
    ],
)  # fmt: skip
def test_sample_chat_regressions(text: str, expected: list[str]) -> None:
    assert [f[0] for f in facts(text)] == expected
