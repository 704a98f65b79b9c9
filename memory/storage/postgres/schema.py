"""The PostgreSQL schema, one migration at a time (never edited once shipped). Every key
starts with the guild id: each query names one guild. Times are ``timestamptz``."""

from __future__ import annotations

P001_MEMBERS = [
    """
    CREATE TABLE guilds (
        guild_id   text PRIMARY KEY,
        name       text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL
    )
    """,
    """
    CREATE TABLE members (
        guild_id     text NOT NULL,
        user_id      text NOT NULL,
        display_name text NOT NULL,
        username     text NOT NULL DEFAULT '',
        updated_at   timestamptz NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE member_optouts (
        guild_id text NOT NULL,
        user_id  text NOT NULL,
        since    timestamptz NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE guild_settings (
        guild_id   text NOT NULL,
        key        text NOT NULL,
        value      jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (guild_id, key)
    )
    """,
]

MIGRATIONS: list[tuple[str, list[str]]] = [
    ("p001_members", P001_MEMBERS),
]
