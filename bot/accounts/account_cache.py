"""Linked accounts kept in this process's memory, so that a command does not read and decrypt
its person's token from the database every time (about 3 ms on SQLite, most of a command's own
work in a burst, where every lookup also queues for a database connection).

Entries are keyed by Discord user id and hold the decrypted :class:`LinkedAccount`, or that the
person linked none (:class:`AccountCache`); or by guild id and hold the server's account, or
that it has none (:class:`ServerAccountCache`, with versions of its own in Redis). They live in
memory only: nothing is written anywhere or logged, and the token stays a ``SecretStr``.

When an entry stops being served:

* this process's own changes (link, refresh, status, unlink) drop it as soon as they commit;
* with Redis, every change also bumps the person's version (``INCR``), and every lookup reads
  it (one ``GET``, far cheaper than a database read and a decryption): an entry is served only
  at the version it was filled at, so another process's change is seen at the next lookup. A
  lookup reads the version *before* the database, a writer bumps it *after* committing, so an
  entry is never labelled newer than its contents;
* after ``ttl`` seconds in any case: without Redis, the bound on how long another process's
  change to the shared database can go unseen (with Redis, a safety net);
* when Magisterium refuses the token (401): :meth:`AccountCache.forget`.

If Redis cannot be reached, lookups read the database (nothing is served unchecked), and a
bump that failed leaves other processes at most ``ttl`` behind.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from redis.asyncio import Redis
from redis.exceptions import RedisError

if TYPE_CHECKING:  # named in the subclasses' quoted bases (both modules import this one)
    from bot.accounts.registry import LinkedAccount  # noqa: F401
    from bot.accounts.server_registry import ServerAccount  # noqa: F401

log = logging.getLogger(__name__)

DEFAULT_PREFIX = "magisterium-bot:accounts:version"
# Servers' accounts: versions per guild id, apart from people's (ids never share a key).
SERVER_PREFIX = "magisterium-bot:server-accounts:version"
# Entries kept at most; the least recently used go first.
MAX_ENTRIES = 10_000
# A version key outlives every entry filled at it by far, so a version never comes back.
VERSION_TTL_SECONDS = 24 * 3600
# A Redis that does not answer within this long is taken as unreachable: the database is read.
REDIS_TIMEOUT_SECONDS = 2.0
_UNVERSIONED = b""


class RedisVersions:
    """Per-person (or per-server) version numbers in Redis, shared by every bot process.
    ``what`` names them in the log."""

    def __init__(
        self, redis: Redis, *, prefix: str = DEFAULT_PREFIX, what: str = "linked-account"
    ) -> None:
        self._redis = redis
        self._prefix = prefix
        self._what = what
        self._owns_client = False
        self._failing = False

    @classmethod
    def for_servers(cls, redis: Redis) -> RedisVersions:
        return cls(redis, prefix=SERVER_PREFIX, what="server-account")

    @classmethod
    def from_url(cls, url: str, *, prefix: str = DEFAULT_PREFIX) -> RedisVersions:
        redis = Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
        )
        versions = cls(redis, prefix=prefix)
        versions._owns_client = True
        return versions

    async def current(self, user_id: int) -> bytes | None:
        """The person's version (empty when never bumped), or None when Redis is unreachable."""
        try:
            value = await self._redis.get(self._key(user_id))
        except (RedisError, OSError) as error:
            self._failed("read", error)
            return None
        self._failing = False
        if value is None:
            return _UNVERSIONED
        return value if isinstance(value, bytes) else str(value).encode()

    async def bump(self, user_id: int) -> None:
        key = self._key(user_id)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.incr(key)
                pipe.expire(key, VERSION_TTL_SECONDS)
                await pipe.execute()
        except (RedisError, OSError) as error:
            self._failed("bump", error)

    async def close(self) -> None:
        if self._owns_client:
            await self._redis.aclose()

    def _key(self, user_id: int) -> str:
        return f"{self._prefix}:{user_id}"

    def _failed(self, what: str, error: BaseException) -> None:
        if not self._failing:
            log.warning(
                "%s versions: could not %s in Redis (%s); reading the database",
                self._what,
                what,
                type(error).__name__,
            )
        self._failing = True


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Entry(Generic[T]):
    account: T | None
    version: bytes
    expires: float


class VersionedCache(Generic[T]):
    """Accounts by id (a user's, a guild's); see the module's docstring for when they change."""

    def __init__(
        self,
        *,
        ttl: float,
        versions: RedisVersions | None = None,
        max_entries: int = MAX_ENTRIES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if ttl <= 0:
            raise ValueError("ttl must be positive (leave the cache out to read every time)")
        self._ttl = ttl
        self._versions = versions
        self._max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[int, _Entry[T]] = OrderedDict()
        # For the people whose account is being read: how many reads, and how many changes this
        # process made meanwhile (a read that a change overlapped may be older: it is not kept).
        self._reads: dict[int, int] = {}
        self._changes: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(entries={len(self._entries)}, ttl={self._ttl:g})"

    async def lookup(self, user_id: int, read: Callable[[], Awaitable[T | None]]) -> T | None:
        """The person's account from memory when still current, else ``read()`` (and kept)."""
        version = await self._current(user_id)
        if version is None:
            return await read()
        entry = self._entries.get(user_id)
        now = self._clock()
        if entry is not None and entry.version == version and entry.expires > now:
            self._entries.move_to_end(user_id)
            return entry.account
        changes = self._changes.get(user_id, 0)
        self._reads[user_id] = self._reads.get(user_id, 0) + 1
        try:
            account = await read()
            if self._changes.get(user_id, 0) == changes:
                self._keep(user_id, _Entry(account, version, self._clock() + self._ttl))
        finally:
            self._reads[user_id] -= 1
            if not self._reads[user_id]:
                del self._reads[user_id]
                self._changes.pop(user_id, None)
        return account

    def forget(self, user_id: int) -> None:
        """Drop the person's entry (their token was refused): the next lookup reads it again."""
        self._entries.pop(user_id, None)
        if user_id in self._reads:
            self._changes[user_id] = self._changes.get(user_id, 0) + 1

    async def changed(self, user_id: int) -> None:
        """The person's account changed (committed): here at once, elsewhere through Redis."""
        self.forget(user_id)
        if self._versions is not None:
            await self._versions.bump(user_id)

    async def close(self) -> None:
        self._entries.clear()
        if self._versions is not None:
            await self._versions.close()

    def _keep(self, user_id: int, entry: _Entry[T]) -> None:
        self._entries[user_id] = entry
        self._entries.move_to_end(user_id)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    async def _current(self, user_id: int) -> bytes | None:
        if self._versions is None:
            return _UNVERSIONED
        return await self._versions.current(user_id)


class AccountCache(VersionedCache["LinkedAccount"]):
    """People's linked accounts, by Discord user id."""


class ServerAccountCache(VersionedCache["ServerAccount"]):
    """Servers' own accounts, by guild id (give it ``RedisVersions.for_servers``)."""
