"""Settings: environment variables with the ``MEMORYBOT_`` prefix and an optional ``.env``."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from memory import ids
from memory.errors import ConfigError
from memory.storage.postgres.connection import SCHEMES

SLICE_BUDGET = 4000
MIN_SLICE_BUDGET, MAX_SLICE_BUDGET = 200, 100_000
"""The memory slice's budget of characters shown: its default, and the budgets a caller may
set (the setting, ``memorybot slice --budget``, the API's ``budget``)."""

LLM_TIMEOUT, LLM_MAX_RETRIES, LLM_COOLDOWN = 30.0, 4, 60.0
"""Defaults of an LLM request's deadline (seconds, retries included), its retries, and how
long (seconds) an endpoint found down is left alone before a request tries it again."""

ENV_PREFIX = "MEMORYBOT_"
MAX_RECENT_MESSAGES_RANGE = (10, 120)
LOCAL_STT = "local"
"""``MEMORYBOT_STT_MODEL`` of the offline transcriber (pocketsphinx)."""


class Settings(BaseSettings):
    """Every knob of memorybot. The README's settings table mirrors this class."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        validate_default=True,
        populate_by_name=True,
    )

    discord_token: SecretStr | None = Field(
        None,
        validation_alias="DISCORD_TOKEN",
        description="The bot's token (Developer Portal → Bot); needed by run and sync-commands.",
    )
    dev_guild: str | None = Field(
        None,
        pattern=f"^{ids.PATTERN}$",
        description="A server id: the slash commands are registered to that server only, "
        "where they appear at once (for development); unset: globally.",
    )
    data_dir: Path = Field(Path("./data"), description="Where memory.db and journals/ live.")
    database_url: SecretStr | None = Field(
        None,
        description="postgresql://user:password@host/database: the store on PostgreSQL "
        "(shared by several processes) instead of memory.db.",
    )
    database_pool_size: int = Field(
        10, ge=1, le=500, description="Connections each process opens to PostgreSQL at most."
    )
    shard_count: int | None = Field(
        None,
        ge=1,
        le=65_536,
        description="Discord shards the bot is split into, over every process running it; "
        "unset: one process, no sharding.",
    )
    shard_ids: Annotated[tuple[int, ...], NoDecode] = Field(
        (),
        description="The shards (comma-separated, 0 to MEMORYBOT_SHARD_COUNT-1) this "
        "process runs; empty: all of them.",
    )
    max_queue: int = Field(400, ge=1, le=100_000, description="Pending ingest jobs kept at most.")
    ignore_channels: Annotated[frozenset[str], NoDecode] = Field(
        frozenset(),
        description="Channel ids (comma-separated, any guild) nothing is remembered from, "
        "their threads included; moderators add their own with /memory-admin ignore-channel.",
    )
    drain_timeout: float = Field(
        4.0, ge=0, le=600, description="Seconds the queue may drain on shutdown."
    )
    journal_debounce: float = Field(
        1.0, ge=0, le=60, description="Seconds between a change and the MEMORY.md rewrite."
    )
    journal_refresh_interval: float = Field(
        300.0, ge=1, le=86_400, description="Seconds between periodic MEMORY.md rewrites."
    )
    api_host: str = Field("127.0.0.1", min_length=1, description="Address the HTTP API binds.")
    api_port: int = Field(8080, ge=1, le=65_535, description="Port of the HTTP API.")
    api_token: SecretStr | None = Field(None, description="Bearer token of the HTTP API.")
    api_admin_token: SecretStr | None = Field(
        None,
        description="Bearer token that may also moderate facts (review, edit, archive, "
        "delete); unset: nobody may. The read token stays read-only.",
    )
    api_guilds: Annotated[frozenset[str], NoDecode] = Field(
        frozenset(),
        description="Comma-separated guild ids the API token may read; empty: every guild.",
    )
    api_rate_limit: float = Field(
        20.0, ge=0, le=100_000, description="Requests per second per API client; 0: no limit."
    )
    api_rate_burst: int = Field(
        40, ge=1, le=100_000, description="Requests an API client may send at once."
    )
    api_cache_size: int = Field(
        1024, ge=0, le=1_000_000, description="Search and slice answers the API remembers."
    )
    api_max_connections: int = Field(
        512,
        ge=1,
        le=100_000,
        description="Connections the API keeps open at once (per process serving it); a new "
        "one beyond closes the oldest idle one.",
    )
    api_client_timeout: float = Field(
        10.0,
        gt=0,
        le=3600,
        description="Seconds an API client may take to send a request's headers, and then "
        "its body; an idle connection closes after as long.",
    )
    api_trusted_proxies: Annotated[frozenset[str], NoDecode] = Field(
        frozenset(),
        description="Comma-separated addresses or CIDR blocks of reverse proxies whose "
        "X-Forwarded-For names the client; empty: the header is ignored.",
    )
    api_workers: int = Field(
        1, ge=1, le=64, description="Processes serving the API in memorybot serve."
    )
    memory_enabled: bool = Field(True, description="Ingest and remember messages at all.")
    notice: bool = Field(
        True,
        description="The first time the bot is active in a server, post one short notice of "
        "what it remembers and how to see, export, forget and opt out (or DM the owner).",
    )
    fact_lifecycle: bool = Field(
        True,
        description="A new fact that repeats one in other words is merged into it, and one "
        "that contradicts an older fact supersedes it (an import's facts are judged once it "
        "is processed); false: only exact repeats merge.",
    )
    llm_fact_check: bool = Field(
        True,
        description="With MEMORYBOT_LLM_MODEL set and the fact lifecycle on, the LLM checks "
        "the pairs of facts the offline judge would merge or supersede, or may have missed, "
        "once per extraction step; its answer wins, and a failed check keeps the offline "
        "verdicts. false: offline only.",
    )
    slice_budget: int = Field(
        SLICE_BUDGET,
        ge=MIN_SLICE_BUDGET,
        le=MAX_SLICE_BUDGET,
        description="Characters the memory slice of a reply shows (facts, messages and their "
        "neighbouring turns, each once; about 4 characters a token); the best facts and "
        "messages that fit.",
    )
    slice_min_confidence: float = Field(
        0.65,
        ge=0,
        le=1,
        description="Facts less sure than this (hedged ones) stay searchable but stay out of "
        "the memory slice a reply sees.",
    )
    fact_half_life_days: float = Field(
        180.0,
        ge=0,
        le=36_500,
        description="A fact's value halves for every this many days since it was last said; "
        "the per-member cap archives the least valued (0: no decay).",
    )
    events_retention_days: int = Field(
        90,
        ge=0,
        le=36_500,
        description="Days the audit log (memory_events) keeps an event; 0: for ever.",
    )
    max_recent_messages: int = Field(
        35, description="Recent channel messages a reply sees (clamped to 10..120)."
    )

    extractor: Literal["auto", "offline", "heuristic", "llm", "none"] = Field(
        "auto",
        description="Fact extraction: auto (llm when MEMORYBOT_LLM_MODEL is set, else "
        "offline), offline (statements rewritten as facts, no network; heuristic is its old "
        "name), llm or none.",
    )
    llm_model: str | None = Field(
        None, description="Chat model for extraction and replies; unset: offline."
    )
    llm_base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint; unset: OPENAI_BASE_URL, then OpenAI's."
    )
    llm_api_key: SecretStr | None = Field(
        None, description="Key of that endpoint; unset: OPENAI_API_KEY."
    )
    openai_base_url: str | None = Field(
        None, validation_alias="OPENAI_BASE_URL", description="The openai client's own endpoint."
    )
    openai_api_key: SecretStr | None = Field(
        None, validation_alias="OPENAI_API_KEY", description="The openai client's own key."
    )
    llm_timeout: float = Field(
        LLM_TIMEOUT,
        gt=0,
        le=600,
        description="Seconds an LLM request may take in all: every attempt, retry and wait.",
    )
    llm_max_retries: int = Field(
        LLM_MAX_RETRIES,
        ge=0,
        le=20,
        description="Retries of an LLM request (the openai client's) on 408, 409, 429, 5xx, "
        "timeouts and connection errors, within its deadline.",
    )
    llm_cooldown: float = Field(
        LLM_COOLDOWN,
        ge=0,
        le=3600,
        description="Seconds an LLM endpoint found down (no answer, connection refused) is "
        "left alone: its requests fail at once meanwhile; then one tries it again.",
    )
    profile_interval_hours: float = Field(
        24,
        ge=0,
        le=8760,
        description="With MEMORYBOT_LLM_MODEL set, hours between the passes in which the LLM "
        "writes each member's condensed profile paragraph from their facts, while the bot runs "
        "(the first soon after start); 0: never by itself (memorybot profiles writes them now).",
    )
    llm_reply_tools: bool = Field(
        True,
        description="An LLM reply may look memory up (the search_memory tool, twice at most) "
        "before it answers; off: it sees the memory slice alone.",
    )
    extraction_batch_gap: float = Field(
        3.0,
        ge=0,
        le=300,
        description="Seconds a channel must be quiet before its messages share one LLM call.",
    )
    extraction_batch_size: int = Field(
        8, ge=1, le=64, description="Most messages of one channel in one LLM extraction call."
    )

    embedding_model: str = Field(
        "local",
        min_length=1,
        description="local (bundled wordllama, 256 dims, offline) or a model name of the "
        "OpenAI-compatible /embeddings endpoint of MEMORYBOT_LLM_BASE_URL.",
    )
    embedding_dimensions: int | None = Field(
        None, ge=1, le=8192, description="Dimensions asked of a remote embedding model."
    )

    stt_model: str = Field(
        LOCAL_STT,
        min_length=1,
        description="Speech-to-text for voice: local (offline pocketsphinx, en-US) or a model "
        "name of the OpenAI-compatible /audio/transcriptions endpoint of MEMORYBOT_LLM_BASE_URL "
        "(e.g. whisper-1).",
    )
    stt_language: str | None = Field(
        None,
        pattern=r"^[a-z]{2,3}$",
        description="Language of the speech (ISO 639-1, e.g. en) sent to a remote "
        "speech-to-text model; unset: the model guesses.",
    )
    voice_auto_join: Annotated[frozenset[str], NoDecode] = Field(
        frozenset(),
        description="Voice channel ids (comma-separated) joined as soon as a member is in "
        "them and left when the last one goes; anyone may start voice there.",
    )
    voice_vad_aggressiveness: int = Field(
        2, ge=0, le=3, description="How strictly the voice-activity detector rejects noise (0-3)."
    )
    voice_wake_words: Annotated[tuple[str, ...], NoDecode] = Field(
        (),
        description="More names (comma-separated) that address the bot in voice, besides its "
        "user and server names.",
    )

    @field_validator("voice_wake_words", mode="before")
    @classmethod
    def _split_words(cls, value: Any) -> Any:
        value = _comma_separated(value)
        if isinstance(value, list | tuple):
            return tuple(str(part).strip().lower() for part in value if str(part).strip())
        return value

    @field_validator("api_guilds", "voice_auto_join", "ignore_channels", mode="before")
    @classmethod
    def _split_ids(cls, value: Any) -> Any:
        value = _comma_separated(value)
        if isinstance(value, list | tuple | set | frozenset):
            bad = [v for v in value if not ids.is_discord_id(v)]
            if bad:
                digits = f"{ids.MIN_DIGITS}-{ids.MAX_DIGITS} digits"
                raise ValueError(f"not Discord ids ({digits}): {', '.join(map(str, bad))}")
            return frozenset(value)
        return value

    @field_validator("api_trusted_proxies", mode="before")
    @classmethod
    def _split_networks(cls, value: Any) -> Any:
        value = _comma_separated(value)
        if isinstance(value, list | tuple | set | frozenset):
            networks = set()
            for v in value:
                try:
                    networks.add(str(ipaddress.ip_network(str(v).strip(), strict=False)))
                except ValueError:
                    raise ValueError(f"not an address or CIDR block: {v}") from None
            return frozenset(networks)
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shards(cls, value: Any) -> Any:
        value = _comma_separated(value)
        if isinstance(value, list | tuple | set | frozenset):
            try:
                shards = sorted({int(str(v).strip()) for v in value})
            except ValueError:
                raise ValueError("not shard numbers (comma-separated: 0,1,2)") from None
            return tuple(shards)
        return value

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        if self.shard_ids and self.shard_count is None:
            raise ValueError("MEMORYBOT_SHARD_IDS is set: MEMORYBOT_SHARD_COUNT must be too")
        outside = [n for n in self.shard_ids if not 0 <= n < (self.shard_count or 0)]
        if outside:
            shown = ",".join(map(str, outside))
            raise ValueError(
                f"MEMORYBOT_SHARD_IDS={shown}: with MEMORYBOT_SHARD_COUNT={self.shard_count} "
                f"the shards are 0-{(self.shard_count or 1) - 1}"
            )
        return self

    @field_validator("database_url", mode="after")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and urlsplit(value.get_secret_value()).scheme not in SCHEMES:
            raise ValueError("not a PostgreSQL URL (postgresql://user:password@host/database)")
        return value

    @field_validator("max_recent_messages", mode="after")
    @classmethod
    def _clamp_recent(cls, value: int) -> int:
        low, high = MAX_RECENT_MESSAGES_RANGE
        return max(low, min(high, value))

    @property
    def endpoint_url(self) -> str | None:
        """The OpenAI-compatible endpoint: ``MEMORYBOT_LLM_BASE_URL``, else ``OPENAI_BASE_URL``
        (None: OpenAI's)."""
        return self.llm_base_url or self.openai_base_url

    @property
    def endpoint_key(self) -> str | None:
        """Its key: ``MEMORYBOT_LLM_API_KEY``, else ``OPENAI_API_KEY`` (None: no key)."""
        key = self.llm_api_key or self.openai_api_key
        return key.get_secret_value() if key is not None else None

    @property
    def db_path(self) -> Path:
        """The SQLite store (unused with ``database_url`` set)."""
        return self.data_dir / "memory.db"

    @property
    def postgres_url(self) -> str | None:
        """``MEMORYBOT_DATABASE_URL``, password included (never log it: ``store_name``)."""
        return self.database_url.get_secret_value() if self.database_url is not None else None

    @property
    def journals_dir(self) -> Path:
        return self.data_dir / "journals"


def _comma_separated(value: Any) -> Any:
    """An environment value "a, b," as ``["a", "b"]``; anything else as it is."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def load_settings(**overrides: Any) -> Settings:
    """Build settings from the environment; raise ``ConfigError`` with one line per problem."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise ConfigError(describe_validation_error(exc)) from None


def env_name(field: str) -> str:
    """The environment variable of a setting (a field name, or an alias such as
    ``DISCORD_TOKEN`` as pydantic reports it)."""
    info = Settings.model_fields.get(field)
    if info is not None and isinstance(info.validation_alias, str):
        return info.validation_alias
    if info is None and field.isupper():
        return field
    return ENV_PREFIX + field.upper()


def _is_secret(name: str) -> bool:
    info = Settings.model_fields.get(name) or next(
        (f for f in Settings.model_fields.values() if f.validation_alias == name), None
    )
    return info is not None and "SecretStr" in str(info.annotation)


def describe_validation_error(exc: ValidationError) -> str:
    """One line naming the setting (as its environment variable) and what is allowed;
    a secret's value is never shown."""
    parts = []
    for err in exc.errors():
        if not err["loc"]:  # settings that disagree: the message names them
            parts.append(str(err["msg"]).removeprefix("Value error, "))
            continue
        field = str(err["loc"][0])
        given = err.get("input")
        hidden = isinstance(given, dict) or _is_secret(field)
        shown = "" if hidden else f"={given!r}"
        parts.append(f"{env_name(field)}{shown}: {err['msg']}")
    return "invalid setting " + "; ".join(parts)
