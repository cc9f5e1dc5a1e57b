"""Short rule summaries for `/<game> rules`; the full rules are in docs/rules-*.md."""

from __future__ import annotations

from locales import N_

RULES: dict[str, tuple[str, ...]] = {
    "iago": (
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
    "isaac": (
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
    "polygo": (
        N_("**Polygo**: roll a die, place go-stone blocks, and close the biggest polygon first."),
        N_(
            "• The bot rolls the opening dice; the lower roll starts. After that, "
            "roll with `/polygo roll`, then place the block: `/polygo place stones:D4 D5 E5`."
        ),
        N_(
            "• Die faces: 1 domino, 2 line of 3, 3 bent three, 4 line of 4, 5 L or J, 6 S or Z. "
            "Blocks may be turned but not mirrored."
        ),
        N_("• If your block fits nowhere, the bot passes for you; two passes in a row draw the game."),
        N_(
            "• Close a loop of your stones (joined up, down, left, right) around at least one point to finish. "
            "Your opponent then gets two more turns to finish too."
        ),
        N_("• Score = stones of the polygon + 2 x points inside; the first to finish gets 4 more."),
    ),
}


def rules_lines(game: str) -> tuple[str, ...]:
    return RULES[game]
