"""ISAAC by Emiliano "Wentu" Venturini: place straight pieces, then remove them to score.

Rules and notation follow ``rules/isaac.md`` (the project's rulings). Squares are named from Black's
seat: files ``a``..``j`` (file numbers 0..9 in this module), ranks ``1``..``10``. Black's printed number
of a square is ``10 * (rank - 1) + file`` and White's is ``99`` minus that; internally a square *is* its
Black number, and a score counter of score ``s`` stands on Black number ``s`` (Black) or ``99 - s``
(White).

Moves (canonical, lower case):

- placement ``c3-g3`` / ``d2-d7``: the two end squares, lower end first (smaller rank, then smaller file);
- removal ``x c3-g3 30``: the piece, then the counter's new score;
- ``pass``: listed, alone, only when nothing else is legal.

Readings where the rulings are silent (each one is relied on by the tests):

- Every pass is an explicit move, the second one included: a phase ends when both players have passed
  in it, and a player who has passed is skipped for the rest of that phase, even if a move would become
  possible for them again later.
- The placement phase has no score counters on the board (``counter_square`` is None); they appear on
  each owner's square 00 when the scoring phase starts.
- A removal lists every new score from the current one to current + points, scores of 100 or more
  included exactly as reached (``x c3-g3 112`` is legal when 112 is within reach). A score of 100 or more
  has no square: it can never clash, and ends the game at once, so while a game goes on both counters
  are always on the board. The clash rule forbids, for player ``p``, exactly the score
  ``99 - opponent's score``.
- Staying put is always allowed (the current square cannot clash), so a removal worth 0 points is the
  single move ``x <span> <current score>``.
- Input tolerance covers case and spaces only (``X  C3 - G3  30`` is ``x c3-g3 30``); ends written
  upper end first or scores with leading zeros are refused with an explanation.

``Result.reason`` codes: ``"score"`` (scores differ), ``"tiebreak-squares"`` (equal scores; the player
whose unplaced pieces cover more squares won), ``"tiebreak-pieces"`` (equal squares too; fewer unplaced
pieces won), ``"tiebreak-black"`` (all equal: Black wins).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engines import IllegalMove, Phrase, Refusal, Result

NAME = "isaac"  # how the game is known everywhere: the registry, the stored games, engines.get

OPTIONS: dict[str, tuple] = {}
SIDES = ("Black", "White")


class Reason(StrEnum):
    """Why a game ended (``Result.reason``); see the module docstring."""

    SCORE = "score"
    TIEBREAK_SQUARES = "tiebreak-squares"
    TIEBREAK_PIECES = "tiebreak-pieces"
    TIEBREAK_BLACK = "tiebreak-black"


LENGTHS = (3, 4, 5, 6, 7)
VALUES = {3: 1, 4: 2, 5: 3, 6: 4, 7: 6}
COUNTS = {3: 5, 4: 4, 5: 3, 6: 2, 7: 1}
SIZE = 10
TARGET = 100
FILES = "abcdefghij"
PLACEMENT, SCORING, OVER = "placement", "scoring", "over"

_SQUARE_RE = re.compile(r"([a-j])(10|[1-9])")
_PLACE_RE = re.compile(r"([a-z]+\d+)-([a-z]+\d+)")
_REMOVE_RE = re.compile(r"x ([a-z]+\d+)-([a-z]+\d+)(?: (\S+))?")
_SCORE_RE = re.compile(r"0|[1-9]\d*")


# --- squares -------------------------------------------------------------------------------------------


def square_name(file: int, rank: int) -> str:
    """The name of the square at ``file`` 0..9 (a..j) and ``rank`` 1..10."""
    if not (0 <= file < SIZE and 1 <= rank <= SIZE):
        raise IllegalMove(
            "There is no square at file {file}, rank {rank}: the board is a1 to j10.", file=file, rank=rank
        )
    return f"{FILES[file]}{rank}"


def _index_name(index: int) -> str:
    return square_name(index % SIZE, index // SIZE + 1)


def _parse_square(text: str) -> int:
    """A square name to its index (= Black's number)."""
    cleaned = text.strip().lower()
    match = _SQUARE_RE.fullmatch(cleaned)
    if match is None:
        raise IllegalMove("'{text}' is not a square: squares go from a1 to j10.", text=text.strip())
    return (int(match.group(2)) - 1) * SIZE + FILES.index(match.group(1))


def black_number(square: str) -> int:
    """Black's printed number of a square: 10 x (rank - 1) + file."""
    return _parse_square(square)


def white_number(square: str) -> int:
    """White's printed number of a square: 99 minus Black's."""
    return 99 - _parse_square(square)


# --- every possible piece position, computed once ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Span:
    name: str
    length: int
    value: int
    squares: tuple[int, ...]
    mask: int
    line: int  # the whole row (horizontal piece) or column (vertical piece)
    horizontal: bool


def _row_mask(rank_index: int) -> int:
    return sum(1 << (rank_index * SIZE + f) for f in range(SIZE))


def _column_mask(file: int) -> int:
    return sum(1 << (r * SIZE + file) for r in range(SIZE))


def _make_span(squares: list[int], horizontal: bool) -> _Span:
    first, last = squares[0], squares[-1]
    line = _row_mask(first // SIZE) if horizontal else _column_mask(first % SIZE)
    return _Span(
        name=f"{_index_name(first)}-{_index_name(last)}",
        length=len(squares),
        value=VALUES[len(squares)],
        squares=tuple(squares),
        mask=sum(1 << s for s in squares),
        line=line,
        horizontal=horizontal,
    )


def _all_spans() -> dict[str, _Span]:
    spans: dict[str, _Span] = {}
    for length in LENGTHS:
        for r in range(SIZE):
            for f in range(SIZE - length + 1):
                span = _make_span([r * SIZE + f + k for k in range(length)], horizontal=True)
                spans[span.name] = span
        for f in range(SIZE):
            for r in range(SIZE - length + 1):
                span = _make_span([(r + k) * SIZE + f for k in range(length)], horizontal=False)
                spans[span.name] = span
    return spans


_SPANS: dict[str, _Span] = _all_spans()
# Sorted once, so filtering keeps legal placements in canonical order without sorting per call.
_PLACEMENTS: tuple[tuple[str, int, int], ...] = tuple(
    (s.name, s.length, s.mask) for s in sorted(_SPANS.values(), key=lambda s: s.name)
)


def _span_between(a: str, b: str) -> _Span:
    """The piece position with ends ``a`` and ``b`` (lower end first), or a sentence saying what is wrong."""
    ia, ib = _parse_square(a), _parse_square(b)
    (ra, fa), (rb, fb) = divmod(ia, SIZE), divmod(ib, SIZE)
    if ra != rb and fa != fb:
        raise IllegalMove("{a}-{b} is not a straight line: a piece lies along one rank or one file.", a=a, b=b)
    if ia > ib:
        raise IllegalMove("Write the lower end first: {b}-{a}.", a=a, b=b)
    length = (fb - fa if ra == rb else rb - ra) + 1
    if length not in VALUES:
        raise IllegalMove("Pieces are 3 to 7 squares long, and {a}-{b} covers {length}.", a=a, b=b, length=length)
    return _SPANS[f"{a}-{b}"]


def span_length(span: str) -> int:
    """How many squares a piece position such as ``c3-g3`` covers."""
    start, _, end = _normalize(span).partition("-")
    return _span_between(start, end).length


def placement_move(length: int, at: str, direction: str) -> str:
    """The canonical placement of a ``length`` piece whose lower/left end is ``at``, going right or up."""
    if length not in VALUES:
        raise IllegalMove("Pieces are 3 to 7 squares long, not {length}.", length=length)
    start = _parse_square(at)
    rank, file = divmod(start, SIZE)
    way = direction.strip().lower()
    if way == "right":
        end_file, end_rank = file + length - 1, rank
    elif way == "up":
        end_file, end_rank = file, rank + length - 1
    else:
        raise IllegalMove("Direction '{direction}' is not right or up.", direction=direction.strip())
    if end_file >= SIZE or end_rank >= SIZE:
        going = Phrase("right") if way == "right" else Phrase("up")
        raise IllegalMove(
            "A piece of length {length} from {square} going {way} would leave the board.",
            length=length,
            square=_index_name(start),
            way=going,
        )
    return f"{_index_name(start)}-{square_name(end_file, end_rank + 1)}"


def _normalize(move: str) -> str:
    text = " ".join(str(move).lower().split())
    text = re.sub(r" ?- ?", "-", text)
    if text.startswith("x") and not text.startswith("x "):
        text = "x " + text[1:]
    return text


def _score_range(low: int, high: int) -> Phrase:
    if low == high:
        return Phrase("your score must stay {low}", low=low)
    return Phrase("choose {low} to {high}", low=low, high=high)


# --- the game ------------------------------------------------------------------------------------------


class IsaacGame:
    """One game of ISAAC; see the module docstring for notation and readings."""

    chance = False

    def __init__(self) -> None:
        self._phase = PLACEMENT
        self._turn: int | None = 0
        self._owner: dict[str, int] = {}  # span name -> owner, for every piece on the board
        self._cover: list[str | None] = [None] * (SIZE * SIZE)
        self._occ = 0
        self._hand: list[dict[int, int]] = [dict(COUNTS), dict(COUNTS)]
        self._removed: list[list[str]] = [[], []]
        self._scores = [0, 0]
        self._out = [False, False]
        self._passed_first: int | None = None
        self._moves: list[str] = []

    # -- contract properties --

    @property
    def to_act(self) -> int | None:
        """Who acts next; with no dice in this game, always the player to move."""
        return self.turn

    @property
    def turn(self) -> int | None:
        return self._turn

    @property
    def moves(self) -> list[str]:
        return list(self._moves)

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    # -- extra read API for the bot, renderer and AI --

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def last_move(self) -> str | None:
        return self._moves[-1] if self._moves else None

    @property
    def passed_first(self) -> int | None:
        return self._passed_first

    @property
    def out(self) -> tuple[bool, bool]:
        return (self._out[0], self._out[1])

    def scores(self) -> tuple[int, int]:
        return (self._scores[0], self._scores[1])

    def in_hand(self, player: int) -> dict[int, int]:
        return dict(self._hand[player])

    def removed(self, player: int) -> list[str]:
        return list(self._removed[player])

    def pieces(self) -> list[tuple[str, int]]:
        return sorted(self._owner.items())

    def piece_at(self, square: str) -> tuple[str, int] | None:
        span = self._cover[_parse_square(square)]
        return None if span is None else (span, self._owner[span])

    def min_removal_length(self, player: int) -> int:
        return max((_SPANS[s].length for s in self._removed[player]), default=LENGTHS[0])

    def counter_square(self, player: int) -> str | None:
        index = self._counter_index(player)
        return None if index is None else _index_name(index)

    def removal_points(self, span: str) -> int:
        """Points for removing the piece at ``span`` (its name or any of its squares) right now."""
        text = _normalize(span)
        if _PLACE_RE.fullmatch(text):
            a, b = text.split("-")
            name = _span_between(a, b).name
            if name not in self._owner:
                raise IllegalMove("There is no piece on {square}.", square=name)
        else:
            found = self.piece_at(text)
            if found is None:
                raise IllegalMove("There is no piece on {square}.", square=text)
            name = found[0]
        return self._points(_SPANS[name])

    def best_removals(self) -> dict[str, int]:
        """Each piece the player to move may remove now, with the highest score it legally reaches."""
        best: dict[str, int] = {}
        for move in self.legal_moves():
            match = _REMOVE_RE.fullmatch(move)
            if match:
                span = f"{match.group(1)}-{match.group(2)}"
                best[span] = max(best.get(span, 0), int(match.group(3)))
        return best

    def removal_move(self, piece: str, score: int | None = None) -> str:
        """The canonical removal of ``piece`` (a square of it, or its span) to ``score``, by default the
        highest score it legally reaches; IllegalMove says what is wrong, without changing the game."""
        text = _normalize(piece)
        place = _PLACE_RE.fullmatch(text)
        if place:
            span = _span_between(place.group(1), place.group(2)).name
        else:
            found = self.piece_at(text)
            if found is None:
                raise IllegalMove("There is no piece on {square}.", square=text)
            span = found[0]
        if score is None:
            if self._phase == SCORING and span in (best := self.best_removals()):
                score = best[span]
            else:
                self._check_removal(_SPANS[span], None)  # raises the precise reason
        move = f"x {span} {score}"
        self._check(move, move)
        return move

    def placement_starts(self, length: int | None = None, direction: str | None = None) -> dict[str, str]:
        """Legal placements of the player to move by their lower/left end square, optionally only of one
        length or direction ("right" or "up"): start square -> the first such span."""
        found: dict[str, str] = {}
        if self._phase != PLACEMENT or self._turn is None:
            return found
        for span in self._placements(self._turn):
            item = _SPANS[span]
            if length is not None and item.length != length:
                continue
            if direction is not None and (direction == "right") != item.horizontal:
                continue
            found.setdefault(span.split("-")[0], span)
        return found

    # -- internals --

    def _counter_index(self, player: int) -> int | None:
        score = self._scores[player]
        if self._phase == PLACEMENT or score >= TARGET:
            return None
        return score if player == 0 else 99 - score

    def _counter_mask(self) -> int:
        mask = 0
        for player in (0, 1):
            index = self._counter_index(player)
            if index is not None:
                mask |= 1 << index
        return mask

    def _points(self, span: _Span) -> int:
        others = sum(1 for name in self._owner if name != span.name and _SPANS[name].mask & span.line)
        multiplier = 2 ** (self._counter_mask() & span.line).bit_count()
        return others * span.value * multiplier

    def _removable(self, player: int) -> list[_Span]:
        """The player's pieces they may take off now (long enough, under no counter)."""
        minimum = self.min_removal_length(player)
        blocked = self._counter_mask()
        spans = (_SPANS[name] for name, owner in self._owner.items() if owner == player)
        return [s for s in spans if s.length >= minimum and not s.mask & blocked]

    def _placements(self, player: int) -> list[str]:
        hand, occ = self._hand[player], self._occ
        return [name for name, length, mask in _PLACEMENTS if hand[length] and not occ & mask]

    def _can_place(self, player: int) -> bool:
        hand, occ = self._hand[player], self._occ
        return any(hand[length] and not occ & mask for _, length, mask in _PLACEMENTS)

    def _has_move(self) -> bool:
        assert self._turn is not None
        if self._phase == PLACEMENT:
            return self._can_place(self._turn)
        # Staying put is always allowed, so any removable piece gives at least one move.
        return bool(self._removable(self._turn))

    def legal_moves(self) -> list[str]:
        if self._turn is None:
            return []
        player = self._turn
        if self._phase == PLACEMENT:
            return self._placements(player) or ["pass"]
        current = self._scores[player]
        clash = 99 - self._scores[1 - player]
        moves = [
            f"x {span.name} {score}"
            for span in self._removable(player)
            for score in range(current, current + self._points(span) + 1)
            if score != clash
        ]
        moves.sort()
        return moves or ["pass"]

    # -- playing --

    def play(self, move: str) -> None:
        text = _normalize(move)
        self._apply(self._check(text, move))

    def _check(self, text: str, raw: str) -> tuple[str, Any]:
        """Validate a normalised move; returns what ``_apply`` needs, or raises IllegalMove."""
        if self._turn is None:
            raise IllegalMove("The game is over.")
        if text == "pass":
            if self._has_move():
                raise IllegalMove("You cannot pass while you have a legal move.")
            return ("pass", None)
        place = _PLACE_RE.fullmatch(text)
        if place:
            return ("place", self._check_placement(_span_between(place.group(1), place.group(2))))
        remove = _REMOVE_RE.fullmatch(text)
        if remove:
            span = _span_between(remove.group(1), remove.group(2))
            return ("remove", self._check_removal(span, remove.group(3)))
        raise IllegalMove(
            "I don't understand '{move}': write a placement like c3-g3, a removal like x c3-g3 30, or pass.",
            move=str(raw).strip(),
        )

    def _check_placement(self, span: _Span) -> _Span:
        if self._phase != PLACEMENT:
            raise IllegalMove("It is the scoring phase: remove one of your pieces, e.g. x c3-g3 12.")
        assert self._turn is not None
        if not self._hand[self._turn][span.length]:
            raise IllegalMove("You have no piece of length {length} left.", length=span.length)
        if self._occ & span.mask:
            raise IllegalMove("{piece} covers a square that is not empty.", piece=span.name)
        return span

    def _check_removal(self, span: _Span, score_text: str | None) -> tuple[_Span, int]:
        if self._phase != SCORING:
            raise IllegalMove("Pieces are removed only in the scoring phase: now place one, e.g. c3-g3.")
        player = self._turn
        assert player is not None
        owner = self._owner.get(span.name)
        if owner is None:
            if self._occ & span.mask:
                raise IllegalMove("No piece lies exactly on {piece}.", piece=span.name)
            raise IllegalMove("There is no piece on {square}.", square=span.name)
        if owner != player:
            raise IllegalMove(
                "{piece} is {side}'s piece: remove one of your own.", piece=span.name, side=Phrase(SIDES[owner])
            )
        minimum = self.min_removal_length(player)
        if span.length < minimum:
            raise IllegalMove("You must remove a piece at least {minimum} squares long.", minimum=minimum)
        if span.mask & self._counter_mask():
            raise IllegalMove("{piece} lies under a score counter, so it cannot be removed.", piece=span.name)
        current = self._scores[player]
        high = current + self._points(span)
        if score_text is None:
            raise IllegalMove(
                "Give your counter's new score too: x {piece} N, {scores}.",
                piece=span.name,
                scores=_score_range(current, high),
            )
        if not _SCORE_RE.fullmatch(score_text):
            raise IllegalMove("'{text}' is not a score: write a whole number like {high}.", text=score_text, high=high)
        score = int(score_text)
        if not current <= score <= high:
            raise IllegalMove(
                "Score {score} is out of reach: {scores}.", score=score, scores=_score_range(current, high)
            )
        if score == 99 - self._scores[1 - player]:
            raise IllegalMove(
                "Score {score} would put your counter on {side}'s counter (square {square}).",
                score=score,
                side=Phrase(SIDES[1 - player]),
                square=self.counter_square(1 - player),
            )
        return span, score

    def _apply(self, checked: tuple[str, Any]) -> None:
        kind, data = checked
        player = self._turn
        assert player is not None
        if kind == "pass":
            self._moves.append("pass")
            self._pass(player)
            return
        if kind == "place":
            span: _Span = data
            self._put(span, player)
            self._hand[player][span.length] -= 1
            self._moves.append(span.name)
        else:
            span, score = data
            self._take(span)
            self._removed[player].append(span.name)
            self._scores[player] = score
            self._moves.append(f"x {span.name} {score}")
            if score >= TARGET:
                self._phase, self._turn = OVER, None
                return
        self._turn = player if self._out[1 - player] else 1 - player

    def _put(self, span: _Span, player: int) -> None:
        self._owner[span.name] = player
        self._occ |= span.mask
        for square in span.squares:
            self._cover[square] = span.name

    def _take(self, span: _Span) -> None:
        del self._owner[span.name]
        self._occ &= ~span.mask
        for square in span.squares:
            self._cover[square] = None

    def _pass(self, player: int) -> None:
        self._out[player] = True
        if self._phase == PLACEMENT and self._passed_first is None:
            self._passed_first = player
        if not self._out[1 - player]:
            self._turn = 1 - player
        elif self._phase == PLACEMENT:
            self._phase, self._out = SCORING, [False, False]
            self._turn = self._passed_first
        else:
            self._phase, self._turn = OVER, None

    # -- result --

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("The game is not over yet.")
        scores = self.scores()
        if scores[0] != scores[1]:
            return Result(0 if scores[0] > scores[1] else 1, scores, Reason.SCORE)
        squares = [sum(length * n for length, n in hand.items()) for hand in self._hand]
        if squares[0] != squares[1]:
            return Result(0 if squares[0] > squares[1] else 1, scores, Reason.TIEBREAK_SQUARES)
        counts = [sum(hand.values()) for hand in self._hand]
        if counts[0] != counts[1]:
            return Result(0 if counts[0] < counts[1] else 1, scores, Reason.TIEBREAK_PIECES)
        return Result(0, scores, Reason.TIEBREAK_BLACK)

    # -- persistence --

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "isaac",
            "version": 1,
            "phase": self._phase,
            "turn": self._turn,
            "pieces": [[name, owner] for name, owner in self.pieces()],
            "hand": [[hand[length] for length in LENGTHS] for hand in self._hand],
            "removed": [list(r) for r in self._removed],
            "scores": list(self._scores),
            "out": list(self._out),
            "passed_first": self._passed_first,
            "moves": list(self._moves),
        }

    def copy(self) -> IsaacGame:
        other = IsaacGame.__new__(IsaacGame)
        other._phase = self._phase
        other._turn = self._turn
        other._owner = dict(self._owner)
        other._cover = list(self._cover)
        other._occ = self._occ
        other._hand = [dict(h) for h in self._hand]
        other._removed = [list(r) for r in self._removed]
        other._scores = list(self._scores)
        other._out = list(self._out)
        other._passed_first = self._passed_first
        other._moves = list(self._moves)
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IsaacGame) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<IsaacGame {self._phase} turn={self._turn} scores={self.scores()} moves={len(self._moves)}>"

    @classmethod
    def from_position(
        cls,
        pieces: Iterable[tuple[str, int]],
        *,
        phase: str = SCORING,
        turn: int | None = 0,
        scores: tuple[int, int] = (0, 0),
        hand: Iterable[Mapping[int, int]] | None = None,
        removed: Iterable[Iterable[str]] = ((), ()),
        out: tuple[bool, bool] = (False, False),
        passed_first: int | None = None,
        moves: Iterable[str] = (),
    ) -> IsaacGame:
        """A game set up directly (tests, puzzles, from_dict). ``hand`` defaults to what was not placed
        or removed. A position built this way need not be reachable, so its moves may not replay."""
        game = cls()
        if phase not in (PLACEMENT, SCORING, OVER):
            raise ValueError(f"Unknown phase {phase!r}.")
        game._phase = phase
        game._turn = None if phase == OVER else turn
        if game._turn not in (0, 1, None) or (phase != OVER and game._turn is None):
            raise ValueError(f"Bad turn {turn!r}.")
        game._removed = [[_normalize(s) for s in r] for r in removed]
        for name, owner in pieces:
            span = _SPANS.get(_normalize(name))
            if span is None or owner not in (0, 1):
                raise ValueError(f"Bad piece {name!r} of player {owner!r}.")
            if game._occ & span.mask:
                raise ValueError(f"Piece {name} overlaps another piece.")
            game._put(span, owner)
        if hand is None:
            game._hand = [dict(COUNTS), dict(COUNTS)]
            used = [(name, owner) for name, owner in game._owner.items()]
            used += [(name, p) for p in (0, 1) for name in game._removed[p]]
            for name, owner in used:
                game._hand[owner][_SPANS[name].length] -= 1
        else:
            game._hand = [{length: int(h.get(length, 0)) for length in LENGTHS} for h in hand]
        if any(n < 0 or n > COUNTS[length] for h in game._hand for length, n in h.items()):
            raise ValueError("More pieces than a player owns.")
        game._scores = [int(scores[0]), int(scores[1])]
        game._out = [bool(out[0]), bool(out[1])]
        game._passed_first = passed_first
        game._moves = list(moves)
        return game


Game = IsaacGame


def new_game(**options: Any) -> IsaacGame:
    if options:
        raise Refusal("ISAAC takes no options (got {options}).", options=", ".join(sorted(options)))
    return IsaacGame()


def from_dict(d: Mapping[str, Any]) -> IsaacGame:
    """Rebuild a game saved by ``to_dict``; ValueError for data that is not a saved ISAAC game."""
    try:
        if d.get("game", "isaac") != "isaac":
            raise ValueError("Not an ISAAC game.")
        return IsaacGame.from_position(
            [(name, int(owner)) for name, owner in d["pieces"]],
            phase=d["phase"],
            turn=d["turn"],
            scores=(int(d["scores"][0]), int(d["scores"][1])),
            hand=[dict(zip(LENGTHS, counts, strict=True)) for counts in d["hand"]],
            removed=d["removed"],
            out=(bool(d["out"][0]), bool(d["out"][1])),
            passed_first=d["passed_first"],
            moves=[str(m) for m in d["moves"]],
        )
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"Not a saved ISAAC game: {exc}") from exc
