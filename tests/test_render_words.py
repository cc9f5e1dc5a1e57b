"""The boards in words (issue 22): alt text within Discord's 1,024 characters and a text board within a message's
2,000, for every game at its start, middle and end and on its fullest boards, in English and Japanese; and the words
name the right pieces. Every check reads the position back out of the text (the diagram symbol by symbol, the lists
through the catalogue's own sentences) and compares it with the game's state.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import games
from engines import GameState, iago, isaac, polygo
from locales import tr
from render import iago_text, isaac_text, polygo_text
from render.text_fitting import ALT_TEXT_LIMIT, MESSAGE_LIMIT, cut, fit, runs
from tests.render_cases import JAPANESE_NAMES

LANGUAGES = (("en", ("Alice", "Bob")), ("ja", JAPANESE_NAMES))
WORDS = {"iago": iago_text, "isaac": isaac_text, "polygo": polygo_text}


def seeded(game: str, seed: int, **options: Any) -> list[GameState]:
    rng = random.Random(seed)
    state = games.find(game).new_game(**options)
    seen = [state.copy()]
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        seen.append(state.copy())
    return seen


def start_middle_end(game: str, seed: int, **options: Any) -> list[GameState]:
    seen = seeded(game, seed, **options)
    return [seen[0], seen[len(seen) // 2], seen[-1]]


def fullest(game: str, seeds: range, **options: Any) -> GameState:
    """The position with the most pieces on the board over a few seeded games: the longest texts."""

    def pieces(state: GameState) -> int:
        if game == "polygo":
            return sum(state.stone((c, r)) is not None for c in range(state.size) for r in range(state.size))
        return len(state.pieces())  # type: ignore[attr-defined]

    return max((s for seed in seeds for s in seeded(game, seed, **options)), key=pieces)


def cases() -> Iterator[tuple[str, str, GameState]]:
    for variant in ("standard", "penalty", "simple"):
        yield from (("iago", f"{variant} {k}", s) for k, s in enumerate(start_middle_end("iago", 2, variant=variant)))
    yield from (("isaac", f"{k}", s) for k, s in enumerate(start_middle_end("isaac", 5)))
    yield "isaac", "fullest", fullest("isaac", range(6))
    for size in (9, 13, 19):
        yield from (("polygo", f"{size} {k}", s) for k, s in enumerate(start_middle_end("polygo", 10, size=size)))
    yield "polygo", "19 fullest", fullest("polygo", range(6), size=19)


CASES = list(cases())
IDS = [f"{game} {label}" for game, label, _ in CASES]


# ------------------------------------------------------------------------------------------ reading back


def filled(language: str, message: str, text: str, **params: Any) -> str:
    """The value a message's one open placeholder took in ``text``: what stands between the translated message's
    words before and after it. The other placeholders are given in ``params``."""
    open_name = next(name for name in re.findall(r"\{(\w+)\}", message) if name not in params)
    before, after = tr(language, message, **params, **{open_name: "\0"}).split("\0")
    start = text.index(before) + len(before)
    end = text.index(after, start) if after else len(text)
    return text[start:end]


def code_lines(text: str) -> list[str]:
    return text.split("```")[1].strip("\n").split("\n")


def expand(spans: str, letters: str) -> set[str]:
    """Runs of columns written "A to C", "A〜C" or "A–C", and single ones, as letters."""
    found: set[str] = set()
    for first, last, single in re.findall(r"([A-T])\s*(?:to|〜|–)\s*([A-T])|([A-T])", spans):
        if single:
            found.add(single)
        else:
            found.update(letters[letters.index(first) : letters.index(last) + 1])
    return found


# -------------------------------------------------------------------------------------------- the limits


@pytest.mark.parametrize(("game", "label", "state"), CASES, ids=IDS)
@pytest.mark.parametrize(("language", "names"), LANGUAGES, ids=["en", "ja"])
def test_words_fit_discord_and_name_whose_turn_it_is(
    game: str, label: str, state: GameState, language: str, names: tuple[str, str]
) -> None:
    words = WORDS[game]
    alt, board = words.alt_text(state, names, language), words.text_board(state, names, language)
    assert 50 < len(alt) <= ALT_TEXT_LIMIT
    assert 200 < len(board) <= MESSAGE_LIMIT
    assert not alt.endswith("…") and not board.endswith("…")  # a form fitted whole, nothing was cut
    mover = state.to_act
    for text in (alt, board):
        if mover is not None:
            assert names[mover] in text
        else:
            assert state.is_over or game == "polygo"  # Polygo's opening dice: nobody acts
        assert tr(language, games.find(game).title) in text
    if state.is_over:
        winner = state.result().winner
        assert winner is None or names[winner] in alt
    if language == "ja":  # every word Japanese but the notation a player types (cells, spans, "call", "pass")
        assert set(re.findall(r"[A-Za-z]{2,}", alt + board)) <= {"call", "pass"}


def test_the_last_move_is_named_and_a_given_one_wins() -> None:
    state = start_middle_end("iago", 2)[1]
    assert state.moves[-1] in iago_text.alt_text(state, ("A", "B"))
    assert "Light played B3" in iago_text.alt_text(state, ("A", "B"), last_move="Light played B3")


# --------------------------------------------------------------------------------------------------- Iago


def iago_cells_in(text: str) -> list[str]:
    return re.findall(r"\b([A-I][1-9])\b", text)


@pytest.mark.parametrize(("state"), [s for g, _, s in CASES if g == "iago"])
@pytest.mark.parametrize(("language", "names"), LANGUAGES, ids=["en", "ja"])
def test_iago_alt_text_lists_every_disk_by_kind(state: iago.IagoGame, language: str, names: tuple[str, str]) -> None:
    text = iago_text.alt_text(state, names, language)
    for content, kind, _ in iago_text.KINDS:
        expected = [cell for cell in iago.CELLS if state.cell(cell) == content]
        if not expected and tr(language, kind) not in text:
            continue
        listed = filled(language, "{kind}: {cells}.", text, kind=tr(language, kind))
        assert iago_cells_in(listed) == expected, content


@pytest.mark.parametrize(("state"), [s for g, _, s in CASES if g == "iago"])
def test_iago_diagram_shows_every_cell(state: iago.IagoGame) -> None:
    lines = code_lines(iago_text.text_board(state, ("A", "B")))
    legal = {move for move in state.legal_moves() if not move.startswith("call")}
    seen = 0
    for line in lines[:9]:
        row, *symbols = line.split()
        cells = [name for name in iago.CELLS if name[0] == row]
        symbols = symbols[: len(cells)]  # then the diagonal's number, on rows A to D
        for cell, symbol in zip(cells, symbols, strict=True):
            content = state.cell(cell)
            expected = iago_text.SYMBOL[content] if content else ("+" if cell in legal else ".")
            assert symbol == expected, cell
            seen += 1
    assert seen == len(iago.CELLS)


@pytest.mark.parametrize(("state"), [s for g, _, s in CASES if g == "iago" and not s.is_over])
@pytest.mark.parametrize(("language", "names"), LANGUAGES, ids=["en", "ja"])
def test_iago_text_board_lists_the_legal_moves(state: iago.IagoGame, language: str, names: tuple[str, str]) -> None:
    text = iago_text.text_board(state, names, language)
    placements = [move for move in state.legal_moves() if not move.startswith("call")]
    listed = filled(language, "Legal moves ({count}): {moves}", text, count=len(placements)).split("\n")[0]
    assert listed.split(", ") == placements
    rows = [line for line in text.split("\n") if re.match(r"^(Row )?[A-I](行)?[:：]", line)]
    assert set(iago_cells_in("\n".join(rows))) == {cell for cell in iago.CELLS if state.cell(cell)}


# -------------------------------------------------------------------------------------------------- ISAAC


@pytest.mark.parametrize(("state"), [s for g, _, s in CASES if g == "isaac"])
@pytest.mark.parametrize(("language", "names"), LANGUAGES, ids=["en", "ja"])
def test_isaac_alt_text_lists_every_piece_by_owner(
    state: isaac.IsaacGame, language: str, names: tuple[str, str]
) -> None:
    text = isaac_text.alt_text(state, names, language)
    for player in (0, 1):
        side = tr(language, isaac.SIDES[player])
        listed = filled(language, "{side} pieces (value in brackets): {pieces}.", text, side=side)
        found = re.findall(r"([a-j]\d{1,2}-[a-j]\d{1,2}) \((\d)\)", listed)
        expected = [(span, str(isaac.VALUES[isaac.span_length(span)])) for span, who in state.pieces() if who == player]
        assert sorted(found) == sorted(expected), player
    for player in (0, 1):
        square = state.counter_square(player)
        if square is not None:
            side = tr(language, isaac.SIDES[player])
            assert filled(language, "{side}'s counter is on {square}.", text, side=side) == square


@pytest.mark.parametrize(("state"), [s for g, _, s in CASES if g == "isaac"])
def test_isaac_diagram_shows_every_square(state: isaac.IsaacGame) -> None:
    lines = code_lines(isaac_text.text_board(state, ("A", "B")))
    counters = {state.counter_square(player) for player in (0, 1)} - {None}
    for line in lines[1:]:
        rank = int(line[:3])
        for file in range(isaac.SIZE):
            square = isaac.square_name(file, rank)
            token = line[4 + 4 * file : 8 + 4 * file].strip()
            found = state.piece_at(square)
            piece = "." if found is None else f"{'BW'[found[1]]}{isaac.VALUES[isaac.span_length(found[0])]}"
            if square in counters:
                piece = "@" if found is None else piece + "@"
            assert token == piece, square


# ------------------------------------------------------------------------------------------------- Polygo


def polygo_stones(state: polygo.PolygoGame, player: int) -> set[str]:
    return {
        f"{polygo.COLUMNS[c]}{r + 1}"
        for c in range(state.size)
        for r in range(state.size)
        if state.stone((c, r)) == player
    }


@pytest.mark.parametrize(("state"), [s for g, _, s in CASES if g == "polygo"])
@pytest.mark.parametrize(("language", "names"), LANGUAGES, ids=["en", "ja"])
def test_polygo_alt_text_lists_every_stone_by_colour_and_row(
    state: polygo.PolygoGame, language: str, names: tuple[str, str]
) -> None:
    text = polygo_text.alt_text(state, names, language)
    for player in (0, 1):
        who = polygo_text._player(names, player, language)
        expected = polygo_stones(state, player)
        if tr(language, "{player} stones by row: {rows}.", player=who, rows="\0").split("\0")[0] not in text:
            assert str(len(expected)) in text  # the most compact form: the stones only counted
            continue
        listed = filled(language, "{player} stones by row: {rows}.", text, player=who)
        found: set[str] = set()
        for row, spans in re.findall(r"(\d+): ([^;]*)", listed):
            found |= {f"{column}{row}" for column in expand(spans, polygo.COLUMNS)}
        if listed == tr(language, "none"):
            found = set()
        assert found == expected, player


@pytest.mark.parametrize(("state"), [s for g, _, s in CASES if g == "polygo"])
def test_polygo_diagram_shows_every_point(state: polygo.PolygoGame) -> None:
    text = polygo_text.text_board(state, ("A", "B"))
    lines = code_lines(text)
    last = set(state.last_block)
    assert len(lines) == state.size + 1
    for line in lines[1:]:
        row = int(line[:2])
        marks = line[3:].replace(" ", "")
        assert len(marks) == state.size
        for col, mark in enumerate(marks):
            point = f"{polygo.COLUMNS[col]}{row}"
            owner = state.stone(point)
            expected = "." if owner is None else polygo_text.STONE[owner]
            assert mark == (expected.lower() if point in last else expected), point


def test_a_crowded_19x19_board_takes_the_compact_forms_and_still_lists_every_stone() -> None:
    state = fullest("polygo", range(6), size=19)
    text = polygo_text.text_board(state, ("Alice", "Bob"))
    assert len(text) <= MESSAGE_LIMIT
    assert len(polygo_text.diagram(state, spaced=True)[1]) > len(polygo_text.diagram(state, spaced=False)[1])
    rows = [line for line in text.split("\n") if line.startswith("Row ")]
    found = {0: set(), 1: set()}
    for line in rows:
        row = line.split(":")[0].split()[1]
        for part in line.split(": ", 1)[1].split("; "):
            side, spans = part.split(" ", 1)
            found[0 if side == "Black" else 1] |= {f"{c}{row}" for c in expand(spans, polygo.COLUMNS)}
    assert found[0] == polygo_stones(state, 0) and found[1] == polygo_stones(state, 1)


# ---------------------------------------------------------------------------------------------- helpers


def test_fit_keeps_the_first_form_that_fits_and_cuts_only_the_last() -> None:
    assert fit((lambda: "x" * 50, lambda: "short"), 10) == "short"
    assert fit((lambda: "x" * 5,), 10) == "xxxxx"
    assert cut("one two three four", 12) == "one two…"
    assert len(fit((lambda: "word " * 100,), 40)) <= 40


def test_runs_say_three_or_more_in_a_row_as_one() -> None:
    letter = "ABCDEFGH".__getitem__
    assert runs([7, 0, 1, 2, 3, 5], letter, "en", spoken=True) == "A to D, F, H"
    assert runs([0, 1, 2, 3, 5, 7, 6], letter, "en", spoken=False) == "A–D F–H"
    assert runs([0, 1, 2], letter, "ja", spoken=True) == "A〜C"
