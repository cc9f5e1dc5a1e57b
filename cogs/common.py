"""What every game cog shares: the challenge command and the game commands, and a game's record as a file.

Every game gets a cog from its registry entry: :func:`cog_class` builds the plain one, and a game with
special commands subclasses :class:`GameCog` with ``entry=`` and adds only those. The challenge command,
with the game's own options and side names (and a level when the entry names a computer player), is built from
the entry too. Everything else (turns, persistence, ratings) lives in the session service.
"""

from __future__ import annotations

import importlib
import inspect
import io
import json
import logging
from typing import Any, ClassVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs import present
from cogs.announce import reply_with_report
from cogs.challenges import post_challenge
from cogs.context import board_image, display_names, service_of
from cogs.learn import LearnCommands
from cogs.replay import animation_file, position_message
from cogs.reply import reply_to
from cogs.tree import IN_SERVER_ONLY, clip
from engines import GameState
from games import GameEntry
from locales import N_, tr
from sessions.host import ServiceHost
from sessions.service import Game, GameService, Report, UserError
from sessions.vocabulary import GameStatus

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25  # Discord's cap on choices
LEVEL_LABELS = {
    1: N_("1: gentle, for a first game"),
    2: N_("2: casual"),
    3: N_("3: solid"),
    4: N_("4: the strongest"),
}
CHOICE_TEXT_LIMIT = 100  # Discord's cap on a choice's name and on its string value


def per_member(interaction: discord.Interaction) -> tuple[int | None, int]:
    return (interaction.guild_id, interaction.user.id)


# Each challenge pings the opponent and each board is a public image: a member may not flood a channel.
challenge_cooldown = app_commands.checks.cooldown(3, 60, key=per_member)
public_post_cooldown = app_commands.checks.cooldown(4, 30, key=per_member)


async def board_file(interaction: discord.Interaction, game: Game, state: GameState) -> discord.File:
    return await board_image(interaction.guild, service_of(interaction), game, state, locale=interaction.guild_locale)


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
        inspect.Parameter("opponent", keyword, annotation=discord.Member | None, default=None),
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
    )(app_commands.choices(**choices)(challenge_cooldown(challenge)))
    return app_commands.command(name="challenge", description=entry.challenge_description)(described)


@app_commands.guild_only()
class GameCog(LearnCommands, commands.GroupCog):
    """Commands every game has. A subclass names its game's entry: ``class XCog(GameCog, entry=X, ...)``."""

    entry: ClassVar[GameEntry]

    def __init_subclass__(cls, *, entry: GameEntry | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if entry is not None:
            cls.entry = entry
            cls.challenge = challenge_command(entry)  # type: ignore[attr-defined]

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
        if interaction.guild is None or interaction.channel_id is None:
            raise UserError(IN_SERVER_ONLY)
        if interaction.client.user is not None and opponent.id == interaction.client.user.id:
            report = await self.service.challenge_computer(
                game=self.game,
                guild_id=interaction.guild.id,
                channel_id=interaction.channel_id,
                member_id=interaction.user.id,
                bot_id=opponent.id,
                options=options,
                side=side,
                level=level,
                reply=reply_to(interaction),
                parent_id=interaction.channel.parent_id if isinstance(interaction.channel, discord.Thread) else None,
            )
            await reply_with_report(interaction, report)
            return
        if level is not None:
            raise UserError("The level is for games against the bot: challenge me to play at a level.")
        offered = await self.service.challenge(
            game=self.game,
            guild_id=interaction.guild.id,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            opponent_is_bot=opponent.bot,
            options=options,
            side=side,
            rated=rated,
            parent_id=interaction.channel.parent_id if isinstance(interaction.channel, discord.Thread) else None,
        )
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
            raise UserError(IN_SERVER_ONLY)
        offered = await self.service.offer_open(
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
        await post_challenge(interaction, offered)

    async def current_game(
        self, interaction: discord.Interaction, game_id: int | None, *, spectate: bool = False
    ) -> Game:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError(IN_SERVER_ONLY)
        return await self.service.find_game(
            self.game, interaction.user.id, interaction.guild_id, interaction.channel_id, game_id, spectate=spectate
        )

    async def play_and_announce(self, interaction: discord.Interaction, game_id: int | None, move: str) -> None:
        found = await self.current_game(interaction, game_id)
        report = await self.service.play(found.id, interaction.user.id, move, reply=reply_to(interaction), known=found)
        await reply_with_report(interaction, report)

    async def state_for_autocomplete(self, interaction: discord.Interaction) -> GameState | None:
        """The caller's game state while they are to move (not roll), else None: autocomplete then offers
        nothing, and submitting explains why."""
        try:
            found = await self.current_game(interaction, getattr(interaction.namespace, "game", None))
            state = await self.service.state(found)
        except UserError:
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

    async def game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        assert interaction.channel_id is not None
        candidates = await self.service.games_for_choice(self.game, interaction.user.id, interaction.channel_id)
        choices = []
        for found in candidates:
            label = present.game_label(interaction.locale, found, await display_names(interaction.guild, found))
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
    @public_post_cooldown
    @app_commands.describe(game="Which game, if several are on.")
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game, spectate=True)
        state = await self.service.state(found)
        text = present.report_text(interaction.guild_locale, Report(found, state, [], None))
        if found.status == GameStatus.FINISHED:
            text = tr(interaction.guild_locale, "Game #{id} is over.", id=found.id)
        # Spectators' mentions of the players would ping them for nothing.
        quiet = discord.AllowedMentions.none()
        await interaction.response.send_message(
            text, file=await board_file(interaction, found, state), allowed_mentions=quiet
        )

    @app_commands.command(name="resign", description="Resign your game: your opponent wins.")
    @app_commands.describe(game="Which game, if you have several.")
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game)
        report = await self.service.resign(found.id, interaction.user.id, reply=reply_to(interaction))
        await reply_with_report(interaction, report)

    @app_commands.command(name="claim", description="Claim the win when your opponent stopped moving.")
    @app_commands.describe(game="Which game, if you have several.")
    async def claim(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game)
        report = await self.service.claim(found.id, interaction.user.id, reply=reply_to(interaction))
        await reply_with_report(interaction, report)

    @app_commands.command(name="rules", description="A short summary of the rules.")
    async def rules(self, interaction: discord.Interaction) -> None:
        lines = [tr(interaction.locale, line) for line in self.entry.rules]
        embed = discord.Embed(title=present.title(self.game, interaction.locale), description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="The move list of a game, with its record as a file.")
    @app_commands.describe(game="Which game, if several are on.")
    async def history(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game, spectate=True)
        moves = await self.service.moves(found.id)
        names = await display_names(interaction.guild, found)
        numbered = (
            " ".join(
                f"{ply}. {present.logged_move(interaction.locale, move)}" for ply, move in enumerate(moves, start=1)
            )
            or "-"
        )
        record = game_record(self.entry, found, moves, names)
        files = [
            discord.File(
                io.BytesIO(json.dumps(record, ensure_ascii=False, indent=2).encode()),
                filename=f"{found.name}-{found.id}.json",
            ),
            discord.File(
                io.BytesIO(readable_record(interaction.locale, self.entry, found, moves, names).encode()),
                filename=f"{found.name}-{found.id}.txt",
            ),
        ]
        header = tr(interaction.locale, "Moves of game #{id}:", id=found.id)
        await interaction.response.send_message(clip(f"{header}\n{numbered}"), files=files, ephemeral=True)

    @app_commands.command(name="replay", description="Step through a game of this server, or get it as an animation.")
    @public_post_cooldown
    @app_commands.describe(
        game="Which game (any game of this server, finished or not).",
        animated="Post the whole game as an animated image instead (default: step through it privately).",
    )
    async def replay(self, interaction: discord.Interaction, game: int | None = None, animated: bool = False) -> None:
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
        found, state, move = await self.service.hint(found.id, interaction.user.id)
        text = tr(interaction.locale, "Try **{move}**: the bot's level-3 suggestion, shown on the board.", move=move)
        await interaction.followup.send(text, file=await board_file(interaction, found, state), ephemeral=True)

    @app_commands.command(name="takeback", description="Against the bot: undo your last move and its reply.")
    @app_commands.describe(game="Which game, if you have several.")
    async def takeback(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await self.current_game(interaction, game)
        report = await self.service.takeback(found.id, interaction.user.id, reply=reply_to(interaction))
        await reply_with_report(interaction, report)

    @app_commands.command(name="analyse", description="The moves of a finished game of yours that cost most.")
    @app_commands.describe(game="Which game (default: your last finished one here).")
    async def analyse(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if interaction.guild_id is None:
            raise UserError(IN_SERVER_ONLY)
        found = await self.service.finished_game(self.game, interaction.user.id, interaction.guild_id, game)
        await interaction.response.defer(ephemeral=True, thinking=True)  # long: every position is searched
        mistakes = await self.service.analyse(found.id, interaction.user.id, interaction.guild_id)
        locale = interaction.locale
        if not mistakes:
            await interaction.followup.send(
                tr(locale, "Game #{id}: no move stands out as a mistake. Well played!", id=found.id), ephemeral=True
            )
            return
        lines = [tr(locale, "Game #{id}: the moves that cost most, each shown before it was played.", id=found.id)]
        files = []
        for ply, played, better, drop in mistakes:
            lines.append(
                tr(
                    locale,
                    "Move {ply}: **{played}** was played; **{better}** was better (the evaluation fell by {drop}%).",
                    ply=ply,
                    played=played,
                    better=better,
                    drop=round(50 * drop),
                )
            )
            files.append(await board_file(interaction, found, await self.service.position(found, ply - 1)))
        await interaction.followup.send(clip("\n".join(lines)), files=files, ephemeral=True)

    @move.autocomplete("game")
    @board.autocomplete("game")
    @hint.autocomplete("game")
    @takeback.autocomplete("game")
    @replay.autocomplete("game")
    @resign.autocomplete("game")
    @claim.autocomplete("game")
    @history.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current)


RECORD_FORMAT = "abstract-games-bot/game-record/1"


def game_record(entry: GameEntry, game: Game, moves: list[str], names: tuple[str, str]) -> dict[str, Any]:
    """A game as data: options plus every move, dice included, replay it through the engine contract."""
    return {
        "format": RECORD_FORMAT,
        "game": game.name,
        "title": entry.title,
        "id": game.id,
        "options": game.options,
        "players": list(game.players),
        "names": list(names),
        "sides": [str(side) for side in entry.sides],
        "status": game.status,
        "rated": game.rated,
        "chance_moves": [move for move in moves if move.split(" ", 1)[0] in entry.chance_words],
        "moves": moves,
        "result": None
        if game.scores is None
        else {"winner": game.winner, "reason": game.result_reason, "scores": list(game.scores)},
    }


def readable_record(locale: Any, entry: GameEntry, game: Game, moves: list[str], names: tuple[str, str]) -> str:
    """The record as a person reads it: a header, then one numbered move per line with who played it."""
    sides = [f"{tr(locale, entry.sides[side])}: {names[side]}" for side in (0, 1)]
    options = present.options_text(locale, game.name, game.options)
    title = present.title(game.name, locale)
    header = f"{title} #{game.id}"
    if options:
        header = tr(locale, "{title} #{id} ({options})", title=title, id=game.id, options=options)
    lines = [header, *sides, ""]
    lines += [f"{ply:>4}. {present.logged_move(locale, move)}" for ply, move in enumerate(moves, start=1)]
    if game.scores is not None:
        lines += [
            "",
            tr(
                locale,
                "Final score: {side0} {score0} · {side1} {score1}",
                side0=sides[0],
                score0=game.scores[0],
                side1=sides[1],
                score1=game.scores[1],
            ),
        ]
    return "\n".join(lines) + "\n"


def cog_class(entry: GameEntry) -> type[GameCog]:
    """The cog of a game: its own subclass when the entry names one, else the shared commands alone."""
    if entry.cog is not None:
        module, _, name = entry.cog.partition(":")
        return getattr(importlib.import_module(module), name)
    return cast(
        type[GameCog],
        type(GameCog)(
            f"{entry.name.title()}Cog",
            (GameCog,),
            {"__doc__": entry.description},
            entry=entry,
            group_name=entry.name,
            group_description=entry.description,
        ),
    )
