"""Health and relationship changes, through the public ``relation``: off a waiting list, a
relapse, another doctor (memory.lifecycle.turns, possessive_patterns), a divorce finalised,
distance, openness and commitment (memory.lifecycle.relationship_patterns), moving in with a
partner, a wish given up; and what looks like them but is not."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

CONTRADICTS = Relation.CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # off a waiting list, a relapse, another doctor
        ("Ken is on the waiting list for hip surgery.", "Ken had his hip surgery last Tuesday."),
        ("bea on the waitlist for counselling rn",
         "bea finally started counselling, first session was fri"),
        ("Tam has been sober for a year.", "Tam relapsed over Christmas."),
        ("jo - 3 yrs clean", "jo - relapsed. back to day 1"),
        ("Rui's dentist is Dr. Costa.", "Rui's dentist is now Dr. Lima."),
        # a divorce finalised; far apart, then in one city; open, then closed; casual, then not
        ("Ivo is married.", "Ivo's divorce was finalised in March."),
        ("Meg is in a long-distance relationship.",
         "Meg and her boyfriend finally live in the same city."),
        ("sam - ldr. her in leeds, me in york", "sam - same city now. she moved to york"),
        ("ari - open relationship", "ari - monogamous now. we closed it"),
        ("lou - casual only. no labels", "lou - official w dani. exclusive"),
        # moving in with a partner; a wish given up
        ("Ada lives alone in Porto.", "Ada shares a flat in Porto with her boyfriend."),
        ("Jin wants kids someday.", "Jin has decided he does not want kids."),
    ],
)  # fmt: skip
def test_a_health_or_relationship_change_contradicts_what_held_before(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # still waiting, still sober, the same doctor
        ("Ken is on the waiting list for hip surgery.",
         "Ken is still on the waiting list for hip surgery."),
        ("Tam has been sober for a year.", "Tam celebrated a year sober with his family."),
        ("Rui's dentist is Dr. Costa.", "Rui's dentist is Dr. Costa, in the old town."),
        # still far apart; a wish kept; living with the same partner
        ("Meg is in a long-distance relationship.", "Meg says long distance is hard but worth it."),
        ("Jin wants kids someday.", "Jin wants kids eventually, maybe two."),
        ("Ada lives with her boyfriend.", "Ada shares a flat in Porto with her boyfriend."),
    ],
)  # fmt: skip
def test_what_leaves_the_old_fact_true_does_not_contradict_it(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS
