"""The daily puzzles' posts: each server's daily puzzle of a game in its channel when due, with its Solve it button,
and the day before's solution with who solved it. The session claims each post once per server, game and day
(``sessions/puzzles/daily.py``); here are its Discord requests, posted with a nonce so a repost after a lost answer
posts nothing, and the loop that looks for what is due.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands, tasks

from cogs.components.puzzle_buttons import PuzzleButton
from cogs.plumbing.background import BackgroundCog
from cogs.plumbing.host import client_service
from cogs.presentation.board_controls import PLAYING_LAYOUT
from cogs.presentation.game_text import side_name, title
from cogs.presentation.images import position_image
from cogs.presentation.markup import QUIET, clip, mention, when
from cogs.presentation.puzzle_text import OPPONENT, last_move
from locales import N_, tr
from sessions.model import DailyJob, DatabaseUnavailable, due_at, entry_of

DAILY = N_(
    "**Daily {title} puzzle** of {date}: {side} to play. One move keeps the win. Press the button to solve it "
    "privately; the solution comes tomorrow."
)
DAILY_SOLUTION = N_("**Solution of the daily {title} puzzle** of {date}: {line}.")
DAILY_SOLVERS = N_("Solved by {members}: {solved} of {tried} who tried.")
DAILY_NOBODY = N_("Nobody solved it ({tried} tried).")

log = logging.getLogger(__name__)


def _day_text(job: DailyJob, hour: int = 0) -> str:
    return when(due_at(job.daily.day, hour), "D")


async def _post_daily(client: discord.Client, job: DailyJob) -> int | None:
    """One daily job's Discord request (with its nonce, so a repost after a lost answer posts nothing)."""
    guild = client.get_guild(job.daily.guild_id)
    locale = guild.preferred_locale if guild else None
    service = client_service(client)
    puzzle = job.puzzle
    channel = client.get_partial_messageable(job.channel_id, guild_id=job.daily.guild_id)
    named = title(puzzle.game, locale)
    names = ["", ""]
    names[puzzle.solver] = side_name(locale, puzzle.game, puzzle.solver)
    names[1 - puzzle.solver] = tr(locale, OPPONENT)
    state = entry_of(puzzle.game).new_game(**puzzle.options)
    for move in puzzle.moves:
        state.play(move)
    shown = (names[0], names[1])
    if job.kind == "post":
        played = last_move(puzzle.game, puzzle.moves)
        file = await position_image(
            service,
            puzzle.game,
            state,
            shown,
            f"daily-puzzle-{puzzle.id}.png",
            locale=locale,
            played=played,
            layout=PLAYING_LAYOUT,  # a puzzle to solve, read on a phone as often as not
        )
        text = tr(locale, DAILY, title=named, date=_day_text(job), side=side_name(locale, puzzle.game, puzzle.solver))
        items = discord.ui.View(timeout=None)
        items.add_item(PuzzleButton("daily", str(puzzle.id), locale))
        message = await channel.send(text, file=file, view=items, nonce=job.nonce, allowed_mentions=QUIET)
        return message.id
    line = " ".join(f"**{m}**" if i % 2 == 0 else m for i, m in enumerate(puzzle.solution))
    lines = [tr(locale, DAILY_SOLUTION, title=named, date=_day_text(job), line=line)]
    if job.solvers:
        members = ", ".join(mention(user) for user in job.solvers[:30])
        lines.append(tr(locale, DAILY_SOLVERS, members=members, solved=len(job.solvers), tried=job.tried))
    else:
        lines.append(tr(locale, DAILY_NOBODY, tried=job.tried))
    file = await position_image(
        service,
        puzzle.game,
        state,
        shown,
        f"daily-solution-{puzzle.id}.png",
        locale=locale,
        suggestion=puzzle.solution[0],
        layout=PLAYING_LAYOUT,
    )
    message = await channel.send(clip("\n".join(lines)), file=file, nonce=job.nonce, allowed_mentions=QUIET)
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
