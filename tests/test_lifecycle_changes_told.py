"""Changes told in chat's own words end the older fact (memory.lifecycle), through the
public ``relation``: a liking turned ("into it" / "over it", "burnt out on"), a habit packed
in or given up on, a switch ("jumped ship to", "went from ... to", "transferred from ... to",
"instead of"), an injury recovered from, how many pets now, a time zone, a rank, an age or a
favourite that moved, a place moved out of, a league dropped out of, a diet followed; a role
stood down from or handed over, a squad cut from, a thing binned or thrown out."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation

CONTRADICTS, UNRELATED = Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("sam into metal rn", "sam over metal now, only lofi"),
        ("kai hates cooking", "kai . actually into cooking now lol"),
        ("bo loves fifa", "bo is totally burnt out on fifa, cant stand it"),
        ("ana obsessed w chess", "ana lowkey over chess now"),
        ("jo - gym 5am daily", "jo - gym? gave up on it"),
        ("pat smokes", "pat packed in the fags last month"),
        ("pat - smoker", "pat quit the fags, 2 weeks clean"),
        ("lee uses chrome", "lee jumped ship to firefox"),
        ("rin drinks cow milk", "rin went from cow milk to oat milk"),
        ("ivy has a sprained ankle", "ivy has recovered from her sprained ankle"),
        ("nell - 4 dogs", "nell down to 3 dogs, one went to her sister"),
        ("ike is on CET", "ike is on EST after moving to boston"),
        ("ike on gmt", "ike moved to nyc, est gang now"),
        ("ren . plat 2 in rl", "ren finally hit champ 1"),
        ("ren . diamond in apex", "ren back to plat, deranked hard"),
        ("kit still lives with her parents", "kit finally moved out of her parents place"),
        ("ada lives in york", "ada moved out of york and rents in leeds now"),
        ("fi plays in the monday netball league", "fi dropped out of the monday netball league"),
        ("gus has a dog named pip", "gus buried his dog pip"),
        ("cy uses windows", "cy runs linux instead of windows now"),
        ("eli is 40", "eli has just turned 41"),
        ("eli is 40", "eli celebrated turning 41 with a party"),
        ("tam . fav film : alien", "tam fav film : heat"),
        ("jen is on the billing team", "jen transferred from billing to the sales team"),
        ("ben has been following a strict vegan diet", "ben started eating meat again"),
        ("ben follows a ketogenic diet", "ben abandoned keto, eats bread again"),
        ("mo works at tesco", "mo got let go from tesco last week"),
        ("mo is studying law", "mo finished her degree and works at a firm now"),
        ("mo has a budgie named sky", "mo's budgie sky flew away"),
        ("mo loves cycling", "mo has come to dread cycling"),
        ("mo - yoga daily", "mo - yoga? stopped doing it"),
        ("mo has a moustache", "mo shaved his moustache off"),
        ("mo hates jazz", "mo says jazz is goated now"),
        ("mo is in gold", "mo deranked to silver this season"),
        ("vi on linux btw", "vi back on windows for the anticheat"),
        ("vi has a rabbit called bun", "vi's rabbit bun went to live with her cousin"),
        ("vi . diamond in apex", "vi - back to plat"),
        ("lu rents her flat", "lu bought the flat off her landlord, she owns it now"),
        ("lu is expecting her first baby", "lu's baby boy arrived last night"),
        ("lu is pregnant", "lu had the baby, a girl"),
        ("lu wfh full time", "lu got rto'd, in office 4 days a week now"),
        ("lu plays squash every friday", "lu packed squash in after her knee op"),
        ("lu - going out w/ sam", "lu. sam dumped her"),
        ("lu - single", "lu. got a girlfriend, the one from the bakery"),
        ("lu . vegetarian", "lu - back on meat"),
        ("lu has no kids", "lu gave birth to a baby boy"),  # a first child, as before
        ("lu rents a studio flat in leith", "lu has moved out of her leith studio to stockbridge"),
        ("lu hits the gym daily no skips", "lu hasnt been to the gym in months lol"),
        ("lu drinks four energy drinks a shift", "lu hasnt touched an energy drink since june"),
        ("lu has a marathon PB of 3:45", "lu smashed her PB in Leeds, ran 3:31"),
        ("lu has a 10k PB of 48:30", "lu smashed her 10k pb on sunday, ran 46:50"),
        ("lu has a marathon best of 3:12", "lu lowered her marathon best to 3:04"),
        ("lu has a parrot called mango", "lu says the parrots name is actually kiwi not mango"),
        ("lu has one dog, named rex", "lu corrected that her only dog is named bo"),
        ("lu. dog: bean", "lu - dog's name is actually bun"),
        ("lu is a cat person", "lu says shes a dog person not a cat person"),
        ("lu - single", "lu. seeing someone now"),
        ("lu is single af", "lu bagged herself a bf lol, taken now"),
        ("lu - bf named liam", "lu single again lol he ghosted"),
        ("lu. UTC+9", "lu - in London now, UTC+0"),
        ("lu in leeds now", "lu in york"),
        ("lu studies economics", "lu switched programmes, she's in data science now"),
        ("lu - vegan", "lu. back on dairy and eggs lol"),
        ("lu on windows 11", "lu nuked windows, full linux user now btw"),
        ("lu works for ubisoft", "lu got laid of from ubisoft, shes at EA now"),  # "off" mistyped
        ("lu hates anime", "lu binged all of jjk and is a full weeb now"),
        ("lu grinds ranked every night", "lu on a break from ranked, touching grass"),
        ("lu streams every night", "lu is taking a break from streaming"),
    ],
)
def test_a_change_in_chat_words_ends_the_old_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("nell has a dog", "nell has 2 dogs now"),  # the first one may be had still
        ("ivy has a sprained ankle", "ivy has a sprained wrist too"),
        ("nat is from manila", "nat moved from manila to toronto as a kid"),  # from there still
        ("ada lives in york", "ada moved to another part of york"),
        ("mo works at tesco", "mo finally let go of the tesco drama"),
        ("lu rents a flat in york", "lu lives in a rented apartment in york"),
        ("lu has a marathon PB of 3:45", "lu ran 3:31 in a half marathon"),
        ("lu has a 10k PB of 48:30", "lu has a marathon best of 3:50"),  # another distance
        ("lu. dog: bean", "lu - has a dog named bean"),
        ("lu is a dog person", "lu says shes a dog person not a cat person"),
        ("lu is single", "lu's sister is seeing someone"),
        ("lu in eu timezone", "lu lives in berlin"),  # a zone, no home
        ("lu is vegetarian", "lu is back on cheese"),  # which a vegetarian eats
        ("lu holds a bachelor's degree in physics", "lu graduated with a bsc in physics"),
        ("lu works as a dental assistant", "lu's job is assisting a dentist"),  # what is done
        ("lu - no gaming this month", "lu is on a gaming break"),  # a break is no gaming
        ("lu drinks coffee daily", "lu is on a coffee break"),  # a break for coffee
        ("lu drives for the hospital transport", "lu gives patients lifts to the hospital"),
    ],
)
def test_what_may_both_hold_ends_nothing(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


def test_keen_words_deny_nothing() -> None:
    assert not read("lu hits the gym daily no skips").negated
    assert not read("lu goes 6x a week no days off").negated
    assert read("lu hasnt been to the gym in months").stopped


def test_a_fragment_on_a_system_uses_it() -> None:
    assert read("vi on linux btw").body == "vi uses linux"
    assert read("vi on the bus").body == "vi on the bus"


def test_only_a_thing_is_goated() -> None:
    assert "likes" not in read("mo thinks he is goated").body.split()


def test_into_a_school_is_no_liking() -> None:
    assert "likes" not in read("kai . into uni now").body.split()
    assert "likes" in read("kai . into rugby now").body.split()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("yui hates mushrooms", "yui puts mushrooms in everything now"),
        ("kenzo ngl hates fortnite", "kenzo been grinding fortnite nonstop, says it's peak now"),
        ("Vikram cannot stand Coldplay.", "Vikram listens to Coldplay on repeat."),
        ("nell - hates dogs", "nell. got a puppy, obsessed"),
        ("tom hates running", "tom runs now to get fit"),
        # a view come round, the kind left out
        ("Ida dislikes mecha anime.", "Ida has come around to mecha and enjoys it."),
        ("Ida doesn't like Gundam.", "Ida says Gundam has become one of her favourite series."),
        ("Ida hates jazz music.", "Ida has grown to love jazz."),  # "love jazz", read
    ],
)
def test_a_thing_disliked_then_taken_to_now_ends_the_dislike(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("tom hates his commute", "tom commutes every day"),  # a habit alone is no liking
        ("tom doesnt like coffee", "tom drinks coffee now and then"),  # once in a while
        ("tom doesnt like coffee", "tom drinks coffee every now n then"),
        ("tom doesnt like cats", "tom's sister has a cat now"),  # someone else's
        ("tom hates cod", "tom wants to play cod now"),  # a wish
        ("tom hates running", "running has become a chore for tom"),  # no view come round
        ("tom hates horror movies", "tom likes movies now"),  # the kind alone
        ("tom hates jazz music", "tom cant stand jazz fr its a no from him"),  # two denials
        ("tom hates, like, early lectures", "tom hates, uh, spiders, can't look at them"),
    ],
)
def test_a_habit_once_in_a_while_or_a_wish_leaves_a_dislike_alone(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is UNRELATED


def test_a_liking_then_a_dislike_now_in_more_words_ends_the_liking() -> None:
    assert relation("nell. loves hill reps", "nell - hill reps = pure hate now", 0.6) is (
        CONTRADICTS
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("tom loves coffee", "tom doesnt drink coffee after 6pm now"),
        ("tom likes hiking", "tom cant go hiking now, broken ankle"),
        ("tom loves the gym", "tom doesnt go to the gym on sundays now"),
    ],
)
def test_a_liking_then_a_thing_not_done_now_is_no_dislike(old: str, new: str) -> None:
    assert relation(old, new, 0.6) is UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("al is treasurer of the rowing club", "al stood down as treasurer of the rowing club"),
        ("al is chairman of the quiz league", "al handed over the chairmanship of the quiz league"),
        ("al volunteers as a steward at the match", "al stepped back from stewarding this season"),
        ("al is on the county squad", "al got cut from the county squad"),
        ("al - apprentice at a garage", "al. apprenticeship done, qualified mechanic now"),
        ("al runs with a garmin 245", "al binned the garmin, on a coros now"),
        ("al has a futon", "al threw out the futon"),
    ],
)
def test_a_role_or_thing_left_in_other_words_ends_it(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("al has a bin", "al takes the bins out on mondays"),
        ("al is a steward at the match", "al stepped back to let the crowd through"),
        ("al has a passport", "al's pass expired"),  # "pass" is no passport: another word
    ],
)
def test_words_that_only_look_like_leaving_end_nothing(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("al drinks full fat milk", "al only drinks oat milk now", CONTRADICTS),
        ("al reads crime novels", "al only reads fantasy novels now", CONTRADICTS),
        ("al watches anime dubbed", "al only watches anime subbed now", CONTRADICTS),
        ("al drinks coffee", "al only drinks decaf coffee now", UNRELATED),  # nothing left
        ("al plays indie games", "al only plays indie games now", Relation.SAME),
    ],
)
def test_only_another_kind_of_the_same_thing_now_ends_the_old_kind(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, 0.5) is expected
