"""A change told as an event ends the older fact on its topic (memory.lifecycle.change),
through the public ``relation``: the new fact comes second, and the change ends the old one
only in that direction."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

CONTRADICTS, UNRELATED = Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a topic cue: the change names its topic on its own
        ("noor lives in glasgow", "noor moved last week, loving it so far"),
        ("Tariq has a girlfriend.", "Tariq is single again after three years."),
        ("Tariq is engaged to Lina.", "Tariq and Lina broke up."),
        ("bea studies law at uni", "bea dropped out lol"),
        ("Bea is a student at Trinity College.", "Bea graduated in June."),
        ("Hugo works as a forklift driver.", "Hugo got laid off yesterday."),
        ("hugo works retail", "hugo got fired from his job"),
        # a topic the new fact names too
        ("Ines is studying chemistry.", "Ines switched her major to history."),
        # an object cue next to a word of the old fact, or one made from it
        ("otto vapes", "otto quit vaping, 3 weeks clean"),
        ("Otto works as a baker.", "Otto left baking to drive a taxi."),
        ("Sana has a tortoise named Shelly.", "Sana's tortoise Shelly passed away, sadly."),
        ("Sana plays the drums.", "Sana sold her drums and stopped playing."),
        ("lena uses a logitech mouse", "lena replaced her logitech with a razer viper"),
        ("Ravi maintains the server's FAQ.", "Ravi handed off the FAQ to Mo."),
        ("pim plays fortnite every night", "pim uninstalled fortnite lol"),
        ("Tom plays chess online.", "Tom gave up chess last year."),
        ("Eli is a moderator of the server.", "Eli stepped down as a moderator."),
        # ...or before it: "the 3080 got sold", "the imac is gone"
        ("jo has a 3080", "jo got a 4080, the 3080 got sold"),
        ("jo runs an old imac", "jo got a mac mini, the imac is gone"),
        # a switch of a thing both name, on no known topic
        ("Mina uses Windows 10.", "Mina upgraded to Windows 11."),
        ("kai mains sova in valorant", "kai switched his valorant main to omen"),
        ("Misaki plays the flute.", "Misaki switched from flute to sax."),  # what was left
        # ...of the member's own choice, told as a possessive
        ("Haruto's main game is Valorant.", "Haruto switched from Valorant to Overwatch 2."),
        (
            "Misaki's main instrument is the flute.",
            "Misaki switched from flute to saxophone as her main instrument.",
        ),
        # a clause of the new fact denies the old one
        ("kit is vegetarian", "kit back on steak ngl, no more vegetarian"),
    ],
)
def test_a_change_told_as_an_event_ends_the_old_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.4) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("noor lives in glasgow", "noor is moving to leeds next year"),  # a plan
        ("noor lives in glasgow", "noor wants to move someday"),  # a wish
        ("noor lives in glasgow", "noor hasn't moved yet"),  # a denied change
        ("noor lives in glasgow", "noor moved to a bigger flat in glasgow"),  # same city
        ("Noor lives in Scotland.", "Noor moved to Glasgow."),  # a city of the old country
        ("Tariq is married.", "Tariq's cousin got divorced."),  # someone else's change
        ("Tariq's sister lives in Oslo.", "Tariq moved to Bergen."),  # the old was hers
        ("Kai's sister plays Valorant.", "Kai switched from Valorant to Overwatch."),
        ("Bea went on a date with Sam on 2 May 2024.", "Bea is single."),  # a dated event
        ("Bea wants to be a pilot.", "Bea got fired."),  # a wish is no state
        ("Tariq broke up with Lina.", "Tariq is single."),  # the same change told again
        ("Otto works as a baker.", "Otto quit smoking."),  # the change is of another thing
        ("Otto works from home.", "Otto moved to Lyon."),  # where he works, not lives
        ("Ines is learning Spanish.", "Ines switched her degree to history."),  # a pastime
        ("kai plays valorant", "kai switched to playing valorant on pc"),  # the same game
        ("Mina uses Windows 11.", "Mina upgraded her GPU."),  # another thing
        ("jo wants a 4080", "jo's 3080 got sold"),  # a wish is no state
        ("Tom plays chess online.", "Tom gave up smoking."),  # another habit
        ("Ali plays tennis.", "Ali hurt his left knee playing tennis."),  # a side, no leaving
        ("kai is a mod", "kai got promoted to mod"),  # the role told again
        ("Bo has a contract with a label.", "Bo's contract with the label ended up renewed."),
    ],
)
def test_what_is_no_change_of_the_old_fact_leaves_it_standing(old: str, new: str) -> None:
    assert relation(old, new, 0.4) is UNRELATED


def test_a_change_ends_the_fact_before_it_not_the_one_after() -> None:
    assert relation("hugo works retail", "hugo quit retail", 0.5) is CONTRADICTS
    assert relation("hugo quit retail", "hugo works retail", 0.5) is not Relation.SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a switch to another of the same kind, no word in common
        ("Ravi uses an iPhone.", "ravi switched to a pixel"),
        ("lea plays fortnite every day", "lea swapped to valorant"),
        ("Ines is studying chemistry.", "ines switched to physics"),
        # ... though both keep what it runs on
        ("Haruto uses Linux on his laptop.", "Haruto switched to Windows on his laptop."),
        # cues of a change typed with a typo
        ("Omar plays Overwatch.", "Omar swiched to Apex."),
        # more ways of ending a thing
        ("Yuki drives a Honda Civic.", "Yuki traded the Civic in for a Mazda."),
        ("oskar drives an old corolla", "oskar scrapped the corolla"),
        ("Ben has a cat named Miso.", "Ben rehomed Miso last week."),
        ("ahmed works at tesco", "ahmed packed in the tesco job"),
        ("Tamsin is doing a nursing degree.", "Tamsin withdrew from her nursing degree."),
        ("Flo drinks energy drinks daily.", "Flo cut out energy drinks."),
        ("Emil drives a Tesla.", "Emil got rid of the Tesla."),
        ("isak speaks a bit of french", "isak has forgotten basically all his french"),
        ("chen has discord nitro", "chen let his nitro subscription run out"),
        ("Connor has been vegetarian for over a decade.", "Connor has started eating meat again."),
        ("idris. vegan", "idris eats cheese every day now"),
        # a change with no word in common and no slot: "left" still lets the two meet
        ("zara works at h&m", "zara left h&m, at uniqlo now"),
        # the new fact keeps the job, but names the employer left
        ("Ivo works as a chef at Nobu.", "Ivo resigned from Nobu and is a chef at Zuma now."),
        # a thing "dead to" them, a thing sold told without "got", a habit gone "off"
        ("rosa supports arsenal", "rosa - spurs now, arsenal is dead to her"),
        ("ben has a switch", "ben. steam deck now, switch sold"),
        ("mo is doing carnivore", "mo off carnivore, eats salads now"),
        ("Pia loves olives.", "Pia went off olives after the trip."),
        # a community role changed
        ("lu is a helper on the server", "lu got promoted to admin"),
        ("Dev is an admin of the server.", "Dev got demoted last night."),
        ("vik mods the discord", "vik got demodded lmao"),
        # a thing given to someone, a pastime retired from, a cue typed with a typo
        ("Ivo has a gecko called Rex.", "Ivo gave Rex to his neighbour."),
        ("Ivo runs the server's music bot.", "ivo handed the music bot to kai"),
        ("ivo plays handball on sundays", "ivo retired from handball last year"),
        ("Ivo plays Rainbow Six Siege.", "Ivo uninstaled Siege."),
        # what had to be or was decided is done; notice handed in; a game put down
        ("Ivo owns a husky named Nova.", "Ivo had to rehome Nova when he moved."),
        ("Ivo is studying law at Leeds.", "Ivo decided to drop out of uni."),
        ("Ivo works as a barista at Blend.", "Ivo handed in his notice at Blend."),
        ("Ivo mostly plays Dota.", "Ivo has put Dota down completely."),
        ("Ivo drives a Ford Focus to work.", "Ivo swapped his Focus for a Tesla."),  # no topic
        # a kind cut out, a tool dumped, a phase done, a dislike come around to
        ("Ivo drinks coffee every day.", "Ivo has cut out caffeine completely."),
        ("ivo edits in lightroom", "ivo dumped lightroom for capture one"),
        ("ivo vegan af", "ivo back on meat ngl, vegan arc is done"),
        ("Ivo dislikes cilantro.", "Ivo has come around to cilantro."),
        # slang for an end: fell off, kicked from, swore off, cut off; a subject switched to
        ("ivo - fav char: levi", "ivo. eren is his fav now, levi fell off"),
        ("ivo - helper role", "ivo. got kicked from helpers"),
        ("ivo lives off redbull", "ivo swore off redbull, water only now"),
        ("ivo in a situationship w some guy", "ivo cut off the guy, done w that"),
        ("ivo is event host in the server", "ivo got demoted from event host"),
        ("ivo studies medicine", "ivo switched to engineering"),
        # a thing denied on its own, or "not touched", after a habit with it
        ("ola plays rocket league daily", "ola - no more rocket league, uninstalled"),
        ("kai drinks coffee every morning", "kai doesn't touch coffee anymore"),
        ("Hyun-woo plays Overwatch every night", "Hyun-woo hasnt opened Overwatch in months"),
        ("mia plays stardew most evenings", "mia hasn't launched stardew since june"),
        ("kim plays minecaft daily", "kim no more minecraft"),  # a typo on one side
        ("Tala is a moderator on the server", "Tala resigned as moderator"),
        ("lux - taken", "lux. broke up, single"),
        ("Alistair works at the bank", "Alistair got made redundant from the bank"),
        ("tomo got a hamster named nugget", "tomo rip nugget the hamster"),
        ("deano drives a beamer", "deano flogged the beamer, rocking an old corsa now"),
        ("bex smokes like a chimney lol", "bex quit the ciggies, 3 months clean"),
        ("Jahid is unemployed.", "Jahid started a job at the warehouse on Monday."),
        ("Dmitri works at Google.", "Dmitri lost his job."),
        ("Honora. pescatarian", "Honora - fully vegan now"),
        ("ivo is vegan", "ivo is vegetarian again"),
        ("farah. toronto", "farah - vancouver now, moved in june"),  # a place named alone
        ("Ingrid is a staff engineer at Shopify.", "Ingrid now works at Datadog."),
        ("kenji still in uni", "kenji graduated, done w school"),  # no home in uni
        ("Greta is a studnet at TU Munich", "Greta graduatd from TU Munich"),
        ("Ritu is enagaged", "Ritu calld off the engagment"),
        ("Rafael uses Firefox.", "Rafael switched to Chromium."),  # browsers, editors, clouds
        ("wren has no pets", "wren adopted a rescue greyhound"),  # a breed is the animal
        (
            "gareth works at the council in planning",
            "gareth took early retirement from the council",
        ),
        ("tobias is engaged to his partner sam", "tobias and sam called the wedding off"),
        ("pavel is on the allotment committee", "pavel resigned from the allotment committee"),
        ("Florence drives to work.", "Florence gets the tram to work since she sold her car."),
        ("margit is married to stefan", "margit um her and stefan got divorced"),
        ("vikram is training for the london marathon", "vikram pulled out of the marathon"),
        ("gustav is a smoker", "gustav has been off the cigarettes for six months"),
        ("Jolene - lives with partner", "Jolene. split up, on her own"),
        ("soraya works mornings at the pharmacy", "soraya only does afternoon shifts now"),
        ("Dalia: 2 kids", "Dalia - third baby arrived! 3 kids now"),
        ("akua - no kids", "akua. first baby arrived last week"),
        ("chidi is a faang swe", "chidi got laid off from meta"),
        ("sasha runs a homelab w 3 nodes", "sasha tore down the homelab, on a vps now"),
        ("pixelpaz uses a mac for work", "pixelpaz's laptop is a thinkpad now, mac got returned"),
        ("kwame copped a 4070", "kwame returned the 4070, still running his 3060"),
        ("wei - ubuntu server", "wei. debian on all the boxes, ubuntu removed"),
        (
            "Noor hosts the board game night on Fridays.",
            "Noor moved the board game night to Sundays.",
        ),
        ("bea streams every friday night", "bea moved her streams to sunday afternoons"),
        ("oluwaseun's daughter is seven", "oluwaseun says his daughter just turned eight"),
        ("Meera has a son who is elevn", "Meera her son just turnd twelve"),
        ("pia. nights at the hospital", "pia - days now, no more night shifts"),
        ("jojo sitting at 1500 rapid on chess com", "jojo tilted down to 1300 rapid smh"),
        ("ash plays on 400 dpi", "ash bumped his sens up to 1600 dpi now"),
        ("Paulo is dating Bia.", "Paulo and Bia brokeup last weeek."),
        ("Kofi is in the server's Wednesday drawing circle.", "Kofi has left the drawing circle."),
        # an ending cue names the value it ends
        ("lin studies nursing at uni", "lin graduated in nursing last summer"),
        ("Sol is dating Max.", "Sol and Max broke up."),
        ("ari is studying film", "ari dropped out of film school"),
        # closed, uninstalled, ended: the thing before them, or after
        ("Tess sells mugs on Etsy.", "Tess closed her Etsy shop."),
        ("tess. etsy shop open", "tess - etsy shop closed"),
        ("vin edits in premiere", "vin is a resolve guy now, premiere uninstalled"),
        ("Bo has a contract with a label.", "Bo's contract with the label ended."),
        # a habit left, and for how long
        ("Rae plays the cello every day.", "Rae hasn't played the cello since her exams ended."),
        ("jem drinks monster", "jem kicked the monster habit"),
        # leaving, told in chat and in idioms
        ("kat lives in leeds", "kat dipped from leeds, york now"),
        ("Dev plays bass in a band called Moth.", "Dev has stepped away from Moth."),
        ("yui ships kakairu", "yui jumped ship from kakairu"),
        ("Ian is dating Bea.", "Ian and Bea called it quits."),
        ("Ian is in a relationship with Bea.", "Ian and Bea decided to part ways."),
        ("Ian has a girlfriend.", "Ian and his girlfriend ended their relationship."),
        ("oli is keto", "oli fell off the keto wagon"),
        ("max on the bulk", "max on a cut now, bulk szn over"),
        ("Ada lives in Perth.", "Ada emigrated to Toronto."),
        ("Bo studies law.", "Bo finished her law degree."),
        ("Kit works as a chef.", "Kit retrained as a plumber."),
        ("Sol plays the violin daily.", "Sol hasn't touched the violin in several months."),
    ],
)
def test_more_changes_end_the_old_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("zoe likes music", "zoe switched to physics"),  # no kind the two share
        ("gus has a ps5", "gus switched to pc"),  # "switched" is no Nintendo Switch
        ("mo is doing carnivore", "mo is off work today"),  # time away, no habit left
        ("mo plays dead by daylight", "mo plays dead by daylight with his cousin"),
        ("ada works at the hospital", "ada got promoted to ward manager"),  # no community role
        ("Ivo teaches guitar to teens.", "Ivo gives guitar lessons to teens."),  # a service
        ("ivo has a dog", "ivo gave his dog a treat to celebrate"),  # given nobody
        ("ivo has a cat", "ivo gave his cat a bath"),
        ("noor lives in glasgow", "noor has to move next year"),  # still a plan
        ("noor lives in glasgow", "noor - moving to leeds in june"),  # a change to come
        ("ishaan is in his final year of uni", "ishaan is a uni senior, graduating this year"),
        ("Ivo owns a gaming laptop.", "Ivo upgraded the RAM in his laptop."),  # a part of it
        ("ivo uses fl studio", "ivo upgraded to the fl studio producer edition"),  # an edition
        ("ivo is vegan", "ivo is done with exams"),  # done with something else
        ("Priya teaches maths.", "Priya switched her degree to economics."),  # her studies
        ("Jahid is unemployed.", "Jahid's sister started a job at the warehouse."),
        ("ivo is vegan", "ivo's sister is vegetarian"),
        ("ivo is vegan", "ivo is not vegetarian"),
        ("Priya is learning Japanese.", "Priya switched her degree to economics."),
        ("Valentina is a software engineer.", "Valentina works at Spotify as an engineer."),
        ("jo lives with her boyfriend", "jo got engaged"),
        ("ana is off work today", "ana has been off the clock since noon"),
        ("ana works in planning", "ana's plan to move was dropped"),
        ("Stefan has two kids.", "Stefan's eldest child is eight."),  # one of the two
        ("zara has two brothers", "zara says her older brother just started uni"),
        ("Caio has a degree from PUC-Rio.", "Caio has returned to PUC-Rio for a masters."),
        ("jo plays football on saturdays", "jo plays tennis on sundays now"),  # other things
        ("jo streams on fridays", "jo also streams on sundays"),  # one day more
        ("jo's older son is 10", "jo's younger son is 7"),  # two sons
        ("jo is 30", "jo's son is 7"),
        ("renata knits scarfs", "renata sells her scarfs on etsy"),  # a trade, not a loss
        ("maren works at a cafe", "maren has a job at a coffee shop"),
        ("jo is 1500 rapid", "jo is 1300 blitz"),  # two ratings
    ],
)
def test_a_switch_to_something_of_another_kind_ends_nothing(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("kit mains mercy", "kit swapped mercy for kiriko, kiriko main now"),  # the old value kept
        ("omar lives in leeds with his parents",
         "omar not at his parents place anymore, renting a room in york now"),
        ("bo sings in the church choir", "bo sings at open mics instead of the choir now"),
        ("Quentin uses a Windows laptop.",
         "Quentin now uses a Chromebook instead of his Windows laptop."),  # all its words kept
        ("kai sells prints on etsy", "kai moved his shop from etsy to his own site"),
        ("ren streams on twitch", "ren moved her streams from twitch to kick"),  # a noun that
        # is a verb too ("twitch") is a thing after "on" or "from"
    ],
)  # fmt: skip
def test_a_thing_switched_or_no_longer_so_ends_the_old_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("kai drinks tea", "kai drinks tea instead of coffee"),  # tea is what he drinks
        ("mo works as a cashier", "mo doesnt work nights anymore"),  # a verb shared, no thing
        ("jo's favourite food is ramen", "jo's favourite colour isnt blue anymore"),
        ("ana has a cat", "ana's sister doesn't have a cat anymore"),  # someone else's
        ("ivo wants to switch to linux", "ivo no longer uses linux at work"),  # a wish
        ("nat's from manila", "nat moved from manila to toronto as a kid"),  # moved herself
    ],
)
def test_no_longer_about_another_thing_ends_nothing(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a medicine one was taken off, the thing ended matched with a typo
        ("noor she's on sertraline", "noor the gp took her off the sertraline in may", CONTRADICTS),
        ("bram is on lisinopril", "bram came off lisinoprl last week", CONTRADICTS),
        ("dee wears glasses", "dee took off her glasses for the photo", UNRELATED),
        ("dee wears glasses", "dee took her glasses off for the photo", UNRELATED),
        # stolen, overtaken, dethroned
        ("rhys rides a brompton", "rhys had his brompton stolen , walks now", CONTRADICTS),
        ("ana's favourite band is blur", "ana says pulp has overtaken blur as her favourite",
         CONTRADICTS),
        ("kit's fav game is hades", "kit's fav is balatro now , hades got dethroned", CONTRADICTS),
        ("rhys rides a brompton", "rhys had his wallet stolen on the bus", UNRELATED),
        # resigned, hung up
        ("mo is on the parish council", "mo resigned from the parish council", CONTRADICTS),
        ("jen referees sunday league", "jen has hung up her referee whistle", CONTRADICTS),
        ("jen has a landline", "jen hung up the phone on her landline", UNRELATED),
        # the day after "instead of" is the old one
        ("ana runs on saturdays", "ana runs on sundays now instead of saturdays", CONTRADICTS),
        ("ana runs on saturdays", "ana runs on saturdays instead of the gym", UNRELATED),
    ],
)  # fmt: skip
def test_more_ways_a_thing_ends(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.5) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a thing ended told after it, in a fragment or a passive
        ("suki plays roblox", "suki - roblox deleted, homework first", CONTRADICTS),
        ("omar is on hinge", "omar's hinge account got deleted", CONTRADICTS),
        ("bea drives a corsa", "bea had the corsa written off in the crash", CONTRADICTS),
        ("suki plays roblox", "suki deleted her old homework files", UNRELATED),
        # a kind of the thing had: "a car" is the skoda
        ("tam drives a skoda", "tam has no car anymore", CONTRADICTS),
        ("tam drives a skoda", "tam sold the car to his cousin", CONTRADICTS),
        ("tam drives a skoda", "tam has no bike anymore", UNRELATED),
        # another time of day or day of the week, told as a move
        ("ines swims at 7am", "ines moved her swims to evenings", CONTRADICTS),
        ("ines swims at 7am", "ines swims at 7am and 6pm on fridays now", UNRELATED),
        ("gus streams on sundays", "gus - sunday streams moved. fridays now", CONTRADICTS),
        ("gus streams on sundays", "gus streams on sundays and fridays now", UNRELATED),
        # "as of" a weekday dates what is said
        ("mia. 31", "mia - 32 as of fri", CONTRADICTS),
        # a thing ended by a pronoun, named before it; a couple "over"
        ("rafa . loves padel", "rafa - padel? done with it, too hot", CONTRADICTS),
        ("rafa drinks red bull", "rafa - red bull gives him the shakes now , quit it", CONTRADICTS),
        ("rafa plays padel", "rafa loves padel and would never quit it", UNRELATED),
        ("kim is dating ross", "kim - her and ross? over", CONTRADICTS),
    ],
)  # fmt: skip
def test_a_thing_ended_a_time_moved_a_kind_no_more(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, 0.5) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("lea goes climbing twice a week", "lea fell off climbing , no sessions since may",
         CONTRADICTS),
        ("lea loves oat lattes", "lea has gone off oat lattes", CONTRADICTS),
        ("lea loves true crime", "lea says true crime got tired , over it", CONTRADICTS),
        ("max sings in a choir", "max - the choir split up in june", CONTRADICTS),
        ("max sings in a choir", "max's choir got a new conductor", UNRELATED),
        ("max works at the depot", "max handed his notice in at the depot , starts at asda monday",
         CONTRADICTS),
        ("max works at greggs", "max yeeted the greggs job lol", CONTRADICTS),
        ("max drives a fiesta", "max wrote off the fiesta on the a1", CONTRADICTS),
        ("kit is doing a phd in history", "kit discontinued the phd", CONTRADICTS),
        ("kit watches every f1 race", "kit refuses to watch f1 now", CONTRADICTS),
        ("kit is a big swiftie", "kit is done being a swiftie", CONTRADICTS),
        ("kit does crossfit", "kit - crossfit arc finished", CONTRADICTS),
        ("kit loves tequila", "kit . tequila = never again", CONTRADICTS),
        # who one lives with, told another way
        ("sol lives alone", "sol shares a flat with 2 friends now", CONTRADICTS),
        ("sol lives alone", "sol has her girlfriend living with her now", CONTRADICTS),
    ],
)  # fmt: skip
def test_fell_off_gone_off_over_it_split_up_notice_handed_in(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, 0.5) is expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Soledad is a firefighter.", "Soledad is working at the fire station.",
         Relation.UNRELATED),
        ("Soledad works at the depot.", "Soledad got fired from the depot.", Relation.CONTRADICTS),
        ("ngozi lives in salford", "ngozi moved to a bigger flat in the same building",
         Relation.UNRELATED),
        ("ngozi lives in leeds", "ngozi moved house but stayed in the same area",
         Relation.UNRELATED),
        ("ngozi lives in leeds", "ngozi moved house, to york", Relation.CONTRADICTS),
    ],
)  # fmt: skip
def test_a_fire_station_fires_no_one_and_a_move_within_one_place_keeps_it(
    old: str, new: str, expected: Relation
) -> None:
    assert relation(old, new, 0.6) is expected
