"""Settings: defaults, ``MEMORYBOT_`` environment, ``.env``, clamping, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.errors import ConfigError
from memory.settings import load_settings
from tests.helpers import cli_env, run_cli

# --- defaults and sources -----------------------------------------------------------------


def test_defaults() -> None:
    settings = load_settings()
    assert settings.data_dir == Path("./data")
    assert settings.max_queue == 400
    assert settings.drain_timeout == 4.0
    assert settings.journal_debounce == 1.0
    assert settings.journal_refresh_interval == 300
    assert settings.api_host == "127.0.0.1"
    assert settings.api_port == 8080
    assert settings.api_token is None
    assert settings.memory_enabled is True
    assert settings.max_recent_messages == 35
    assert settings.db_path == Path("./data/memory.db")
    assert settings.journals_dir == Path("./data/journals")


def test_environment_overrides_with_prefix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMORYBOT_DATA_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("MEMORYBOT_MAX_QUEUE", "25")
    monkeypatch.setenv("MEMORYBOT_DRAIN_TIMEOUT", "1.5")
    monkeypatch.setenv("MEMORYBOT_JOURNAL_DEBOUNCE", "0.25")
    monkeypatch.setenv("MEMORYBOT_JOURNAL_REFRESH_INTERVAL", "60")
    monkeypatch.setenv("MEMORYBOT_API_HOST", "0.0.0.0")
    monkeypatch.setenv("MEMORYBOT_API_PORT", "9123")
    monkeypatch.setenv("MEMORYBOT_API_TOKEN", "s3cret-token")
    monkeypatch.setenv("MEMORYBOT_MEMORY_ENABLED", "false")
    monkeypatch.setenv("MEMORYBOT_MAX_RECENT_MESSAGES", "50")
    # Unprefixed names are not settings of memorybot.
    monkeypatch.setenv("MAX_QUEUE", "7")
    monkeypatch.setenv("API_PORT", "7")

    settings = load_settings()

    assert settings.data_dir == tmp_path / "elsewhere"
    assert settings.db_path == tmp_path / "elsewhere" / "memory.db"
    assert settings.max_queue == 25
    assert settings.drain_timeout == 1.5
    assert settings.journal_debounce == 0.25
    assert settings.journal_refresh_interval == 60
    assert settings.api_host == "0.0.0.0"
    assert settings.api_port == 9123
    assert settings.api_token is not None
    assert settings.api_token.get_secret_value() == "s3cret-token"
    assert "s3cret-token" not in repr(settings)
    assert settings.memory_enabled is False
    assert settings.max_recent_messages == 50


def test_dotenv_in_working_directory_is_read() -> None:
    Path(".env").write_text(
        "MEMORYBOT_API_PORT=9001\nMEMORYBOT_MAX_QUEUE=77\nMEMORYBOT_DATA_DIR=from-dotenv\n",
        encoding="utf-8",
    )
    settings = load_settings()
    assert settings.api_port == 9001
    assert settings.max_queue == 77
    assert settings.data_dir == Path("from-dotenv")


def test_environment_beats_dotenv(monkeypatch: pytest.MonkeyPatch) -> None:
    Path(".env").write_text("MEMORYBOT_API_PORT=9001\nMEMORYBOT_MAX_QUEUE=77\n", encoding="utf-8")
    monkeypatch.setenv("MEMORYBOT_API_PORT", "9002")
    settings = load_settings()
    assert settings.api_port == 9002
    assert settings.max_queue == 77  # not in the environment: .env still applies


def test_explicit_override_beats_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBOT_DATA_DIR", "from-env")
    assert load_settings(data_dir=Path("from-flag")).data_dir == Path("from-flag")


@pytest.mark.parametrize(
    ("given", "expected"),
    [("5", 10), ("10", 10), ("11", 11), ("120", 120), ("500", 120), ("-3", 10)],
)
def test_max_recent_messages_is_clamped(
    monkeypatch: pytest.MonkeyPatch, given: str, expected: int
) -> None:
    monkeypatch.setenv("MEMORYBOT_MAX_RECENT_MESSAGES", given)
    assert load_settings().max_recent_messages == expected


# --- invalid values -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("MEMORYBOT_MAX_QUEUE", "abc", "valid integer"),
        ("MEMORYBOT_MAX_QUEUE", "0", "greater than or equal to 1"),
        ("MEMORYBOT_API_PORT", "70000", "less than or equal to 65535"),
        ("MEMORYBOT_MEMORY_ENABLED", "maybe", "valid boolean"),
        ("MEMORYBOT_DRAIN_TIMEOUT", "-1", "greater than or equal to 0"),
    ],
)
def test_invalid_value_is_one_line_config_error(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, allowed: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert "\n" not in message
    assert name in message
    assert value in message
    assert allowed in message
    # load_settings hides pydantic's multi-line report entirely.
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


def test_invalid_value_in_dotenv_names_the_variable() -> None:
    Path(".env").write_text("MEMORYBOT_API_PORT=not-a-port\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="MEMORYBOT_API_PORT"):
        load_settings()


def test_several_invalid_values_still_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBOT_MAX_QUEUE", "abc")
    monkeypatch.setenv("MEMORYBOT_API_PORT", "70000")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert "\n" not in message
    assert "MEMORYBOT_MAX_QUEUE" in message
    assert "MEMORYBOT_API_PORT" in message


# --- the CLI with an invalid setting --------------------------------------------------------


def test_cli_invalid_setting_is_one_line_without_traceback(tmp_path: Path) -> None:
    result = run_cli(
        None, "--data-dir", str(tmp_path / "data"), "stats", env=cli_env(MEMORYBOT_MAX_QUEUE="abc")
    )
    assert result.returncode != 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("configuration error:")
    assert "MEMORYBOT_MAX_QUEUE" in lines[0]
    assert "Traceback" not in result.stderr
    assert "Traceback" not in result.stdout
    # Nothing was opened or created for a run that could not start.
    assert not (tmp_path / "data").exists()


def test_cli_invalid_setting_with_debug_shows_traceback(tmp_path: Path) -> None:
    result = run_cli(
        None,
        "--debug",
        "--data-dir",
        str(tmp_path / "data"),
        "stats",
        env=cli_env(MEMORYBOT_API_PORT="70000"),
    )
    assert result.returncode != 0
    assert "Traceback (most recent call last)" in result.stderr
    assert "ConfigError" in result.stderr
    assert "MEMORYBOT_API_PORT" in result.stderr


@pytest.mark.slow
def test_cli_reads_dotenv_of_its_working_directory_and_flag_wins(tmp_path: Path) -> None:
    workdir = tmp_path / "project"
    workdir.mkdir()
    (workdir / ".env").write_text("MEMORYBOT_DATA_DIR=dotenv-data\n", encoding="utf-8")

    # stats creates nothing: it names the data directory it looked in
    result = run_cli(None, "stats", "--json", cwd=workdir)
    assert result.returncode == 1
    assert "no memory at dotenv-data:" in result.stderr
    assert not (workdir / "dotenv-data").exists()

    flagged = tmp_path / "flag-data"
    result = run_cli(None, "--data-dir", str(flagged), "stats", "--json", cwd=workdir)
    assert result.returncode == 1
    assert f"no memory at {flagged}:" in result.stderr
    assert not flagged.exists()


# --- the Discord token, the development server, the openai client's own variables --------


def test_discord_token_and_dev_guild_come_from_dotenv_like_every_setting() -> None:
    Path(".env").write_text(
        "DISCORD_TOKEN=token-from-dotenv\nMEMORYBOT_DEV_GUILD=123456789012345678\n",
        encoding="utf-8",
    )
    settings = load_settings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "token-from-dotenv"
    assert settings.dev_guild == "123456789012345678"
    assert "token-from-dotenv" not in repr(settings)


def test_a_bad_dev_guild_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBOT_DEV_GUILD", "my-server")
    with pytest.raises(ConfigError, match=r"^invalid setting MEMORYBOT_DEV_GUILD='my-server': "):
        load_settings()


async def test_openai_key_and_endpoint_in_dotenv_reach_the_endpoint() -> None:
    from memory.search.embeddings import build_embedder
    from tests.fake_openai import FakeOpenAI

    async with FakeOpenAI(api_key="sk-from-dotenv") as fake:
        _dotenv(
            f"OPENAI_API_KEY=sk-from-dotenv\nOPENAI_BASE_URL={fake.base_url}\n"
            "MEMORYBOT_EMBEDDING_MODEL=text-embedding-3-small\n"
        )
        embedder = build_embedder(load_settings())
        try:
            (vector,) = await embedder.embed(["hello"])
        finally:
            await embedder.aclose()
    assert vector
    (request,) = fake.embeddings_requests
    assert request.header("Authorization") == "Bearer sk-from-dotenv"


def test_memorybot_llm_variables_win_over_the_openai_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    Path(".env").write_text("OPENAI_API_KEY=sk-openai\nOPENAI_BASE_URL=http://a/v1\n",
                            encoding="utf-8")  # fmt: skip
    monkeypatch.setenv("MEMORYBOT_LLM_API_KEY", "sk-memorybot")
    monkeypatch.setenv("MEMORYBOT_LLM_BASE_URL", "http://b/v1")
    settings = load_settings()
    assert (settings.endpoint_key, settings.endpoint_url) == ("sk-memorybot", "http://b/v1")


def _dotenv(text: str) -> None:
    Path(".env").write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "url", ["mysql://user:hunter2secret@db/memory", "sqlite:///memory.db", "hunter2secret"]
)
def test_a_database_url_must_be_postgresql_and_its_password_is_never_shown(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.setenv("MEMORYBOT_DATABASE_URL", url)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "MEMORYBOT_DATABASE_URL" in str(caught.value)
    assert "not a PostgreSQL URL" in str(caught.value)
    assert "hunter2secret" not in str(caught.value)


def test_a_postgresql_url_selects_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBOT_DATABASE_URL", "postgresql://bot:hunter2secret@db/memory")
    settings = load_settings()
    assert settings.postgres_url == "postgresql://bot:hunter2secret@db/memory"
    assert "hunter2secret" not in repr(settings)
    assert load_settings(database_url=None).postgres_url is None


@pytest.mark.parametrize(
    ("ids", "count", "said"),
    [
        ("3", "2", "MEMORYBOT_SHARD_IDS=3: with MEMORYBOT_SHARD_COUNT=2 the shards are 0-1"),
        ("1", None, "MEMORYBOT_SHARD_IDS is set: MEMORYBOT_SHARD_COUNT must be too"),
        ("one", "2", "MEMORYBOT_SHARD_IDS='one': Value error, not shard numbers"),
    ],
)
def test_shards_must_be_within_their_count(
    monkeypatch: pytest.MonkeyPatch, ids: str, count: str | None, said: str
) -> None:
    monkeypatch.setenv("MEMORYBOT_SHARD_IDS", ids)
    if count is not None:
        monkeypatch.setenv("MEMORYBOT_SHARD_COUNT", count)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_shard_ids_are_read_comma_separated_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBOT_SHARD_IDS", "3, 1,1")
    monkeypatch.setenv("MEMORYBOT_SHARD_COUNT", "4")
    settings = load_settings()
    assert (settings.shard_ids, settings.shard_count) == ((1, 3), 4)
