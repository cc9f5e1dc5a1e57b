"""A tournament's standings as a picture: a table as readable on a phone as the boards, in the server's language,
with the bundled font (so Japanese names draw on any host). The numbers come formatted from the service; this
module only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from locales import N_, tr
from render.base import BACKGROUND, INK, MARGIN, MUTED, PANEL, displayable, fit_text, font, new_canvas, to_png

WIDTH = 760
ROW = 36
TITLE_HEIGHT = 76
HEADINGS = (N_("#"), N_("Player"), N_("Points"), N_("Buchholz"), N_("S-B"), N_("W-D-L"))
# Where each column starts and how it is aligned; the player's name takes what the numbers leave.
COLUMNS = ((MARGIN + 34, "rm"), (MARGIN + 52, "lm"), (470, "rm"), (570, "rm"), (650, "rm"), (WIDTH - MARGIN, "rm"))
NAME_CHARS = 24
LEADER = (255, 214, 102)  # gold under the leader's row


@dataclass(frozen=True)
class StandingsPicture:
    """What the picture shows: a title, a line under it, and a row per player (place, name, points, Buchholz,
    Sonneborn-Berger, wins-draws-losses), each already written out; ``struck`` rows are players removed."""

    title: str
    subtitle: str
    rows: Sequence[tuple[str, str, str, str, str, str]]
    struck: frozenset[int] = frozenset()  # indexes of rows


def render(picture: StandingsPicture, language: str = "en") -> bytes:
    """The standings as PNG, headings in ``language``."""
    height = TITLE_HEIGHT + ROW * (len(picture.rows) + 1) + MARGIN
    image, draw = new_canvas(WIDTH, height)
    draw.text(
        (MARGIN, 26), fit_text(displayable(picture.title, "-"), 56), fill=INK, font=font(26, bold=True), anchor="lm"
    )
    draw.text((MARGIN, 58), picture.subtitle, fill=MUTED, font=font(17), anchor="lm")
    y = TITLE_HEIGHT
    draw.rectangle((0, y, WIDTH, y + ROW), fill=PANEL)
    for (x, anchor), heading in zip(COLUMNS, HEADINGS, strict=True):
        draw.text((x, y + ROW // 2), tr(language, heading), fill=MUTED, font=font(17, bold=True), anchor=anchor)
    for index, row in enumerate(picture.rows):
        top = y + ROW * (index + 1)
        if row[0] == "1":
            draw.rectangle((0, top, 8, top + ROW), fill=LEADER)
        elif index % 2:
            draw.rectangle((0, top, WIDTH, top + ROW), fill=_shade())
        colour = MUTED if index in picture.struck else INK
        for column, ((x, anchor), value) in enumerate(zip(COLUMNS, row, strict=True)):
            text = fit_text(displayable(value, "?"), NAME_CHARS) if column == 1 else value
            draw.text((x, top + ROW // 2), text, fill=colour, font=font(19, bold=column == 2), anchor=anchor)
        if index in picture.struck:
            name_end = COLUMNS[1][0] + draw.textlength(fit_text(displayable(row[1], "?"), NAME_CHARS), font=font(19))
            draw.line((COLUMNS[1][0], top + ROW // 2, name_end, top + ROW // 2), fill=MUTED, width=2)
    return to_png(image)


def _shade() -> tuple[int, int, int]:
    """Every other row, a tone between the background and the heading's panel."""
    return tuple((a + b) // 2 for a, b in zip(BACKGROUND, PANEL, strict=True))  # type: ignore[return-value]
