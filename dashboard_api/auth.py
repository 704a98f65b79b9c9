"""The API token: where it comes from, how it is checked, and where the API may listen."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from pathlib import Path

from memory.errors import ConfigError
from memory.settings import Settings
from memory.storage.permissions import PRIVATE_FILE, make_private_dir, tighten_file

TOKEN_FILE = "api-token"
MIN_TOKEN_CHARS = 16


def load_or_create_token(settings: Settings) -> tuple[str, Path | None, bool]:
    """The API token: ``MEMORYBOT_API_TOKEN`` when set, else the one in the data directory,
    created (mode 0600) on first use. Returns ``(token, file or None, created now)``."""
    if settings.api_token is not None:
        token = settings.api_token.get_secret_value().strip()
        if len(token) < MIN_TOKEN_CHARS:
            raise ConfigError(f"MEMORYBOT_API_TOKEN: use at least {MIN_TOKEN_CHARS} characters")
        return token, None, False
    path = settings.data_dir / TOKEN_FILE
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        token = ""
    except OSError as exc:
        raise ConfigError(f"cannot read the API token file {path}: {exc}") from exc
    if token:
        if len(token) < MIN_TOKEN_CHARS:
            raise ConfigError(
                f"the API token file {path} holds a token of {len(token)} characters: use at "
                f"least {MIN_TOKEN_CHARS} (or delete the file, and a new token is made)"
            )
        tighten_file(path)
        return token, path, False
    token = secrets.token_urlsafe(32)
    try:
        make_private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(token + "\n")
        os.chmod(path, PRIVATE_FILE)
    except OSError as exc:
        raise ConfigError(f"cannot write the API token file {path}: {exc}") from exc
    return token, path, True


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings) -> None:
    """Refuse a non-loopback address unless the token is configured (not a generated file)."""
    if not is_loopback(settings.api_host) and settings.api_token is None:
        raise ConfigError(
            f"MEMORYBOT_API_HOST={settings.api_host} is reachable from other machines: "
            "set MEMORYBOT_API_TOKEN first (or bind 127.0.0.1)"
        )


def bearer_matches(header: str | None, token: str) -> bool:
    """``Authorization: Bearer <token>``, compared in constant time. A header that is not
    UTF-8 (aiohttp keeps its bytes as surrogates) is compared as those bytes: never a match."""
    if not header:
        return False
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    sent = given.strip().encode("utf-8", errors="surrogateescape")
    return hmac.compare_digest(sent, token.encode("utf-8"))
