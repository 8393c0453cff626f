"""Two stores behind one small interface: in-process (TTL + size bound) and Redis."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from redis.asyncio import Redis


class Cache(Protocol):
    async def get(self, key: str) -> str | None: ...

    async def set(self, key: str, value: str, *, ttl: float) -> None: ...

    async def close(self) -> None: ...


class LocalCache:
    """Least-recently-used entries go first once ``max_entries`` is reached."""

    def __init__(self, max_entries: int = 1024, *, clock: Callable[[], float] = time.monotonic):
        self._entries: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._max_entries = max_entries
        self._clock = clock

    def __len__(self) -> int:
        return len(self._entries)

    async def get(self, key: str) -> str | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        expires, value = entry
        if expires <= self._clock():
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    async def set(self, key: str, value: str, *, ttl: float) -> None:
        self._entries[key] = (self._clock() + ttl, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    async def close(self) -> None:
        self._entries.clear()


class RedisCache:
    """Shared by every bot process; Redis expires entries itself."""

    def __init__(self, redis: Redis, *, prefix: str = "magisterium-bot:cache") -> None:
        self._redis = redis
        self._prefix = prefix

    @classmethod
    def from_url(cls, url: str, *, prefix: str = "magisterium-bot:cache") -> RedisCache:
        return cls(Redis.from_url(url), prefix=prefix)

    async def get(self, key: str) -> str | None:
        value = await self._redis.get(f"{self._prefix}:{key}")
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

    async def set(self, key: str, value: str, *, ttl: float) -> None:
        await self._redis.set(f"{self._prefix}:{key}", value, px=max(1, int(ttl * 1000)))

    async def close(self) -> None:
        await self._redis.aclose()
