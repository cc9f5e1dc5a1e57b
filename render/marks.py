"""The marks a caller can ask a board to show, in shapes that differ without colour.

- **suggested**: a star (sky blue, dark outline): the move a hint suggests, or the better move in an analysis;
- **played**: a cross (reddish purple, dark outline): the move that was played, in an analysis;
- **candidate**: a light ring with dark edges: where a rolled block or a chosen piece can go.

Each game draws them at its own places (a cell, a point, a span) with these helpers, in pixel coordinates of
whatever it draws on (an RGB page, a palette image, a supersampled sprite); the shapes use palette colours only, so
they can be drawn straight onto a palette image. A board that shows a mark also explains it in a legend line
(:func:`draw_legend`), so the picture reads without knowing the shapes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from locales import N_, tr
from render.base import CANDIDATE, INK, PLAYED, SUGGESTED, font

SUGGESTED_MARK = "suggested"
PLAYED_MARK = "played"
CANDIDATE_MARK = "candidate"
MARK_KINDS = (SUGGESTED_MARK, PLAYED_MARK, CANDIDATE_MARK)


def star_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """A five-pointed star, one point up."""
    points = []
    for k in range(10):
        reach = radius if k % 2 == 0 else radius * 0.45
        angle = math.radians(-90 + 36 * k)
        points.append((cx + reach * math.cos(angle), cy + reach * math.sin(angle)))
    return points


def cross_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """An upright plus of arms ``radius`` long and ``radius * 0.3`` thick, turned by 45 degrees: an x."""
    arm = radius * 0.3
    plus = [
        (arm, radius),
        (arm, arm),
        (radius, arm),
        (radius, -arm),
        (arm, -arm),
        (arm, -radius),
        (-arm, -radius),
        (-arm, -arm),
        (-radius, -arm),
        (-radius, arm),
        (-arm, arm),
        (-arm, radius),
    ]
    turn = math.radians(45)
    cos, sin = math.cos(turn), math.sin(turn)
    return [(cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in plus]


def draw_star(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, edge: int = 2, band: int | None = None
) -> None:
    draw.polygon(star_points(cx, cy, radius), fill=SUGGESTED, outline=INK, width=edge)


def draw_cross(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, edge: int = 2, band: int | None = None
) -> None:
    draw.polygon(cross_points(cx, cy, radius), fill=PLAYED, outline=INK, width=edge)


def draw_candidate(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, edge: int = 2, band: int | None = None
) -> None:
    """A ring: dark, light, dark, so it shows on light and dark ground alike; its light ``band`` is by default
    three tenths of the radius."""
    band = band or max(2, round(radius * 0.3))
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), outline=INK, width=band + 2 * edge)
    inner = radius - edge
    draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), outline=CANDIDATE, width=band)


@dataclass(frozen=True)
class Marks:
    """What a caller asked a board to show on the position, besides the game itself."""

    highlight: tuple[str, ...] = ()
    suggestion: str | None = None
    played: str | None = None

    @classmethod
    def of(cls, highlight: Iterable[str] = (), suggestion: str | None = None, played: str | None = None) -> Marks:
        return cls(tuple(highlight), suggestion, played)

    def __bool__(self) -> bool:
        return bool(self.highlight or self.suggestion or self.played)


def legend_items(marks: Marks, language: str) -> list[tuple[str, str]]:
    """The legend of the requested marks: the suggested move is "better" when the played one is shown too."""
    items = []
    if marks.suggestion:
        words = N_("Better: {move}") if marks.played else N_("Suggested: {move}")
        items.append((SUGGESTED_MARK, tr(language, words, move=marks.suggestion)))
    if marks.played:
        items.append((PLAYED_MARK, tr(language, "Played: {move}", move=marks.played)))
    if marks.highlight:
        items.append((CANDIDATE_MARK, tr(language, "Where it can go")))
    return items


DRAWERS = {SUGGESTED_MARK: draw_star, PLAYED_MARK: draw_cross, CANDIDATE_MARK: draw_candidate}


def draw_mark(
    draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, radius: float, edge: int = 2, band: int | None = None
) -> None:
    """One mark centred on (cx, cy); ``band`` is the candidate ring's light band (the others have none)."""
    DRAWERS[kind](draw, cx, cy, radius, edge, band)


def draw_legend(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    items: Sequence[tuple[str, str]],
    size: int,
    right: float,
    colour: tuple[int, int, int] = INK,
) -> float:
    """Each (mark kind, words) as the mark drawn small and its words, side by side while they fit before ``right``,
    else on the next line; returns the y below the last line. ``y`` is the middle of the first line."""
    text_font = font(size)
    start = x
    radius = size * 0.5
    for kind, words in items:
        width = 2 * radius + 6 + draw.textlength(words, font=text_font)
        if x > start and x + width > right:
            x, y = start, y + size + 8
        draw_mark(draw, kind, x + radius, y, radius, edge=1)
        draw.text((x + 2 * radius + 6, y), words, fill=colour, font=text_font, anchor="lm")
        x += width + 18
    return y + size / 2 + 8


__all__ = [
    "CANDIDATE_MARK",
    "MARK_KINDS",
    "PLAYED_MARK",
    "SUGGESTED_MARK",
    "Marks",
    "draw_legend",
    "draw_mark",
    "legend_items",
]
