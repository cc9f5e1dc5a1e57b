"""Boards in the server's language, drawn with the bundled font: Japanese names draw as glyphs (not boxes or "?"),
and a Japanese board carries no English word."""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import games
from engines import GameState, iago, isaac, polygo
from locales import catalogue, tr
from render import base
from render import iago as iago_view
from render import isaac as isaac_view
from render import polygo as polygo_view
from tests.render_compare import decode

JAPANESE_NAMES = ("山田 たろう", "ミナ")  # kanji, hiragana and katakana
QUESTION_NAMES = ("?? ???", "??")  # the same names as undrawable characters would have shown them
SHIPPED = ("iago", "isaac", "polygo")


def positions(game: str, seed: int, step: int, **options: Any) -> Iterator[GameState]:
    """Every ``step``-th position of a seeded random game, and its last."""
    rng = random.Random(seed)
    state = games.find(game).new_game(**options)
    while not state.is_over:
        if len(state.moves) % step == 0:
            yield state.copy()
        state.play(rng.choice(state.legal_moves()))
    yield state


def middle(game: str) -> GameState:
    states = list(positions(game, seed=3, step=1))
    return states[len(states) // 2]


def header(image: Image.Image) -> Image.Image:
    return image.crop((0, 0, image.width, base.HEADER_HEIGHT))


def changed(first: Image.Image, second: Image.Image) -> bool:
    return ImageChops.difference(first, second).getbbox() is not None


# ------------------------------------------------------------------------------------------ the bundled font


def test_the_bundled_font_comes_first_for_both_weights() -> None:
    assert base.font(20).path == str(base.FONT_DIR / "NotoSansCJKjp-Regular.subset.otf")  # type: ignore[union-attr]
    assert base.font(20, bold=True).path == str(base.FONT_DIR / "NotoSansCJKjp-Bold.subset.otf")  # type: ignore[union-attr]
    assert (base.FONT_DIR / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE Version 1.1") == 1
    # a few MB at most: the subset, not the whole CJK collection
    assert all(path.stat().st_size < 2_500_000 for path in base.FONT_DIR.glob("*.otf"))


@pytest.mark.parametrize("bold", [False, True])
def test_each_japanese_character_has_a_glyph_of_its_own(bold: bool) -> None:
    used = base.font(20, bold)
    missing = used.getmask("\ue000")  # a private-use code point: the font's missing-glyph box
    question = used.getmask("?")
    for char in "".join(JAPANESE_NAMES).replace(" ", ""):
        mask = used.getmask(char)
        assert mask.getbbox() is not None, char  # something is drawn
        assert bytes(mask) != bytes(missing), char  # not the box
        assert bytes(mask) != bytes(question), char
    assert base.displayable(JAPANESE_NAMES[0]) == JAPANESE_NAMES[0]
    assert base.displayable(JAPANESE_NAMES[1]) == JAPANESE_NAMES[1]


def test_characters_outside_the_subset_still_become_question_marks() -> None:
    assert base.displayable("𠮷野 🎲") == "?野 ?"  # a rare kanji (JIS X 0213 only) and an emoji
    assert base.displayable("🎲🎲") == "Player"
    assert base.shown_names(("🎲🎲", "ミナ"), "ja") == ("プレイヤー", "ミナ")
    assert base.shown_names(("🎲🎲", "Bob")) == ("Player", "Bob")


def test_a_missing_font_file_falls_back_to_the_system_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "FONT_CANDIDATES", (base.FONT_DIR / "absent.otf", *base.FONT_CANDIDATES[1:]))
    base.font.cache_clear()
    try:
        assert getattr(base.font(20), "path", None) != str(base.FONT_DIR / "absent.otf")
        assert base.font(20).getbbox("A") is not None
    finally:
        base.font.cache_clear()


def test_wide_characters_count_double_when_a_name_is_shortened() -> None:
    assert base.fit_text("x" * 80, 18) == "x" * 17 + "…"
    assert base.fit_text("山田たろう山田たろう", 12) == "山田たろう…"
    assert base.fit_text("山田 たろう", 18) == "山田 たろう"


@pytest.mark.parametrize("game", SHIPPED)
def test_a_japanese_name_draws_in_the_header(game: str) -> None:
    entry, state = games.find(game), middle(game)
    japanese = decode(entry.render(state, JAPANESE_NAMES, "ja"))
    questions = decode(entry.render(state, QUESTION_NAMES, "ja"))
    assert changed(header(japanese), header(questions))


# ------------------------------------------------------------------------------------- words in the language


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every string a renderer draws (the cached layers hold coordinates only), through Pillow's drawing
    or the boards' own, which caches the glyphs."""
    texts: list[str] = []
    for cls in (ImageDraw.ImageDraw, base.BoardDraw):
        original = cls.__dict__["text"]

        def recording(
            self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, _draw: Any = original, **kw: Any
        ) -> None:
            texts.append(str(text))
            _draw(self, xy, text, *args, **kw)

        monkeypatch.setattr(cls, "text", recording)
    return texts


ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
# What stays in Latin letters on a Japanese board: a command word the player types, and move notation
# (Iago "call <cell>", ISAAC "x b1-f1"; coordinates are single letters).
TYPED = ("call",)


def english_words(texts: list[str]) -> set[str]:
    return {word for text in texts for word in ENGLISH_WORD.findall(text) if word not in TYPED}


def every_kind_of_position() -> Iterator[tuple[str, GameState]]:
    for variant in iago.OPTIONS["variant"]:
        for seed in (1, 2):
            yield from (("iago", s) for s in positions("iago", seed, 6, variant=variant))
    for seed in (1, 2, 5):
        yield from (("isaac", s) for s in positions("isaac", seed, 5))
    for size in polygo.OPTIONS["size"]:
        for seed in (1, 2, 10, 39):
            yield from (("polygo", s) for s in positions("polygo", seed, 4, size=size))


def test_a_japanese_board_draws_no_english_word(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = drawn_texts(monkeypatch)
    for game, state in every_kind_of_position():
        games.find(game).render(state, JAPANESE_NAMES, "ja")
    for face in polygo.BLOCKS:
        polygo_view.render_dice(face, "ja")
    for game in SHIPPED:  # names with nothing the font can draw
        games.find(game).render(middle(game), ("🎲", "🎲🎲"), "ja")
    assert len(texts) > 1000
    assert english_words(texts) == set()
    texts.clear()
    for game, state in every_kind_of_position():
        games.find(game).render(state, ("Alice", "Bob"), "en")
    assert {"Score", "wins", "Move", "Inner", "In", "hand", "Opening"} <= english_words(texts)


@pytest.mark.parametrize("game", SHIPPED)
def test_japanese_and_english_boards_differ_in_the_header_and_the_panel(game: str) -> None:
    entry, state = games.find(game), middle(game)
    english = decode(entry.render(state, JAPANESE_NAMES, "en"))
    japanese = decode(entry.render(state, JAPANESE_NAMES, "ja"))
    assert changed(header(english), header(japanese))  # the status line
    assert changed(
        english.crop((0, base.HEADER_HEIGHT, english.width, english.height)),
        japanese.crop((0, base.HEADER_HEIGHT, japanese.width, japanese.height)),
    )  # the panel's words
    assert entry.render(state, JAPANESE_NAMES) == entry.render(state, JAPANESE_NAMES, "en")  # English by default


def test_status_lines_are_the_catalogues_japanese() -> None:
    known = catalogue("ja")
    fresh = iago.new_game()
    assert iago_view.status(fresh, "ja") == "1手目 · 標準"
    assert known["Move {number} · {variant}"] == "{number}手目 · {variant}"
    assert isaac_view.status(isaac.new_game(), "ja") == tr("ja", "Placement · {side} to place", side="黒")
    assert isaac_view.status(isaac.new_game(), "ja") == "配置フェーズ · 黒が置く番"
    assert polygo_view.status(polygo.new_game(), JAPANESE_NAMES, "ja") == "開始時のサイコロ"
    finished = list(positions("polygo", 1, 1000, size=19))[-1]
    result = finished.result()
    assert result.winner is not None
    assert polygo_view.status(finished, JAPANESE_NAMES, "ja") == f"{JAPANESE_NAMES[result.winner]} の勝ち"
    assert polygo_view.result_lines(finished, JAPANESE_NAMES, "ja")[0].startswith(JAPANESE_NAMES[result.winner])
    over = list(positions("isaac", 5, 1000))[-1]
    assert isaac_view.status(over, "ja").startswith("ゲーム終了 · ")
    assert isaac_view.last_line(isaac.new_game(), "ja") == "まだ着手はありません"


def test_words_the_engines_hold_have_japanese() -> None:
    known = catalogue("ja")
    assert set(polygo_view.SHORT_BLOCK_NAMES) == {block.short for block in polygo.BLOCKS.values()}
    assert set(iago_view.VARIANTS) == set(iago.OPTIONS["variant"])
    for msgid in (*polygo_view.SHORT_BLOCK_NAMES, *iago_view.VARIANTS.values(), *iago.SIDES, *isaac.SIDES):
        assert msgid in known, msgid


def test_an_install_ships_the_fonts_and_their_licence() -> None:
    """``pip install .`` (not editable) copies only the package data pyproject names."""
    root = base.FONT_DIR.parent.parent
    patterns = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["render"]
    shipped = {path.name for pattern in patterns for path in (root / "render").glob(pattern)}
    assert {"NotoSansCJKjp-Regular.subset.otf", "NotoSansCJKjp-Bold.subset.otf", "OFL.txt"} <= shipped


def test_the_font_draws_every_character_of_the_japanese_catalogue() -> None:
    """Labels are drawn as they are (only names go through ``displayable``): a translation may use no character
    outside the subset."""
    characters = {char for text in catalogue("ja").values() for char in text}
    assert len(characters) > 300
    assert sorted(char for char in characters if not base._has_glyph(char)) == []
