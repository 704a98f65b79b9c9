"""MEMORY.md: a per-guild snapshot of what memorybot knows, and the root index of guilds."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory.models import LORE_SUBJECT, Fact, GuildStats, MemberProfile, utc_iso
from memory.text import cap, clean_text
from memory_journals.files import SNAPSHOT_NAME, daily_logs
from memory_journals.profiles import profile_lines

HIGHLIGHT_DAYS = 3
HIGHLIGHT_LINES_PER_DAY = 8
SOURCE_LOGS = 5
TAIL_BLOCK = 64 * 1024  # bytes of a daily log read at a time, from its end


@dataclass(frozen=True, slots=True)
class GuildView:
    """What a snapshot is made of, read from the store."""

    stats: GuildStats
    facts: Sequence[Fact]
    names: dict[str, str]
    profiles: Mapping[str, MemberProfile] = field(default_factory=dict)  # by subject


def _fact_line(fact: Fact) -> str:
    """``- <fact> _(<type>, confidence <c>)_ · said <day>``: the day its message was written."""
    text = cap(clean_text(fact.fact), 240)
    kind = f"_({fact.fact_type}, confidence {fact.confidence:.2f})_"
    return f"- {text} {kind} · said {fact.said_on}"


def _summary_line(profile: MemberProfile) -> str:
    """``_Summary (written <day> by the LLM (<model>) from facts [12, 15]):_ <paragraph>``."""
    cited = ", ".join(map(str, profile.fact_ids))
    model = cap(clean_text(profile.model), 60)
    return (
        f"_Summary (written {profile.written_on} by the LLM ({model}) from facts [{cited}]):_ "
        + cap(clean_text(profile.paragraph), 600)
    )


def _subject_title(subject: str, names: dict[str, str]) -> str:
    name = cap(clean_text(names.get(subject, "")), 80)
    return f"### {name} ({subject})" if name else f"### Member {clean_text(subject)}"


def render_snapshot(view: GuildView, folder: Path) -> str:
    """The whole MEMORY.md text of one guild (its daily logs are read from ``folder``)."""
    stats = view.stats
    title = cap(clean_text(stats.name), 100)
    out = [
        "# Durable Memory Snapshot",
        "",
        f"Guild: {title} ({stats.guild_id}) · generated {utc_iso()} · "
        f"{stats.messages} messages · {stats.active_facts} active facts",
        "",
        "## People (Durable Facts)",
        "",
    ]
    if stats.active_facts > len(view.facts):
        out += [f"_The {len(view.facts):,} most recently updated of {stats.active_facts:,} "
                "active facts (`memorybot search` finds them all)._", ""]  # fmt: skip
    people: dict[str, list[Fact]] = {}
    lore: list[Fact] = []
    for fact in view.facts:
        (lore if fact.subject == LORE_SUBJECT else people.setdefault(fact.subject, [])).append(fact)
    if not people:
        out += ["_No durable facts yet._", ""]
    for subject in sorted(people, key=lambda s: (view.names.get(s, "~").lower(), s)):
        name = clean_text(view.names.get(subject, ""))
        profile = profile_lines(people[subject], name)
        summary = view.profiles.get(subject)
        if summary is not None and summary.current:  # a fact it cites gone: hidden
            profile.append(_summary_line(summary))
        out += [_subject_title(subject, view.names), *profile, *([""] if profile else [])]
        out += [*map(_fact_line, people[subject]), ""]
    out += ["## Ongoing Lore", ""]
    out += [*map(_fact_line, lore), ""] if lore else ["_No lore yet._", ""]
    logs = daily_logs(folder)
    out += ["## Recent Journal Highlights", ""]
    if not logs:
        out += ["_No journal entries yet._", ""]
    for log_path in logs[:HIGHLIGHT_DAYS]:
        out += [f"### {log_path.stem}", *last_entries(log_path), ""]
    out += ["## Source Daily Logs", ""]
    out += [f"- [{p.name}]({p.name})" for p in logs[:SOURCE_LOGS]] or ["_None yet._"]
    return "\n".join(out).rstrip() + "\n"


def last_entries(path: Path, count: int = HIGHLIGHT_LINES_PER_DAY) -> list[str]:
    """The last ``count`` entry lines of a daily log, read from its end in blocks: a busy
    guild's day runs to megabytes, of which a snapshot shows a few lines."""
    with open(path, "rb") as handle:
        start = handle.seek(0, os.SEEK_END)
        tail = b""
        while True:
            step = min(start, TAIL_BLOCK)
            start -= step
            handle.seek(start)
            tail = handle.read(step) + tail
            lines = tail.split(b"\n")
            if start:  # the first piece may be the end of a longer line: never an entry
                lines = lines[1:]
            entries = [line for line in lines if line.startswith(b"- ")]
            if len(entries) >= count or not start:
                break
    return [line.decode("utf-8", "replace").rstrip("\r") for line in entries[-count:]]


def render_index(guilds: Sequence[tuple[GuildStats, str]]) -> str:
    """``journals/MEMORY.md``: one line per guild with a link to its snapshot."""
    out = ["# Memory Index", "", f"Generated {utc_iso()} · {len(guilds)} guild(s)", ""]
    for stats, folder_name in guilds:
        name = cap(clean_text(stats.name), 100).replace("[", "(").replace("]", ")")
        out.append(
            f"- [{name}]({folder_name}/{SNAPSHOT_NAME}) ({stats.guild_id}): "
            f"{stats.messages} messages, {stats.active_facts} active facts"
        )
    if not guilds:
        out.append("_No guilds yet._")
    return "\n".join(out) + "\n"
