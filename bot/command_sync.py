"""Registering the slash commands with Discord (``CommandTree.sync``), only when needed.

Discord learns an application's commands from one bulk ``PUT``: globally (every server the
bot is in, shown within minutes) or to one server (at once; ``MEMORYBOT_DEV_GUILD``, for
development). Registering costs a rate-limited request, so the hash of the payload last
registered for each target is kept in ``<data dir>/discord-commands.json`` and a start with
unchanged commands sends nothing. ``memorybot sync-commands`` registers regardless.

A registration that fails (no ``applications.commands`` scope, a rate limit, Discord out of
reach) is one log line naming the fix; the bot runs on without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import aiohttp
import discord
from discord import app_commands

from memory.models import utc_iso
from memory.storage.permissions import PRIVATE_FILE, make_private_dir

log = logging.getLogger(__name__)

RECORD_FILE = "discord-commands.json"
SYNC_DEADLINE = 60.0
"""Seconds a registration may take, rate-limit waits included, before it is given up."""

INVITE_SCOPES = "bot+applications.commands"
MANAGE_GUILD = discord.Permissions(manage_guild=True).value


@dataclass(frozen=True, slots=True)
class SyncTarget:
    """Where commands are registered: globally (``guild_id`` None) or to one server."""

    guild_id: int | None = None

    @property
    def guild(self) -> discord.Object | None:
        return None if self.guild_id is None else discord.Object(self.guild_id)

    def key(self, application_id: int) -> str:
        scope = "global" if self.guild_id is None else f"guild:{self.guild_id}"
        return f"{application_id}:{scope}"

    def describe(self) -> str:
        return "globally" if self.guild_id is None else f"to server {self.guild_id}"


@dataclass(frozen=True, slots=True)
class SyncOutcome:
    """What a registration did: ``registered`` (sent now), ``unchanged`` (nothing to send)
    or ``failed`` (``error`` says why and what to do)."""

    status: Literal["registered", "unchanged", "failed"]
    target: SyncTarget
    payload: tuple[dict[str, Any], ...]
    """What was (or would have been) sent: the commands as Discord receives them."""
    error: str = ""

    @property
    def commands(self) -> tuple[str, ...]:
        return command_names(self.payload)

    def describe(self) -> str:
        """The commands part of the bot's ready line."""
        names, where = "; ".join(self.commands) or "none", self.target.describe()
        if self.status == "registered":
            return f"commands registered {where}: {names}"
        if self.status == "unchanged":
            return f"commands as registered before {where} (unchanged): {names}"
        return "commands NOT registered (see the warning above)"


def command_payload(
    tree: app_commands.CommandTree[Any], target: SyncTarget
) -> list[dict[str, Any]]:
    """What ``tree.sync`` sends to Discord for ``target`` (no translator is set)."""
    return [command.to_dict(tree) for command in tree.get_commands(guild=target.guild)]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def command_names(payload: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """One entry per top-level command: ``/memory (search, about, voice join, …)``."""
    return tuple(_describe_command(command) for command in payload)


def _describe_command(command: dict[str, Any]) -> str:
    subcommands = list(_subcommands(command.get("options") or []))
    listed = f" ({', '.join(subcommands)})" if subcommands else ""
    return f"/{command['name']}{listed}"


def _subcommands(options: list[dict[str, Any]], prefix: str = "") -> Any:
    for option in options:
        kind = option.get("type")
        if kind == discord.AppCommandOptionType.subcommand.value:
            yield prefix + option["name"]
        elif kind == discord.AppCommandOptionType.subcommand_group.value:
            yield from _subcommands(option.get("options") or [], f"{prefix}{option['name']} ")


def describe_access(command: dict[str, Any]) -> str:
    """Who Discord offers ``command`` to, as its payload says."""
    where = "servers only" if command.get("contexts") == [0] else "servers and DMs"
    permissions = command.get("default_member_permissions")
    if permissions is None:
        who = "every member"
    elif int(permissions) == MANAGE_GUILD:
        who = "members with Manage Server"
    else:
        who = f"members with permissions {permissions}"
    return f"{where}; {who}"


class SyncRecord:
    """The payload hash last registered per application and target, in the data dir."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / RECORD_FILE

    def registered(self, key: str) -> str | None:
        entry = self._load().get(key)
        return entry.get("hash") if isinstance(entry, dict) else None

    def remember(self, key: str, digest: str) -> None:
        entries = self._load()
        entries[key] = {"hash": digest, "at": utc_iso()}
        make_private_dir(self.path.parent)
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(entries, indent=2, sort_keys=True), encoding="utf-8")
        os.chmod(temporary, PRIVATE_FILE)
        os.replace(temporary, self.path)

    def describe(self) -> str:
        """When and where commands were last registered, for ``memorybot doctor``."""
        places = []
        for key, entry in sorted(self._load().items()):
            scope = key.split(":", 1)[1] if ":" in key else key
            where = "globally" if scope == "global" else f"to server {scope.split(':')[-1]}"
            at = entry.get("at", "?") if isinstance(entry, dict) else "?"
            places.append(f"{where} at {at}")
        return "; ".join(places) or "never registered from this data dir"

    def _load(self) -> dict[str, Any]:
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:  # damaged: registering again repairs it
            log.warning("ignoring %s (%s): the commands will be registered again", self.path, exc)
            return {}
        return loaded if isinstance(loaded, dict) else {}


async def sync_commands(
    client: discord.Client,
    tree: app_commands.CommandTree[Any],
    target: SyncTarget,
    record: SyncRecord,
    *,
    force: bool = False,
    deadline: float = SYNC_DEADLINE,
) -> SyncOutcome:
    """Register ``tree``'s commands for ``target`` unless the same payload was registered
    last time (``force``: regardless). Never raises for Discord's answers: a failure comes
    back as a ``failed`` outcome whose error says what to do. Needs a logged-in client."""
    application_id = client.application_id
    if application_id is None:
        raise RuntimeError("log in before registering commands")
    payload = tuple(command_payload(tree, target))
    digest, key = payload_hash(list(payload)), target.key(application_id)
    if not force and record.registered(key) == digest:
        log.debug("slash commands unchanged %s: not registering", target.describe())
        return SyncOutcome("unchanged", target, payload)
    try:
        async with asyncio.timeout(deadline):
            await tree.sync(guild=target.guild)
    except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError,
            TimeoutError) as exc:  # fmt: skip
        failure = _failure(exc, target, application_id, deadline)
        return SyncOutcome("failed", target, payload, failure)
    with contextlib.suppress(OSError):  # unrecorded: the next start registers again
        record.remember(key, digest)
    outcome = SyncOutcome("registered", target, payload)
    log.debug("slash commands registered %s: %s", target.describe(), "; ".join(outcome.commands))
    return outcome


def invite_url(application_id: int) -> str:
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope={INVITE_SCOPES}&permissions=274879024128"
    )


def _failure(exc: BaseException, target: SyncTarget, application_id: int, deadline: float) -> str:
    """One line: what failed, and what the operator can do about it."""
    later = "run `memorybot sync-commands` later, or restart the bot"
    if isinstance(exc, discord.Forbidden):
        where = (
            "the bot's servers"
            if target.guild_id is None
            else f"server {target.guild_id} (MEMORYBOT_DEV_GUILD: is the bot in it?)"
        )
        reason = exc.text or "Forbidden"
        return (
            f"could not register the slash commands: Discord answered 403 ({reason}): "
            f"invite the bot to {where} with the applications.commands scope — "
            f"{invite_url(application_id)} — then {later}"
        )
    if isinstance(exc, discord.RateLimited) or (
        isinstance(exc, discord.HTTPException) and exc.status == 429
    ):
        retry = getattr(exc, "retry_after", None)
        after = f" (retry after {retry:.0f} s)" if isinstance(retry, int | float) else ""
        return (
            f"could not register the slash commands: Discord is rate-limiting command "
            f"registration{after}; the commands registered before stay — {later}"
        )
    if isinstance(exc, TimeoutError):
        return (
            f"could not register the slash commands: no answer from Discord within "
            f"{deadline:.0f} s (rate-limited or unreachable) — {later}"
        )
    if isinstance(exc, discord.HTTPException):
        return (
            f"could not register the slash commands: Discord answered {exc.status} "
            f"({exc.text or exc.response.reason}) — {later}"
        )
    return f"could not register the slash commands: cannot reach Discord ({exc}) — {later}"
