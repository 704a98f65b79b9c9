"""What a member uses (memory.lifecycle.gear_patterns): a graphics card, a monitor's refresh
rate, what they play with; and whom they play as (memory.lifecycle.game_patterns): their
main. One of each at a time: another one told is a change."""

from __future__ import annotations

import pytest

from memory.lifecycle.reading import read
from memory.lifecycle.relation import Relation, relation
from memory.lifecycle.slots import find_slots

NEAR = 0.7


def _slots(text: str) -> dict[str, str]:
    return {slot.key: slot.value for slot in find_slots(read(text).body)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dmitri has an RTX 3070.", "Dmitri upgraded to an RX 7900 XTX."),
        ("tao plays on a 1080 ti", "tao upgraded to a 4070"),
        ("gh0st rocking a 3060", "gh0st upgraded to a 4080, 3060 went to his bro"),
        ("mox - 3060", "mox. gpu's a 4080 now"),
        ("pixelpanda's running a 2060 rn", "pixelpanda copped a 4070 super, the 2060 got sold"),
        ("kenzo still on a 60hz monitor lmao", "kenzo copped a 240hz monitor"),
        ("dex on mnk", "dex went controller, mnk is retired"),
        ("malik plays on controller", "malik switched to mouse and keyboard"),
    ],
)
def test_another_card_monitor_or_way_to_play_is_a_change(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("kim has a 4070", "kim has a 4070 super"),  # one told short
        ("kim has a 3060", "kim wants a 4090"),
        ("kim has a 3060", "kim's brother has a 4090"),
        ("kim has a 60hz monitor", "kim wants a 240hz monitor"),
        ("kim plays on controller", "kim can't play on mouse and keyboard"),
    ],
)
def test_the_same_card_told_short_a_wish_or_someone_else_s_is_no_change(old: str, new: str) -> None:
    assert relation(old, new, NEAR) is not Relation.CONTRADICTS


def test_what_is_read_and_what_is_not() -> None:
    assert _slots("gh0st upgraded to a 4080, 3060 went to his bro") == {"gpu": "4080"}
    assert _slots("Dmitri has an RTX 3070.") == {"gpu": "3070"}
    assert _slots("kim is a kbm player") == {"input": "mnk"}
    assert _slots("kim plays on m&k") == {"input": "mnk"}
    assert "gpu" not in _slots("aroha - 1080p monitor")
    assert "gpu" not in _slots("kim ran 1080 km last year")
    assert _slots("moth copped a 165hz panel, the 60hz is in the trash") == {"refresh": "165"}


def test_a_card_after_a_or_an_is_no_year() -> None:
    assert not read("pixelpanda's running a 2060 rn").dates
    assert read("kim moved to leeds in 2019").dates == {"2019"}


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("elio. main: reyna", "elio - neon main now", Relation.CONTRADICTS),
        ("skye mains support in ow2", "skye went tank main in ow2, no more supp",
         Relation.CONTRADICTS),
        ("zuri mains reinhardt in ow", "zuri is a rein main", Relation.SAME),
        ("kai mains kazuha", "kai's main is kazuha, ofc", Relation.SAME),
        ("yun mains kirby in smash", "yun is a kirby main in ssbu", Relation.SAME),
        # a role and a character, two mains, two games: all may hold
        ("kim mains support in overwatch", "kim mains mercy in overwatch", Relation.UNRELATED),
        ("kim mains mercy and ana", "kim mains ana", Relation.UNRELATED),
        ("kim mains jett in valorant", "kim mains mercy in overwatch", Relation.UNRELATED),
    ],
)  # fmt: skip
def test_a_main_is_one_per_game_and_role(old: str, new: str, expected: Relation) -> None:
    assert relation(old, new, NEAR) is expected
    assert "main" not in _slots("kim mains mercy and ana")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("nils uses an iphone 12", "nils sold his iphone, uses a redmi note now"),
        ("ama uses a redmi", "ama upgraded to a poco x6 and gave the redmi to her sister"),
        ("kojo has an android phone", "kojo got an iphone and ditched android"),
        ("rue plays on euw", "rue moved to na servers since the move to ohio"),
        ("zed on oce servers", "zed only plays eu servers now"),
        ("lux mains support in ow2", "lux went tank main in ow now"),
    ],
)
def test_a_phone_passed_on_a_server_region_or_a_main_of_a_game_by_another_number(
    old: str, new: str
) -> None:
    assert relation(old, new, NEAR) is Relation.CONTRADICTS


def test_the_phone_passed_on_is_not_the_one_used() -> None:
    assert _slots("nils sold his iphone, uses a redmi note now") == {"phone": "xiaomi"}
    assert _slots("kojo got an iphone and ditched android") == {"phone": "apple"}


def test_a_server_region_is_one_name_however_told() -> None:
    assert _slots("rue plays on euw") == _slots("rue is on eu servers") == {"server": "eu"}
    assert _slots("rue does not play on na servers") == {}


def test_a_macbook_is_a_mac_and_a_mac_is_a_system_one_can_leave() -> None:
    assert relation("ivo - macbook", "ivo. sold the mac, linux laptop now", NEAR) is (
        Relation.CONTRADICTS
    )
    assert relation("ivo has a macbook", "ivo has a mac", NEAR) is Relation.SAME


def test_a_phone_waved_goodbye_is_not_the_one_used() -> None:
    assert relation("lin. android user", "lin - pixel gone, iphone 14 now. bye android", NEAR) is (
        Relation.CONTRADICTS
    )
