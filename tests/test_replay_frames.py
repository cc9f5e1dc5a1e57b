"""Replay animations (issue 24): a frame per move in force, a die shown with the placement it was rolled for, and
footers that count moves as the boards' headers do, after a takeback too."""

from __future__ import annotations

import random
import re

import games
from engines import polygo
from render import iago as iago_render
from render import polygo as polygo_render
from sessions.boards import frames_of
from sessions.drawing import frame_labels
from sessions.model import TAKEBACK
from sessions.move_log import replay


def test_a_polygo_replay_has_one_frame_per_placement_with_its_roll() -> None:
    rng = random.Random(4)
    state = polygo.new_game(size=9)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    entry = games.find("polygo")
    frames = frames_of(entry, {"size": 9}, state.moves)
    chance = sum(move.split()[0] in entry.chance_words for move in state.moves)
    assert len(frames) == 1 + len(state.moves) - chance  # the start, then each placement or pass
    for frame in frames[1:]:
        assert frame.moves[-1].split()[0] not in entry.chance_words  # never a frame of a roll alone
    rolled = [frame for frame in frames[1:] if len(frame.moves) >= 2 and frame.moves[-2].startswith("roll")]
    assert rolled and all(frame.moves[-2].startswith("roll") for frame in rolled)
    assert frames[-1].moves == state.moves and frames[-1].is_over


def test_footers_count_moves_as_the_board_headers_do_after_a_takeback() -> None:
    entry = games.find("iago")
    options = {"variant": "standard"}
    rng = random.Random(9)
    log: list[str] = []
    for turn in range(30):
        state = replay(entry, options, log, member_side=0)
        if turn in (10, 11, 20, 21) and state.to_act == 0 and log[-1] != TAKEBACK:
            log.append(TAKEBACK)
            continue
        log.append(rng.choice(state.legal_moves()))
    final = replay(entry, options, log, member_side=0)
    assert log.count(TAKEBACK) == 2 and len(final.moves) < len(log)
    frames = frames_of(entry, options, final.moves)
    labels = frame_labels(frames)
    assert labels[-1] == f"{len(final.moves)}/{len(final.moves)}"  # not the log's length ("27/53" under "Move 25")
    for frame, label in zip(frames, labels, strict=True):
        shown = int(label.split("/")[0])
        header = re.search(r"(\d+)", iago_render.status(frame, "en"))
        assert header is not None and int(header[1]) == shown + 1  # "24/26" over "Move 25" to play
    assert polygo_render  # Polygo's header counts its rolls among the moves, as its footers do
