"""Iago's registry entry: the hex Othello with red captives."""

from __future__ import annotations

from engines import GameState
from engines import iago as engine
from games import GameEntry, Narrator, Option, Say
from locales import N_


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
    course="lessons.iago",
)
