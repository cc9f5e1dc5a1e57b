"""Per-game memory stays bounded: locks live only while used, the state cache evicts."""

from __future__ import annotations

import asyncio

from sessions.memory import KeyedLocks, LruCache


async def test_a_key_lock_serialises_its_holders_and_is_dropped_after_use() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks(7):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(hold("a"), hold("b"))
    assert order == ["a in", "a out", "b in", "b out"]  # never interleaved
    assert len(locks) == 0


async def test_locks_of_thousands_of_games_leave_nothing_behind() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    for game_id in range(5000):
        async with locks(game_id):
            pass
    assert len(locks) == 0


def test_the_least_recently_used_state_goes_first() -> None:
    cache: LruCache[int, str] = LruCache(2)
    cache.put(1, "one")
    cache.put(2, "two")
    assert cache.get(1) == "one"  # 1 is now the most recent
    cache.put(3, "three")
    assert cache.get(2) is None and cache.get(1) == "one" and cache.get(3) == "three"
    assert len(cache) == 2
