"""How a member reads and watches (memory.lifecycle.media_patterns), through the public
``relation``: in print or digitally, dubbed or subtitled; and what leaves the old way true."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

CONTRADICTS = Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Noa reads comics only in print.", "Noa switched to reading comics digitally."),
        ("noa - physical books only", "noa - went digital. kindle now"),
        ("noa watches dubs", "noa subs only now, the dubs are bad"),
        ("noa reads only e-book now", "noa reads only print"),  # each spelling has one name
    ],
)  # fmt: skip
def test_another_way_to_read_or_watch_contradicts_the_old_one(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same way in other words; a way said beside others
        ("noa - reads only on her kindle", "Noa reads only ebooks."),
        ("Noa reads comics only in print.", "Noa also has a few comics on her tablet."),
        ("noa watches subs", "noa watched a dub once with her brother"),
    ],
)  # fmt: skip
def test_the_same_way_or_one_beside_it_does_not_contradict(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS
