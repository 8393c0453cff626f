"""Filling a missing entry once for every process that shares the store.

The first process to miss takes the entry's fill lock (SET NX PX with a random token),
fetches, writes the entry and releases the lock (compare-and-delete). The others poll for the
entry meanwhile. The holder renews its lock while its call runs, so a slow call keeps it but a
dead holder's lapses within ``lock_ttl``: a waiter then takes the lock and fetches itself.
A waiter that has waited ``wait_limit`` fetches itself without the lock. A holder whose call
failed writes nothing and releases the lock, so the next waiter tries in turn: an error is
never cached and, across processes, not shared (an exception does not cross Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from bot.cache.store import Cache

log = logging.getLogger(__name__)

R = TypeVar("R")

# hit: the entry was there; miss: this caller fetched it; shared: another one did, and this
# caller read what it wrote.
Source = Literal["hit", "miss", "shared"]


@dataclass(frozen=True)
class FillTiming:
    # Short, because a dead holder keeps the others waiting this long; a live one renews it.
    lock_ttl: float = 10.0
    # Long enough for a basic skill's answer (a few seconds) with its limiter wait.
    wait_limit: float = 30.0
    first_poll: float = 0.025
    max_poll: float = 0.25

    def __post_init__(self) -> None:
        if self.lock_ttl <= 0 or self.wait_limit < 0 or not 0 < self.first_poll <= self.max_poll:
            raise ValueError("FillTiming needs lock_ttl > 0, wait_limit >= 0, 0 < polls ordered")


async def fill(
    store: Cache,
    key: str,
    *,
    read: Callable[[], Awaitable[R | None]],
    fetch: Callable[[], Awaitable[R]],
    timing: FillTiming,
) -> tuple[R, Source]:
    """The entry from ``read``, else from ``fetch`` (which writes it) under ``key``'s lock,
    else from waiting on whoever holds the lock."""
    value = await read()
    if value is not None:
        return value, "hit"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timing.wait_limit
    pause = timing.first_poll
    while True:
        token = await store.claim(key, ttl=timing.lock_ttl)
        if token is not None:
            async with _holding(store, key, token, timing.lock_ttl):
                # The previous holder may have written it between our read and our claim.
                value = await read()
                if value is not None:
                    return value, "shared"
                return await fetch(), "miss"
        remaining = deadline - loop.time()
        if remaining <= 0:
            log.info(
                "waited %.0fs for another process to fetch %s; fetching it here",
                timing.wait_limit,
                key,
            )
            return await fetch(), "miss"
        await asyncio.sleep(min(pause, remaining))
        pause = min(pause * 2, timing.max_poll)
        value = await read()
        if value is not None:
            return value, "shared"


@contextlib.asynccontextmanager
async def _holding(store: Cache, key: str, token: str, ttl: float) -> AsyncIterator[None]:
    keeper = asyncio.create_task(_keep(store, key, token, ttl), name=f"cache-claim:{key}")
    try:
        yield
    finally:
        keeper.cancel()
        try:
            await store.release(key, token)
        except Exception as error:
            # It lapses by itself within its TTL; the entry (if written) is already there.
            log.warning("could not release the fill lock of %s: %s", key, type(error).__name__)


async def _keep(store: Cache, key: str, token: str, ttl: float) -> None:
    """Renew the claim at a third of its TTL, so one late renewal still leaves it held."""
    try:
        while True:
            await asyncio.sleep(ttl / 3)
            if not await store.extend(key, token, ttl=ttl):
                log.warning("lost the fill lock of %s; another process may fetch it too", key)
                return
    except Exception as error:
        log.warning("could not renew the fill lock of %s: %s", key, type(error).__name__)
