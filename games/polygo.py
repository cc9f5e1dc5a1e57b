"""Polygo's registry entry: roll a die, place go-stone blocks, close the largest polygon first."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from engines import GameState, IllegalMove, Phrase
from engines import polygo as engine
from games import GameEntry, Narrator, Option, Say
from games.move_picker import MAX_OPTIONS, Choice, Picker, Step, choose, finished, menus
from locales import N_

AREA_SIDE = 5  # points along an area's side at most: an area's anchors fit in one menu (25)
# A step's prompt is the sentence over its private board, where a rule has room; a menu's placeholder is what a
# phone shows of the closed menu, about 60 characters, so it only names the choice (tests/test_picker_words.py).
CHOOSE_AREA = N_("Place {block}: choose the area")
AREA_COUNT = N_("{count} placements")
CHOOSE_PLACEMENT = N_("Where does {block} go? The board rings every point it can cover here.")
CHOOSE_ANCHOR = N_(
    "Where does {block} go? Choose its anchor, its lowest point (the leftmost of the lowest if several): "
    "the board rings the anchors of this area."
)
ANCHOR_MENU = N_("Choose its anchor: lowest, then leftmost point")
ANCHOR_COUNT = N_("{count} ways")
CHOOSE_PLACEMENT_NOW = N_("Place {block}: choose where")
CHOOSE_ORIENTATION = N_("Which way is {block} turned, anchored at {point}?")
ORIENTATION_MENU = N_("How is it turned at {point}?")
TURNED = N_("turned {degrees}°")
MIRRORED = N_("mirrored, turned {degrees}°")

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

    def forced_pass(self, say: Say, state: GameState, player: int, ply: int | None = None) -> str:
        return say(N_("{player}'s block fits nowhere, so the bot passed for them."), player=say.player(player))


@cache
def _anchor(placement: str) -> tuple[int, int]:
    """A placement's anchor as (column, row): its lowest point, the leftmost of those (a canonical placement's
    points are valid names: read them directly). Kept once worked out: every board after a roll groups thousands
    of placements by it, out of a fixed set (6,906 names on 19x19, 11,230 for the three sizes: about 1 MB)."""
    row, column = min((int(point[1:]), engine.COLUMNS.index(point[0])) for point in placement.split())
    return column, row - 1


def _orientations(state: engine.PolygoGame, anchor: str) -> dict[str, Phrase]:
    """How each placement anchored at ``anchor`` is turned (and mirrored), as ``/polygo place at:`` says it."""
    found: dict[str, Phrase] = {}
    for mirror in (False, True):
        for degrees in engine.TURNS:
            try:
                placement = state.placement_from_anchor(anchor, degrees, mirror)
            except IllegalMove:
                continue  # off the board, or no mirror image
            found.setdefault(placement, Phrase(MIRRORED if mirror else TURNED, degrees=degrees))
    return found


class PolygoPicker(Picker):
    """After the roll: the area of the board (at most 5 x 5 points of anchors), then the placement when the area
    has few, else its anchor and then the way the block is turned."""

    def step(self, state: GameState, path: tuple[str, ...]) -> Step | str:
        assert isinstance(state, engine.PolygoGame) and state.die is not None  # a block to place (or none fits)
        block = Phrase(BLOCK_NAMES[state.die])
        moves = state.legal_moves()
        if len(moves) <= MAX_OPTIONS:  # late in a game (or a forced pass): every placement at once
            prompt = Phrase(CHOOSE_PLACEMENT_NOW, block=block)
            return finished(choose([Choice(move, move) for move in moves], path, prompt, placeholder=prompt))
        parts = -(-state.size // AREA_SIDE)
        side = -(-state.size // parts)  # 19: 4 areas of 5 a side; 13: 3 of 5; 9: 2 of 5
        areas: dict[tuple[int, int], list[str]] = {}
        for move in moves:
            col, row = _anchor(move)
            areas.setdefault((col // side, row // side), []).append(move)
        order = sorted(areas, key=lambda area: (-area[1], area[0]))  # as the board reads: the top row first
        heads = [
            Choice(f"{a}{b}", _area_name(a, b, side, state.size), Phrase(AREA_COUNT, count=len(areas[a, b])))
            for a, b in order
        ]
        first = Step(Phrase(CHOOSE_AREA, block=block), menus(heads, Phrase(CHOOSE_AREA, block=block)))
        if not path:
            return first
        key = first.choice(path[0]).key
        placements = areas[int(key[0]), int(key[1])]
        anchors: dict[str, list[str]] = {}
        for move in placements:
            anchors.setdefault(engine.point_name(*_anchor(move)), []).append(move)
        if len(placements) <= MAX_OPTIONS:
            turned = {move: way for anchor in anchors for move, way in _orientations(state, anchor).items()}
            choices = [Choice(move, move, turned.get(move)) for move in placements]
            second = Step(
                Phrase(CHOOSE_PLACEMENT, block=block),
                menus(choices, Phrase(CHOOSE_PLACEMENT_NOW, block=block)),
                tuple(placements),
            )
            return second if len(path) == 1 else finished((second.choice(path[1]), path[2:]))
        points = sorted(anchors, key=lambda name: (-engine.parse_point(name)[1], engine.parse_point(name)[0]))
        prompt = Phrase(CHOOSE_ANCHOR, block=block)
        choices = [
            Choice(
                point,
                point,
                anchors[point][0] if len(anchors[point]) == 1 else Phrase(ANCHOR_COUNT, count=len(anchors[point])),
            )
            for point in points
        ]
        # The board rings the anchors this menu offers, not every point their placements cover: those spill out
        # of the area and read as more anchors than the menu lists.
        second = Step(prompt, menus(choices, Phrase(ANCHOR_MENU)), tuple(points))
        if len(path) == 1:
            return second
        anchor = second.choice(path[1]).key
        if len(anchors[anchor]) == 1:  # one way only: the anchor is the placement
            return finished((Choice(anchors[anchor][0], anchor), path[2:]))
        turned = _orientations(state, anchor)
        ways = [Choice(move, move, turned.get(move)) for move in anchors[anchor]]
        prompt = Phrase(CHOOSE_ORIENTATION, block=block, point=anchor)
        third = Step(prompt, menus(ways, Phrase(ORIENTATION_MENU, point=anchor)), tuple(anchors[anchor]))
        return third if len(path) == 2 else finished((third.choice(path[2]), path[3:]))


def _area_name(column: int, row: int, side: int, size: int) -> str:
    """An area by its corner points, lower left to upper right: "A15–E19"."""
    low = engine.point_name(column * side, row * side)
    high = engine.point_name(min(size, (column + 1) * side) - 1, min(size, (row + 1) * side) - 1)
    return f"{low}–{high}"


class PolygoSpelling:
    """What ``/polygo place at:`` needs of the game (``cogs/commands/polygo.py``): the turns a block may be given,
    and the placement an anchor, a turn and a mirror spell (ValueError says what is wrong)."""

    turns = engine.TURNS  # degrees clockwise

    def placement(self, state: GameState, at: str, turn: int, mirror: bool) -> str:
        """The rolled block turned by ``turn`` degrees (mirrored if ``mirror``) with its anchor on ``at``."""
        assert isinstance(state, engine.PolygoGame)
        return state.placement_from_anchor(at, turn, mirror)


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
    puzzles="puzzles.polygo",
    cog="cogs.commands.polygo:polygo_commands",
    spelling=PolygoSpelling(),
    chance_words=("open", "roll"),
    narrator=PolygoNarrator(),
    picker=PolygoPicker(),
)
