"""The one Discord id rule, as every reader of ids applies it."""

from __future__ import annotations

import pytest

from memory.errors import ConfigError
from memory.ids import MENTION, is_discord_id
from memory.imports.format import to_row
from memory.settings import load_settings
from tests.helpers import SARAH, export_message

GOOD = ["1" * 17, "123456789012345678", "9" * 20]
BAD = ["1" * 16, "1" * 21, "", " 123456789012345678", "123456789012345678\n",
       "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨",  # Arabic-Indic digits
       "１２３４５６７８９０１２３４５６７８", "12345678901234567a"]  # fmt: skip


@pytest.mark.parametrize("value", GOOD)
def test_seventeen_to_twenty_ascii_digits_are_an_id(value: str) -> None:
    assert is_discord_id(value)
    assert load_settings(dev_guild=value).dev_guild == value
    assert not isinstance(to_row({**export_message(1, "hello there"), "id": value}), str)


@pytest.mark.parametrize("value", [*BAD, 123456789012345678, None])
def test_anything_else_is_not(value: object) -> None:
    assert not is_discord_id(value)
    if isinstance(value, str):
        with pytest.raises(ConfigError):
            load_settings(dev_guild=value)
        assert to_row({**export_message(1, "hello there"), "id": value}) == "invalid"


def test_mentions_use_the_same_rule() -> None:
    text = f"<@{SARAH.id}> and <@!{'2' * 20}> but not <@{'3' * 16}> or <@{'4' * 21}>"
    assert MENTION.findall(text) == [SARAH.id, "2" * 20]
