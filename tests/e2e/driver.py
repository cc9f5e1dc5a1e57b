"""Drive whole games through the fake Discord server the way members do."""

from __future__ import annotations

import random
from typing import Any

import engines
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeInteraction, StoredMessage

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def challenge_and_accept(
    fake: FakeDiscord, game: str, options: dict[str, Any] | None = None
) -> tuple[int, StoredMessage]:
    """alice challenges bob (alice takes side 0), bob accepts; returns the game id and the first board."""
    challenge = await fake.slash(
        fake.alice, game, "challenge", options={"opponent": fake.bob.id, "side": 0, **(options or {})}
    )
    message = await challenge.final()
    assert not message.ephemeral and fake.bob.mention in message.content
    accept_id = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
    game_id = int(accept_id.rsplit(":", 1)[1])
    accepted = await fake.click(fake.bob, message, accept_id)
    board = await accepted.final()  # the challenge message itself becomes the first board, in one request
    assert board.id == message.id and board.attachment().data.startswith(PNG_SIGNATURE)
    assert "accepted" in board.content
    # The challenge's buttons are gone once answered; the board carries the first move's components instead.
    assert not any(cid.startswith("challenge:") for cid in fake.messages[message.id].custom_ids())
    return game_id, board


async def challenge_and_accept_in_thread(
    fake: FakeDiscord, game: str, options: dict[str, Any] | None = None
) -> tuple[int, StoredMessage, FakeChannel, StoredMessage]:
    """As :func:`challenge_and_accept` with a thread per game: returns the game id, the challenge message (now
    the game's header), its thread and the first board, posted in the thread."""
    challenge = await fake.slash(
        fake.alice, game, "challenge", options={"opponent": fake.bob.id, "side": 0, **(options or {})}
    )
    message = await challenge.final()
    accept_id = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
    game_id = int(accept_id.rsplit(":", 1)[1])
    header = await (await fake.click(fake.bob, message, accept_id)).final()
    assert header.id == message.id and not header.attachments and header.custom_ids() == []
    thread = next(t for t in fake.threads() if t.id == message.thread_id)
    board = await fake.wait_for_message(thread, lambda m: m.attachments)
    assert board.attachment().data.startswith(PNG_SIGNATURE) and "accepted" in board.content
    return game_id, header, thread, board


async def public_reply(interaction: FakeInteraction) -> StoredMessage:
    message = await interaction.final()
    assert not message.ephemeral, message.content
    return message


async def private_reply(interaction: FakeInteraction) -> StoredMessage:
    message = await interaction.final()
    assert message.ephemeral, f"expected a private answer, got {message.content!r}"
    return message


class Mirror:
    """The test's own copy of the game, kept in step through the engine contract, to choose moves."""

    def __init__(self, game: str, options: dict[str, Any], seed: int) -> None:
        self.state = engines.get(game).new_game(**options)
        self.rng = random.Random(seed)

    def sync(self, moves: list[str]) -> None:
        for move in moves[len(self.state.moves) :]:
            self.state.play(move)

    def choose(self) -> str:
        return self.rng.choice(self.state.legal_moves())
