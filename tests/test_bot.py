"""bot.py: settings, building the bot without a network, and the start-up messages."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

import bot as bot_module


@pytest.fixture(autouse=True)
def own_logging() -> Iterator[None]:
    """main() installs a log handler on the root logger; remove it, or it outlives the test's captured stderr."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_settings_have_defaults_for_everything_but_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    settings = bot_module.Settings(_env_file=None)
    assert settings.discord_token is None
    assert settings.database_url == "sqlite+aiosqlite:///data/games.sqlite3"
    assert settings.dev_guild_id is None and settings.challenge_ttl_minutes == 15 and settings.reminder_hours == 24


def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DEV_GUILD_ID", "42")
    monkeypatch.setenv("CHALLENGE_TTL_MINUTES", "5")
    settings = bot_module.Settings(_env_file=None)
    assert (settings.discord_token, settings.dev_guild_id, settings.challenge_ttl_minutes) == ("abc", 42, 5)


def test_database_url_wins_and_the_old_database_path_still_means_a_sqlite_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_PATH", "/srv/bot/games.sqlite3")
    assert bot_module.Settings(_env_file=None).database_url == "sqlite+aiosqlite:////srv/bot/games.sqlite3"
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://bot:secret@db/games")
    assert bot_module.Settings(_env_file=None).database_url == "postgresql+asyncpg://bot:secret@db/games"


def test_create_bot_touches_no_network() -> None:
    built = bot_module.create_bot(bot_module.Settings(_env_file=None, discord_token="x"))
    assert not built.is_ready()
    with pytest.raises(RuntimeError):
        _ = built.service  # nothing is opened before start-up: the database is the service's


def test_a_missing_token_points_to_env_example(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("BOT_HOME", str(tmp_path))  # no .env here
    assert bot_module.main() == 2
    assert ".env.example" in capsys.readouterr().err


def test_shard_settings_name_this_processs_shards() -> None:
    settings = bot_module.Settings(_env_file=None, shard_count=8, shard_ids="0-2, 6")
    assert settings.shard_list() == [0, 1, 2, 6]
    assert bot_module.Settings(_env_file=None).shard_list() is None  # one process, Discord's recommended count
    for wrong in ({"shard_ids": "0-1"}, {"shard_count": 2, "shard_ids": "2"}, {"shard_count": 2, "shard_ids": "a"}):
        with pytest.raises(ValueError, match="SHARD"):
            bot_module.Settings(_env_file=None, **wrong)


def test_a_sharded_bot_runs_only_its_shards() -> None:
    built = bot_module.create_bot(bot_module.Settings(_env_file=None, shard_count=4, shard_ids="2-3"))
    assert built.shard_count == 4 and built.shard_ids == [2, 3]


def test_threads_are_on_by_default_and_the_invite_asks_for_what_threads_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GAME_THREADS", raising=False)
    assert bot_module.Settings(_env_file=None).game_threads is True
    monkeypatch.setenv("GAME_THREADS", "false")
    assert bot_module.Settings(_env_file=None).game_threads is False
    # A thread per game needs these two; the bot never archives, locks or renames threads, so no manage_threads.
    assert (
        discord.Permissions(
            view_channel=True,
            send_messages=True,
            embed_links=True,
            attach_files=True,
            create_public_threads=True,
            send_messages_in_threads=True,
        )
        == bot_module.INVITE_PERMISSIONS
    )


def test_env_and_data_are_found_from_any_working_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "BOT_HOME"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".env").write_text("DISCORD_TOKEN=from-env-file\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("BOT_HOME", str(home))
    settings = bot_module.load_settings()
    assert settings.discord_token == "from-env-file"
    assert settings.database_url == f"sqlite+aiosqlite:///{home / 'data' / 'games.sqlite3'}"
    monkeypatch.setenv("DATABASE_PATH", "db/bot.sqlite3")  # relative: to the home, not the working directory
    assert bot_module.load_settings().database_url == f"sqlite+aiosqlite:///{home / 'db' / 'bot.sqlite3'}"
    monkeypatch.delenv("BOT_HOME")
    checkout = Path(bot_module.__file__).resolve().parent
    assert bot_module.project_home() == checkout  # a checkout finds its own .env, wherever it is started


@pytest.fixture
def unreachable_discord(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setenv("DISCORD_TOKEN", "test-token")
    monkeypatch.setenv("BOT_HOME", str(tmp_path))
    monkeypatch.setenv("CONNECT_TIMEOUT_SECONDS", "0.5")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    yield


def point_at(monkeypatch: pytest.MonkeyPatch, port: int) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")


def test_a_closed_port_gives_one_line_and_no_traceback(
    unreachable_discord: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nothing listens on once this closes
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    point_at(monkeypatch, port)
    assert bot_module.main() == 1
    err = capsys.readouterr().err
    assert f"Cannot reach Discord at 127.0.0.1:{port}" in err and "Traceback" not in err


def test_a_server_that_never_answers_is_given_up_after_the_timeout(
    unreachable_discord: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as silent:  # the kernel accepts connections; nobody ever reads or answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        point_at(monkeypatch, silent.getsockname()[1])
        assert bot_module.main() == 1
    err = capsys.readouterr().err
    assert "did not answer within 0.5 s (CONNECT_TIMEOUT_SECONDS)" in err and "Traceback" not in err


def test_every_setting_is_documented_in_the_readme_and_env_example() -> None:
    root = Path(bot_module.__file__).resolve().parent
    readme, example = (root / "README.md").read_text(), (root / ".env.example").read_text()
    names = [name.upper() for name in bot_module.Settings.model_fields]
    assert [name for name in names if f"| `{name}` |" not in readme] == []
    assert [name for name in names if f"{name}=" not in example] == []


def closed_port() -> int:
    with socket.socket() as probe:  # a port nothing listens on once this closes
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_postgresql_is_one_line_naming_the_database_not_discord(
    unreachable_discord: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    point_at(monkeypatch, closed_port())  # were Discord asked first, this would be the complaint
    port = closed_port()
    monkeypatch.setenv("DATABASE_URL", f"postgresql+asyncpg://gamer:secret@127.0.0.1:{port}/games")
    assert bot_module.main() == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if "discord.client" not in line]  # voice notes
    assert len(lines) == 1, lines
    (line,) = lines
    assert f"Cannot open the database postgresql+asyncpg://gamer:***@127.0.0.1:{port}/games" in line
    assert "secret" not in line and "Discord" not in line and "Traceback" not in line


def test_an_unsupported_database_url_is_one_line(
    unreachable_discord: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    point_at(monkeypatch, closed_port())
    monkeypatch.setenv("DATABASE_URL", "mysql://x")
    assert bot_module.main() == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if "discord.client" not in line]
    assert lines == [
        "DATABASE_URL=mysql://x cannot be used: Unsupported database 'mysql': use sqlite+aiosqlite:// or "
        "postgresql+asyncpg://"
    ]


def test_no_warning_about_the_message_content_intent_the_bot_does_not_use(caplog: pytest.LogCaptureFixture) -> None:
    built = bot_module.create_bot(bot_module.Settings(_env_file=None, discord_token="x"))
    assert not built.intents.message_content and not built.intents.messages  # it reads no messages at all

    async def set_up() -> None:
        await built._async_setup_hook()  # where discord.py warns about prefix commands without the intent
        await built.http.close()

    with caplog.at_level(logging.WARNING):
        asyncio.run(set_up())
    assert not [r for r in caplog.records if "intent" in r.getMessage()], [r.getMessage() for r in caplog.records]
