"""What every game cog shares: challenge buttons, the game commands, replies, errors and images.

Every game gets a cog from its registry entry: :func:`cog_class` builds the plain one, and a game with
special commands subclasses :class:`GameCog` with ``entry=`` and adds only those. The challenge command,
with the game's own options and side names, is built from the entry too. Everything else (turns,
persistence, ratings) lives in the session service.
"""

from __future__ import annotations

import importlib
import inspect
import io
import json
import logging
import re
from typing import Any, ClassVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs import present
from engines import GameState
from games import GameEntry
from locales import N_, tr
from sessions.host import ServiceHost
from sessions.service import GameService, Report, UserError, render_board
from storage.database import GameRow

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25  # Discord's cap on choices


def service_of(interaction: discord.Interaction) -> GameService:
    """The session service, for code that has an interaction but no cog (persistent buttons)."""
    return cast(ServiceHost, interaction.client).service


async def send_private(interaction: discord.Interaction, message: str, **params: Any) -> None:
    """A private answer in the member's own language, whether or not the interaction was answered."""
    text = tr(interaction.locale, message, **params)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def display_names(guild: discord.Guild | None, row: GameRow) -> tuple[str, str]:
    names = []
    for user_id in row.players:
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        names.append(member.display_name if member else f"Player {user_id}")
    return names[0], names[1]


async def board_file(guild: discord.Guild | None, report_or_row: Report | GameRow, state: GameState) -> discord.File:
    row = report_or_row.row if isinstance(report_or_row, Report) else report_or_row
    png = await render_board(row, state, await display_names(guild, row))
    return discord.File(io.BytesIO(png), filename=f"{row.game}-{row.id}-{row.ply}.png")


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"challenge:(?P<action>accept|decline|cancel):(?P<game_id>[0-9]+)",
):
    """Accept, Decline and Cancel on a challenge message. The game id lives in the custom_id, so the
    buttons keep working after a restart without any view kept in memory."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }
    LABELS: ClassVar[dict[str, str]] = {"accept": N_("Accept"), "decline": N_("Decline"), "cancel": N_("Cancel")}

    def __init__(self, action: str, game_id: int, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, self.LABELS[action]),
                style=self.STYLES[action],
                custom_id=f"challenge:{action}:{game_id}",
            )
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChallengeButton:
        return cls(match["action"], int(match["game_id"]), interaction.guild_locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_challenge(interaction, self.action, self.game_id)


def challenge_view(game_id: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ("accept", "decline", "cancel"):
        view.add_item(ChallengeButton(action, game_id, locale))
    return view


async def answer_challenge(interaction: discord.Interaction, action: str, game_id: int) -> None:
    service = service_of(interaction)
    locale = interaction.guild_locale
    try:
        if action == "accept":
            report = await service.accept(game_id, interaction.user.id)
        elif action == "decline":
            row = await service.decline(game_id, interaction.user.id)
        else:
            row = await service.cancel(game_id, interaction.user.id)
    except UserError as error:
        await send_private(interaction, error.message, **error.params)
        return
    if action != "accept":
        text = N_("{player} declined the challenge.") if action == "decline" else N_("{player} withdrew the challenge.")
        await interaction.response.edit_message(
            content=tr(locale, text, player=interaction.user.mention), view=None, allowed_mentions=None
        )
        return
    row = report.row
    title = present.title(row.game)
    await interaction.response.edit_message(
        content=tr(
            locale,
            "{player} accepted: {title} game #{id} begins!",
            player=interaction.user.mention,
            title=title,
            id=row.id,
        ),
        view=None,
    )
    await post_board(interaction, report, present.report_text(locale, report))


async def post_board(interaction: discord.Interaction, report: Report, text: str) -> None:
    """The public message after a change: the text, the board image, and the next player pinged."""
    file = await board_file(interaction.guild, report, report.state)
    await interaction.followup.send(text, file=file)


def challenge_command(entry: GameEntry) -> app_commands.Command[Any, ..., None]:
    """``/<game> challenge``: the opponent, the game's own options, the side and whether it is rated.

    The parameters differ per game, so the signature discord.py reads is built from the entry."""

    async def challenge(cog: GameCog, interaction: discord.Interaction, **chosen: Any) -> None:
        opponent = chosen["opponent"]
        side = chosen.get("side")
        options = {
            option.name: chosen[option.name].value if chosen.get(option.name) else option.default
            for option in entry.options
        }
        await cog.send_challenge(
            interaction, opponent, options, side.value if side else None, chosen.get("rated", True)
        )

    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [
        inspect.Parameter("cog", keyword),
        inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
        inspect.Parameter("opponent", keyword, annotation=discord.Member),
    ]
    for option in entry.options:
        kind = int if all(isinstance(value, int) for value in option.values) else str
        parameters.append(
            inspect.Parameter(option.name, keyword, annotation=app_commands.Choice[kind] | None, default=None)
        )
    parameters.append(inspect.Parameter("side", keyword, annotation=app_commands.Choice[int] | None, default=None))
    parameters.append(inspect.Parameter("rated", keyword, annotation=bool, default=True))
    challenge.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    challenge.__qualname__ = "GameCog.challenge"  # a method: discord.py then passes the cog first

    choices = {
        option.name: [app_commands.Choice(name=label, value=value) for label, value in option.choices]
        for option in entry.options
    }
    choices["side"] = [app_commands.Choice(name=name, value=index) for index, name in enumerate(entry.sides)]
    described = app_commands.describe(
        opponent="Who you want to play.",
        side=entry.side_description,
        rated="Count the game for ratings (default: yes).",
        **{option.name: option.description for option in entry.options},
    )(app_commands.choices(**choices)(challenge))
    return app_commands.command(name="challenge", description=entry.challenge_description)(described)


@app_commands.guild_only()
class GameCog(commands.GroupCog):
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

    @property
    def service(self) -> GameService:
        return self.host.service

    @property
    def game(self) -> str:
        return self.entry.name

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await send_private(interaction, original.message, **original.params)
            return
        log.exception("Command failed", exc_info=original)
        await send_private(interaction, "Something went wrong on my side. Please try again in a moment.")

    # --- helpers for subclasses --------------------------------------------------------------------

    async def send_challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        options: dict[str, Any],
        side: int | None,
        rated: bool,
    ) -> None:
        if interaction.guild is None or interaction.channel_id is None:
            raise UserError("Games are played in a server channel, not in direct messages.")
        row = await self.service.challenge(
            game=self.game,
            guild_id=interaction.guild.id,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            opponent_is_bot=opponent.bot,
            options=options,
            side=side,
            rated=rated,
        )
        locale = interaction.guild_locale
        minutes = round(self.service.settings.challenge_ttl / 60)
        described = ", ".join(f"{key} {value}" for key, value in options.items())
        text = tr(
            locale,
            "{opponent}, {challenger} challenges you to {title} ({options}; {rated}). "
            "{challenger} plays {side}. The challenge expires in {minutes} min.",
            opponent=opponent.mention,
            challenger=interaction.user.mention,
            title=self.entry.title,
            options=described or tr(locale, "standard rules"),
            rated=tr(locale, "rated") if rated else tr(locale, "unrated"),
            side=present.side_name(locale, self.game, row.side_of(interaction.user.id) or 0),
            minutes=minutes,
        )
        await interaction.response.send_message(text, view=challenge_view(row.id, locale))
        message = await interaction.original_response()
        await self.service.db.set_message(row.id, "challenge_message_id", message.id)

    async def current_game(
        self, interaction: discord.Interaction, game_id: int | None, *, spectate: bool = False
    ) -> GameRow:
        assert interaction.channel_id is not None
        return await self.service.find_game(
            self.game, interaction.user.id, interaction.channel_id, game_id, spectate=spectate
        )

    async def play_and_announce(self, interaction: discord.Interaction, game_id: int | None, move: str) -> None:
        row = await self.current_game(interaction, game_id)
        report = await self.service.play(row.id, interaction.user.id, move)
        await interaction.response.defer(thinking=True)
        await post_board(interaction, report, present.report_text(interaction.guild_locale, report))

    async def state_for_autocomplete(self, interaction: discord.Interaction) -> GameState | None:
        """The caller's game state while they are to move (not roll), else None: autocomplete then offers
        nothing, and submitting explains why."""
        try:
            row = await self.current_game(interaction, getattr(interaction.namespace, "game", None))
            state = await self.service.state(row)
        except UserError:
            return None
        if state.to_act != row.side_of(interaction.user.id) or state.chance:
            return None
        return state

    async def legal_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Legal moves of the caller's game that match what was typed, when it is their turn."""
        state = await self.state_for_autocomplete(interaction)
        if state is None:
            return []
        wanted = current.lower().replace(" ", "").replace(",", "")
        matches = [m for m in state.legal_moves() if wanted in m.lower().replace(" ", "")]
        return [app_commands.Choice(name=m, value=m) for m in matches[:AUTOCOMPLETE_LIMIT]]

    async def game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        assert interaction.channel_id is not None
        rows = await self.service.games_for_choice(self.game, interaction.user.id, interaction.channel_id)
        choices = []
        for row in rows:
            label = present.game_label(interaction.locale, row, await display_names(interaction.guild, row))
            if current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=row.id))
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
    @app_commands.describe(game="Which game, if several are on.")
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        row = await self.current_game(interaction, game, spectate=True)
        state = await self.service.state(row)
        await interaction.response.defer(thinking=True)
        text = present.report_text(interaction.guild_locale, Report(row, state, [], None))
        if row.status == "finished":
            text = tr(interaction.guild_locale, "Game #{id} is over.", id=row.id)
        await interaction.followup.send(text, file=await board_file(interaction.guild, row, state))

    @app_commands.command(name="resign", description="Resign your game: your opponent wins.")
    @app_commands.describe(game="Which game, if you have several.")
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        row = await self.current_game(interaction, game)
        report = await self.service.resign(row.id, interaction.user.id)
        await interaction.response.defer(thinking=True)
        await post_board(interaction, report, present.report_text(interaction.guild_locale, report))

    @app_commands.command(name="claim", description="Claim the win when your opponent stopped moving.")
    @app_commands.describe(game="Which game, if you have several.")
    async def claim(self, interaction: discord.Interaction, game: int | None = None) -> None:
        row = await self.current_game(interaction, game)
        report = await self.service.claim(row.id, interaction.user.id)
        await interaction.response.defer(thinking=True)
        await post_board(interaction, report, present.report_text(interaction.guild_locale, report))

    @app_commands.command(name="rules", description="A short summary of the rules.")
    async def rules(self, interaction: discord.Interaction) -> None:
        lines = [tr(interaction.locale, line) for line in self.entry.rules]
        embed = discord.Embed(title=self.entry.title, description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="The move list of a game, with its record as a file.")
    @app_commands.describe(game="Which game, if several are on.")
    async def history(self, interaction: discord.Interaction, game: int | None = None) -> None:
        row = await self.current_game(interaction, game, spectate=True)
        moves = await self.service.db.moves(row.id)
        numbered = " ".join(f"{ply}. {move}" for ply, move in enumerate(moves, start=1)) or "-"
        record = {
            "game": row.game,
            "id": row.id,
            "options": row.options,
            "players": list(row.players),
            "names": list(await display_names(interaction.guild, row)),
            "status": row.status,
            "rated": row.rated,
            "moves": moves,
            "result": None
            if row.scores is None
            else {"winner": row.winner, "reason": row.result_reason, "scores": list(row.scores)},
        }
        file = discord.File(
            io.BytesIO(json.dumps(record, ensure_ascii=False, indent=2).encode()),
            filename=f"{row.game}-{row.id}.json",
        )
        header = tr(interaction.locale, "Moves of game #{id}:", id=row.id)
        await interaction.response.send_message(f"{header}\n{numbered}"[:1900], file=file, ephemeral=True)

    @move.autocomplete("game")
    @board.autocomplete("game")
    @resign.autocomplete("game")
    @claim.autocomplete("game")
    @history.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current)


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
