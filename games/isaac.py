"""ISAAC's registry entry: place bars on a 10x10 board, then remove them to score along their lines."""

from __future__ import annotations

from engines import GameState
from engines import isaac as engine
from games import GameEntry, Narrator, Say
from locales import N_


class IsaacNarrator(Narrator):
    def forced_pass(self, say: Say, state: GameState, player: int) -> str:
        assert isinstance(state, engine.IsaacGame)
        if state.phase == engine.SCORING:
            return say(
                N_("{player} has no piece left to remove, so the bot passed for them."), player=say.player(player)
            )
        return super().forced_pass(say, state, player)


ENTRY = GameEntry(
    name=engine.NAME,
    title="ISAAC",
    description=N_("Play ISAAC: place bars, then remove them to score."),
    challenge_description=N_("Challenge a member of this server to ISAAC."),
    sides=(N_("Black"), N_("White")),
    side_description=N_("Your side: Black moves first (default: random)."),
    reasons={
        engine.Reason.SCORE: N_("{winner} wins on points."),
        engine.Reason.TIEBREAK_SQUARES: N_("The scores are equal; {winner} wins with more squares left unplaced."),
        engine.Reason.TIEBREAK_PIECES: N_(
            "The scores and unplaced squares are equal; {winner} wins with fewer unplaced pieces."
        ),
        engine.Reason.TIEBREAK_BLACK: N_("Everything is equal, so Black ({winner}) wins."),
    },
    rules=(
        N_("**ISAAC**: place bars on a 10x10 board, then remove them to score along their line."),
        N_(
            "• Placement: take turns placing one of your 15 pieces (lengths 3-7, values 1, 2, 3, 4, 6). "
            "`/isaac place piece:5 at:c3 direction:right`. If nothing fits, you pass for the rest of the phase."
        ),
        N_("• Scoring: whoever passed first starts. Remove one of your pieces per turn: `/isaac remove piece:c3`."),
        N_(
            "• Each removal must be at least as long as your longest earlier removal, "
            "and never a piece under a score counter."
        ),
        N_(
            "• Points = pieces left on the line x the piece's value, doubled for each counter on that line. "
            "Move your counter up by at most that, never onto the other counter."
        ),
        N_(
            "• 100 points ends the game at once. A player who cannot remove is out. "
            "Ties go to the longer line of unplaced pieces."
        ),
    ),
    engine=engine,
    renderer="render.isaac",
    ai="ai.isaac",
    course="lessons.isaac",
    cog="cogs.isaac:IsaacCog",
    narrator=IsaacNarrator(),
)
