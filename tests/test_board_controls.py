"""What a board carries, as the JSON it sends (cogs/presentation/board_controls.py): the picker's menus and the
buttons written directly, Discord's defaults left out, and nothing that discord.py keeps after sending (the presses
are the dynamic items', registered at start-up)."""

from __future__ import annotations

import discord

import games
from cogs.presentation.board_controls import BoardMenu, rematch_view, roll_label, step_view
from games.move_picker import Step


async def test_a_board_in_play_sends_its_menus_and_buttons_as_discords_json() -> None:
    state = games.find("iago").new_game()
    step = games.find("iago").picker.step(state, ())
    assert isinstance(step, Step)
    view = step_view(42, 0, (), step, ["resign", "abort"], "en")
    rows = view.to_components()
    menus, buttons = rows[:-1], rows[-1]["components"]
    assert [row["components"][0]["custom_id"] for row in menus] == [f"tap:42:0:{slot}:" for slot in range(len(menus))]
    first = menus[0]["components"][0]
    assert first["type"] == 3 and "min_values" not in first and "disabled" not in first  # Discord's defaults
    assert {option["value"] for row in menus for option in row["components"][0]["options"]} == set(state.legal_moves())
    assert [(button["label"], button["custom_id"]) for button in buttons] == [
        ("Resign", "tap:42:0:resign"),
        ("Abort", "tap:42:0:abort"),
    ]
    assert BoardMenu.__discord_ui_compiled_template__.fullmatch(first["custom_id"])  # a fresh process takes it
    assert view.is_finished() and not view.is_dispatchable()  # discord.py stores nothing for the message
    assert roll_label({"view": view}) is None


async def test_a_dice_point_names_its_roll_button() -> None:
    view = step_view(7, 3, (), None, ["roll", "resign"], "ja")
    assert roll_label({"view": view}) == view.to_components()[0]["components"][0]["label"] != "Roll the die"


async def test_rematch_is_kept_by_nobody_but_its_persistent_handler() -> None:
    view = rematch_view(9, "en")
    assert view.to_components() == [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": discord.ButtonStyle.primary.value, "label": "Rematch", "custom_id": "rematch:9"}
            ],
        }
    ]
    assert view.is_finished() and not view.is_dispatchable()
