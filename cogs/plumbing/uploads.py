"""A message with a file (every board) goes to Discord in one write instead of nine.

aiohttp writes a multipart body piece by piece: for each part a boundary, its headers, its bytes and a line end,
then the closing boundary; every piece is a ``send`` on the socket (a TLS record on the way to Discord, a wake-up
of the reader on the other end). A board's reply has two parts (its JSON and its image), so nine system calls,
which were most of the bot's socket writes at the ceiling of ``bench/load.py`` (docs/performance.md). The body
is at most a few hundred kilobytes (a board is 30-70 KB; Discord takes no more than 25 MB anyway): written to
memory first, it goes out in one write, with the same bytes.

:func:`install` wraps :meth:`aiohttp.MultipartWriter.write` once per process (``bot.py``); a body part that
needs more of its writer than ``write`` (none of aiohttp's own payloads does) is written piece by piece, as before.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp.abc import AbstractStreamWriter

Write = Callable[[aiohttp.MultipartWriter, Any, bool], Awaitable[None]]
_INSTALLED = "__written_in_one_piece__"


class Collected(AbstractStreamWriter):
    """A writer that keeps what is written to it, for one write of the whole."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []

    async def write(self, chunk: bytes | bytearray | memoryview) -> None:
        self.pieces.append(bytes(chunk))

    async def drain(self) -> None:
        """Nothing to wait for: the pieces are in memory."""

    async def write_eof(self, chunk: bytes = b"") -> None:
        raise NotImplementedError("a body part does not end the request")

    def enable_compression(self, encoding: str = "deflate", strategy: int | None = None) -> None:
        raise NotImplementedError("a body part does not compress the request")

    def enable_chunking(self) -> None:
        raise NotImplementedError("a body part does not chunk the request")

    async def write_headers(self, status_line: str, headers: Any) -> None:
        raise NotImplementedError("a body part writes no request headers")


def written_in_one_piece(write: Write) -> Write:
    @functools.wraps(write)
    async def write_once(self: aiohttp.MultipartWriter, writer: Any, close_boundary: bool = True) -> None:
        collected = Collected()
        try:
            await write(self, collected, close_boundary)
        except NotImplementedError:  # a part that needs the real writer: piece by piece, as aiohttp does
            await write(self, writer, close_boundary)
            return
        await writer.write(b"".join(collected.pieces))

    setattr(write_once, _INSTALLED, True)
    return write_once


def install() -> None:
    """Multipart bodies are written in one piece from now on, in this process (idempotent)."""
    if not getattr(aiohttp.MultipartWriter.write, _INSTALLED, False):
        aiohttp.MultipartWriter.write = written_in_one_piece(aiohttp.MultipartWriter.write)  # type: ignore[method-assign]
