"""The commands every game has: the challenge command and the game commands, in one cog per game.

Every game gets its cog from its registry entry: :func:`cog_class` builds it from :class:`GameCog`, with the mixin of
the game's own commands when the entry names one (``GameEntry.cog``, a module beside this one). The challenge
command, with the game's own options and side names (and a level when the entry names a computer player), is built
from the entry too. ``learn`` and the puzzles are mixins of every game's cog (``cogs/commands/learn.py``,
``cogs/commands/puzzles.py``). Everything else (turns, persistence, ratings) lives in the session service.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Awaitable
from typing import Any, ClassVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.commands.game_records import analyse_record, check_one_source, history_files, replay_record
from cogs.commands.learn import LearnCommands
from cogs.commands.puzzles import PuzzleCommands, puzzle_command
from cogs.components.challenge_buttons import post_challenge
from cogs.components.replay_buttons import position_message
from cogs.plumbing.deadline import in_time, reply_to
from cogs.plumbing.host import GameService, ServiceHost, service_of
from cogs.plumbing.places import IN_SERVER_ONLY, is_private, may_play_here, place_id
from cogs.plumbing.places import NOT_IN_THIS_DM as NOT_HERE
from cogs.posting.game_threads import open_practice, parent_of
from cogs.posting.replies import note_interaction, reply_aborted, reply_with_report
from cogs.presentation import game_text
from cogs.presentation.board_controls import PLAYING_LAYOUT, board_components, roll_label
from cogs.presentation.images import animation_file, board_image
from cogs.presentation.markup import QUIET, clip
from cogs.presentation.names import display_names
from locales import N_, tr
from sessions.model import DatabaseUnavailable, Game, GameEntry, GameState, GameStatus, LruCache, Report, UserError

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25  # Discord's cap on choices
LEVEL_LABELS = {
    1: N_("1: gentle, for a first game"),
    2: N_("2: casual"),
    3: N_("3: solid"),
    4: N_("4: the strongest"),
}
CHOICE_TEXT_LIMIT = 100  # Discord's cap on a choice's name and on its string value
REVIEW_HEADING = N_(
    "Game #{id}: your moves that cost most, each on the board before you played it: the cross is your move, "
    "the star a better one."
)
NOT_A_MEMBER = N_("I cannot use that option: pick a member of this server or a listed value.")


def per_member(interaction: discord.Interaction) -> tuple[int | None, int]:
    return (interaction.guild_id, interaction.user.id)


# Each board is a public image: a member may not flood a channel.
public_post_cooldown = app_commands.checks.cooldown(4, 30, key=per_member)


class CreatedOnly:
    """A cooldown that counts only what was created: a challenge refused (of oneself, at a level a member has not)
    costs nothing, and the next real one goes out. ``check`` before, ``count`` after success."""

    def __init__(self, rate: int, per: float) -> None:
        self.rate, self.per = rate, per
        self._buckets: LruCache[tuple[int | None, int], app_commands.Cooldown] = LruCache(10_000)

    def check(self, key: tuple[int | None, int]) -> None:
        bucket = self._buckets.get(key)
        if bucket is not None and bucket.get_tokens() == 0:
            raise app_commands.CommandOnCooldown(bucket, bucket.get_retry_after())

    def count(self, key: tuple[int | None, int]) -> None:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = app_commands.Cooldown(self.rate, self.per)
            self._buckets.put(key, bucket)
        bucket.update_rate_limit()


# Each challenge pings the opponent, and each game against the bot opens a thread: three of each a minute per
# member, counted apart (practising against the bot never holds up a challenge of a friend).
challenges_made = CreatedOnly(3, 60)
games_against_bot = CreatedOnly(3, 60)


def public_boards_only(interaction: discord.Interaction) -> app_commands.Cooldown | None:
    """A board shown only to its reader floods no channel: a player who reads the board before every move (a
    screen-reader user with the text board, say) is never held back."""
    return None if getattr(interaction.namespace, "private", False) else app_commands.Cooldown(4, 30)


board_cooldown = app_commands.checks.dynamic_cooldown(public_boards_only, key=per_member)


async def board_file(
    interaction: discord.Interaction, game: Game, state: GameState, *, private: bool = False, **marks: Any
) -> discord.File:
    """The board drawn in the server's language, described in the reader's when only they see it; ``marks``: the
    renderer's layout and marks."""
    reader = interaction.locale if private else interaction.guild_locale
    return await board_image(
        interaction.guild, service_of(interaction), game, state, locale=interaction.guild_locale, reader=reader, **marks
    )


async def send_text_board(
    interaction: discord.Interaction, game: Game, state: GameState, *, private: bool = False
) -> None:
    """``/<game> board text:true``: the position as one message instead of the image, in the place's language, or
    privately in the reader's: whose turn, a monospace diagram, the pieces by rows, the legal moves and the score."""
    service = service_of(interaction)
    names = await display_names(interaction.guild, game)
    locale = interaction.locale if private else interaction.guild_locale or interaction.locale
    text = await service.boards.board_text(game, state, names, locale)
    await interaction.response.send_message(text, allowed_mentions=QUIET, ephemeral=private)


def challenge_command(entry: GameEntry) -> app_commands.Command[Any, ..., None]:
    """``/<game> challenge``: the opponent, the game's own options, the side and whether it is rated.

    The parameters differ per game, so the signature discord.py reads is built from the entry."""

    async def challenge(cog: GameCog, interaction: discord.Interaction, **chosen: Any) -> None:
        opponent = chosen.get("opponent")
        options = {
            option.name: chosen[option.name].value if chosen.get(option.name) else option.default
            for option in entry.options
        }
        side, level = chosen.get("side"), chosen.get("level")
        rating_range = (chosen.get("rating_min"), chosen.get("rating_max"))
        if opponent is None:  # an open challenge: anyone here may accept
            if level is not None:
                raise UserError("The level is for games against the bot: challenge me to play at a level.")
            await cog.send_open_challenge(
                interaction, options, side.value if side else None, chosen.get("rated", True), rating_range
            )
            return
        if rating_range != (None, None):
            raise UserError("A rating range is for open challenges: leave the opponent empty to post one.")
        await cog.send_challenge(
            interaction,
            opponent,
            options,
            side.value if side else None,
            chosen.get("rated", True),
            level.value if level else None,
        )

    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [
        inspect.Parameter("cog", keyword),
        inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
        # A user, not a member: in a DM or group DM nobody is a member of anything (cogs/plumbing/places.py checks who).
        # None: an open challenge anyone in the server's channel may accept.
        inspect.Parameter("opponent", keyword, annotation=discord.User | None, default=None),
    ]
    for option in entry.options:
        kind = int if all(isinstance(value, int) for value in option.values) else str
        parameters.append(
            inspect.Parameter(option.name, keyword, annotation=app_commands.Choice[kind] | None, default=None)
        )
    parameters.append(inspect.Parameter("side", keyword, annotation=app_commands.Choice[int] | None, default=None))
    parameters.append(inspect.Parameter("rated", keyword, annotation=bool, default=True))
    rating = app_commands.Range[int, 0, 4000] | None
    parameters.append(inspect.Parameter("rating_min", keyword, annotation=rating, default=None))
    parameters.append(inspect.Parameter("rating_max", keyword, annotation=rating, default=None))
    if entry.ai is not None:  # only a game the bot plays offers a level
        parameters.append(inspect.Parameter("level", keyword, annotation=app_commands.Choice[int] | None, default=None))
    challenge.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    challenge.__qualname__ = "GameCog.challenge"  # a method: discord.py then passes the cog first

    choices = {
        option.name: [app_commands.Choice(name=label, value=value) for label, value in option.choices]
        for option in entry.options
    }
    choices["side"] = [app_commands.Choice(name=name, value=index) for index, name in enumerate(entry.sides)]
    descriptions = {option.name: option.description for option in entry.options}
    if entry.ai is not None:
        choices["level"] = [app_commands.Choice(name=label, value=level) for level, label in LEVEL_LABELS.items()]
        descriptions["level"] = "Against the bot itself: how well it plays, 1 to 4 (default: 2)."
    described = app_commands.describe(
        opponent="Who you want to play (leave it empty: anyone here may accept).",
        rating_min="An open challenge: the lowest rating that may accept.",
        rating_max="An open challenge: the highest rating that may accept.",
        side=entry.side_description,
        rated="Count the game for ratings (default: yes).",
        **descriptions,
    )(app_commands.choices(**choices)(challenge))
    return app_commands.command(name="challenge", description=entry.challenge_description)(described)


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class GameCog(LearnCommands, PuzzleCommands, commands.GroupCog):
    """Commands every game has. A subclass names its game's entry: ``class XCog(GameCog, entry=X, ...)``
    (:func:`cog_class` builds each game's)."""

    entry: ClassVar[GameEntry]

    def __init_subclass__(cls, *, entry: GameEntry | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if entry is not None:
            cls.entry = entry
            cls.challenge = challenge_command(entry)  # type: ignore[attr-defined]
            cls.puzzle = puzzle_command(entry)  # type: ignore[attr-defined]

    def __init__(self, host: ServiceHost) -> None:
        self.host = host
        super().__init__()
        self.drop_learn_without_course()

    @property
    def service(self) -> GameService:
        return self.host.service

    @property
    def game(self) -> str:
        return self.entry.name

    # --- helpers for subclasses --------------------------------------------------------------------

    async def send_challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        options: dict[str, Any],
        side: int | None,
        rated: bool,
        level: int | None = None,
    ) -> None:
        place = place_id(interaction)
        if place is None or interaction.channel_id is None:
            raise UserError(IN_SERVER_ONLY)
        if not may_play_here(interaction, opponent):
            raise UserError(NOT_HERE if interaction.guild_id is None else NOT_A_MEMBER)
        key = per_member(interaction)
        if interaction.client.user is not None and opponent.id == interaction.client.user.id:
            games_against_bot.check(key)
            challenged = self.service.challenges.challenge_computer(
                game=self.game,
                guild_id=place,
                channel_id=interaction.channel_id,
                member_id=interaction.user.id,
                bot_id=opponent.id,
                options=options,
                side=side,
                level=level,
                reply=reply_to(interaction),
                parent_id=parent_of(interaction),
            )
            report = await in_time(interaction, challenged)
            games_against_bot.count(key)
            await open_practice(interaction, report)
            return
        if level is not None:
            raise UserError("The level is for games against the bot: challenge me to play at a level.")
        challenges_made.check(key)
        offering = self.service.challenges.challenge(
            game=self.game,
            guild_id=place,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            opponent_is_bot=opponent.bot,
            options=options,
            side=side,
            rated=rated,
            parent_id=interaction.channel.parent_id if isinstance(interaction.channel, discord.Thread) else None,
        )
        offered = await in_time(interaction, offering)
        challenges_made.count(key)
        await post_challenge(interaction, offered)

    async def send_open_challenge(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        side: int | None,
        rated: bool,
        rating_range: tuple[int | None, int | None],
    ) -> None:
        """A challenge anyone in the channel may accept, within the rating range when one is given."""
        if interaction.guild is None or interaction.channel_id is None:
            raise UserError("Name your opponent: a challenge to anyone is for a server's channel.")
        offering = self.service.open_challenges.offer(
            game=self.game,
            guild_id=interaction.guild.id,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            options=options,
            side=side,
            rated=rated,
            rating_min=rating_range[0],
            rating_max=rating_range[1],
            parent_id=interaction.channel.parent_id if isinstance(interaction.channel, discord.Thread) else None,
        )
        await post_challenge(interaction, await in_time(interaction, offering))

    async def current_game(
        self, interaction: discord.Interaction, game_id: int | None, *, spectate: bool = False, to_act: bool = True
    ) -> Game:
        """The game a command means; with ``to_act`` (an acting command), of the caller's several games here the
        one waiting for them, when only one is."""
        place = place_id(interaction)
        if place is None or interaction.channel_id is None:
            raise UserError(IN_SERVER_ONLY)
        return await self.service.finder.find_game(
            self.game,
            interaction.user.id,
            place,
            interaction.channel_id,
            game_id,
            spectate=spectate,
            to_act=to_act and not spectate,
        )

    async def act(self, interaction: discord.Interaction, action: Awaitable[Report]) -> None:
        """Commit an action and announce it; the interaction is held first if the database keeps the commit past
        Discord's margin (a lock, a slow server)."""
        await reply_with_report(interaction, await in_time(interaction, action))

    async def play_and_announce(self, interaction: discord.Interaction, game_id: int | None, move: str) -> None:
        found = await self.current_game(interaction, game_id)
        reply = reply_to(interaction)
        await self.act(
            interaction, self.service.turns.play(found.id, interaction.user.id, move, reply=reply, known=found)
        )

    async def state_for_autocomplete(self, interaction: discord.Interaction) -> GameState | None:
        """The caller's game state while they are to move (not roll), else None: autocomplete then offers
        nothing, and submitting explains why."""
        chosen = getattr(interaction.namespace, "game", None)
        if not isinstance(chosen, int) or isinstance(chosen, bool):  # typed text while choosing, or a forgery
            chosen = None
        try:
            found = await self.current_game(interaction, chosen)
            state = await self.service.finder.state(found)
        except (UserError, DatabaseUnavailable):  # nothing to offer now; submitting says why
            return None
        if state.to_act != found.side_of(interaction.user.id) or state.chance:
            return None
        return state

    async def legal_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Legal moves of the caller's game that match what was typed, when it is their turn."""
        state = await self.state_for_autocomplete(interaction)
        if state is None:
            return []
        wanted = current.lower().replace(" ", "").replace(",", "")
        matches = [m for m in state.legal_moves() if wanted in m.lower().replace(" ", "")]
        fitting = [m for m in matches if len(m) <= CHOICE_TEXT_LIMIT]
        return [app_commands.Choice(name=m, value=m) for m in fitting[:AUTOCOMPLETE_LIMIT]]

    async def game_choices(
        self, interaction: discord.Interaction, current: str, *, mine_only: bool = True
    ) -> list[app_commands.Choice[int]]:
        """The ``game`` option's choices: the caller's own games here (``mine_only``: a command that acts), or
        every game here (one that looks), the caller's first."""
        assert interaction.channel_id is not None
        try:
            candidates = await self.service.finder.games_for_choice(
                self.game, interaction.user.id, interaction.channel_id, mine_only=mine_only
            )
        except DatabaseUnavailable:  # nothing to offer now; submitting says why
            return []
        choices = []
        for found in candidates:
            label = game_text.game_label(interaction.locale, found, await display_names(interaction.guild, found))
            if current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=found.id))
        return choices[:AUTOCOMPLETE_LIMIT]

    # --- commands every game has -------------------------------------------------------------------

    @app_commands.command(name="move", description="Play a move in the game's notation.")
    @app_commands.describe(move="The move; the list shows the legal ones.", game="Which game, if you have several.")
    async def move(self, interaction: discord.Interaction, move: str, game: int | None = None) -> None:
        await self.play_and_announce(interaction, game, move)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.legal_choices(interaction, current)

    @app_commands.command(name="board", description="Show the board of a game in this channel.")
    @board_cooldown
    @app_commands.describe(
        game="Which game, if several are on.",
        text="Show the position as text (a diagram, the pieces by rows, the legal moves) instead of an image.",
        private="Show it only to you, in your language (default: to everyone here).",
    )
    async def board(
        self, interaction: discord.Interaction, game: int | None = None, text: bool = False, private: bool = False
    ) -> None:
        found = await self.current_game(interaction, game, spectate=True)
        state = await self.service.finder.state(found)
        if is_private(found):  # no sweep runs for a DM: a bot's turn a restart lost is taken now, shown as a followup
            note_interaction(interaction, found)
            await self.service.computer.catch_up(found)
        if text:
            await send_text_board(interaction, found, state, private=private)
            return
        locale = interaction.locale if private else interaction.guild_locale
        buttons = {} if private else await board_components(self.service, found, state, found.ply, locale)
        words = game_text.report_text(locale, Report(found, state, [], None), roll_button=roll_label(buttons))
        if found.status == GameStatus.FINISHED:
            words = tr(locale, "Game #{id} is over.", id=found.id)
        file = await board_file(interaction, found, state, private=private, layout=PLAYING_LAYOUT)
        # Spectators' mentions of the players would ping them for nothing.
        await interaction.response.send_message(words, file=file, allowed_mentions=QUIET, ephemeral=private, **buttons)

    @app_commands.command(name="resign", description="Resign your game: your opponent wins.")
    @app_commands.describe(game="Which game, if you have several.")
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game, to_act=False)  # never guessed: it ends a game
        await self.act(
            interaction, self.service.turns.resign(found.id, interaction.user.id, reply=reply_to(interaction))
        )

    @app_commands.command(name="abort", description="End a game that has barely begun, with no result.")
    @app_commands.describe(game="Which game, if you have several.")
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game)
        aborting = self.service.aborts.abort(found.id, interaction.user.id, reply=reply_to(interaction))
        aborted, announcement_id = await in_time(interaction, aborting)
        await reply_aborted(interaction, aborted, announcement_id)

    @app_commands.command(name="claim", description="Claim the win when your opponent stopped moving.")
    @app_commands.describe(game="Which game, if you have several.")
    async def claim(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game, to_act=False)  # a claim is for a game not waiting for you
        await self.act(
            interaction, self.service.turns.claim(found.id, interaction.user.id, reply=reply_to(interaction))
        )

    @app_commands.command(name="rules", description="A short summary of the rules.")
    async def rules(self, interaction: discord.Interaction) -> None:
        lines = [tr(interaction.locale, line) for line in self.entry.rules]
        embed = discord.Embed(title=game_text.title(self.game, interaction.locale), description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="The move list of a game, with its record as a file.")
    @app_commands.describe(game="Which game, if several are on.")
    async def history(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game, spectate=True)
        moves = await self.service.finder.moves(found.id)
        names = await display_names(interaction.guild, found)
        numbered = (
            " ".join(
                f"{ply}. {game_text.logged_move(interaction.locale, move)}" for ply, move in enumerate(moves, start=1)
            )
            or "-"
        )
        files = await history_files(interaction, self.entry, found, moves, names)
        header = tr(interaction.locale, "Moves of game #{id}:", id=found.id)
        await interaction.response.send_message(clip(f"{header}\n{numbered}"), files=files, ephemeral=True)

    @app_commands.command(name="replay", description="Step through a game of this server, or get it as an animation.")
    @public_post_cooldown
    @app_commands.describe(
        game="Which game (any game of this server, finished or not).",
        animated="Post the whole game as an animated image instead (default: step through it privately).",
        record="Or: a game record file (from /history, played anywhere) to replay.",
    )
    async def replay(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        animated: bool = False,
        record: discord.Attachment | None = None,
    ) -> None:
        check_one_source(game, record)
        if record is not None:
            await replay_record(interaction, self.entry, record, animated)
            return
        found = await self.current_game(interaction, game, spectate=True)
        if found.status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
            raise UserError("Game #{id} has not started, so there is nothing to replay.", id=found.id)
        if animated:
            await self.post_animation(interaction, found)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        content, file, view = await position_message(interaction, found, found.ply)
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)

    async def post_animation(self, interaction: discord.Interaction, game: Game) -> None:
        await interaction.response.defer(thinking=True)
        file, frames = await animation_file(interaction, game)
        text = tr(
            interaction.guild_locale, "Game #{id} in {frames} frames, the start first.", id=game.id, frames=frames
        )
        await interaction.followup.send(text, file=file)

    @app_commands.command(name="hint", description="In a game against the bot: a suggestion for your move, privately.")
    @app_commands.describe(game="Which game, if you have several.")
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a search, in the worker pool
        found, state, move = await self.service.computer.hint(found.id, interaction.user.id)
        text = tr(interaction.locale, "Try **{move}**: the bot's level-4 suggestion, shown on the board.", move=move)
        board = await board_file(interaction, found, state, private=True, suggestion=move)  # on the member's position
        await interaction.followup.send(text, file=board, ephemeral=True)

    @app_commands.command(name="takeback", description="Against the bot: undo your last move and its reply.")
    @app_commands.describe(game="Which game, if you have several.")
    async def takeback(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game)
        await self.act(
            interaction, self.service.computer.takeback(found.id, interaction.user.id, reply=reply_to(interaction))
        )

    @app_commands.command(name="analyse", description="The moves of a finished game of yours that cost most.")
    @app_commands.describe(
        game="Which game (default: your last finished one here).",
        record="Or: a game record file (from /history, played anywhere) to analyse.",
    )
    async def analyse(
        self, interaction: discord.Interaction, game: int | None = None, record: discord.Attachment | None = None
    ) -> None:
        check_one_source(game, record)
        if record is not None:
            await analyse_record(interaction, self.entry, record)
            return
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        found = await self.service.finder.finished_game(self.game, interaction.user.id, place, game)
        await interaction.response.defer(ephemeral=True, thinking=True)  # long: every position is searched
        mistakes = await self.service.computer.analyse(found.id, interaction.user.id, place)
        locale = interaction.locale
        if not mistakes:
            await interaction.followup.send(
                tr(locale, "Game #{id}: no move stands out as a mistake. Well played!", id=found.id), ephemeral=True
            )
            return
        lines = [tr(locale, REVIEW_HEADING, id=found.id)]
        files = []
        for ply, played, better, drop in mistakes:  # ply: the move's number in the log, as /history numbers it
            lines.append(game_text.mistake_line(locale, ply, played, better, drop))
            before = await self.service.finder.position(found, ply - 1)
            name = f"{found.name}-{found.id}-move-{ply}.png"
            marks = {"name": name, "played": played, "suggestion": better}
            files.append(await board_file(interaction, found, before, private=True, **marks))
        await interaction.followup.send(clip("\n".join(lines)), files=files, ephemeral=True)

    @move.autocomplete("game")
    @hint.autocomplete("game")
    @takeback.autocomplete("game")
    @resign.autocomplete("game")
    @abort.autocomplete("game")
    @claim.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current)

    @board.autocomplete("game")
    @replay.autocomplete("game")
    @history.autocomplete("game")
    async def any_game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current, mine_only=False)


def cog_class(entry: GameEntry) -> type[GameCog]:
    """The cog of a game: the commands every game has, and before them the game's own when its entry names them
    (``GameEntry.cog``: a function of the entry that returns their mixin)."""
    bases: tuple[type, ...] = (GameCog,)
    if entry.cog is not None:
        module, _, name = entry.cog.partition(":")
        bases = (getattr(importlib.import_module(module), name)(entry), GameCog)
    return cast(
        type[GameCog],
        type(GameCog)(
            f"{entry.name.title()}Cog",
            bases,
            {"__doc__": entry.description},
            entry=entry,
            group_name=entry.name,
            group_description=entry.description,
        ),
    )
