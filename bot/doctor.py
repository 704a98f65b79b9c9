"""``memorybot doctor``: is this installation able to do its job?"""

from __future__ import annotations

import asyncio
import os
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from memory.errors import MemorybotError
from memory.settings import Settings, load_settings
from memory.storage.damage import REPAIR_HINT, damage_line, is_damage
from memory.storage.lock import DataDirLock
from memory.storage.opening import open_storage, store_name
from memory.storage.permissions import make_private_dir
from memory.storage.repair import quick_check, repair
from memory.storage.store import Store


def _check(name: str, ok: bool, detail: str) -> dict[str, Any]:
    return {"name": name, "ok": ok, "detail": detail}


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


async def run_doctor(data_dir: Path | None) -> dict[str, Any]:
    """Every check with ``ok`` and a one-line detail; ``ok`` overall when all pass."""
    checks = [
        _check(
            "python",
            sys.version_info >= (3, 11),
            f"{platform.python_version()} ({sys.executable})",
        ),
        _check("memorybot", True, _version("memorybot")),
    ]
    try:
        settings = load_settings(**({"data_dir": data_dir} if data_dir else {}))
    except MemorybotError as exc:
        checks.append(_check("settings", False, str(exc)))
        return {"ok": False, "checks": checks}
    checks.append(_check("settings", True, "valid"))
    checks.append(_voice_check(settings))
    checks.append(_discord_check(settings))
    checks.append(_data_dir_check(settings))
    if checks[-1]["ok"]:
        checks.extend(await _database_checks(settings))
    return {"ok": all(c["ok"] for c in checks), "checks": checks}


def _voice_check(settings: Settings) -> dict[str, Any]:
    """Voice is optional: a missing part is reported, never an error."""
    from memory.settings import LOCAL_STT
    from voice.availability import missing_voice_parts

    missing = missing_voice_parts(settings.stt_model)
    if missing:
        return _check("voice", True, f"off (needs {', '.join(missing)}; see README, Voice)")
    stt = "offline pocketsphinx" if settings.stt_model == LOCAL_STT else settings.stt_model
    return _check("voice", True, f"ready (speech-to-text: {stt})")


def _discord_check(settings: Settings) -> dict[str, Any]:
    """The bot is optional: no token is reported, never an error."""
    from bot.command_sync import SyncRecord

    if settings.discord_token is None:
        return _check("discord", True, "no DISCORD_TOKEN (only `run` and `sync-commands` need it)")
    registered = SyncRecord(settings.data_dir).describe()
    return _check("discord", True, f"token set; slash commands {registered}")


def _data_dir_check(settings: Settings) -> dict[str, Any]:
    path = settings.data_dir.resolve()
    try:
        make_private_dir(path)
    except OSError as exc:
        return _check("data dir", False, f"{path}: cannot create: {exc.strerror or exc}")
    if not os.access(path, os.W_OK):
        return _check("data dir", False, f"{path}: not writable")
    return _check("data dir", True, str(path))


PACKAGES = ("discord.py", "aiohttp", "openai")
#: What SQLite says of a file whose first page (header and start of the schema) is gone.
NOT_A_DATABASE = "file is not a database"
NOTHING_READABLE = "its first page cannot be read: restore a backup"
POSTGRES_PACKAGES = ("asyncpg", *PACKAGES)


async def _database_checks(settings: Settings) -> list[dict[str, Any]]:
    if settings.postgres_url is not None:
        return await _postgres_checks(settings)
    problems = await asyncio.to_thread(quick_check, settings.db_path) if _exists(settings) else []
    if problems:
        first = problems[0].replace("*** in database main ***", "").strip().splitlines()
        shown = f"quick_check: {first[0] if first else problems[0]}"
        if len(problems) > 1 or len(first) > 1:
            shown += " …"
        way_out = NOTHING_READABLE if problems == [NOT_A_DATABASE] else REPAIR_HINT
        return [_check("database", False, f"{settings.db_path} is damaged ({shown}): {way_out}")]
    try:
        async with await Store.open(settings.db_path) as store:
            versions = await store.versions()
            guilds = len(await store.guild_ids())
    except MemorybotError as exc:
        return [_check("database", False, str(exc))]
    except Exception as exc:
        if not is_damage(exc):
            raise
        return [_check("database", False, damage_line(settings.db_path, exc))]
    size = settings.db_path.stat().st_size if settings.db_path.exists() else 0
    return [
        _check(
            "database",
            True,
            f"{settings.db_path} ({size:,} bytes, {guilds} guild(s); quick_check ok)",
        ),
        _check("sqlite", True, versions["sqlite"]),
        _check("fts5", versions["fts5"] == "available", versions["fts5"]),
        _check("sqlite-vec", True, versions["sqlite_vec"]),
        _check(
            "packages",
            True,
            ", ".join(f"{p} {_version(p)}" for p in ("aiosqlite", *PACKAGES)),
        ),
    ]


async def _postgres_checks(settings: Settings) -> list[dict[str, Any]]:
    try:
        store = await open_storage(settings)
        try:
            versions = await store.versions()
            guilds = len(await store.guild_ids())
        finally:
            await store.close()
    except MemorybotError as exc:
        return [_check("database", False, str(exc))]
    where = store_name(settings)
    return [
        _check("database", True, f"{where} ({guilds} guild(s))"),
        _check("postgresql", True, versions["postgresql"]),
        _check("pgvector", versions["pgvector"] != "not installed", versions["pgvector"]),
        _check("packages", True, ", ".join(f"{p} {_version(p)}" for p in POSTGRES_PACKAGES)),
    ]


def _exists(settings: Settings) -> bool:
    return settings.db_path.is_file() and settings.db_path.stat().st_size > 0


async def repair_database(data_dir: Path | None) -> str:
    """``doctor --repair``: save what can be read of a damaged database into a new one (the
    damaged file kept aside); one line saying what was done."""
    settings = load_settings(**({"data_dir": data_dir} if data_dir else {}))
    if settings.postgres_url is not None:
        return (
            f"the store is PostgreSQL ({store_name(settings)}): --repair mends SQLite files "
            "only; use PostgreSQL's own tools (pg_amcheck, a backup)"
        )
    if not _exists(settings):
        return f"no database at {settings.db_path}: nothing to repair"
    with DataDirLock(settings.data_dir):  # no other memorybot writes meanwhile
        problems = await asyncio.to_thread(quick_check, settings.db_path)
        if not problems:
            return f"{settings.db_path} passes quick_check: nothing to repair"
        report = await repair(settings.db_path)
    return f"repaired {settings.db_path}: {report.describe()}"
