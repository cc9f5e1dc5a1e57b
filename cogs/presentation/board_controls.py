"""The controls a board carries: under a game in play, what the member whose turn it is taps; under a finished
game's last board, Rematch. How they look and what their ``custom_id``s hold; what a press does is elsewhere.

A board carries the first step of its game's picker (``games/move_picker.py``) as select menus (or a Roll button at a
dice point), and Resign and Abort buttons in its last row. Picking in a menu either plays the move (the answer is the
new board, one request) or opens the next step privately (a highlighted board and the next menus), which a further pick
updates in place, until the move is made: at most three taps.

Every component is a ``DynamicItem`` whose ``custom_id`` holds all its state: ``tap:<game>:<ply>:<slot>:<path>``
for a menu (``path``: the keys picked before it, joined by ``/``) and ``tap:<game>:<ply>:<action>`` for a button,
so a fresh process takes any press. A board sends them as Discord's JSON written directly (:class:`BoardControls`): the
dynamic items only take the presses. The ply is the board's: a press on a board the game has moved past is refused
politely. A press is handed to :mod:`cogs.components.board_presses` as the ``board_tap`` event (the handlers announce
moves, and the announcements carry these components: the event keeps the two modules from importing each other).

Rematch is a plain button whose ``custom_id`` (``rematch:<game id>``) the persistent handler recognises
(``cogs/components/challenge_buttons.py``), so every module that posts a board can put it there.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import discord

from cogs.plumbing.host import GameService
from cogs.presentation.names import remember_members
from locales import N_, tr, words
from sessions.model import MAX_MENUS, RESERVED, Game, GameState, GameStatus, Menu, Report, Step, Text

log = logging.getLogger(__name__)

# How a board of a game in play is drawn, wherever it carries components to tap: for a phone (docs/boards.md).
PLAYING_LAYOUT = "portrait"
PREFIX = "tap"
EVENT = "board_tap"  # dispatched with (interaction, Tap); cogs/components/board_presses.py listens
CUSTOM_ID_LIMIT = 100  # Discord's
TEXT_LIMIT = 100  # an option's label, value and description
PLACEHOLDER_LIMIT = 150
ROW, BUTTON, SELECT = 1, 2, 3  # Discord's component types
ACTIONS = ("roll", "resign", "sure", "abort")
LABELS = {
    "roll": N_("Roll the die"),
    "resign": N_("Resign"),
    "sure": N_("Yes, resign"),
    "abort": N_("Abort"),
}
STYLES = {
    "roll": discord.ButtonStyle.primary,
    "resign": discord.ButtonStyle.secondary,
    "sure": discord.ButtonStyle.danger,
    "abort": discord.ButtonStyle.secondary,
}


@dataclass(frozen=True)
class Tap:
    """One press on a board's component: which game, at which ply of its log, what was pressed or picked."""

    game_id: int
    ply: int
    action: str  # "pick" (a menu) or one of ACTIONS
    path: tuple[str, ...] = ()  # a pick: the keys picked so far, this one last


def join(path: tuple[str, ...]) -> str:
    return "/".join(path)


def split(text: str) -> tuple[str, ...]:
    return tuple(text.split("/")) if text else ()


def clip(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def said(locale: Any, text: Text) -> str:
    """An option's or a menu's words for ``locale``: notation as it is, phrases translated."""
    return str(words(locale, text))


class BoardMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tap:(?P<game_id>[0-9]{1,19}):(?P<ply>[0-9]{1,6}):(?P<slot>[0-4]):(?P<path>[^:]*)",
):
    """A select menu of a step: a pick continues the path."""

    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)
        match = self.__discord_ui_compiled_template__.fullmatch(select.custom_id)
        assert match is not None
        self.game_id, self.ply, self.path = int(match["game_id"]), int(match["ply"]), split(match["path"])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> BoardMenu:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        picked = tuple(self.item.values[:1])
        interaction.client.dispatch(EVENT, interaction, Tap(self.game_id, self.ply, "pick", self.path + picked))


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tap:(?P<game_id>[0-9]{1,19}):(?P<ply>[0-9]{1,6}):(?P<action>roll|resign|sure|abort)",
):
    """Roll, Resign (and its confirmation) and Abort."""

    def __init__(self, game_id: int, ply: int, action: str, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, LABELS[action]), style=STYLES[action], custom_id=f"{PREFIX}:{game_id}:{ply}:{action}"
            )
        )
        self.game_id, self.ply, self.action = game_id, ply, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> BoardButton:
        return cls(int(match["game_id"]), int(match["ply"]), match["action"], interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        interaction.client.dispatch(EVENT, interaction, Tap(self.game_id, self.ply, self.action))


def menu_item(game_id: int, ply: int, slot: int, path: tuple[str, ...], menu: Menu, locale: Any) -> dict[str, Any]:
    """One menu of a step as a select whose custom_id carries the path that led to it (Discord's JSON)."""
    if any(mark in key for key in path for mark in RESERVED):
        raise ValueError(f"a step's key may not contain {RESERVED}: {path}")
    return select_component(f"{PREFIX}:{game_id}:{ply}:{slot}:{join(path)}", menu, locale)


def select_component(custom_id: str, menu: Menu, locale: Any) -> dict[str, Any]:
    """A picker's menu as Discord's select component, in ``locale``'s words; Discord's defaults (one value, enabled)
    are left out."""
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id too long: {custom_id}")
    options = []
    for choice in menu.choices:
        option = {"label": clip(said(locale, choice.label)), "value": choice.key}
        if choice.description is not None:
            option["description"] = clip(said(locale, choice.description))
        options.append(option)
    placeholder = clip(said(locale, menu.placeholder), PLACEHOLDER_LIMIT)
    return {"type": SELECT, "custom_id": custom_id, "placeholder": placeholder, "options": options}


def select_menu(custom_id: str, menu: Menu, locale: Any) -> discord.ui.Select:
    """A picker's menu as discord.py's select, for a view that dispatches its own presses: under a puzzle's board
    (``cogs/components/puzzle_buttons.py``, whose ``custom_id`` names the puzzle instead of a game)."""
    written = select_component(custom_id, menu, locale)
    options = [discord.SelectOption(**option) for option in written["options"]]
    return discord.ui.Select(custom_id=custom_id, placeholder=written["placeholder"], options=options)


def button_component(game_id: int, ply: int, action: str, locale: Any) -> dict[str, Any]:
    return button_json(STYLES[action], tr(locale, LABELS[action]), f"{PREFIX}:{game_id}:{ply}:{action}")


def button_json(style: discord.ButtonStyle, label: str, custom_id: str) -> dict[str, Any]:
    return {"type": BUTTON, "style": style.value, "label": label, "custom_id": custom_id}


class BoardControls(discord.ui.View):
    """A board's menus and buttons as Discord's JSON, written once. A board's presses are taken by the dynamic items
    above, registered when the bot starts, so discord.py keeps nothing of the view it sends: building its selects
    and options as objects, to turn them straight into this JSON, was a third of a board's components' cost
    (docs/performance.md). Stopped from the start, so that discord.py stores nothing for it."""

    def __init__(self, rows: list[dict[str, Any]], roll: str | None) -> None:
        super().__init__(timeout=None)
        self.rows = rows
        self.roll = roll  # the Roll button's label, when the board carries one
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def step_view(
    game_id: int, ply: int, path: tuple[str, ...], step: Step | None, buttons: list[str], locale: Any
) -> BoardControls:
    """A step's menus, a row each, then its buttons in one row."""
    menus = step.menus[:MAX_MENUS] if step is not None else ()
    rows = [
        {"type": ROW, "components": [menu_item(game_id, ply, slot, path, menu, locale)]}
        for slot, menu in enumerate(menus)
    ]
    if buttons:
        row = [button_component(game_id, ply, action, locale) for action in buttons]
        rows.append({"type": ROW, "components": row})
    return BoardControls(rows, tr(locale, LABELS["roll"]) if "roll" in buttons else None)


@dataclass(frozen=True)
class Plan:
    """What a board of a game in play offers, worked out off the event loop."""

    step: Step | None  # the picker's first step; None at a dice point
    buttons: list[str]


def plan(service: GameService, game: Game, state: GameState) -> Plan | None:
    """The components of a board of ``game`` in ``state`` (None: nothing to press: the game is over, or the bot
    is to move). Worked out on the event loop: 0.2-0.3 ms a board on average, under 1 ms once a picker's anchors
    are known (``bench/move_picker.py``), where a hop to a thread and back cost more than that under load
    (docs/performance.md)."""
    side = state.to_act
    if game.status != GameStatus.ACTIVE or state.is_over or side is None or side == game.ai_side:
        return None
    abort = ["abort"] if service.aborts.can_abort(game, state) else []
    if state.chance:
        return Plan(None, ["roll", "resign", *abort])
    first = game.entry.picker.step(state, ())
    return Plan(first if isinstance(first, Step) else None, ["resign", *abort])  # (a move alone is a forced one)


async def board_components(service: GameService, game: Game, state: GameState, ply: int, locale: Any) -> dict[str, Any]:
    """The ``view`` keyword of a board of ``game`` (at ``ply`` of its log, showing ``state``), or nothing."""
    planned = plan(service, game, state)
    if planned is None:
        return {}
    return {"view": step_view(game.id, ply, (), planned.step, planned.buttons, locale)}


async def report_components(service: GameService, report: Report, locale: Any) -> dict[str, Any]:
    """The components of a report's board while its game is in play; nothing under a finished game (its Rematch
    is :func:`report_buttons`) or a board the game has already moved past (an announcement delivered late). A fault
    here must not hold the announcement back: the board then goes out without them (the commands still work)."""
    if report.finish is not None or (report.ply is not None and report.ply != report.game.ply):
        return {}
    try:
        return await board_components(service, report.game, report.state, report.game.ply, locale)
    except Exception:
        log.exception("The components of a board of game %s failed", report.game.id)
        return {}


def roll_label(buttons: dict[str, Any]) -> str | None:
    """The label of the Roll button among a board's components (its ``view`` keyword), if they carry one: the
    board's words then name the button instead of the command (``game_text.next_turn_line``)."""
    view = buttons.get("view")
    return view.roll if isinstance(view, BoardControls) else None


def marks(step: Step | None = None) -> dict[str, Any]:
    """How a board that carries components is drawn: for a phone, with a step's highlights."""
    return {"layout": PLAYING_LAYOUT, "highlight": step.highlight if step is not None else ()}


REMATCH_LABEL = N_("Rematch")


def rematch_custom_id(game_id: int) -> str:
    return f"rematch:{game_id}"


def rematch_button(game_id: int, locale: Any) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=tr(locale, REMATCH_LABEL), style=discord.ButtonStyle.primary, custom_id=rematch_custom_id(game_id)
    )


def rematch_view(game_id: int, locale: Any) -> BoardControls:
    """Rematch under a finished game's board, as Discord's JSON: the persistent handler takes the press, so
    discord.py keeps nothing for the message (a view with a plain button it would keep for good, one per game)."""
    button = button_json(discord.ButtonStyle.primary, tr(locale, REMATCH_LABEL), rematch_custom_id(game_id))
    return BoardControls([{"type": ROW, "components": [button]}], None)


def report_buttons(report: Report, locale: Any) -> dict[str, Any]:
    """The buttons a report's message carries once its game is over: Rematch under a finished game's last
    announcement (games against the bot included: its rematch is a new game against it, at the same level)."""
    if report.finish is None or report.game.tournament_id is not None:  # a tournament pairs its players itself
        return {}
    return {"view": rematch_view(report.game.id, locale)}


async def report_controls(service: GameService, report: Report, locale: Any) -> dict[str, Any]:
    """What a report's board carries: Rematch under a finished game, the moves to tap under a game in play."""
    return report_buttons(report, locale) or await report_components(service, report, locale)
