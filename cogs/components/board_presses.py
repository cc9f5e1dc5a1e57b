"""What a press on a board's controls does (the controls themselves: ``cogs/presentation/board_controls.py``).

Every press is checked against the game as stored, before anything else: only its players may press (anyone else
is told so privately), only at the ply the board shows (a board the game moved past, or a finished game, is
refused privately), and only the player to act may move. A pick that completes a move plays it, and the answer is
the new board with its own components (one request); a pick that does not yet opens, or updates, a private step;
a pick on a step that completes the move turns the step into a note that it was played, and the board follows.
Resign asks once more; Abort ends the game with no result at once, for either player (sessions/aborts.py).
"""

from __future__ import annotations

import asyncio

import discord
from discord.ext import commands

from cogs.plumbing.deadline import defer, in_time, reply_to, time_left
from cogs.plumbing.host import ServiceHost, service_of
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.posting.private_answers import answer_error
from cogs.posting.replies import reply_aborted, reply_from_step, reply_with_report
from cogs.presentation import game_text
from cogs.presentation.board_controls import EVENT, Tap, marks, said, step_view
from cogs.presentation.images import board_image
from locales import N_, tr
from sessions.model import STALE_BOARD, Game, GameState, GameStatus, Mention, Step, Unavailable, UserError

NOT_A_PLAYER = N_(
    "These buttons are for the players of game #{id}. To play yourself, challenge someone with /{game} challenge."
)
GAME_OVER = N_("Game #{id} is over, so its board's buttons do nothing any more.")
NOT_OFFERED = N_("That choice is not on offer here any more. Use the menus under the latest board.")
CONFIRM_RESIGN = N_("Resign game #{id}? Your opponent wins, and a rated game counts as a loss.")
STEP_HEADER = N_("{title} #{id}: {prompt}")


class TapCog(commands.Cog):
    """Answers the ``board_tap`` events the components dispatch."""

    def __init__(self, host: ServiceHost) -> None:
        self.host = host

    @commands.Cog.listener(f"on_{EVENT}")
    async def on_board_tap(self, interaction: discord.Interaction, tap: Tap) -> None:
        try:
            await answer_tap(interaction, tap)
        except Exception as error:  # a component has no command tree behind it: answer here
            await answer_error(interaction, error)


async def answer_tap(interaction: discord.Interaction, tap: Tap) -> None:
    service = service_of(interaction)
    place = place_id(interaction)  # a server, or a DM's own scope
    if place is None:
        raise UserError(IN_SERVER_ONLY)
    user = interaction.user.id
    game = await service.finder.game(tap.game_id, place)
    if user not in game.players:
        raise UserError(NOT_A_PLAYER, id=game.id, game=game.name)
    if game.status != GameStatus.ACTIVE:
        raise UserError(GAME_OVER, id=game.id)
    if tap.ply != game.ply:
        raise UserError(STALE_BOARD)
    reply = reply_to(interaction)
    if tap.action == "abort":
        aborted, announcement_id = await in_time(
            interaction, service.aborts.abort(game.id, user, ply=tap.ply, reply=reply)
        )
        await reply_aborted(interaction, aborted, announcement_id)
        return
    if tap.action == "resign":
        view = step_view(game.id, tap.ply, (), None, ["sure"], interaction.locale)
        text = tr(interaction.locale, CONFIRM_RESIGN, id=game.id)
        await interaction.response.send_message(text, view=view, ephemeral=True)
        return
    if tap.action == "sure":
        await reply_with_report(
            interaction, await in_time(interaction, service.turns.resign(game.id, user, reply=reply, ply=tap.ply))
        )
        return
    state = await service.finder.state(game)
    if state.to_act != game.side_of(user):
        raise UserError("It is not your turn: wait for {mention}.", mention=Mention(game.player_to_act(state)))
    if tap.action == "roll":
        rolled = service.turns.roll(game.id, user, reply=reply, known=game, ply=tap.ply)
        await reply_with_report(interaction, await in_time(interaction, rolled))
        return
    if state.chance:
        raise UserError("Roll the die first with /{game} roll.", game=game.name)
    try:
        picked = await asyncio.to_thread(game.entry.picker.step, state, tap.path)
    except Unavailable as error:
        raise UserError(NOT_OFFERED) from error
    if isinstance(picked, str):
        played = service.turns.play(game.id, user, picked, reply=reply, known=game, ply=tap.ply)
        if on_step(interaction):  # the step says the move was played; the board goes where the game is
            await reply_from_step(interaction, await in_time(interaction, played, update=True), picked)
        else:
            await reply_with_report(interaction, await in_time(interaction, played))
        return
    await show_step(interaction, game, state, tap, picked)


def on_step(interaction: discord.Interaction) -> bool:
    """Whether the press was on a private step (the board's own components are on a public message)."""
    return interaction.message is not None and interaction.message.flags.ephemeral


async def show_step(interaction: discord.Interaction, game: Game, state: GameState, tap: Tap, step: Step) -> None:
    """The next step of a move, privately: its prompt, the board with what it highlights, its menus. A step
    picked on a private step replaces it; one picked on the board opens it."""
    locale = interaction.locale
    text = tr(
        locale, STEP_HEADER, title=game_text.title(game.name, locale), id=game.id, prompt=said(locale, step.prompt)
    )
    view = step_view(game.id, tap.ply, tap.path, step, [], locale)
    service = service_of(interaction)
    drawing = asyncio.ensure_future(
        board_image(interaction.guild, service, game, state, locale=interaction.guild_locale, **marks(step))
    )
    in_place = on_step(interaction)
    done, _ = await asyncio.wait({drawing}, timeout=time_left(interaction))
    if not done:  # slow drawing: hold the interaction (the step it was picked on, or a private placeholder)
        await defer(interaction, update=in_place, ephemeral=True)
    file = await drawing
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, attachments=[file], view=view)
    elif in_place:
        await interaction.response.edit_message(content=text, attachments=[file], view=view)
    else:
        await interaction.response.send_message(text, file=file, view=view, ephemeral=True)
