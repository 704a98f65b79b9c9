"""Who hears that a guild's memory changed, and when (after the imports under way end)."""

from __future__ import annotations

from collections.abc import Callable

from memory.ingest.journal import JournalSink


class ChangeNotices:
    """Tells who needs to know that a guild's memory changed: the journal (its MEMORY.md is
    refreshed) and ``on_facts`` when its facts did (embedding). While imports run, the
    notices wait for the last one to end: facts that the caps archive during an import
    are never embedded, and a snapshot is written once, not every step."""

    def __init__(self, journal: JournalSink | None, on_facts: Callable[[str], None] | None):
        self.journal = journal
        self.on_facts = on_facts
        self.imports = 0  # bulk sessions under way
        self._guilds: set[str] = set()
        self._facts: set[str] = set()

    def changed(self, guild_id: str, facts: bool) -> None:
        if self.imports:
            self._guilds.add(guild_id)
            if facts:
                self._facts.add(guild_id)
            return
        if self.journal is not None:
            self.journal.guild_changed(guild_id)
        if facts and self.on_facts is not None:
            self.on_facts(guild_id)

    def import_ended(self) -> None:
        self.imports -= 1
        if not self.imports:
            for guild_id in sorted(self._guilds):
                self.changed(guild_id, guild_id in self._facts)
            self._guilds.clear()
            self._facts.clear()
