"""Bounded per-game memory: locks that exist only while used, and a least-recently-used state cache.

A bot runs for months over thousands of games; nothing kept per game may grow with the number of games played.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class KeyedLocks(Generic[K]):
    """One asyncio lock per key, created on first use and dropped when nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def __call__(self, key: K) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class LruCache(Generic[K, V]):
    """At most ``capacity`` entries; the least recently used goes first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def pop(self, key: K) -> None:
        self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)
