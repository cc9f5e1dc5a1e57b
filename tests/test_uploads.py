"""A message with a file goes out in one write, with the bytes aiohttp would have written piece by piece
(cogs/plumbing/uploads.py)."""

from __future__ import annotations

import io
import json

import aiohttp
import pytest

from cogs.plumbing import uploads


class Recorder:
    """The request's writer, as far as a body uses it: what was written, write by write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    async def write(self, chunk: bytes) -> None:
        self.writes.append(bytes(chunk))


def board_message() -> aiohttp.MultipartWriter:
    """A board's message as discord.py builds it: its JSON, then its image."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "Move 12", "attachments": [{"id": 0}]}))
    form.add_field("files[0]", io.BytesIO(bytes(range(256)) * 300), filename="board.png", content_type="image/png")
    return form()


async def test_a_board_goes_out_in_one_write_with_the_same_bytes() -> None:
    body = board_message()
    piece_by_piece, in_one = Recorder(), Recorder()
    await aiohttp.MultipartWriter.write.__wrapped__(body, piece_by_piece)  # type: ignore[attr-defined]
    await uploads.written_in_one_piece(aiohttp.MultipartWriter.write.__wrapped__)(body, in_one)  # type: ignore[attr-defined]
    assert len(piece_by_piece.writes) > 5  # what aiohttp does: a boundary, headers, bytes, line end per part
    assert in_one.writes == [b"".join(piece_by_piece.writes)]


class NeedsTheWriter(aiohttp.payload.BytesPayload):
    """A part that asks its writer for more than ``write`` (none of aiohttp's own does)."""

    async def write(self, writer: aiohttp.abc.AbstractStreamWriter) -> None:
        await writer.drain()
        writer.enable_chunking()
        await writer.write(self._value)


class ChunkingRecorder(Recorder):
    def enable_chunking(self) -> None:
        self.chunked = True

    async def drain(self) -> None:
        pass


async def test_a_part_that_needs_the_real_writer_is_written_piece_by_piece() -> None:
    body = aiohttp.MultipartWriter("form-data")
    body.append_payload(NeedsTheWriter(b"x" * 100))
    recorder = ChunkingRecorder()
    await uploads.written_in_one_piece(aiohttp.MultipartWriter.write.__wrapped__)(body, recorder)  # type: ignore[attr-defined]
    assert recorder.chunked and len(recorder.writes) > 1 and b"x" * 100 in recorder.writes


@pytest.fixture(autouse=True)
def installed() -> None:
    uploads.install()
    uploads.install()  # once only: a second call does not wrap the wrapper


def test_installing_twice_wraps_once() -> None:
    wrapped = aiohttp.MultipartWriter.write
    assert getattr(wrapped, "__wrapped__", None) is not None
    assert not hasattr(wrapped.__wrapped__, "__written_in_one_piece__")  # type: ignore[attr-defined]
