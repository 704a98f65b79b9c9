"""The offline extractor: first-person statements rewritten as self-contained third-person
facts about their author, with relative dates resolved, agreement from the lexicon, and
nothing from questions, greetings, reactions, advice, hypotheticals, quotes or other
languages. Checked through its public interface and the fact filters that follow it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memory.extraction import ContextTurn, SourceMessage
from memory.extraction.fact_filter import check_fact
from memory.extraction.offline import OfflineExtractor
from memory.extraction.offline.dates import resolve
from memory.models import CandidateFact

MONDAY = "2023-05-08T13:58:00.000+00:00"  # Monday 8 May 2023
AUTHOR = "300000000000000001"
FRIEND = "300000000000000002"


def message(
    text: str, *, name: str = "Caroline", at: str = MONDAY, mid: str = "1"
) -> SourceMessage:
    return SourceMessage(mid, "g", "c", AUTHOR, name, text, at)


def turn(text: str, *, name: str = "Melanie", author: str = FRIEND) -> ContextTurn:
    return ContextTurn(author, name, text, MONDAY)


def facts(text: str, *, context: tuple[ContextTurn, ...] = (), **kw: str) -> list[str]:
    """The facts that would be stored: the extractor, then every filter."""
    source = message(text, **kw)
    kept = []
    for candidate in OfflineExtractor().extract_one(source, context):
        verdict = check_fact(source, candidate)
        assert verdict.fact is not None, (candidate.fact, verdict.reason)
        kept.append(verdict.fact.fact)
    return kept


# --- rewriting ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I went to a LGBTQ support group yesterday and it was so powerful.",
         "Caroline went to a LGBTQ support group on 7 May 2023."),
        ("Last Friday I went to a council meeting for adoption.",
         "Caroline went to a council meeting for adoption on 5 May 2023."),
        ("Yesterday, I signed up for a pottery class!",
         "Caroline signed up for a pottery class on 7 May 2023."),
        ("i love hiking with my dog", "Caroline loves hiking with their dog."),
        ("I fly to Denver every month for work", "Caroline flies to Denver every month for work."),
        ("I watch anime on weekends", "Caroline watches anime on weekends."),
        ("I don't eat meat anymore", "Caroline doesn't eat meat anymore."),
        ("I have two cats and a dog", "Caroline has two cats and a dog."),
        ("im a nurse at the childrens hospital", "Caroline is a nurse at the childrens hospital."),
        ("my sister is a teacher in Boston", "Caroline's sister is a teacher in Boston."),
        ("Hey Mel! So I'm moving to Denver next month.",
         "Caroline is moving to Denver in June 2023."),
        ("took a short trip to rome last week to clear my head",
         "Caroline took a short trip to rome the week before 8 May 2023 to clear their head."),
        ("still working on my novel", "Caroline is still working on their novel."),
        ("Gonna continue my edu and check out career options, which is pretty exciting!",
         "Caroline is going to continue their edu and check out career options."),
        ("Researching adoption agencies — it's been a dream",
         "Caroline is researching adoption agencies as of 8 May 2023."),
        ("Yay! My online clothes store is open!", "Caroline's online clothes store is open."),
        ("My kids and I just finished another painting.",
         "Caroline and their kids finished another painting by 8 May 2023."),
        ("Seven years now, and I've finally found my real muses: painting and pottery.",
         "Caroline has finally found their real muses: painting and pottery seven years now."),
        ("Next month I'm having an art show with my paintings - can't wait!",
         "Caroline is having an art show with their paintings in June 2023."),
        ("After I graduated, I moved to Berlin.", "Caroline moved to Berlin by 8 May 2023."),
        ("my little sister just had a baby on tuesday btw",
         "Caroline's little sister just had a baby on 2 May 2023."),
        ("I've got lots of kids' books- classics, educational books, all of that.",
         "Caroline has got lots of kids' books, classics, educational books."),
        ("Here's a pic of my family camping at the beach. We love it!",
         "Caroline shared a pic of their family camping at the beach."),
        ("Check out my painting for the art show!",
         "Caroline shared their painting for the art show."),
        ("The rainbow flag mural is important to me as it reflects the courage of the community.",
         "The rainbow flag mural is important to Caroline."),
        ('"Brave" by Sara Bareilles has a lot of significance for me.',
         "Brave by Sara Bareilles has a lot of significance for Caroline."),
        ("Can't wait for tomorrow's grand opening!",
         "Caroline can't wait for the grand opening on 9 May 2023."),
        ("These figurines I bought yesterday remind me of family love.",
         "Caroline bought the figurines on 7 May 2023."),
        ("This book I read last year reminds me to always pursue my dreams",
         "Caroline read the book in 2022."),
        ("I'm currently reading The Lean Startup",
         "Caroline is currently reading The Lean Startup as of 8 May 2023."),
        ("I've developed a video presentation to teach styling",
         "Caroline has developed a video presentation to teach styling by 8 May 2023."),
        ("I've got two cats", "Caroline has got two cats."),
        ("I have developed a video presentation, btw.",
         "Caroline has developed a video presentation by 8 May 2023."),
        ("I had finished the book by then", "Caroline had finished the book by then."),
        ("Here's a recent self-portrait I made last week.",
         "Caroline made a recent self-portrait the week before 8 May 2023."),
        ("Thanks, Mel! And yup, I do- Oscar, my guinea pig. He's been great.",
         "Oscar is Caroline's guinea pig."),
        ("It was one of those moments where I felt tiny and in awe of the universe.",
         "Caroline felt tiny and in awe of the universe."),
        ("the day when I graduated was great", "Caroline graduated by 8 May 2023."),
        ("I can speak three languages", "Caroline can speak three languages."),
        ("I can't eat gluten", "Caroline can't eat gluten."),
        ("I need to find a new apartment by June",
         "Caroline needs to find a new apartment by June."),
        ("Here's a pic from when we met up last week!",
         "Caroline and others met up the week before 8 May 2023."),
        ("i'm pescatarian btw",
         "Caroline is pescatarian."),
        ("I'm type 1 diabetic so if i go afk suddenly it's probably a sugar thing",
         "Caroline is type 1 diabetic."),
        ("One special memory for me was this pride parade I went to a few weeks ago.",
         "Caroline went to the pride parade a few weeks before 8 May 2023."),
        ("so now I can expand my clothing store", "Caroline can expand their clothing store."),
        ("This necklace is super special to me - a gift from my grandma",
         "The necklace is super special to Caroline."),
        ("I made this stained glass window to remind myself and others that within us all is "
         "the key to discovering our true potential and living our best life.",
         "Caroline made a stained glass window to remind themselves and others by 8 May 2023."),
    ],
)  # fmt: skip
def test_a_statement_becomes_a_fact_about_its_author(said: str, fact: str) -> None:
    assert facts(said)[0] == fact


def test_a_second_thing_done_is_a_fact_of_its_own() -> None:
    assert facts(
        "I've been working hard on my online store and just teamed up with a local artist."
    ) == [
        "Caroline teamed up with a local artist by 8 May 2023.",
        "Caroline has been working hard on their online store.",
    ]


def test_the_evidence_is_the_source_sentence_as_typed() -> None:
    source = message("Hey Mel! I went to a LGBTQ support group yesterday. It was so powerful.")
    (fact,) = OfflineExtractor().extract_one(source)
    assert fact.evidence == "I went to a LGBTQ support group yesterday."
    assert fact.source_message_id == "1" and fact.subject == AUTHOR


def test_we_is_the_author_and_whom_the_message_names_or_others() -> None:
    assert facts("took my kids to the zoo. we saw a giraffe!")[1].startswith(
        "Caroline and their kids saw a giraffe"
    )
    assert facts("We went camping at the lake last weekend.") == [
        "Caroline and others went camping at the lake the weekend of 6 May 2023."
    ]


def test_it_refers_to_what_the_author_just_said_they_got() -> None:
    said = facts("Got a tattoo last year, it stands for freedom and dancing.", name="Gina")
    assert "Gina's tattoo stands for freedom and dancing." in said
    # with nothing to refer to, a bare "it" says nothing on its own
    assert facts("I'm pretty proud of it") == []
    # "it was great to …" points at nothing; "they" is not a singular thing
    assert facts("I talked about my journey. It was great to see their reactions.") == [
        "Caroline talked about their journey by 8 May 2023."
    ]
    assert facts("I'm lucky to have my husband; they keep me motivated.") == [
        "Caroline is lucky to have their husband."
    ]


def test_a_hedge_lowers_confidence_and_at_most_four_facts_come_best_first() -> None:
    (hedged,) = OfflineExtractor().extract_one(message("I think I'm moving to Denver next year"))
    assert hedged.confidence == 0.6 and "in 2024" in hedged.fact
    many = message(
        "I love sushi. I work as a nurse. I have a corgi named Biscuit. I play the cello. "
        "I went to Lisbon yesterday. I collect vinyl records."
    )
    found = OfflineExtractor().extract_one(many)
    assert len(found) == 4
    assert found[0].fact == "Caroline went to Lisbon on 7 May 2023."  # dated events first


def test_event_type_and_preference_type() -> None:
    kinds = {f.fact: f.fact_type for f in OfflineExtractor().extract_one(
        message("I adopted a puppy yesterday. I love sushi. My husband is a chef."))}  # fmt: skip
    assert kinds == {
        "Caroline adopted a puppy on 7 May 2023.": "event",
        "Caroline loves sushi.": "preference",
        "Caroline's husband is a chef.": "relationship",
    }


# --- what is no fact --------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Have you ever been to Paris?",
        "how do i get to the store?",
        "Hey Caroline! Good to see you! Thanks so much!",
        "You should really try yoga, it helps",
        "If I won the lottery I'd buy a boat",
        "I could see myself living there someday",
        'my mom always says "I love gardening"',
        "I totally love paying taxes /s",
        "I know right",
        "I'm so happy for you!!",
        "I'm tired",
        "```\nI am a docstring in code\n```",
        "je suis infirmière à Paris",
        "私は東京に住んでいます",
        "lol",
        "Taking care of ourselves is vital.",
        "judging a little",
        "Since we last spoke, some big things have happened.",
        "I'm having dinner",
        "I'm hungry",
        "I'm in",
        "I'm Sarah",
        "ok I need to vent for a second",
        "200 days?! i can't even keep a plant alive for 200 days",
        "i can bring snacks!",
        "I can drive everyone to the airport tomorrow",
        "omg I need that recipe",
        "I need a nap lol",
        "can't wait!!",
        "I can't wait to see you",
        "Exciting but kinda nerve-wracking.",
        "That means a lot to me",
    ],
)
def test_nothing_is_made_of(said: str) -> None:
    assert facts(said) == []


def test_a_reaction_to_someone_elses_news_is_no_fact_about_the_author() -> None:
    shared = (turn("just finished this painting, the red and blue took me forever"),)
    assert facts("omg I love the red and blue!!", context=shared) == []
    assert facts("I love the beach", context=shared) == ["Caroline loves the beach."]


def test_you_is_the_one_other_person_of_the_conversation() -> None:
    chat = (turn("what did you do this weekend?"),)
    assert facts("I showed you my garden plans on Saturday", context=chat) == [
        "Caroline showed Melanie their garden plans on 6 May 2023."
    ]
    crowd = (*chat, turn("same q", name="Bob", author="300000000000000003"))
    assert facts("I showed you my garden plans on Saturday", context=crowd) == []


def test_a_huge_message_is_read_up_to_a_bound() -> None:
    from memory.extraction.offline import MAX_TEXT_CHARS

    filler = "and then some more words here. " * (MAX_TEXT_CHARS // 16)
    found = facts(f"I adopted a puppy yesterday. {filler} I bought a boat yesterday.")
    assert found == ["Caroline adopted a puppy on 7 May 2023."]  # the boat is past the bound


# --- dates --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        ("yesterday", "on 7 May 2023"),
        ("last night", "on 7 May 2023"),
        ("the day before yesterday", "on 6 May 2023"),
        ("3 days ago", "on 5 May 2023"),
        ("a few days ago", "a few days before 8 May 2023"),
        ("two weeks ago", "2 weeks before 8 May 2023"),
        ("last week", "the week before 8 May 2023"),
        ("last weekend", "the weekend of 6 May 2023"),
        ("last Friday", "on 5 May 2023"),
        ("last fri", "on 5 May 2023"),
        ("last month", "in April 2023"),
        ("next month", "in June 2023"),
        ("last year", "in 2022"),
        ("last summer", "in the summer of 2022"),
        ("this winter", "in the winter of 2022"),
        ("in 3 weeks", "3 weeks after 8 May 2023"),
        ("the other day", "a few days before 8 May 2023"),
        ("last december", "in December 2022"),
        ("next september", "in September 2023"),
        ("in june", "in June 2022"),  # said in May, of what happened: the June before
        ("on monday", "on 8 May 2023"),  # said on a Monday: that day
    ],
)
def test_relative_dates_resolve_against_the_message_time(text: str, resolved: str) -> None:
    said = resolve(f"I did it {text}", date(2023, 5, 8), past=True)
    assert said == (f"I did it {resolved}", True)


def test_a_preposition_already_there_is_kept() -> None:
    assert resolve("I have lived here since last year", date(2023, 5, 8), past=False) == (
        "I have lived here since 2022", True,
    )  # fmt: skip


# --- grounding ----------------------------------------------------------------------------


def test_a_resolved_date_passes_the_filter_and_an_invented_object_does_not() -> None:
    source = message("I went to a support group yesterday")
    resolved = CandidateFact(AUTHOR, "Caroline went to a support group on 7 May 2023.",
                             "event", 0.9, source.text, "1")  # fmt: skip
    invented = resolved._replace(fact="Caroline went to a pottery class on 7 May 2023.")
    assert check_fact(source, resolved).fact is not None
    assert check_fact(source, invented).fact is None


# --- in the queue -------------------------------------------------------------------------


async def test_the_default_extractor_stores_dated_facts_through_the_queue(tmp_path: Path) -> None:
    from memory.runtime import open_memory
    from memory.settings import load_settings
    from tests.helpers import GUILD_A, SARAH, item

    async with open_memory(load_settings(data_dir=tmp_path / "data")) as runtime:
        said = item(1, "went to the climbing gym yesterday w/ my brother, so fun",
                    created_at="2023-05-08T13:58:00.000+00:00")  # fmt: skip
        assert await (await runtime.ingest(said))
        stored = [f.fact for f in await runtime.active_facts(GUILD_A)]
    assert stored == [f"{SARAH.name} went to the climbing gym on 7 May 2023 with their brother."]
