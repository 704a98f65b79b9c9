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


# Each case: an id, Sarah's message, and exactly the facts it must yield.
STATED: list[tuple[str, str, list[Fact]]] = [
    # identity
    ("identity", "im autistic", [("Sarah is autistic.", "profile", PLAIN)]),
    ("identity-lol", "im left-handed lol", [("Sarah is left-handed.", "profile", PLAIN)]),
    ("nationality-flag", "i'm japanese 🇯🇵", [("Sarah is Japanese.", "profile", PLAIN)]),
    ("age", "i'm 25 lol", [("Sarah is 25 years old.", "profile", PLAIN)]),
    ("pronouns", "my pronouns are she/her", [("Sarah's pronouns are she/her.", "profile", PLAIN)]),
    ("languages", "i speak french and spanish", [("Sarah speaks french and spanish.", "profile", PLAIN)]),
    # name and nickname
    ("name", "my name's Sarah Jane", [("Sarah's name is Sarah Jane.", "profile", PLAIN)]),
    ("nickname", "my nickname's sunny lol", [("Sarah's nickname is sunny.", "profile", PLAIN)]),
    ("friends-call-me", "my friends call me sunny", [("Sarah's nickname is sunny.", "profile", PLAIN)]),
    ("go-by", "i go by sam", [("Sarah goes by sam.", "profile", PLAIN)]),
    # job
    ("job-im", "im a nurse lol", [("Sarah is a nurse.", "profile", PLAIN)]),
    ("job-emoji", "i'm a software engineer 💻", [("Sarah is a software engineer.", "profile", PLAIN)]),
    ("job-work-as", "i work as a nurse", [("Sarah works as a nurse.", "profile", PLAIN)]),
    ("job-work-at-wbu", "i work at google, wbu?", [("Sarah works at google.", "profile", PLAIN)]),
    ("job-nights", "i work nights at the ER", [("Sarah works nights at the ER.", "profile", PLAIN)]),
    ("job-place", "i'm a teacher at a high school", [("Sarah is a teacher at a high school.", "profile", PLAIN)]),
    # study
    ("study", "i study biology at uni", [("Sarah studies biology at uni.", "profile", PLAIN)]),
    ("major", "im majoring in computer science", [("Sarah is majoring in computer science.", "profile", PLAIN)]),
    ("university", "i go to mcgill university", [("Sarah goes to mcgill university.", "profile", PLAIN)]),
    ("student", "i'm a 3rd year med student", [("Sarah is a 3rd year med student.", "profile", PLAIN)]),
    # location
    ("live-in", "i live in berlin", [("Sarah lives in berlin.", "profile", PLAIN)]),
    ("based-in", "i'm based in toronto", [("Sarah lives in toronto.", "profile", PLAIN)]),
    ("from", "im from brazil originally", [("Sarah is from brazil originally.", "profile", PLAIN)]),
    ("moved", "i moved to lisbon last year", [("Sarah moved to lisbon last year.", "profile", PLAIN)]),
    # family
    ("sister-job", "my sister is a lawyer", [("Sarah's sister is a lawyer.", "relationship", PLAIN)]),
    ("brother-named", "i have a little brother named Max", [("Sarah has a little brother named Max.", "relationship", PLAIN)]),
    ("kids", "i have 3 kids", [("Sarah has 3 kids.", "relationship", PLAIN)]),
    ("mom-named", "my mom Linda is visiting", [("Sarah has a mom named Linda.", "relationship", PLAIN)]),
    ("parents-live", "my parents live in ohio", [("Sarah's parents live in ohio.", "relationship", PLAIN)]),
    ("sister-named-emma", "Emma is my sister", [("Sarah's sister is Emma.", "relationship", PLAIN)]),
    # partners
    ("boyfriend", "i have a boyfriend", [("Sarah has a boyfriend.", "relationship", PLAIN)]),
    ("husband-job", "my husband is a chef", [("Sarah's husband is a chef.", "relationship", PLAIN)]),
    ("husband-and-i", "my husband and i just bought a house", [("Sarah has a husband.", "relationship", PLAIN)]),
    ("dating", "i'm dating someone new", [("Sarah is dating someone new.", "relationship", PLAIN)]),
    ("bf-named", "my bf Jake is visiting", [("Sarah has a bf named Jake.", "relationship", PLAIN)]),
    # pets
    ("cat-named", "i have a cat named Mochi", [("Sarah has a cat named Mochi.", "relationship", PLAIN)]),
    ("dogs-emoji", "i have 2 dogs 🐶🐶", [("Sarah has 2 dogs.", "relationship", PLAIN)]),
    ("cats-name-is", "my cat's name is Luna", [("Sarah has a cat named Luna.", "relationship", PLAIN)]),
    ("dog-lol", "my dog Biscuit is so dumb lol", [("Sarah has a dog named Biscuit.", "relationship", PLAIN)]),
    # likes, dislikes, favourites
    ("love-caps-lol", "i LOVE sushi lol", [("Sarah loves sushi.", "preference", PLAIN)]),
    ("love-exclaim", "i love sushi!!! 🍣🍣", [("Sarah loves sushi.", "preference", PLAIN)]),
    ("like", "i like pineapple on pizza", [("Sarah likes pineapple on pizza.", "preference", PLAIN)]),
    ("hate", "i hate mondays", [("Sarah hates mondays.", "preference", PLAIN)]),
    ("hate-slang", "fr i hate cilantro 🤢", [("Sarah hates cilantro.", "preference", PLAIN)]),
    ("cant-stand", "i can't stand cilantro", [("Sarah cannot stand cilantro.", "preference", PLAIN)]),
    ("fav", "my fav color is green", [("Sarah's favourite color is green.", "preference", PLAIN)]),
    ("favourite-after", "radiohead is my favourite band", [("Sarah's favourite band is radiohead.", "preference", PLAIN)]),
    ("obsessed", "im obsessed with taylor swift", [("Sarah is obsessed with taylor swift.", "preference", PLAIN)]),
    ("my-job", "honestly i love my job lol", [("Sarah loves their job.", "preference", PLAIN)]),
    # negations stay negations
    ("dont-like", "i dont like olives", [("Sarah does not like olives.", "preference", PLAIN)]),
    ("don't-like", "i don't like olives", [("Sarah does not like olives.", "preference", PLAIN)]),
    ("really-dont-like", "i really don't like olives lol", [("Sarah does not like olives.", "preference", PLAIN)]),
    ("dont-love", "i don't love mondays", [("Sarah does not love mondays.", "preference", PLAIN)]),
    ("dont-eat", "i don't eat pork", [("Sarah does not eat pork.", "preference", PLAIN)]),
    ("not-a-fan", "i'm not a fan of horror movies", [("Sarah is not a fan of horror movies.", "preference", PLAIN)]),
    ("not-into", "i'm not into sports", [("Sarah is not into sports.", "preference", PLAIN)]),
    ("not-a-nurse", "i'm not a nurse", [("Sarah is not a nurse.", "profile", PLAIN)]),
    ("dont-have", "i don't have a dog", [("Sarah does not have a dog.", "preference", PLAIN)]),
    # allergies and diet
    ("allergic", "im allergic to peanuts", [("Sarah is allergic to peanuts.", "profile", PLAIN)]),
    ("allergic-lol", "i'm allergic to cats lol", [("Sarah is allergic to cats.", "profile", PLAIN)]),
    ("allergy", "i have a peanut allergy", [("Sarah has a peanut allergy.", "profile", PLAIN)]),
    ("cant-eat", "i cant eat gluten", [("Sarah cannot eat gluten.", "preference", PLAIN)]),
    ("vegan", "im vegan", [("Sarah is vegan.", "profile", PLAIN)]),
    ("vegan-years", "i've been vegan for 3 years", [("Sarah has been vegan for 3 years.", "profile", PLAIN)]),
    # habits
    ("every-morning", "i run every morning", [("Sarah runs every morning.", "other", PLAIN)]),
    ("coffee-emoji", "i drink coffee every morning ☕", [("Sarah drinks coffee every morning.", "other", PLAIN)]),
    ("every-morning-first", "every morning i go for a run", [("Sarah goes for a run every morning.", "other", PLAIN)]),
    ("always", "i always drink tea before bed", [("Sarah always drinks tea before bed.", "other", PLAIN)]),
    ("never-skip", "i never skip leg day", [("Sarah never skips leg day.", "other", PLAIN)]),
    ("hobby", "i play guitar", [("Sarah plays guitar.", "other", PLAIN)]),
    ("weekend", "i bake bread every weekend", [("Sarah bakes bread every weekend.", "other", PLAIN)]),
    # projects
    ("building", "i'm building a discord bot", [("Sarah is building a discord bot.", "project", PLAIN)]),
    ("working-on-rn", "working on a game in godot rn", [("Sarah is working on a game in godot.", "project", PLAIN)]),
    ("side-project", "my side project is a budgeting app", [("Sarah's project is a budgeting app.", "project", PLAIN)]),
    ("writing", "im writing a fantasy novel", [("Sarah is writing a fantasy novel.", "project", PLAIN)]),
    ("learning", "i'm learning japanese", [("Sarah is learning japanese.", "project", PLAIN)]),
    ("keyboard-lol", "building a mechanical keyboard lol", [("Sarah is building a mechanical keyboard.", "project", PLAIN)]),
    # plans and events with their dates
    ("moving-march", "im moving to berlin in march", [("Sarah is moving to berlin in march.", "project", PLAIN)]),
    ("flying-next-week", "i'm flying to tokyo next week", [("Sarah is flying to tokyo next week.", "project", PLAIN)]),
    ("bday-emoji", "my bday is march 3rd 🎂", [("Sarah's birthday is march 3rd.", "project", PLAIN)]),
    ("birthday", "my birthday is on june 5", [("Sarah's birthday is on june 5.", "project", PLAIN)]),
    ("exam", "i have an exam on friday", [("Sarah has an exam on friday.", "project", PLAIN)]),
    ("wedding", "i'm getting married in august", [("Sarah is getting married in august.", "project", PLAIN)]),
    ("marathon", "i'm training for a marathon in october", [("Sarah is training for a marathon in october.", "project", PLAIN)]),
    ("appointment", "i have a dentist appointment on tuesday", [("Sarah has a dentist appointment on tuesday.", "project", PLAIN)]),
    ("flight-ordinal", "my flight is on the 14th", [("Sarah's flight is on the 14th.", "project", PLAIN)]),
    ("graduating", "i'm graduating next june", [("Sarah is graduating next june.", "project", PLAIN)]),
    # standing requests
    ("call-me", "call me sam", [("Sarah wants to be called sam.", "preference", PLAIN)]),
    ("from-now-on-call-me", "from now on, please call me Sammy", [("Sarah wants to be called Sammy.", "preference", PLAIN)]),
    ("dont-call-me", "dont call me sarah", [("Sarah does not want to be called sarah.", "preference", PLAIN)]),
    ("reply-in", "from now on reply in Spanish", [("Sarah wants replies in Spanish.", "preference", PLAIN)]),
    ("dont-ping", "dont ping me after 10pm", [("Sarah does not want to be pinged after 10pm.", "preference", PLAIN)]),
    ("from-now-on-dont-ping", "from now on dont ping me for raids", [("Sarah does not want to be pinged for raids.", "preference", PLAIN)]),
    ("please-remember", "please remember that i'm vegetarian", [("Sarah is vegetarian.", "profile", PLAIN)]),
    ("pls-remember", "pls remember i hate cilantro", [("Sarah hates cilantro.", "preference", PLAIN)]),
    ("remember-dog", "please remember that i have a dog named Rex", [("Sarah has a dog named Rex.", "relationship", PLAIN)]),
    ("remember-birthday", "please remember my birthday is june 5", [("Sarah's birthday is june 5.", "project", PLAIN)]),
    # hedged
    ("i-think", "i think i like jazz", [("Sarah likes jazz.", "preference", HEDGED)]),
    ("i-guess", "i guess i like jazz", [("Sarah likes jazz.", "preference", HEDGED)]),
    ("kinda", "i kinda like jazz", [("Sarah likes jazz.", "preference", HEDGED)]),
    ("ngl-kinda-into", "ngl i'm kinda into kpop", [("Sarah is into kpop.", "preference", HEDGED)]),
    ("pretty-sure", "pretty sure i'm lactose intolerant", [("Sarah is lactose intolerant.", "profile", HEDGED)]),
    ("think-allergic", "i think i'm allergic to cats", [("Sarah is allergic to cats.", "profile", HEDGED)]),
    ("probably-moving", "im probably moving to berlin in march", [("Sarah is moving to berlin in march.", "project", HEDGED)]),
    ("might-move", "i might move to berlin next year", [("Sarah might move to berlin next year.", "project", HEDGED)]),
    ("maybe", "maybe i'm a nurse", [("Sarah is a nurse.", "profile", HEDGED)]),
    # several statements, plain and hedged
    (
        "two-clauses",
        "im a nurse but i hate hospitals lol",
        [("Sarah is a nurse.", "profile", PLAIN), ("Sarah hates hospitals.", "preference", PLAIN)],
    ),
    (
        "three-clauses",
        "i'm a nurse and i love hiking and i have a dog named Rex",
        [
            ("Sarah is a nurse.", "profile", PLAIN),
            ("Sarah loves hiking.", "preference", PLAIN),
            ("Sarah has a dog named Rex.", "relationship", PLAIN),
        ],
    ),
    ("tired-but", "i'm tired but i love my job", [("Sarah loves their job.", "preference", PLAIN)]),
    # what is left once a quote, a code block or a question is set aside
    ("after-quote-line", "> i love cats\ni love dogs", [("Sarah loves dogs.", "preference", PLAIN)]),
    (
        "after-code-block",
        '```python\nprint("I love Python")\n```\ni love rust tho',
        [("Sarah loves rust.", "preference", PLAIN)],
    ),
    ("before-question", "i have a dog. do you have a dog?", [("Sarah has a dog.", "relationship", PLAIN)]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in STATED], ids=[c[0] for c in STATED])
def test_statement(text: str, expected: list[Fact]) -> None:
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


@pytest.mark.parametrize("text", [c[1] for c in STATED], ids=[c[0] for c in STATED])
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
        assert stated == [("Sarah does not like olives.", "preference", PLAIN)]
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
        fact_type="profile",
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
        (f"<@{EMMA.id}> is my sister", [("Sarah's sister is Emma.", "relationship", PLAIN)]),
        (
            f"my sister <@{EMMA.id}> is a nurse",
            [("Sarah has a sister named Emma.", "relationship", PLAIN)],
        ),
    ],
    ids=["mention-is-my-sister", "my-sister-mention"],
)
def test_mention_is_named(text: str, expected: list[Fact]) -> None:
    assert facts(text, mentions=(EMMA,)) == expected
    for fact in extract(text, mentions=(EMMA,)):
        assert fact.subject == SARAH_ID
        assert fact.evidence in text
