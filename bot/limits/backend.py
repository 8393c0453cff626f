"""Where the pools are counted: in this process (`LocalBackend`) or in Redis (`RedisBackend`).

A backend only counts. Fair queueing, in-flight caps and waiting stay in each process. Every
call takes `now` from the caller's clock (so fake time reaches the counting too) and answers
with the token's state after the call, which the limiter caches for its forecasts.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Protocol

from bot.limits.window import Pools, PoolState, free_at


@dataclass(frozen=True)
class Verdict:
    granted: bool
    state: PoolState


class Backend(Protocol):
    async def acquire(
        self, key: str, pools: Pools, *, expensive: bool, now: float, ticket: str
    ) -> Verdict:
        """Atomically: unless paused or a charged pool is full, stamp `ticket` at `now`."""
        ...

    async def refund(self, key: str, ticket: str) -> None:
        """Forget an admission whose request was never sent."""
        ...

    async def pause(self, key: str, until: float, *, now: float) -> None:
        """Admit nothing for this token before `until` (an upstream retryAfter)."""
        ...

    async def snapshot(self, key: str, pools: Pools, *, now: float) -> PoolState: ...

    async def close(self) -> None: ...


# Tokens not seen for a while are forgotten every this many admissions.
_SWEEP_EVERY = 1024


class LocalBackend:
    """Pools counted in this process: correct when one bot process serves every token."""

    def __init__(self) -> None:
        # token key -> pool -> [(stamp, ticket)] in stamp order
        self._logs: defaultdict[str, dict[str, list[tuple[float, str]]]] = defaultdict(dict)
        self._pauses: dict[str, float] = {}
        self._acquisitions = 0

    async def acquire(
        self, key: str, pools: Pools, *, expensive: bool, now: float, ticket: str
    ) -> Verdict:
        self._acquisitions += 1
        if self._acquisitions % _SWEEP_EVERY == 0:
            for other in {*self._logs, *self._pauses}:
                self._prune(other, pools, now)
        state = self._prune(key, pools, now)
        open_ = state.pause_until <= now and all(
            free_at(state.logs[quota.pool], quota.limit, pools.window, now) <= now
            for quota in pools.charged(expensive)
        )
        if open_:
            for quota in pools.charged(expensive):
                self._logs[key].setdefault(quota.pool, []).append((now, ticket))
            state = self._state(key, pools)
        return Verdict(open_, state)

    async def refund(self, key: str, ticket: str) -> None:
        for pool, entries in self._logs.get(key, {}).items():
            self._logs[key][pool] = [entry for entry in entries if entry[1] != ticket]

    async def pause(self, key: str, until: float, *, now: float) -> None:
        self._pauses[key] = max(self._pauses.get(key, until), until)

    async def snapshot(self, key: str, pools: Pools, *, now: float) -> PoolState:
        return self._prune(key, pools, now)

    async def close(self) -> None:
        self._logs.clear()
        self._pauses.clear()

    def _prune(self, key: str, pools: Pools, now: float) -> PoolState:
        logs = self._logs.get(key, {})
        for pool, entries in list(logs.items()):
            live = [entry for entry in entries if entry[0] + pools.window > now]
            if live:
                logs[pool] = live
            else:
                del logs[pool]
        if not logs:
            self._logs.pop(key, None)
        if self._pauses.get(key, now) <= now:
            self._pauses.pop(key, None)
        return self._state(key, pools)

    def _state(self, key: str, pools: Pools) -> PoolState:
        logs = self._logs.get(key, {})
        stamps = {q.pool: sorted(stamp for stamp, _ in logs.get(q.pool, ())) for q in pools.all}
        return PoolState(self._pauses.get(key, float("-inf")), stamps)
