"""Puzzles in the words members read: a puzzle's prompt, the answer to a move, the solution line. The words name no
game: titles, sides and moves come from the registry and the engines."""

from __future__ import annotations

from typing import Any

from cogs.presentation.game_text import side_name, title
from locales import N_, ntr, tr
from sessions.model import Answer, PuzzleView, entry_of, theme_name

PROMPT = N_("**{title} puzzle #{id}** (puzzle rating {rating}). You play {side}: find the best move.")
FROM_GAME = N_("From game #{game} of this server, after move {ply}.")
FROM_SELF_PLAY = N_("From the bot's self-play, after move {ply}.")
HOW = N_(
    "Pick your move in the menus under the board, or type it with /{game} puzzle-move. One move keeps the win; "
    "every other is clearly worse."
)
STREAK_ON = N_("Streak: {count} solved so far. The first miss ends it.")
ABOUT = N_("Puzzle #{id}: rated {rating}; themes: {themes}.")
ABOUT_PLAIN = N_("Puzzle #{id}: rated {rating}.")
STREAK_GOES_ON = N_("Streak: {count}! Press {button} for a harder one.")
STREAK_OVER = N_("Your streak ends at {count}. Your best: {best}.")
STREAK_MISSED = N_("Puzzle rating {before} → {after}. The solution: {line}.")
NEXT_IN_STREAK = N_("Next in streak")
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


def percent(value: float) -> int:
    return round(50 * (value + 1))


def line_text(view: PuzzleView) -> str:
    """The whole solution, the member's moves in bold, the replies plain."""
    return " ".join(f"**{move}**" if index % 2 == 0 else move for index, move in enumerate(view.puzzle.solution))


def last_move(game: str, moves: list[str]) -> str | None:
    """The last move a player chose (dice are not marked), for the board's "played" cross."""
    chance = entry_of(game).chance_words
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
            title=title(puzzle.game, locale),
            id=puzzle.id,
            rating=round(puzzle.mu),
            side=side_name(locale, puzzle.game, puzzle.solver),
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
    if view.streak is not None and view.streak.open:
        lines.append(tr(locale, STREAK_ON, count=view.streak.solved))
    return lines


def themes_text(locale: Any, game: str, themes: tuple[str, ...]) -> str:
    """A puzzle's themes by their names in ``locale``'s language."""
    return ", ".join(tr(locale, theme_name(game, theme)) for theme in themes)


def finish_lines(locale: Any, view: PuzzleView) -> list[str]:
    """What follows a finished puzzle: its rating and themes, and where its streak stands."""
    puzzle = view.puzzle
    rating = round(puzzle.mu)
    if puzzle.themes:
        lines = [tr(locale, ABOUT, id=puzzle.id, rating=rating, themes=themes_text(locale, puzzle.game, puzzle.themes))]
    else:
        lines = [tr(locale, ABOUT_PLAIN, id=puzzle.id, rating=rating)]
    streak = view.streak
    if streak is not None and streak.attempt_id == view.attempt.id:
        if streak.open:
            lines.append(tr(locale, STREAK_GOES_ON, count=streak.solved, button=tr(locale, NEXT_IN_STREAK)))
        else:
            lines.append(tr(locale, STREAK_OVER, count=streak.solved, best=max(view.best or 0, streak.solved)))
    return lines


def moves_left(locale: Any, view: PuzzleView) -> str:
    left = (len(view.puzzle.solution) - view.attempt.step + 1) // 2
    return ntr(locale, "{count} move", "{count} moves", left)


def answer_lines(locale: Any, answer: Answer) -> tuple[list[str], dict[str, Any]]:
    """The words and board marks of a move's answer."""
    view = answer.view
    if answer.correct:
        lines = [tr(locale, RIGHT, move=answer.move)]
        if not view.finished:
            lines.append(tr(locale, REPLY, reply=answer.reply, left=moves_left(locale, view)))
            return lines, {"played": answer.reply}
        if answer.rating is not None and view.attempt.status == "solved":
            lines.append(tr(locale, SOLVED, before=answer.rating[0], after=answer.rating[1]))
        else:
            lines.append(tr(locale, SOLVED_LATE, line=line_text(view)))
        return [*lines, *finish_lines(locale, view)], {"played": answer.move}
    step = view.attempt.step // 2
    best = view.puzzle.steps[step][1] if step < len(view.puzzle.steps) else 1.0
    lines = [tr(locale, WRONG, move=answer.move, percent=percent(answer.value or -1.0), best=percent(best))]
    if answer.refutation:
        lines.append(tr(locale, REFUTED, reply=answer.refutation))
    if view.finished:  # a streak's puzzle: the first miss ends it
        if answer.rating is not None:
            lines.append(
                tr(locale, STREAK_MISSED, before=answer.rating[0], after=answer.rating[1], line=line_text(view))
            )
        else:
            lines.append(tr(locale, SOLUTION, line=line_text(view)))
        return [*lines, *finish_lines(locale, view)], {"played": answer.move}
    if answer.rating is not None:
        lines.append(tr(locale, MISSED, before=answer.rating[0], after=answer.rating[1]))
    else:
        lines.append(tr(locale, TRY_AGAIN))
    return lines, {"played": answer.move}
