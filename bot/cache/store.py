"""Two stores behind one small interface: in-process (TTL + size bound) and Redis.

Each store also has fill locks: a short claim on a key, so that one caller among every
process sharing the store fetches a missing entry while the others wait for it. A claim
carries a random token; only its holder can extend or release it, and it lapses on its own
after its TTL, so a holder that dies frees the key soon.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from redis.asyncio import Redis

DEFAULT_PREFIX = "magisterium-bot:cache"


class Cache(Protocol):
    async def get(self, key: str) -> str | None: ...

    async def set(self, key: str, value: str, *, ttl: float) -> None: ...

    async def claim(self, key: str, *, ttl: float) -> str | None:
        """Take ``key``'s fill lock for ``ttl`` seconds: its token, or None if it is held."""
        ...

    async def extend(self, key: str, token: str, *, ttl: float) -> bool:
        """Hold the lock ``ttl`` seconds more; False if ``token`` no longer holds it."""
        ...

    async def release(self, key: str, token: str) -> None:
        """Free the lock if ``token`` still holds it (never another holder's)."""
        ...

    async def close(self) -> None: ...


def new_claim_token() -> str:
    return secrets.token_hex(16)


class LocalCache:
    """Least-recently-used entries go first once ``max_entries`` is reached. Its locks serve
    one process, where they are uncontended: the public cache's flights come first."""

    def __init__(self, max_entries: int = 1024, *, clock: Callable[[], float] = time.monotonic):
        self._entries: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._claims: dict[str, tuple[float, str]] = {}
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

    async def claim(self, key: str, *, ttl: float) -> str | None:
        if self._holder(key) is not None:
            return None
        token = new_claim_token()
        self._claims[key] = (self._clock() + ttl, token)
        return token

    async def extend(self, key: str, token: str, *, ttl: float) -> bool:
        if self._holder(key) != token:
            return False
        self._claims[key] = (self._clock() + ttl, token)
        return True

    async def release(self, key: str, token: str) -> None:
        if self._holder(key) == token:
            del self._claims[key]

    async def close(self) -> None:
        self._entries.clear()
        self._claims.clear()

    def _holder(self, key: str) -> str | None:
        claim = self._claims.get(key)
        if claim is None:
            return None
        expires, token = claim
        if expires <= self._clock():
            del self._claims[key]
            return None
        return token


# KEYS: lock. ARGV: token. Compare-and-delete, so a holder whose claim lapsed and was taken
# by another process cannot free the new holder's lock.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: lock. ARGV: token, ttl_ms.
_EXTEND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


class RedisCache:
    """Shared by every bot process; Redis expires entries and lapsed claims itself."""

    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_PREFIX) -> None:
        self._redis = redis
        self._prefix = prefix
        self._release = redis.register_script(_RELEASE)
        self._extend = redis.register_script(_EXTEND)

    @classmethod
    def from_url(cls, url: str, *, prefix: str = DEFAULT_PREFIX) -> RedisCache:
        return cls(Redis.from_url(url), prefix=prefix)

    async def get(self, key: str) -> str | None:
        value = await self._redis.get(self._entry_key(key))
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

    async def set(self, key: str, value: str, *, ttl: float) -> None:
        await self._redis.set(self._entry_key(key), value, px=_ms(ttl))

    async def claim(self, key: str, *, ttl: float) -> str | None:
        token = new_claim_token()
        taken = await self._redis.set(self.lock_key(key), token, nx=True, px=_ms(ttl))
        return token if taken else None

    async def extend(self, key: str, token: str, *, ttl: float) -> bool:
        return bool(await self._extend(keys=[self.lock_key(key)], args=[token, str(_ms(ttl))]))

    async def release(self, key: str, token: str) -> None:
        await self._release(keys=[self.lock_key(key)], args=[token])

    async def close(self) -> None:
        await self._redis.aclose()

    def lock_key(self, key: str) -> str:
        """The Redis key of ``key``'s fill lock (entries never start with ``fill:``)."""
        return f"{self._prefix}:fill:{key}"

    def _entry_key(self, key: str) -> str:
        return f"{self._prefix}:{key}"


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))
