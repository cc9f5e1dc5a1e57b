"""Puzzles on Discord: ``/<game> puzzle`` and ``/<game> puzzle-move`` (private), their buttons, the daily puzzle's
posts, and the background loops that mine finished games and post the daily puzzles.

Every puzzle message is ephemeral: a member solves alone. Its buttons are ``DynamicItem``s whose ``custom_id``
holds what they act on (``puzzle:solution:<attempt id>``, ``puzzle:next:<game>``, ``puzzle:daily:<puzzle id>``),
so they work after a restart. The words name no game: titles, sides and moves come from the registry and the
engines.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

import games
from cogs import present
from cogs.background import BackgroundCog
from cogs.context import client_service, remember_members, service_of
from cogs.places import place_id
from cogs.tree import IN_SERVER_ONLY, answer_error, clip
from locales import N_, ntr, tr
from sessions.host import ServiceHost
from sessions.model import Answer, DailyJob, DatabaseUnavailable, PuzzleView, UserError, due_at

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100

PROMPT = N_("**{title} puzzle #{id}** (puzzle rating {rating}). You play {side}: find the best move.")
FROM_GAME = N_("From game #{game} of this server, after move {ply}.")
FROM_SELF_PLAY = N_("From the bot's self-play, after move {ply}.")
HOW = N_("Answer with /{game} puzzle-move. One move keeps the win; every other is clearly worse.")
RIGHT = N_("**{move}** is right!")
REPLY = N_("I answer **{reply}**. Your move again: {left} to find.")
SOLVED = N_("Solved! Your puzzle rating: {before} → {after}.")
SOLVED_LATE = N_("You found the whole line, after a mistake. The solution was: {line}.")
WRONG = N_("**{move}** is not it: after it you would be worth about {percent}%, the best move keeps about {best}%.")
REFUTED = N_("I would answer **{reply}**.")
MISSED = N_("This puzzle counts as missed: puzzle rating {before} → {after}. Try again, or press Show solution.")
TRY_AGAIN = N_("Try again, or press Show solution.")
SOLUTION = N_("The solution: {line}.")
SOLUTION_RATED = N_("The solution: {line}. Puzzle rating {before} → {after}.")
DONE = N_("This puzzle is over. The solution: {line}.")
OPPONENT = N_("Opponent")
SHOW_SOLUTION = N_("Show solution")
NEXT_PUZZLE = N_("Next puzzle")
SOLVE = N_("Solve it")
DAILY = N_(
    "**Daily {title} puzzle** of {date}: {side} to play. One move keeps the win. Press the button to solve it "
    "privately; the solution comes tomorrow."
)
DAILY_SOLUTION = N_("**Solution of the daily {title} puzzle** of {date}: {line}.")
DAILY_SOLVERS = N_("Solved by {members}: {solved} of {tried} who tried.")
DAILY_NOBODY = N_("Nobody solved it ({tried} tried).")
DAILY_OVER = N_("That daily puzzle is over: its solution is posted. Try /{game} puzzle for another.")


def percent(value: float) -> int:
    return round(50 * (value + 1))


def line_text(view: PuzzleView) -> str:
    """The whole solution, the member's moves in bold, the replies plain."""
    return " ".join(f"**{move}**" if index % 2 == 0 else move for index, move in enumerate(view.puzzle.solution))


def last_move(game: str, moves: list[str]) -> str | None:
    """The last move a player chose (dice are not marked), for the board's "played" cross."""
    chance = games.find(game).chance_words
    for move in reversed(moves):
        if not (chance and move.startswith(chance)):
            return None if move == "pass" else move
    return None


def prompt_lines(locale: Any, view: PuzzleView) -> list[str]:
    puzzle = view.puzzle
    lines = [
        tr(
            locale,
            PROMPT,
            title=present.title(puzzle.game, locale),
            id=puzzle.id,
            rating=round(puzzle.mu),
            side=present.side_name(locale, puzzle.game, puzzle.solver),
        )
    ]
    if puzzle.source_game_id is not None:
        lines.append(tr(locale, FROM_GAME, game=puzzle.source_game_id, ply=puzzle.ply))
    else:
        lines.append(tr(locale, FROM_SELF_PLAY, ply=puzzle.ply))
    lines.append(
        ntr(
            locale,
            "The solution has {count} move of yours.",
            "The solution has {count} moves of yours; I play the replies.",
            view.moves_to_find,
        )
    )
    lines.append(tr(locale, HOW, game=puzzle.game))
    return lines


async def board(interaction: discord.Interaction, view: PuzzleView, **marks: Any) -> discord.File:
    """The puzzle's position, drawn in the server's language: the member's name on their side."""
    puzzle = view.puzzle
    names = ["", ""]
    names[puzzle.solver] = interaction.user.display_name
    names[1 - puzzle.solver] = tr(interaction.guild_locale, OPPONENT)
    marks = {key: value for key, value in marks.items() if value}
    service, shown = service_of(interaction), (names[0], names[1])
    png, description = await asyncio.gather(
        service.boards.render_position(puzzle.game, view.state, shown, interaction.guild_locale, **marks),
        service.boards.describe_position(puzzle.game, view.state, shown, interaction.locale),  # its reader's language
    )
    return discord.File(
        io.BytesIO(png), filename=f"puzzle-{puzzle.id}-{view.attempt.step}.png", description=description
    )


def buttons(view: PuzzleView, locale: Any) -> discord.ui.View:
    items = discord.ui.View(timeout=None)
    if view.finished:
        items.add_item(PuzzleButton("next", view.puzzle.game, locale))
    else:
        items.add_item(PuzzleButton("solution", str(view.attempt.id), locale))
    return items


async def show(interaction: discord.Interaction, view: PuzzleView, lines: list[str], **marks: Any) -> None:
    """The puzzle message, privately: a new message, or the clicked one replaced (its buttons' interaction)."""
    file = await board(interaction, view, **marks)
    content = clip("\n".join(lines))
    items = buttons(view, interaction.locale)
    message = interaction.message
    if interaction.type is discord.InteractionType.component and message is not None and message.flags.ephemeral:
        await interaction.edit_original_response(content=content, attachments=[file], view=items)
        return
    await interaction.followup.send(content, file=file, view=items, ephemeral=True)


async def show_start(interaction: discord.Interaction, view: PuzzleView) -> None:
    """A puzzle as it stands: the prompt, or where the member is in it."""
    locale = interaction.locale
    if view.finished:
        await show(interaction, view, [tr(locale, DONE, line=line_text(view))], suggestion=None)
        return
    lines = prompt_lines(locale, view)
    if view.attempt.step:
        lines.append(tr(locale, REPLY, reply=view.puzzle.solution[view.attempt.step - 1], left=_left(locale, view)))
    await show(interaction, view, lines, played=last_move(view.puzzle.game, view.state.moves))


def _left(locale: Any, view: PuzzleView) -> str:
    left = (len(view.puzzle.solution) - view.attempt.step + 1) // 2
    return ntr(locale, "{count} move", "{count} moves", left)


def answer_lines(locale: Any, answer: Answer) -> tuple[list[str], dict[str, Any]]:
    """The words and board marks of a move's answer."""
    view = answer.view
    if answer.correct:
        lines = [tr(locale, RIGHT, move=answer.move)]
        if not view.finished:
            lines.append(tr(locale, REPLY, reply=answer.reply, left=_left(locale, view)))
            return lines, {"played": answer.reply}
        if answer.rating is not None and view.attempt.status == "solved":
            lines.append(tr(locale, SOLVED, before=answer.rating[0], after=answer.rating[1]))
        else:
            lines.append(tr(locale, SOLVED_LATE, line=line_text(view)))
        return lines, {"played": answer.move}
    step = view.attempt.step // 2
    best = view.puzzle.steps[step][1] if step < len(view.puzzle.steps) else 1.0
    lines = [tr(locale, WRONG, move=answer.move, percent=percent(answer.value or -1.0), best=percent(best))]
    if answer.refutation:
        lines.append(tr(locale, REFUTED, reply=answer.refutation))
    if answer.rating is not None:
        lines.append(tr(locale, MISSED, before=answer.rating[0], after=answer.rating[1]))
    else:
        lines.append(tr(locale, TRY_AGAIN))
    return lines, {"played": answer.move}


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"puzzle:(?P<action>solution|next|daily):(?P<arg>[0-9a-z_-]{1,40})",
):
    """Show solution (an attempt), Next puzzle (a game), Solve it (a daily puzzle)."""

    LABELS: dict[str, str] = {"solution": SHOW_SOLUTION, "next": NEXT_PUZZLE, "daily": SOLVE}  # noqa: RUF012

    def __init__(self, action: str, arg: str, locale: Any = None) -> None:
        style = discord.ButtonStyle.primary if action != "solution" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=tr(locale, self.LABELS[action]), style=style, custom_id=f"puzzle:{action}:{arg}")
        )
        self.action, self.arg = action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PuzzleButton:
        return cls(match["action"], match["arg"], interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            place = place_id(interaction)  # a server, or a DM's own scope (self-play puzzles only there)
            if place is None:
                raise UserError(IN_SERVER_ONLY)
            puzzles = service_of(interaction).puzzles
            if self.action == "daily":
                await self._daily(interaction)
                return
            await interaction.response.defer()  # the board is drawn before the message is replaced
            if self.action == "next":
                if self.arg not in games.names():
                    raise UserError("That puzzle no longer exists.")
                await show_start(interaction, await puzzles.next(place, interaction.user.id, self.arg))
                return
            view, rating = await puzzles.give_up(place, interaction.user.id, int(self.arg))
            if rating is None:
                text = tr(interaction.locale, SOLUTION, line=line_text(view))
            else:
                text = tr(interaction.locale, SOLUTION_RATED, line=line_text(view), before=rating[0], after=rating[1])
            expected = (
                view.puzzle.solution[view.attempt.step] if view.attempt.step < len(view.puzzle.solution) else None
            )
            await show(interaction, view, [text], suggestion=expected)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)

    async def _daily(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:  # a daily puzzle is a server's
            raise UserError(IN_SERVER_ONLY)
        service = service_of(interaction)
        daily = await service.daily_puzzles.daily_of_puzzle(interaction.guild_id, int(self.arg))
        if daily is None:
            raise UserError("That puzzle no longer exists.")
        if daily.revealed_at is not None:
            raise UserError(DAILY_OVER, game=daily.game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await service.puzzles.open_puzzle(interaction.guild_id, interaction.user.id, daily.puzzle_id)
        await show_start(interaction, view)


class PuzzleCommands:
    """``/<game> puzzle`` and ``/<game> puzzle-move``, mixed into every game's cog (``cogs.common.GameCog``)."""

    entry: games.GameEntry

    @app_commands.command(name="puzzle", description="A puzzle from real games, privately: find the best move.")
    async def puzzle(self, interaction: discord.Interaction) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        if self.entry.ai is None:
            raise UserError("I do not play {title} myself, so I have no puzzles of it.", title=self.entry.title)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await service_of(interaction).puzzles.start(place, interaction.user.id, self.entry.name)
        await show_start(interaction, view)

    @app_commands.command(name="puzzle-move", description="Your move in your puzzle.")
    @app_commands.describe(move="The move; the list shows the legal ones.")
    async def puzzle_move(self, interaction: discord.Interaction, move: str) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        puzzles = service_of(interaction).puzzles
        if await puzzles.current(place, interaction.user.id, self.entry.name) is None:
            raise UserError("You have no puzzle open in {game}: start one with /{game} puzzle.", game=self.entry.name)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a wrong move is searched to explain it
        answer = await puzzles.play(place, interaction.user.id, self.entry.name, move)
        lines, marks = answer_lines(interaction.locale, answer)
        await show(interaction, answer.view, lines, **marks)

    @puzzle_move.autocomplete("move")
    async def puzzle_move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        place = place_id(interaction)
        if place is None:
            return []
        view = await service_of(interaction).puzzles.current(place, interaction.user.id, self.entry.name)
        if view is None:
            return []
        wanted = current.lower().replace(" ", "").replace(",", "")
        matches = [m for m in view.state.legal_moves() if wanted in m.lower().replace(" ", "")]
        return [app_commands.Choice(name=m, value=m) for m in matches if len(m) <= CHOICE_TEXT_LIMIT][
            :AUTOCOMPLETE_LIMIT
        ]


# --- the daily puzzle's posts -------------------------------------------------------------------------


def _day_text(job: DailyJob, hour: int = 0) -> str:
    return discord.utils.format_dt(datetime.fromtimestamp(due_at(job.daily.day, hour), tz=UTC), "D")


async def _post_daily(client: discord.Client, job: DailyJob) -> int | None:
    """One daily job's Discord request (with its nonce, so a repost after a lost answer posts nothing)."""
    guild = client.get_guild(job.daily.guild_id)
    locale = guild.preferred_locale if guild else None
    service = client_service(client)
    puzzle = job.puzzle
    entry = games.find(puzzle.game)
    channel = client.get_partial_messageable(job.channel_id, guild_id=job.daily.guild_id)
    title = present.title(puzzle.game, locale)
    names = ["", ""]
    names[puzzle.solver] = present.side_name(locale, puzzle.game, puzzle.solver)
    names[1 - puzzle.solver] = tr(locale, OPPONENT)
    state = entry.new_game(**puzzle.options)
    for move in puzzle.moves:
        state.play(move)
    quiet = discord.AllowedMentions.none()
    if job.kind == "post":
        png = await service.boards.render_position(
            puzzle.game, state, (names[0], names[1]), locale, played=last_move(puzzle.game, puzzle.moves)
        )
        text = tr(
            locale, DAILY, title=title, date=_day_text(job), side=present.side_name(locale, puzzle.game, puzzle.solver)
        )
        items = discord.ui.View(timeout=None)
        items.add_item(PuzzleButton("daily", str(puzzle.id), locale))
        description = await service.boards.describe_position(puzzle.game, state, (names[0], names[1]), locale)
        file = discord.File(io.BytesIO(png), filename=f"daily-puzzle-{puzzle.id}.png", description=description)
        message = await channel.send(text, file=file, view=items, nonce=job.nonce, allowed_mentions=quiet)
        return message.id
    line = " ".join(f"**{m}**" if i % 2 == 0 else m for i, m in enumerate(puzzle.solution))
    lines = [tr(locale, DAILY_SOLUTION, title=title, date=_day_text(job), line=line)]
    if job.solvers:
        members = ", ".join(present.mention(user) for user in job.solvers[:30])
        lines.append(tr(locale, DAILY_SOLVERS, members=members, solved=len(job.solvers), tried=job.tried))
    else:
        lines.append(tr(locale, DAILY_NOBODY, tried=job.tried))
    png = await service.boards.render_position(
        puzzle.game, state, (names[0], names[1]), locale, suggestion=puzzle.solution[0]
    )
    description = await service.boards.describe_position(puzzle.game, state, (names[0], names[1]), locale)
    file = discord.File(io.BytesIO(png), filename=f"daily-solution-{puzzle.id}.png", description=description)
    message = await channel.send(clip("\n".join(lines)), file=file, nonce=job.nonce, allowed_mentions=quiet)
    return message.id


async def post_dailies(client: discord.Client) -> int:
    """Post what the daily puzzles owe in this process's servers now; returns how many posts were made."""
    service = client_service(client)
    posted = 0
    for job in await service.daily_puzzles.due([guild.id for guild in client.guilds]):
        try:
            message_id = await _post_daily(client, job)
        except (discord.HTTPException, OSError, TimeoutError) as error:
            log.warning("Posting the daily puzzle %s failed; the next round tries again: %s", job.daily, error)
            await service.daily_puzzles.failed(job)
            continue
        await service.daily_puzzles.done(job, message_id)
        posted += 1
    return posted


class DailyPuzzlePoster(BackgroundCog):
    """Posts each server's daily puzzles (and the day before's solutions) when due: every ``interval`` seconds."""

    def __init__(self, bot: commands.Bot, interval: float) -> None:
        self.bot = bot
        self.post.change_interval(seconds=interval)
        self.loop = self.post

    @tasks.loop(seconds=60)
    async def post(self) -> None:
        try:
            await post_dailies(self.bot)
        except DatabaseUnavailable:
            pass  # the next round tries again; the tracker has logged the outage once
        except Exception:  # a failed round must not stop the next one
            log.exception("Posting daily puzzles failed")

    @post.before_loop
    async def before_posting(self) -> None:
        await self.bot.wait_until_ready()


class PuzzleMiner(BackgroundCog):
    """Stores the shipped self-play puzzles, then mines this process's servers' finished games, one at a time,
    every ``interval`` seconds while there are any."""

    def __init__(self, host: ServiceHost, bot: commands.Bot, interval: float) -> None:
        self.host, self.bot = host, bot
        self.mine.change_interval(seconds=interval)
        self.loop = self.mine

    @tasks.loop(seconds=60)
    async def mine(self) -> None:
        try:
            while await self.host.service.puzzle_mining.mine_next([guild.id for guild in self.bot.guilds]) is not None:
                pass
        except DatabaseUnavailable:
            pass  # the next round tries again; the tracker has logged the outage once
        except Exception:  # a failed round must not stop the next one
            log.exception("Mining puzzles failed")

    @mine.before_loop
    async def before_mining(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.host.service.puzzle_mining.load_shipped()
        except Exception:
            log.exception("Storing the shipped puzzles failed")
