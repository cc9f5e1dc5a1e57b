"""Service reports into the words players read, through the message catalogue.

Public messages use the server's locale, private answers the member's own.
"""

from __future__ import annotations

from typing import Any

from locales import N_, tr
from sessions.service import Finish, PlayedMove, Report, acting_side
from storage.database import GameRow

TITLES = {"iago": "Iago", "isaac": "ISAAC", "polygo": "Polygo"}
SIDE_NAMES = {
    "iago": (N_("Dark"), N_("Light")),
    "isaac": (N_("Black"), N_("White")),
    "polygo": (N_("Black"), N_("White")),
}

POLYGO_BLOCK_NAMES = {
    1: N_("a domino"),
    2: N_("a straight line of 3"),
    3: N_("a bent three"),
    4: N_("a straight line of 4"),
    5: N_("an L-tetromino or its mirror image"),
    6: N_("an S-tetromino or its mirror image"),
}


def side_name(locale: Any, game: str, side: int) -> str:
    return tr(locale, SIDE_NAMES[game][side])


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def describe_move(locale: Any, row: GameRow, state: Any, played: PlayedMove) -> str:
    game = row.game
    who = mention(row.players[played.player]) if played.player is not None else ""
    if played.kind == "forced_pass":
        if game == "polygo":
            return tr(locale, "{player}'s block fits nowhere, so the bot passed for them.", player=who)
        if game == "isaac" and getattr(state, "phase", "") == "scoring":
            return tr(locale, "{player} has no piece left to remove, so the bot passed for them.", player=who)
        return tr(locale, "{player} cannot place any piece, so the bot passed for them.", player=who)
    if played.kind == "chance":
        return describe_chance(locale, row, played.move)
    if game == "iago" and state.moves and state.moves[-1] == played.move and state.last_flips:
        captured, released = state.last_flips
        return tr(
            locale,
            "{player} played **{move}**: {captured} captured, {released} released.",
            player=who,
            move=played.move,
            captured=captured,
            released=released,
        )
    return tr(locale, "{player} played **{move}**.", player=who, move=played.move)


def describe_chance(locale: Any, row: GameRow, move: str) -> str:
    words = move.split()
    if words[0] == "open":
        black, white = int(words[1]), int(words[2])
        first = 0 if black < white else 1
        return tr(
            locale,
            "Opening dice: Black rolled **{black}**, White rolled **{white}**. {first} ({side}) starts.",
            black=black,
            white=white,
            first=mention(row.players[first]),
            side=side_name(locale, row.game, first),
        )
    face = int(words[1])
    return tr(
        locale,
        "Rolled **{face}**: place {block}.",
        face=face,
        block=tr(locale, POLYGO_BLOCK_NAMES[face]),
    )


def score_line(locale: Any, row: GameRow, state: Any) -> str | None:
    if not hasattr(state, "scores"):
        return None
    scores = state.scores()
    return tr(
        locale,
        "Score: {side0} {score0} · {side1} {score1}",
        side0=side_name(locale, row.game, 0),
        score0=scores[0],
        side1=side_name(locale, row.game, 1),
        score1=scores[1],
    )


def next_turn_line(locale: Any, row: GameRow, state: Any) -> str | None:
    side = acting_side(state)
    if side is None:
        return None
    who = mention(row.players[side])
    if state.chance:
        return tr(locale, "{player}, roll the die with /{game} roll.", player=who, game=row.game)
    return tr(locale, "{player}, your move ({side}).", player=who, side=side_name(locale, row.game, side))


REASONS = {
    "resign": N_("{loser} resigned."),
    "timeout": N_("{loser} stopped moving and {winner} claimed the win."),
    "score": N_("{winner} wins on points."),
    "centre": N_("The scores are equal; the centre decides for {winner}."),
    "tiebreak-squares": N_("The scores are equal; {winner} wins with more squares left unplaced."),
    "tiebreak-pieces": N_("The scores and unplaced squares are equal; {winner} wins with fewer unplaced pieces."),
    "tiebreak-black": N_("Everything is equal, so Black ({winner}) wins."),
    "finish": N_("{winner} closed a polygon and the opponent could not finish in the two extra turns."),
    "both-finished": N_("Both players closed a polygon; {winner} wins on points."),
    "double-pass": N_("Both players passed in a row: the game is drawn."),
}
DRAW = N_("Game over: a draw.")


def finish_lines(locale: Any, row: GameRow, finish: Finish) -> list[str]:
    lines = ["**" + tr(locale, "Game over.") + "**"]
    if finish.winner is None:
        reason = REASONS.get(finish.reason, DRAW)
        lines.append(tr(locale, reason, winner="", loser=""))
    else:
        winner, loser = row.players[finish.winner], row.players[1 - finish.winner]
        reason = REASONS.get(finish.reason, REASONS["score"])
        lines.append(tr(locale, reason, winner=mention(winner), loser=mention(loser)))
    lines.append(
        tr(
            locale,
            "Final score: {side0} {score0} · {side1} {score1}",
            side0=side_name(locale, row.game, 0),
            score0=finish.scores[0],
            side1=side_name(locale, row.game, 1),
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
    if not row.rated:
        lines.append(tr(locale, "This game was unrated."))
    return lines


def report_text(locale: Any, report: Report, heading: str | None = None) -> str:
    row, state = report.row, report.state
    lines = [heading] if heading else []
    lines += [describe_move(locale, row, state, played) for played in report.played]
    if report.finish is not None:
        lines += finish_lines(locale, row, report.finish)
    else:
        score = score_line(locale, row, state)
        if score:
            lines.append(score)
        turn = next_turn_line(locale, row, state)
        if turn:
            lines.append(turn)
    return "\n".join(lines)


def game_label(locale: Any, row: GameRow, names: tuple[str, str]) -> str:
    """How a game is named in a choice list: number, title, players, move count."""
    return tr(
        locale,
        "#{id} {title}: {name0} vs {name1}, move {ply}",
        id=row.id,
        title=TITLES[row.game],
        name0=names[0],
        name1=names[1],
        ply=row.ply,
    )
