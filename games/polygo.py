"""Polygo's registry entry: roll a die, place go-stone blocks, close the largest polygon first."""

from __future__ import annotations

from collections.abc import Iterator

from engines import GameState
from engines import polygo as engine
from games import GameEntry, Narrator, Option, Say
from locales import N_

# The engine's block names are catalogue msgids: the engine is their one source.
BLOCK_NAMES = {face: block.name for face, block in engine.BLOCKS.items()}


class PolygoNarrator(Narrator):
    def messages(self) -> Iterator[str]:
        yield from BLOCK_NAMES.values()

    def chance(self, say: Say, state: GameState, move: str) -> str:
        words = move.split()
        if words[0] == "open":
            black, white = int(words[1]), int(words[2])
            first = 0 if black < white else 1
            return say(
                N_("Opening dice: Black rolled **{black}**, White rolled **{white}**. {first} ({side}) starts."),
                black=black,
                white=white,
                first=say.player(first),
                side=say.side(first),
            )
        face = int(words[1])
        return say(N_("Rolled **{face}**: place {block}."), face=face, block=say(BLOCK_NAMES[face]))

    def forced_pass(self, say: Say, state: GameState, player: int) -> str:
        return say(N_("{player}'s block fits nowhere, so the bot passed for them."), player=say.player(player))


ENTRY = GameEntry(
    name=engine.NAME,
    title="Polygo",
    description=N_("Play Polygo: roll, place blocks, close a polygon."),
    challenge_description=N_("Challenge a member of this server to Polygo."),
    sides=(N_("Black"), N_("White")),
    side_description=N_("Your stones (the dice decide who starts; default: random)."),
    options=(
        Option(
            name="size",
            description=N_("Board size (default: 19x19)."),
            choices=tuple((N_(f"{size}x{size}"), size) for size in engine.OPTIONS["size"]),
            default=19,
        ),
    ),
    reasons={
        engine.Reason.FINISH: N_("{winner} closed a polygon and the opponent could not finish in the two extra turns."),
        engine.Reason.BOTH_FINISHED: N_("Both players closed a polygon; {winner} wins on points."),
    },
    draw_reasons={
        engine.Reason.BOTH_FINISHED: N_("Game over: a draw."),
        engine.Reason.DOUBLE_PASS: N_("Both players passed in a row: the game is drawn."),
    },
    rules=(
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
    engine=engine,
    renderer="render.polygo",
    ai="ai.polygo",
    course="lessons.polygo",
    cog="cogs.polygo:PolygoCog",
    chance_words=("open", "roll"),
    narrator=PolygoNarrator(),
)
