"""Iago's registry entry: the hex Othello with red captives."""

from __future__ import annotations

from engines import GameState, Phrase
from engines import iago as engine
from games import GameEntry, Narrator, Option, Say
from games.move_picker import CHOOSE_MOVE, MAX_OPTIONS, Choice, Menu, Picker, Step, finished, menus, packed
from locales import N_

CALL = "call "
ROW = N_("Row {row}")
ROWS = N_("Rows {first} to {last}")
CALL_MENU = N_("Call the missed capture: place anywhere")
CALL_ROW = N_("Call the missed capture: choose the row")
CALL_CELL = N_("Where do you place your disk? (a call: any empty cell)")


class IagoNarrator(Narrator):
    def move(self, say: Say, state: GameState, move: str, player: int) -> str:
        assert isinstance(state, engine.IagoGame)
        if not (state.moves and state.moves[-1] == move and state.last_flips):
            return super().move(say, state, move, player)
        captured, released = state.last_flips
        return say(
            N_("{player} played **{move}**: {captured} captured, {released} released."),
            player=say.player(player),
            move=move,
            captured=captured,
            released=released,
        )


def _rows_named(first: str, last: str) -> Phrase:
    return Phrase(ROW, row=first) if first == last else Phrase(ROWS, first=first, last=last)


def _by_row(moves: list[str], cell: int = 0) -> list[tuple[str, list[Choice]]]:
    """The moves grouped by the row of their cell (``cell``: where the cell name starts in the move)."""
    return [
        (row, [Choice(move, move) for move in moves if move[cell] == row])
        for row in engine.ROWS
        if any(move[cell] == row for move in moves)
    ]


class IagoPicker(Picker):
    """One tap: every legal cell at once, in menus of whole rows (61 cells fit in three). A call owed in the penalty
    variant is a fourth menu, the calls themselves when they fit, else a row first and then its cells."""

    def step(self, state: GameState, path: tuple[str, ...]) -> Step | str:
        moves = state.legal_moves()
        cells = [move for move in moves if not move.startswith(CALL)]
        calls = [move for move in moves if move.startswith(CALL)]
        shown = packed(_by_row(cells), _rows_named) or menus([Choice(move, move) for move in cells])
        call_rows = _by_row(calls, len(CALL))
        if len(calls) <= MAX_OPTIONS:  # one menu holds them
            extra = (Menu(Phrase(CALL_MENU), tuple(Choice(move, move) for move in calls)),) if calls else ()
        else:
            heads = tuple(Choice(CALL + row, _rows_named(row, row)) for row, _ in call_rows)
            extra = (Menu(Phrase(CALL_ROW), heads),)
        first = Step(CHOOSE_MOVE, shown + extra)
        if not path:
            return first
        picked = first.choice(path[0]).key
        if picked in moves:
            return finished((first.choice(picked), path[1:]))
        row = picked[len(CALL) :]  # a row of calls: its cells next
        cells_of_row = next(choices for name, choices in call_rows if name == row)
        second = Step(Phrase(CALL_CELL), menus(cells_of_row), tuple(choice.key for choice in cells_of_row))
        if len(path) == 1:
            return second
        return finished((second.choice(path[1]), path[2:]))


ENTRY = GameEntry(
    name=engine.NAME,
    title="Iago",
    description=N_("Play Iago, the hex Othello with red captives."),
    challenge_description=N_("Challenge a member of this server to Iago."),
    sides=(N_("Dark"), N_("Light")),
    side_description=N_("Your side: Dark moves first (default: random)."),
    options=(
        Option(
            name="variant",
            description=N_("Rules variant (default: standard)."),
            choices=(
                (N_("standard"), "standard"),
                (N_("loose (no forced capture)"), "loose"),
                (N_("simple (no releases)"), "simple"),
                (N_("penalty (missed captures can be called)"), "penalty"),
            ),
            default="standard",
        ),
    ),
    reasons={
        engine.Reason.SCORE: N_("{winner} wins on points."),
        engine.Reason.CENTRE: N_("The scores are equal; the centre decides for {winner}."),
    },
    rules=(
        N_("**Iago**: Othello on a 61-hex board, where captured disks turn red (captives)."),
        N_("• Dark moves first. Place one disk per turn; cells are named A1..I9 (`/iago move E5`)."),
        N_(
            "• **Capture**: sandwich a line of enemy disks between the new disk and one of yours: "
            "they turn into captives."
        ),
        N_(
            "• **Release**: sandwich a line of captives (either colour) the same way, with at least one end on "
            "the outer ring or the centre: they return to their own colour."
        ),
        N_("• If you can capture, you must, and on a cell that captures the most disks."),
        N_(
            "• Otherwise place on any empty inner cell except the centre; outer cells and the centre only "
            "where the disk releases (the centre is allowed when it is the last inner cell)."
        ),
        N_(
            "• The game ends when the inner area is full. Score = your inner disks x your outer disks "
            "(0 counts as 1). Ties: the centre decides."
        ),
        N_(
            "• Variants: **loose** (no forced capture), **simple** (no releases; one point per disk), "
            "**penalty** (a missed forced capture can be called: the caller places anywhere)."
        ),
    ),
    engine=engine,
    renderer="render.iago",
    ai="ai.iago",
    picker=IagoPicker(),
    course="lessons.iago",
    puzzles="puzzles.iago",
)
