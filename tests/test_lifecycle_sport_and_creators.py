"""A player's and a creator's changes, through the public ``relation``: another position or
place in a league table (memory.lifecycle.sport_patterns), well again after an injury, going
to every game said other ways (memory.lifecycle.fan_phrases), another streaming platform or
editing program (memory.lifecycle.creator_patterns), a thing renamed, a team given up for
another; and what looks like them but is not."""

from __future__ import annotations

import pytest

from memory.lifecycle.relation import Relation, relation

SAME, CONTRADICTS, UNRELATED = Relation.SAME, Relation.CONTRADICTS, Relation.UNRELATED


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another position in the team
        ("Bruno plays left back for his works team.",
         "Bruno now plays as a winger for his works team."),
        ("ife plays um in midfield on sundays", "ife yeah the coach moved her to centre back"),
        ("Hemi said he is a flanker for his club.",
         "Hemi mentioned that his coach has moved him to hooker."),
        ("tash - gk. 5 a side", "tash - playing striker now lol"),
        ("Ravi plays shooting guard.", "Ravi was moved to point guard this season."),
        # another place in a league table
        ("Gwen is top of her darts league.", "Gwen has dropped to fifth in her darts league."),
        ("oz leads the office fantasy league", "oz is 12th in the office fantasy league now"),
        ("bo top of the fpl mini league", "bo 8th in the fpl mini league after a bad week"),
        # well again after an injury
        ("Mika is recovering from a sprained ankle.", "Mika is fully recovered and back running."),
        ("jen's out with a bad knee", "jen's back playing, knee's fine now"),
        ("ty. hamstring. out for the season", "ty back training. hamstring healed"),
        # another streaming platform, another editing program
        ("Noor streams on Twitch.", "Noor now streams only on Kick."),
        ("vic streams on youtube", "vic moved her streams to twitch"),
        ("Otto edits his videos in Final Cut.", "Otto switched to DaVinci Resolve last month."),
        ("sol edits in capcut", "sol moved all his editing over to premiere"),
        # a thing renamed; a team given up for another
        ("Rhea's fantasy team is called Salah Days.", "Rhea renamed her fantasy team Kane Train."),
        ("kit's server is called the den", "kit renamed his server to the burrow"),
        ("Femi supports Everton.", "Femi switched his allegiance to Liverpool last year."),
    ],
)  # fmt: skip
def test_a_player_or_creator_change_contradicts_what_held_before(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is CONTRADICTS


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a position said again in other words
        ("dom plays cb on sundays", "dom plays centre half on sundays"),
        ("kai plays ss in a rec league", "kai is shortstop for his rec league team"),
        ("jo plays rb for her sunday team", "jo is right back for her sunday league team"),
        ("Lola plays wing attack in netball.", "Lola's netball position is wing attack."),
        # going to every game said other ways
        ("Ade never misses a Celtic home game.", "Ade goes to every single Celtic home game."),
        ("Ines has not missed a derby since 2015.", "Ines has attended every derby since 2015."),
        # one program by two of its names
        ("pat edits in resolve", "pat uses davinci for his edits"),
        ("ava is a wedding photog", "ava is a wedding photographer"),
    ],
)  # fmt: skip
def test_the_same_position_habit_or_program_is_the_same_fact(old: str, new: str) -> None:
    assert relation(old, new, 0.7) is SAME


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a move on the pitch or online is no move of home
        ("ben lives in auckland", "ben moved to lock this season"),
        ("Ana lives in Porto.", "Ana moved to YouTube after Twitch banned her."),
        # a keeper who keeps no goal; a second position, a second platform
        ("Ola is a keeper at the zoo.", "Ola plays striker for her Sunday team."),
        ("tom plays centre back for his sunday side", "tom also plays up front for his work team"),
        ("dee streams on twitch", "dee also streams on youtube now"),
        # photos and videos are edited in two programs
        ("rosa edits her photos in lightroom", "rosa edits her videos in premiere"),
        # how many leagues is no place in one
        ("lia is top of the office fantasy league", "lia is in 3 fantasy leagues"),
        # still hurt
        ("Mika is recovering from a sprained ankle.", "Mika is recovering well from the sprain."),
    ],
)  # fmt: skip
def test_what_leaves_the_old_fact_true_does_not_contradict_it(old: str, new: str) -> None:
    assert relation(old, new, 0.5) is not CONTRADICTS
