"""The ``member_profiles`` table's SQL, run whole on the database thread: a guild's
paragraphs (each with whether every fact it cites is still active), and writing one with its
audit event in one transaction. Forgetting a member deletes theirs (``forget_sql``)."""

from __future__ import annotations

import json
from typing import Any

from memory.audit import MemoryEvent
from memory.models import MemberProfile
from memory.storage import events_sql
from memory.storage.ingest_sql import transaction

# ``current``: every cited id is an active fact of the same guild and member, stored before
# the paragraph was written (a fact id freed by a deletion may be given to a newer fact).
SELECT_PROFILES = """
SELECT p.guild_id, p.subject, p.paragraph, p.fact_ids, p.digest, p.model, p.written_at,
       NOT EXISTS (
           SELECT 1 FROM json_each(p.fact_ids) j
           WHERE NOT EXISTS (
               SELECT 1 FROM memory_facts f
               WHERE f.id = j.value AND f.guild_id = p.guild_id AND f.subject = p.subject
                 AND f.is_active = 1 AND f.created_at <= p.written_at
           )
       )
FROM member_profiles p WHERE p.guild_id = ? ORDER BY p.subject
"""
UPSERT_PROFILE = """
INSERT INTO member_profiles (guild_id, subject, paragraph, fact_ids, digest, model, written_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, subject) DO UPDATE SET
    paragraph = excluded.paragraph, fact_ids = excluded.fact_ids, digest = excluded.digest,
    model = excluded.model, written_at = excluded.written_at
"""


def member_profiles(conn: Any, guild_id: str) -> list[MemberProfile]:
    """The guild's paragraphs, by subject."""
    rows = conn.execute(SELECT_PROFILES, (guild_id,)).fetchall()
    return [
        MemberProfile(
            guild_id=row[0],
            subject=row[1],
            paragraph=row[2],
            fact_ids=tuple(int(i) for i in json.loads(row[3])),
            digest=row[4],
            model=row[5],
            written_at=row[6],
            current=bool(row[7]),
        )
        for row in rows
    ]


def write_profile(conn: Any, profile: MemberProfile, event: MemoryEvent, now: str) -> None:
    """Store ``profile`` in place of the member's previous one, and log ``event``."""
    with transaction(conn):
        conn.execute(
            UPSERT_PROFILE,
            (
                profile.guild_id, profile.subject, profile.paragraph,
                json.dumps(list(profile.fact_ids)), profile.digest, profile.model,
                profile.written_at,
            ),
        )  # fmt: skip
        events_sql.record(conn, [event], now)


def delete_profiles(conn: Any, guild_id: str, subject: str) -> int:
    """Delete the member's paragraph (inside the caller's transaction); return how many."""
    cursor = conn.execute(
        "DELETE FROM member_profiles WHERE guild_id = ? AND subject = ?", (guild_id, subject)
    )
    return max(0, int(cursor.rowcount))
