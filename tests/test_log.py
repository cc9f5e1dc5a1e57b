"""Replaying a move log with takebacks (games against the bot): what a takeback undoes."""

from __future__ import annotations

import games
from sessions.model import TAKEBACK
from sessions.move_log import replay

IAGO = games.find("iago")
OPTIONS = {"variant": "standard"}


def test_a_takeback_undoes_the_members_last_move_and_the_reply_after_it() -> None:
    # The member plays Dark (side 0), the bot Light.
    state = replay(IAGO, OPTIONS, ["D4", "D6", "F4", "F6", TAKEBACK], member_side=0)
    assert state.moves == ["D4", "D6"] and state.to_act == 0


def test_takebacks_in_a_row_go_back_one_member_move_each_and_stop_at_the_start() -> None:
    log = ["D4", "D6", "F4", "F6", TAKEBACK, TAKEBACK]
    assert replay(IAGO, OPTIONS, log, member_side=0).moves == []
    assert replay(IAGO, OPTIONS, [*log, TAKEBACK], member_side=0).moves == []


def test_a_takeback_while_the_bot_has_not_replied_undoes_the_members_move_only() -> None:
    assert replay(IAGO, OPTIONS, ["D4", "D6", "F4", TAKEBACK], member_side=0).moves == ["D4", "D6"]
