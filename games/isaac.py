"""ISAAC's registry entry: place bars on a 10x10 board, then remove them to score along their lines."""

from __future__ import annotations

from engines import GameState, Phrase
from engines import isaac as engine
from games import GameEntry, Narrator, Say
from games.move_picker import Choice, Picker, Step, choose, finished, menus, packed
from locales import N_

PIECE = N_("{length} squares (value {value})")
IN_HAND = N_("{count} in hand")
CHOOSE_PIECE = N_("Place a piece: choose its length")
CHOOSE_START = N_("Where does the {length}-square piece start? Choose its lower or left end.")
CHOOSE_WAY = N_("Which way does it go from {square}?")
RANK = N_("Rank {rank}")
RANKS = N_("Ranks {first} to {last}")
RIGHT = N_("right (along the row): {move}")
UP = N_("up (along the column): {move}")
CHOOSE_REMOVAL = N_("Remove a piece")
REMOVAL = N_("up to {points} points")
CHOOSE_SCORE = N_("Your new score after removing {piece}:")
SCORE = N_("{score} (+{gain})")
PLACEMENT_PASSES = 2  # the placement phase ends at its second pass: each player passes once, then is skipped


class IsaacNarrator(Narrator):
    def forced_pass(self, say: Say, state: GameState, player: int, ply: int | None = None) -> str:
        assert isinstance(state, engine.IsaacGame)
        if _in_scoring(state, ply):
            return say(
                N_("{player} has no piece left to remove, so the bot passed for them."), player=say.player(player)
            )
        return super().forced_pass(say, state, player, ply)


def _in_scoring(state: engine.IsaacGame, ply: int | None) -> bool:
    """Whether the pass at ``ply`` of the log was played in the scoring phase. ``state`` may be past it: the
    pass that ends the game leaves the phase "over", the one that ends placement leaves it "scoring"."""
    if ply is None:
        return state.phase != engine.PLACEMENT
    return state.moves[: ply + 1].count("pass") > PLACEMENT_PASSES


def _ranks_named(first: str, last: str) -> Phrase:
    return Phrase(RANK, rank=first) if first == last else Phrase(RANKS, first=first, last=last)


def _square_key(square: str) -> tuple[int, int]:
    return int(square[1:]), engine.FILES.index(square[0])


class IsaacPicker(Picker):
    """Placing: the piece's length, then its lower or left end (a highlighted board shows where it can start),
    then the way it goes when both fit. Removing: the piece, then the new score when more than one is allowed."""

    def step(self, state: GameState, path: tuple[str, ...]) -> Step | str:
        assert isinstance(state, engine.IsaacGame)
        moves = state.legal_moves()
        if moves == ["pass"]:  # the session plays a forced pass itself; listed as it is, should one be asked
            return super().step(state, path)
        if state.phase == engine.SCORING:
            return self._removal(state, moves, path)
        return self._placement(state, moves, path)

    def _placement(self, state: engine.IsaacGame, moves: list[str], path: tuple[str, ...]) -> Step | str:
        turn = state.turn if state.turn is not None else 0
        lengths = sorted({_length(move) for move in moves})
        pieces = [
            Choice(
                str(length),
                Phrase(PIECE, length=length, value=engine.VALUES[length]),
                Phrase(IN_HAND, count=state.in_hand(turn)[length]),
            )
            for length in lengths
        ]
        first = Step(Phrase(CHOOSE_PIECE), menus(pieces, Phrase(CHOOSE_PIECE)))
        if not path:
            return first
        length = int(first.choice(path[0]).key)
        spans: dict[str, list[str]] = {}
        for move in moves:
            if _length(move) == length:
                spans.setdefault(move.split("-")[0], []).append(move)
        starts = sorted(spans, key=_square_key)
        squares = [Choice(start, start, " · ".join(spans[start])) for start in starts]
        by_rank = [
            (str(rank), [square for square in squares if _square_key(square.key)[0] == rank])
            for rank in sorted({_square_key(start)[0] for start in starts})
        ]
        prompt = Phrase(CHOOSE_START, length=length)
        second = Step(prompt, packed(by_rank, _ranks_named) or menus(squares), tuple(starts))
        if len(path) == 1:
            return second
        start = second.choice(path[1]).key
        if len(spans[start]) == 1:
            return finished((Choice(spans[start][0], start), path[2:]))
        ways = [Choice(move, Phrase(RIGHT if _horizontal(move) else UP, move=move)) for move in spans[start]]
        third = Step(
            Phrase(CHOOSE_WAY, square=start), menus(ways, Phrase(CHOOSE_WAY, square=start)), tuple(spans[start])
        )
        if len(path) == 2:
            return third
        return finished((third.choice(path[2]), path[3:]))

    def _removal(self, state: engine.IsaacGame, moves: list[str], path: tuple[str, ...]) -> Step | str:
        turn = state.turn if state.turn is not None else 0
        current = state.scores()[turn]
        scores: dict[str, list[int]] = {}
        for move in moves:
            _, span, score = move.split(" ")
            scores.setdefault(span, []).append(int(score))
        pieces = [
            Choice(span, span, Phrase(REMOVAL, points=max(scores[span]) - current))
            for span in sorted(scores, key=lambda span: (-max(scores[span]), span))
        ]
        first = Step(Phrase(CHOOSE_REMOVAL), menus(pieces, Phrase(CHOOSE_REMOVAL)))
        if not path:
            return first
        span = first.choice(path[0]).key
        reachable = sorted(scores[span], reverse=True)
        if len(reachable) == 1:
            return finished((Choice(f"x {span} {reachable[0]}", span), path[1:]))
        choices = [
            Choice(f"x {span} {score}", str(score), Phrase(SCORE, score=score, gain=score - current))
            for score in reachable
        ]
        prompt = Phrase(CHOOSE_SCORE, piece=span)
        # The removals themselves: the board rings the piece's first square, as it marks any removal, and leaves
        # the piece's value in view.
        return finished(
            choose(
                choices,
                path[1:],
                prompt,
                placeholder=prompt,
                highlight=lambda offered: tuple(choice.key for choice in offered),
            )
        )


def _horizontal(move: str) -> bool:
    start, end = move.split("-")
    return start[1:] == end[1:]


def _length(move: str) -> int:
    """The squares a canonical placement covers (read from its two ends: hundreds of placements a step)."""
    start, end = move.split("-")
    if start[1:] == end[1:]:
        return ord(end[0]) - ord(start[0]) + 1
    return int(end[1:]) - int(start[1:]) + 1


class IsaacSpelling:
    """What ``/isaac place`` and ``/isaac remove`` need of the game (``cogs/commands/isaac.py``): the pieces to
    choose from, the move a placement or a removal spells (IllegalMove says what is wrong), and what autocomplete
    offers while one is typed."""

    pieces = engine.VALUES  # each piece's length -> its value

    def placement(self, length: int, at: str, direction: str) -> str:
        """The placement of the piece of ``length`` from its lower or left end ``at``, going ``direction``."""
        return engine.placement_move(length, at, direction)

    def starts(self, state: GameState, length: int | None, direction: str | None) -> dict[str, str]:
        """Where a placement may start now (optionally of one length or direction): start square -> span."""
        return state.placement_starts(length, direction) if isinstance(state, engine.IsaacGame) else {}

    def removing(self, state: GameState) -> bool:
        """Whether pieces are removed now (the scoring phase)."""
        return isinstance(state, engine.IsaacGame) and state.phase == engine.SCORING

    def removal(self, state: GameState, piece: str, score: int | None) -> str:
        """The removal of ``piece`` (a square of it, or its span) to ``score``, by default the highest it reaches."""
        assert isinstance(state, engine.IsaacGame)
        return state.removal_move(piece, score)

    def removal_gains(self, state: GameState) -> dict[str, int]:
        """Each piece the player to move may remove now, with the most points its removal gains."""
        if not isinstance(state, engine.IsaacGame) or state.turn is None:
            return {}
        current = state.scores()[state.turn]
        return {span: best - current for span, best in state.best_removals().items()}


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
    puzzles="puzzles.isaac",
    cog="cogs.commands.isaac:isaac_commands",
    spelling=IsaacSpelling(),
    narrator=IsaacNarrator(),
    picker=IsaacPicker(),
)
