"""``memorybot profiles``: let the LLM write members' profile paragraphs now, with a progress
bar (by member) on a terminal, and refresh MEMORY.md."""

from __future__ import annotations

from bot.commands_ingest import progress_bar
from memory.errors import ConfigError
from memory.profile_pass import NO_MODEL, ProfileTally
from memory.runtime import open_memory
from memory.settings import Settings


async def write_profiles(
    settings: Settings, *, guild_id: str | None = None, quiet: bool = False
) -> ProfileTally:
    """One pass of the profile writer over the guild (every guild when None); MEMORY.md of
    each guild with a new paragraph is rewritten. ``ConfigError`` without a model, before
    anything is opened."""
    if not settings.llm_model:
        raise ConfigError(NO_MODEL)
    async with open_memory(settings, start_queue=False) as memory:
        guilds = [guild_id] if guild_id else await memory.guild_ids()
        subjects = sum([await memory.count_subjects(g) for g in guilds])
        tally = ProfileTally()
        with progress_bar(quiet, counted=True) as progress:
            task = progress.add_task("profiles", total=max(subjects, 1))
            for guild in guilds:
                tally.add(await memory.write_profiles(guild, lambda n: progress.advance(task, n)))
        await memory.flush_journals()
    return tally


def describe(tally: ProfileTally) -> str:
    """``wrote 3 profile paragraph(s) in 1 guild(s): 2 unchanged, 1 refused or failed ...``."""
    return (
        f"wrote {tally.written} profile paragraph(s) in {tally.guilds} guild(s): "
        f"{tally.unchanged} unchanged, {tally.failed} refused or failed (see the warnings), "
        f"{tally.skipped} member(s) with too few facts"
    )
