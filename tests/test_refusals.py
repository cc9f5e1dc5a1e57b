"""Every refusal an engine can give reads naturally in Japanese: each one is raised here for real (random games
probed with wrong inputs at every position, plus the few states they do not reach), and each must have its
translation, its parameters (nested words included) must fill it, and together they must be every refusal the
engines' source declares."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir

from engines import IllegalMove, Phrase, Refusal, iago, isaac, polygo
from locales import catalogue, tr

ENGINES_DIR = Path(__file__).resolve().parent.parent / "engines"
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def declared_templates() -> set[str]:
    """The literal messages of every IllegalMove, Refusal and Phrase in engines/."""
    keywords = {"IllegalMove": None, "Refusal": None, "Phrase": None}
    return {
        message
        for _file, _line, message, _comments, _context in extract_from_dir(ENGINES_DIR, keywords=keywords)
        if isinstance(message, str)
    }


def refused(action: Callable[[], Any]) -> Refusal | None:
    try:
        action()
    except Refusal as error:
        return error
    return None


def probe(actions: list[Callable[[], Any]]) -> Iterator[Refusal]:
    for action in actions:
        error = refused(action)
        if error is not None:
            yield error


def on(game: Any, *calls: Callable[[Any], Any]) -> Iterator[Refusal]:
    """The refusals of ``calls``, each made on its own copy of ``game``."""
    return probe([lambda call=call: call(game.copy()) for call in calls])


def plays(game: Any, moves: list[str]) -> Iterator[Refusal]:
    return on(game, *(lambda g, m=m: g.play(m) for m in moves))


def iago_refusals(rng: random.Random) -> Iterator[Refusal]:
    for variant in iago.OPTIONS["variant"]:
        for _ in range(6):
            game = iago.new_game(variant=variant)
            while not game.is_over:
                probes = [*rng.sample(iago.CELLS, 12), "call E5", f"call {rng.choice(iago.CELLS)}", "E5"]
                yield from plays(game, probes)
                game.play(rng.choice(game.legal_moves()))
            yield from plays(game, ["E5"])
    owed = iago.IagoGame._from_position({"D3": "D", "D2": "L"}, variant="penalty", call_owed=True)
    yield from probe([lambda: owed.play("A1"), lambda: owed.play("E5"), lambda: owed.play("E4")])
    # No position reaches the last explanation (an empty inner cell is always legal when nothing is forced);
    # it stays as the engine's fallback, and must read as well as the others.
    yield IllegalMove.because(iago.new_game(variant="loose")._explain(False, "E4"))
    yield from probe(
        [
            lambda: iago.new_game().play(5),  # type: ignore[arg-type]
            lambda: iago.new_game().play("  "),
            lambda: iago.new_game().play("north"),
            lambda: iago.new_game().play("A9"),
            lambda: iago.new_game(variant="wild"),
            lambda: iago.new_game(colour="red"),
        ]
    )


def isaac_refusals(rng: random.Random) -> Iterator[Refusal]:
    squares = [f"{f}{r}" for f in "abcdefghij" for r in range(1, 11)]
    for _ in range(6):
        game = isaac.new_game()
        while not game.is_over:
            legal = game.legal_moves()
            a, b = rng.sample(squares, 2)
            probes = ["pass", f"{a}-{b}", "c3-g3", "x c3-g3", "x c3-g3 7", "x c3-g3 zz", "c5-c1", "k1-k4", "a1-b1"]
            for move in rng.sample(legal, min(3, len(legal))):
                if move.startswith("x "):
                    span, score = move[2:].split()
                    probes += [f"x {span}", f"x {span} {int(score) + 40}", f"x {span} 09"]
            yield from plays(game, probes)
            for square in rng.sample(squares, 4):
                yield from on(game, lambda g, s=square: g.removal_move(s), lambda g, s=square: g.removal_points(s))
            yield from counter_clashes(game)
            game.play(rng.choice(legal))
        yield from plays(game, ["c3-g3"])
    yield from probe(
        [
            lambda: isaac.new_game().play("hello"),
            lambda: isaac.new_game().play("x c3-zz"),
            lambda: isaac.placement_move(9, "a1", "right"),
            lambda: isaac.placement_move(5, "a1", "down"),
            lambda: isaac.placement_move(5, "h1", "right"),
            lambda: isaac.placement_move(5, "a8", "up"),
            lambda: isaac.square_name(10, 1),
            lambda: isaac.new_game().removal_points("c3-g3"),
            lambda: isaac.new_game(size=10),
        ]
    )


def counter_clashes(game: isaac.IsaacGame) -> Iterator[Refusal]:
    """A removal whose new score would land on the other counter: the other score moved to meet it."""
    player = game.turn
    if player is None or game.phase != isaac.SCORING:
        return
    for move in game.legal_moves()[-2:]:
        if move.startswith("x "):
            score = int(move.split()[-1])
            saved = game.to_dict()
            saved["scores"][1 - player] = 99 - score
            yield from probe([lambda d=saved, m=move: isaac.from_dict(d).play(m)])


def polygo_refusals(rng: random.Random) -> Iterator[Refusal]:
    for size in polygo.OPTIONS["size"]:
        for _ in range(3):
            game = polygo.new_game(size=size)
            yield from plays(game, ["open 3 3", "open 9", "D4"])
            yield from on(game, lambda g: g.placement_from_anchor("D4"))
            while not game.is_over:
                legal = game.legal_moves()
                probes = ["roll 7", "roll 3", "pass", "D4 D4", "Z9", "T19", "A1 A2 A3 A4 A5 A6 A7", "A1 C3", "D4/"]
                if not game.chance and legal and legal[0] != "pass":
                    probes += [" ".join(rng.choice(legal).split()[:-1]), legal[0]]
                yield from plays(game, probes)
                if game.die is not None:
                    yield from on(
                        game,
                        lambda g: g.placement_from_anchor("A1", 45),
                        lambda g: g.placement_from_anchor(f"A{g.size}", 0, mirror=True),
                        lambda g: g.placement_from_anchor("T19"),
                    )
                game.play(rng.choice(legal))
            yield from plays(game, ["roll 2"])
            yield from on(game, lambda g: g.placement_from_anchor("A1"))
    taken = polygo.new_game(size=9)
    for move in ("open 1 2", "A1 A2"):  # Black's domino, then White's line of three across it
        taken.play(move)
    yield from probe([lambda: taken.copy().play("A1 A2 A3"), lambda: taken.copy().play("A2 A3 A4")])
    yield from probe(
        [
            lambda: polygo.new_game(size=9).stone((9, 0)),
            lambda: polygo.new_game(size=7),
            lambda: polygo.new_game(colour="red"),
        ]
    )


def all_refusals() -> list[Refusal]:
    rng = random.Random(14)
    return [*iago_refusals(rng), *isaac_refusals(rng), *polygo_refusals(rng)]


def templates_of(value: Any) -> Iterator[str]:
    """The template of a refusal or phrase and of every phrase nested in its parameters."""
    if isinstance(value, Refusal):
        value = value.phrase
    if isinstance(value, Phrase):
        yield value.template
        for inner in value.params.values():
            yield from templates_of(inner)


@pytest.fixture(scope="module")
def refusals() -> list[Refusal]:
    return all_refusals()


def test_every_refusal_the_engines_declare_is_raised_here(refusals: list[Refusal]) -> None:
    raised = {template for error in refusals for template in templates_of(error)}
    assert declared_templates() - raised == set()


def test_every_refusal_reads_in_japanese_with_its_parameters(refusals: list[Refusal]) -> None:
    known = catalogue("ja")
    missing = {template for error in refusals for template in templates_of(error) if template not in known}
    assert missing == set()
    for error in refusals:
        japanese = tr("ja", error.template, **error.params)
        assert not PLACEHOLDER.search(japanese), japanese  # every parameter filled in
        assert japanese != str(error)
        for value in error.params.values():
            if isinstance(value, Phrase):  # nested words are the reader's words too, not English
                assert str(value) not in japanese, (str(value), japanese)


def test_a_refusal_is_still_an_english_sentence() -> None:
    error = refused(lambda: isaac.new_game().play("x c3-g3 12"))
    assert isinstance(error, IllegalMove) and str(error).endswith(".")
    side = refused(lambda: isaac.placement_move(5, "h1", "right"))
    assert str(side) == "A piece of length 5 from h1 going right would leave the board."
    assert side is not None and side.template.startswith("A piece of length {length}")
    assert tr("ja", side.template, **side.params) == "長さ5のコマを h1 から右に置くと、ボードからはみ出します。"
    assert str(IllegalMove("Plain text.")) == "Plain text." and IllegalMove("Plain text.").params == {}
