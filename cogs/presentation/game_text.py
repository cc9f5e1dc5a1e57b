"""A game in the words players read, through the message catalogue: its title, sides and options; a report's moves,
score, next player and result; a game's thread name and the header its challenge message becomes; an aborted game.

Public messages use the server's locale, private answers the member's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs.presentation.markup import channel_link, clip, mention
from locales import N_, option_name, tr
from sessions.model import (
    TAKEBACK,
    Ending,
    Finish,
    Game,
    GameState,
    GameStatus,
    MoveKind,
    PlayedMove,
    Report,
    ReportKind,
    Say,
    entry_of,
)

THREAD_NAME_LIMIT = 100  # Discord's cap on a channel name
FOLLOW = N_("Follow the game in {thread}.")
PLAYED_IN = N_("The game was played in {thread}.")
NO_RESULT = N_("The game ended with no result (aborted or cancelled). It was played in {thread}.")
ABORTED = N_(
    "{player} aborted {title} game #{id} against {opponent} before it had really begun: no result, nothing counted."
)


def title(game: str, locale: Any = None) -> str:
    """A game's name as players read it: translated where the rules give it another (イアーゴ). A game no
    longer registered (its records outlive it) shows its key."""
    try:
        entry = entry_of(game)
    except KeyError:
        return game
    return tr(locale, entry.title)


def side_name(locale: Any, game: str, side: int) -> str:
    return tr(locale, entry_of(game).sides[side])


def options_text(locale: Any, game: str, options: Mapping[str, Any]) -> str:
    """A game's chosen options as its readers name them ("size: 9x9", 「サイズ：9路盤」); empty for none."""
    try:
        entries = {option.name: option for option in entry_of(game).options}
    except KeyError:  # a game no longer registered: its options are shown as stored
        entries = {}
    parts = []
    for key, value in options.items():
        option = entries.get(key)
        if option is None:  # an option the game no longer has: shown as stored
            parts.append(f"{key}: {value}")
            continue
        label = next((label for label, choice in option.choices if choice == value), None)
        parts.append(
            tr(
                locale,
                "{option}: {value}",
                option=option_name(locale, key),
                value=tr(locale, label) if label else value,
            )
        )
    return tr(locale, ", ").join(parts)


def logged_move(locale: Any, move: str) -> str:
    """An entry of a game's log as players read it: a move in the game's notation, or the words for a takeback
    (an entry of the log, not a move of the game)."""
    return tr(locale, "takeback") if move == TAKEBACK else move


def speech(locale: Any, game: Game) -> Say:
    """Narration's voice for one reader: their language, this game's players and side names."""
    return Say(
        translate=lambda message, **params: tr(locale, message, **params),
        player=lambda side: mention(game.players[side]),
        side=lambda side: side_name(locale, game.name, side),
    )


def describe_move(locale: Any, game: Game, state: GameState, played: PlayedMove, ply: int | None = None) -> str | None:
    """One move of a report in words; ``ply``: its index in ``state.moves`` (the report's moves end the log)."""
    narrator = game.entry.narrator
    say = speech(locale, game)
    match played.kind:
        case MoveKind.TAKEBACK:
            return None  # the heading says it
        case MoveKind.CHANCE:
            return narrator.chance(say, state, played.move)
        case MoveKind.FORCED_PASS:
            assert played.player is not None
            return narrator.forced_pass(say, state, played.player, ply)
        case MoveKind.MOVE:
            assert played.player is not None
            return narrator.move(say, state, played.move, played.player)


def score_line(locale: Any, game: Game, state: GameState) -> str:
    scores = state.scores()
    return tr(
        locale,
        "Score: {side0} {score0} · {side1} {score1}",
        side0=side_name(locale, game.name, 0),
        score0=scores[0],
        side1=side_name(locale, game.name, 1),
        score1=scores[1],
    )


ROLL_BY_COMMAND = N_("{player}, roll the die with /{game} roll.")
ROLL_BY_BUTTON = N_("{player}, press **{button}** below.")


def next_turn_line(locale: Any, game: Game, state: GameState, roll_button: str | None = None) -> str | None:
    """Who acts next, and how. At a dice point: the button under the board, when it carries one (``roll_button``,
    its label), else the command (a text board, a private board, a board without components)."""
    side = state.to_act
    if side is None:
        return None
    who = mention(game.players[side])
    if game.against_bot and side == game.ai_side:
        return tr(locale, "{player} is thinking…", player=who)
    if state.chance:
        if roll_button is not None:
            return tr(locale, ROLL_BY_BUTTON, player=who, button=roll_button)
        return tr(locale, ROLL_BY_COMMAND, player=who, game=game.name)
    return tr(locale, "{player}, your move ({side}).", player=who, side=side_name(locale, game.name, side))


ENDINGS = {
    Ending.RESIGN: N_("{loser} resigned."),
    Ending.TIMEOUT: N_("{loser} stopped moving and {winner} claimed the win."),
    Ending.TIME: N_("{loser} ran out of time: {winner} wins on time."),
    Ending.FORFEIT: N_("{loser} was removed from the tournament: {winner} wins by forfeit."),
}


def reason_text(locale: Any, game: Game, finish: Finish) -> str:
    entry = game.entry
    if finish.winner is None:
        return tr(locale, entry.draw_reasons[finish.reason])
    message = ENDINGS.get(finish.reason) or entry.reasons[finish.reason]
    winner, loser = game.players[finish.winner], game.players[1 - finish.winner]
    return tr(locale, message, winner=mention(winner), loser=mention(loser))


def finish_lines(locale: Any, game: Game, finish: Finish) -> list[str]:
    lines = ["**" + tr(locale, "Game over.") + "**", reason_text(locale, game, finish)]
    lines.append(
        tr(
            locale,
            "Final score: {side0} {score0} · {side1} {score1}",
            side0=side_name(locale, game.name, 0),
            score0=finish.scores[0],
            side1=side_name(locale, game.name, 1),
            score1=finish.scores[1],
        )
    )
    for user_id, (before, after) in finish.rating_changes.items():
        lines.append(
            tr(
                locale,
                "{player}: rating {before} → {after} ({delta:+d})",
                player=mention(user_id),
                before=before,
                after=after,
                delta=after - before,
            )
        )
    if not game.rated:
        lines.append(tr(locale, "This game was unrated."))
    return lines


HURRIED = N_("Many games are running: I thought less than usual.")


def report_text(locale: Any, report: Report, heading: str | None = None, roll_button: str | None = None) -> str:
    """A report in words; ``roll_button``: the label of the Roll button its board carries, if it carries one."""
    game, state = report.game, report.state
    lines = [heading] if heading else []
    first = len(state.moves) - len(report.played)  # a report's moves are the last of its state's log
    lines += [
        line
        for offset, played in enumerate(report.played)
        if (line := describe_move(locale, game, state, played, first + offset))
    ]
    if report.finish is not None:
        lines += finish_lines(locale, game, report.finish)
    else:
        lines.append(score_line(locale, game, state))
        turn = next_turn_line(locale, game, state, roll_button)
        if turn:
            lines.append(turn)
    if report.hurried:
        lines.append(tr(locale, HURRIED))
    return "\n".join(lines)


HEADINGS = {
    ReportKind.START: N_("{player} accepted: {title} game #{id} begins!"),
    ReportKind.TAKEBACK: N_("{player} took back their last move, and the bot's reply with it."),
}


def heading(locale: Any, report: Report) -> str | None:
    """The line above a report's moves that says what the member did, for the kinds that need one."""
    message = HEADINGS.get(report.kind)
    if message is None or report.by is None:
        return None
    game = report.game
    return tr(locale, message, player=mention(report.by), title=title(game.name, locale), id=game.id)


def game_label(locale: Any, game: Game, names: tuple[str, str]) -> str:
    """How a game is named in a choice list: number, title, players, move count."""
    return tr(
        locale,
        "#{id} {title}: {name0} vs {name1}, move {ply}",
        id=game.id,
        title=title(game.name, locale),
        name0=names[0],
        name1=names[1],
        ply=game.ply,
    )


def mistake_line(locale: Any, ply: int, played: str, better: str, drop: float) -> str:
    """One reviewed move of an analysis: ``drop`` is how much the mover's value (-1..+1) fell, said in percent."""
    return tr(
        locale,
        "Move {ply}: **{played}** was played; **{better}** was better (the evaluation fell by {drop}%).",
        ply=ply,
        played=played,
        better=better,
        drop=round(50 * drop),
    )


def thread_name(locale: Any, game: Game, names: tuple[str, str]) -> str:
    return clip(
        tr(
            locale,
            "{title} #{id}: {name0} vs {name1}",
            title=title(game.name, locale),
            id=game.id,
            name0=names[0],
            name1=names[1],
        ),
        THREAD_NAME_LIMIT,
    )


def header_text(locale: Any, game: Game, heading: str | None = None) -> str:
    """What the challenge message shows while the game is played in its thread: the players and the link, then
    the result and the link. No running score: the header is not edited per move, and a stale score would
    mislead."""
    lines = [heading] if heading else []
    lines.append(
        tr(
            locale,
            "**{title} #{id}**: {player0} ({side0}) vs {player1} ({side1})",
            title=title(game.name, locale),
            id=game.id,
            player0=mention(game.players[0]),
            side0=side_name(locale, game.name, 0),
            player1=mention(game.players[1]),
            side1=side_name(locale, game.name, 1),
        )
    )
    if game.status == GameStatus.FINISHED and game.scores is not None and game.result_reason is not None:
        finish = Finish(game.winner, game.result_reason, game.scores)
        lines += finish_lines(locale, game, finish)[:3]  # "Game over.", why, the final score
        lines.append(tr(locale, PLAYED_IN, thread=channel_link(game.thread_id or 0)))
    elif game.status == GameStatus.CANCELLED:
        lines.append(tr(locale, NO_RESULT, thread=channel_link(game.thread_id or 0)))
    else:
        lines.append(tr(locale, FOLLOW, thread=channel_link(game.thread_id or 0)))
    return "\n".join(lines)


def aborted_text(locale: Any, game: Game, by: int) -> str:
    """The public words of an aborted game, mentioning both players."""
    opponent = next((user for user in game.players if user != by), game.players[1])
    return tr(
        locale,
        ABORTED,
        player=mention(by),
        title=title(game.name, locale),
        id=game.id,
        opponent=mention(opponent),
    )
