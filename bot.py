"""The Discord bot: settings from the environment, logging, create_bot(), main().

Run it with ``python bot.py`` after putting ``DISCORD_TOKEN`` in ``.env`` (see ``.env.example``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

import games
from cogs.commands.admin import admin_cog
from cogs.commands.command_tree import GameTree
from cogs.commands.every_game import cog_class
from cogs.commands.game_lists import GamesCog
from cogs.commands.leaderboard import StatsCog, leaderboard_cog
from cogs.commands.seasons import SeasonCog
from cogs.commands.tournaments import TournamentCog
from cogs.components.board_presses import TapCog
from cogs.components.bot_turn_button import BotTurnButton
from cogs.components.challenge_buttons import ChallengeButton, RematchButton
from cogs.components.game_list_pages import GamesPageButton
from cogs.components.lesson_controls import AnswerMenu, LearnButton
from cogs.components.puzzle_buttons import PuzzleButton, PuzzleMenu
from cogs.components.replay_buttons import RecordButton, ReplayButton
from cogs.components.tournament_buttons import TournamentButton
from cogs.deliveries.announcements import deliver
from cogs.deliveries.daily_puzzles import DailyPuzzlePoster
from cogs.plumbing import uploads
from cogs.plumbing.background import Announcer, BackgroundCog, HousekeepingCog, PuzzleMiner
from cogs.plumbing.duplicates import handle_interactions_once
from cogs.presentation.board_controls import BoardButton, BoardMenu
from locales import catalogue, language_of, option_name
from sessions.service import DEFAULT_DATABASE_URL, GameService, database_problem
from sessions.service import Settings as SessionSettings

log = logging.getLogger("bot")

# Only what the bot uses: read and post in channels, with embeds and board images; open a public thread per game
# and post in it. No manage_threads: the bot never archives, locks or edits threads.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)


def project_home() -> Path:
    """Where ``.env`` and ``data/`` are: ``BOT_HOME`` if set; else this checkout (bot.py next to pyproject.toml),
    whatever the working directory; else, for an installed copy, the working directory."""
    if os.environ.get("BOT_HOME"):
        return Path(os.environ["BOT_HOME"]).expanduser().resolve()
    here = Path(__file__).resolve().parent
    return here if (here / "pyproject.toml").exists() else Path.cwd()


class Settings(BaseSettings):
    """Read from the environment and from ``.env``; only the token is required to run. Use :func:`load_settings`
    to read the project's ``.env`` (plain ``Settings()`` reads the environment only)."""

    model_config = SettingsConfigDict(env_file=None, env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = None
    # sqlite+aiosqlite:///path/to/file.sqlite3 or postgresql+asyncpg://user:password@host/database
    database_url: str = DEFAULT_DATABASE_URL
    # The first release's setting, still honoured: a SQLite file, used when DATABASE_URL is not set.
    database_path: Path | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    challenge_ttl_minutes: float = Field(default=15, gt=0)
    reminder_hours: float = Field(default=24, gt=0)
    # Whether each game gets its own thread, where a server's admins chose nothing (/admin set threads).
    game_threads: bool = True
    sweep_seconds: float = Field(default=60, gt=0)
    announce_seconds: float = Field(default=5, gt=0)
    announce_grace_seconds: float = Field(default=10, ge=0)
    sync_commands: bool = True
    # How long to wait for Discord to answer the login before giving up with a message (it may accept the
    # connection and never answer: a proxy, a firewall, an outage).
    connect_timeout_seconds: float = Field(default=30, gt=0)
    ai_move_seconds: float | None = Field(default=None, gt=0)
    analysis_seconds: float = Field(default=10.0, gt=0)  # for a whole game, shared by its positions
    # Puzzles (docs/learn.md): mining's strongest search per position, whether finished games are mined, whether
    # the shipped set is stored at start-up (docs/puzzles.md), and how often the daily puzzles due are looked for.
    puzzle_seconds: float = Field(default=16.0, gt=0)
    puzzle_mining: bool = True
    shipped_puzzles: bool = True
    daily_puzzle_seconds: float = Field(default=60, gt=0)
    # Processes that draw the boards (sessions/drawing.py); 0 draws in threads of the bot process.
    render_workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=0, le=64)
    # Several processes: each runs the shards SHARD_IDS ("0-3", "4,5") of SHARD_COUNT; unset, one process runs
    # as many shards as Discord recommends.
    shard_count: int | None = Field(default=None, gt=0)
    shard_ids: str | None = None

    @model_validator(mode="after")
    def _database_path_means_sqlite(self) -> Settings:
        if self.database_path is not None and "database_url" not in self.model_fields_set:
            self.database_url = f"sqlite+aiosqlite:///{self.database_path}"
        return self

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT: the total number of shards across every process.")
        self.shard_list()  # raises on a malformed or out-of-range list
        return self

    def shard_list(self) -> list[int] | None:
        """The shards this process runs: SHARD_IDS parsed ("0-3,6" -> [0, 1, 2, 3, 6]), or None for all."""
        if self.shard_ids is None or self.shard_count is None:
            return None
        shards: set[int] = set()
        for part in self.shard_ids.replace(" ", "").split(","):
            first, _, last = part.partition("-")
            try:
                shards.update(range(int(first), int(last or first) + 1))
            except ValueError:
                raise ValueError(f"SHARD_IDS must look like 0-3 or 0,2,5, not {self.shard_ids!r}.") from None
        if not shards or min(shards) < 0 or max(shards) >= self.shard_count:
            raise ValueError(f"SHARD_IDS must be between 0 and {self.shard_count - 1} (SHARD_COUNT - 1).")
        return sorted(shards)


def load_settings(home: Path | None = None) -> Settings:
    """The settings from the environment and ``<home>/.env``, the default SQLite file under ``<home>/data`` and a
    relative ``DATABASE_PATH`` taken from ``home`` too, so the bot finds them from any working directory."""
    home = home or project_home()
    settings = Settings(_env_file=home / ".env")  # type: ignore[call-arg]
    path = settings.database_path
    if path is not None and not path.is_absolute():
        settings.database_path = home / path
        if settings.database_url == f"sqlite+aiosqlite:///{path}":  # derived from the path, not chosen
            settings.database_url = f"sqlite+aiosqlite:///{settings.database_path}"
    elif "database_url" not in settings.model_fields_set and path is None:
        settings.database_url = f"sqlite+aiosqlite:///{home / 'data' / 'games.sqlite3'}"
    return settings


# Slash commands need no message events: the guilds intent alone keeps channels and servers known.
INTENTS = discord.Intents.none()
INTENTS.guilds = True
# Set once for every message: members may be pinged (a challenge, the player to move), never everyone or roles.
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


# No text commands: everything is a slash command, so no message (``@bot help``) is ever a command. An empty
# prefix, not a function returning none: discord.py warns about the message content intent for any callable.
NO_PREFIX: tuple[str, ...] = ()


class DatabaseProblem(Exception):
    """The database cannot be opened at start-up: one line for the operator, naming it."""


class CatalogueTranslator(app_commands.Translator):
    """Localises descriptions, option names and choice names from the message catalogue; command and group
    names stay English so that everyone in a server types the same commands."""

    KEEP: ClassVar[set[app_commands.TranslationContextLocation]] = {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
    }

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if context.location in self.KEEP or language_of(locale) == "en":
            return None
        if context.location is app_commands.TranslationContextLocation.parameter_name:
            name = option_name(locale, string.message)
            return name if name != string.message else None
        known = catalogue(language_of(locale))
        template = string.extras.get("template")
        if template is not None:  # a label built from data, e.g. "5 squares (value 3)"
            translated = known.get(template)
            params = {key: value for key, value in string.extras.items() if key != "template"}
            return translated.format(**params) if translated else None
        return known.get(string.message)


class GameBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, **options: object) -> None:
        shards: dict[str, object] = {}
        if settings.shard_count is not None:
            shards = {"shard_count": settings.shard_count, "shard_ids": settings.shard_list()}
        super().__init__(
            command_prefix=NO_PREFIX,
            help_command=None,
            tree_cls=GameTree,
            intents=INTENTS,
            allowed_mentions=MENTIONS,
            **shards,
            **options,
        )
        self.settings = settings
        handle_interactions_once(self._connection.parsers)  # an interaction delivered twice is handled once
        uploads.install()  # a board's message goes out in one write
        self._service: GameService | None = None
        self._warm_up: asyncio.Task[None] | None = None

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("The bot has not been set up yet")
        return self._service

    async def login(self, token: str) -> None:
        """Log in, with Discord's first answer bounded by ``CONNECT_TIMEOUT_SECONDS`` (TimeoutError past it). Only
        that request is bounded: the migrations and command sync of ``setup_hook`` that follow may take longer."""
        unbounded = self.http.static_login

        async def bounded(token: str) -> Any:
            return await asyncio.wait_for(unbounded(token), self.settings.connect_timeout_seconds)

        self.http.static_login = bounded  # type: ignore[method-assign]
        try:
            await super().login(token)
        finally:
            del self.http.static_login  # back to the class's method

    async def on_message(self, message: discord.Message) -> None:
        """The bot reads no messages (it has no intent for them): nothing to do."""

    async def open_database(self) -> GameService:
        """The session service on the configured database (migrated): opened once, before Discord is contacted
        when started by :func:`run`. :class:`DatabaseProblem` when it cannot be."""
        if self._service is None:
            url = self.settings.database_url
            try:
                self._service = await GameService.open(
                    url,
                    SessionSettings(
                        challenge_ttl=self.settings.challenge_ttl_minutes * 60,
                        reminder_after=self.settings.reminder_hours * 3600,
                        announce_grace=self.settings.announce_grace_seconds,
                        threads=self.settings.game_threads,
                        ai_move_seconds=self.settings.ai_move_seconds,
                        analysis_seconds=self.settings.analysis_seconds,
                        puzzle_seconds=self.settings.puzzle_seconds,
                        render_workers=self.settings.render_workers,
                        mine_puzzles=self.settings.puzzle_mining,
                    ),
                )
            except Exception as error:
                raise DatabaseProblem(database_problem(url, error)) from error
        return self._service

    async def setup_hook(self) -> None:
        await self.open_database()
        assert self._service is not None
        if self.settings.shipped_puzzles:
            await self._store_shipped_puzzles(self._service)
        self._warm_up = asyncio.create_task(self._prepare(self._service), name="warm up renderers")
        await self.tree.set_translator(CatalogueTranslator())
        self.add_dynamic_items(
            ChallengeButton,
            ReplayButton,
            RematchButton,
            GamesPageButton,
            RecordButton,
            AnswerMenu,
            LearnButton,
            BoardMenu,
            BoardButton,
            PuzzleButton,
            PuzzleMenu,
            BotTurnButton,
            TournamentButton,
        )
        for cog in self.build_cogs():
            await self.add_cog(cog)
        await self.add_cog(TapCog(self))
        await self.add_cog(Announcer(self, self.settings.announce_seconds))
        await self.add_cog(HousekeepingCog(self, self, self.settings.sweep_seconds))
        await self.add_cog(DailyPuzzlePoster(self, self.settings.daily_puzzle_seconds))
        if self.settings.puzzle_mining:
            await self.add_cog(PuzzleMiner(self, self, self.settings.sweep_seconds))
        # From now on the session follows its commits (the bot's turns, rounds, what is owed), delivering here.
        self._service.start(partial(deliver, self), lambda: [guild.id for guild in self.guilds])
        if self.settings.sync_commands:
            await self.sync_commands()

    @staticmethod
    async def _store_shipped_puzzles(service: GameService) -> None:
        """The shipped puzzle set, stored before the bot answers anyone (once: a later start stores only what is
        new), so a new server has puzzles and a daily puzzle from its first command. A failure is logged, never
        fatal: the next start tries again."""
        try:
            await service.puzzle_mining.load_shipped()
        except Exception:
            log.exception("Storing the shipped puzzles failed")

    @staticmethod
    async def _prepare(service: GameService) -> None:
        """Draw each game once, then take what start-up made out of the garbage collector's sight."""
        await service.boards.warm_up()
        # Modules, the command tree and the renderers' cached layers live as long as the process. Frozen, they are
        # no longer scanned by every full collection: that scan was the event loop's longest pause (about 100 ms
        # under load, docs/performance.md); now a full collection scans only what came after start-up. No
        # collection first: it would be that very pause, and the bot may be serving already. Frozen objects are
        # still freed by reference counting; only cycles among them are never collected, a one-time few bytes.
        gc.freeze()

    def build_cogs(self) -> list[commands.Cog]:
        """The cogs with commands: one per registered game, then the shared ones. The registry is the only
        list of games."""
        per_game: list[commands.Cog] = [cog_class(entry)(self) for entry in games.entries()]
        return [
            *per_game,
            leaderboard_cog(self),
            StatsCog(self),
            GamesCog(self),
            admin_cog(self),
            TournamentCog(self),
            SeasonCog(self),
        ]

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global commands (they can take a while to appear)", len(synced))

    async def on_ready(self) -> None:
        assert self.user is not None
        url = discord.utils.oauth_url(
            self.user.id, permissions=INVITE_PERMISSIONS, scopes=("bot", "applications.commands")
        )
        log.info("Logged in as %s. Invite me with: %s", self.user, url)

    async def close(self) -> None:
        # Background work stops before the database closes: a task cut off inside a database call at the very
        # end would otherwise wait forever on a connection that is gone.
        if self._warm_up is not None:
            self._warm_up.cancel()
            await asyncio.gather(self._warm_up, return_exceptions=True)
        for cog in list(self.cogs.values()):
            if isinstance(cog, BackgroundCog):
                await cog.stop()
        if self._service is not None:
            await self._service.stop()  # what follows the last commits delivers through the client: before it closes
        await super().close()
        if self._service is not None:
            await self._service.close()  # its worker pools, the deliveries still queued, then the database
            self._service = None


def create_bot(settings: Settings | None = None, **options: object) -> GameBot:
    """Build the bot from settings without touching the network (nothing connects until ``start``)."""
    return GameBot(settings or load_settings(), **options)


async def run(bot: GameBot, token: str) -> None:
    async with bot:
        await bot.open_database()  # first: a database that cannot be used stops the bot before Discord is asked
        await bot.start(token)


def main() -> int:
    settings = load_settings()
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level.upper()))
    if not settings.discord_token:
        return fail(
            "DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it "
            "(Discord Developer Portal > your application > Bot > Reset Token).",
            2,
        )
    bot = create_bot(settings)
    try:
        asyncio.run(run(bot, settings.discord_token))
    except DatabaseProblem as problem:
        return fail(str(problem), 1)
    except discord.LoginFailure:
        return fail(
            "Discord refused the token in DISCORD_TOKEN. Check it against the Developer Portal "
            "(Bot > Reset Token) and see .env.example.",
            2,
        )
    except aiohttp.ClientConnectorError as error:
        return fail(f"Cannot reach Discord at {error.host}:{error.port} ({error.os_error}). Check the network.", 1)
    except TimeoutError:
        return fail(
            f"Discord did not answer within {settings.connect_timeout_seconds:g} s "
            "(CONNECT_TIMEOUT_SECONDS). Check the network, a proxy or https://discordstatus.com.",
            1,
        )
    except (aiohttp.ClientError, OSError) as error:
        return fail(f"The connection to Discord failed: {error or type(error).__name__}. Check the network.", 1)
    except KeyboardInterrupt:
        pass
    return 0


def fail(message: str, code: int) -> int:
    """One line for the operator, no traceback: these are not the bot's bugs."""
    print(message, file=sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
