"""Pools counted in Redis so that several bot processes share one token's buckets.

Each pool is a sliding-window log in a sorted set (score = admission time, member = ticket);
a Lua script prunes, checks and stamps atomically. Times come from the callers' clocks (wall
time plus loop time), so processes on different hosts need clocks in sync to well within the
limiter's safety margin. Keys carry a TTL and share a hash tag per token (Redis Cluster).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis

from bot.limits.backend import Verdict
from bot.limits.window import BASIC, QA, Pools, PoolState

# KEYS: pause, pool_1..pool_n. ARGV: now, window, ticket, ttl_ms, then limit_i, charge_i per pool.
# Expiry uses `score + window <= now`, the same float arithmetic as bot.limits.window.
_ACQUIRE = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local pause = redis.call('GET', KEYS[1])
local open = (not pause) or tonumber(pause) <= now
for i = 2, #KEYS do
  local entries = redis.call('ZRANGE', KEYS[i], 0, -1, 'WITHSCORES')
  local expired = 0
  for j = 2, #entries, 2 do
    if tonumber(entries[j]) + window <= now then expired = expired + 1 else break end
  end
  if expired > 0 then redis.call('ZREMRANGEBYRANK', KEYS[i], 0, expired - 1) end
  local p = i - 1
  if ARGV[4 + 2 * p] == '1' and redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + 2 * p]) then
    open = false
  end
end
if open then
  for i = 2, #KEYS do
    if ARGV[4 + 2 * (i - 1)] == '1' then
      redis.call('ZADD', KEYS[i], ARGV[1], ARGV[3])
      redis.call('PEXPIRE', KEYS[i], ARGV[4])
    end
  end
end
local reply = {open and 1 or 0, pause or ''}
for i = 2, #KEYS do
  local scores = {}
  local entries = redis.call('ZRANGE', KEYS[i], 0, -1, 'WITHSCORES')
  for j = 2, #entries, 2 do scores[#scores + 1] = entries[j] end
  reply[#reply + 1] = scores
end
return reply
"""

# KEYS: pause. ARGV: until, ttl_ms. Only ever lengthens a pause.
_PAUSE = """
local current = redis.call('GET', KEYS[1])
if (not current) or tonumber(current) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 0
"""


class RedisBackend:
    """Shared pools in Redis. The client is the caller's to close unless made by `from_url`."""

    def __init__(self, redis: Redis, *, prefix: str = "magisterium-bot:limits") -> None:
        self._redis = redis
        self._prefix = prefix
        self._owns_client = False
        self._acquire = redis.register_script(_ACQUIRE)
        self._pause = redis.register_script(_PAUSE)

    @classmethod
    def from_url(cls, url: str, *, prefix: str = "magisterium-bot:limits") -> RedisBackend:
        backend = cls(Redis.from_url(url), prefix=prefix)
        backend._owns_client = True
        return backend

    async def acquire(
        self, key: str, pools: Pools, *, expensive: bool, now: float, ticket: str
    ) -> Verdict:
        charged = {quota.pool for quota in pools.charged(expensive)}
        per_pool = [
            str(value) for quota in pools.all for value in (quota.limit, int(quota.pool in charged))
        ]
        return await self._run(key, pools, now, ticket, per_pool)

    async def snapshot(self, key: str, pools: Pools, *, now: float) -> PoolState:
        per_pool = [str(value) for quota in pools.all for value in (quota.limit, 0)]
        return (await self._run(key, pools, now, "", per_pool)).state

    async def refund(self, key: str, ticket: str) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            for pool_key in self._pool_keys(key, (BASIC, QA)):
                pipe.zrem(pool_key, ticket)
            await pipe.execute()

    async def pause(self, key: str, until: float, *, now: float) -> None:
        ttl_ms = math.ceil((until - now + 1) * 1000)
        await self._pause(keys=[self._key(key, "pause")], args=[repr(until), str(ttl_ms)])

    async def close(self) -> None:
        if self._owns_client:
            await self._redis.aclose()

    async def _run(
        self, key: str, pools: Pools, now: float, ticket: str, per_pool: list[str]
    ) -> Verdict:
        names = [quota.pool for quota in pools.all]
        ttl_ms = math.ceil((pools.window + 1) * 1000)
        reply = await self._acquire(
            keys=[self._key(key, "pause"), *self._pool_keys(key, names)],
            args=[repr(now), repr(pools.window), ticket, str(ttl_ms), *per_pool],
        )
        return _verdict(reply, names)

    def _key(self, key: str, part: str) -> str:
        return f"{self._prefix}:{{{key}}}:{part}"

    def _pool_keys(self, key: str, names: Sequence[str]) -> list[str]:
        return [self._key(key, name) for name in names]


def _verdict(reply: Any, names: Sequence[str]) -> Verdict:
    granted, pause, *logs = reply
    pause_until = float(pause) if pause else float("-inf")
    stamps = {
        name: sorted(float(score) for score in scores)
        for name, scores in zip(names, logs, strict=True)
    }
    return Verdict(bool(granted), PoolState(pause_until, stamps))
