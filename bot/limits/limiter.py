"""The limiter the cogs share: `admit` a call for a token, `pause` a token upstream refused."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable
from types import TracebackType

from bot.limits.backend import Backend, LocalBackend
from bot.limits.config import LimiterBusy, LimiterClosed, LimiterConfig
from bot.limits.fair_queue import Grant
from bot.limits.lane import InFlightCap, Lane
from bot.limits.loop_time import LoopClock
from bot.limits.window import UPSTREAM_WINDOW, Pools

log = logging.getLogger(__name__)

# Idle lanes are swept every this many admissions.
_SWEEP_EVERY = 256


class Limiter:
    """Magisterium's per-token pools, in-flight caps and round-robin fairness between users.

    Belongs to the event loop that first uses it. `token_key` identifies a token (never the
    token itself); `user_id` is whoever the request is for.
    """

    def __init__(
        self,
        config: LimiterConfig | None = None,
        *,
        backend: Backend | None = None,
        on_wait: Callable[[float], None] | None = None,
    ):
        """`on_wait(seconds)` is told how long each granted admission waited (for metrics)."""
        self.config = config or LimiterConfig()
        self._on_wait = on_wait
        self._backend: Backend = backend if backend is not None else LocalBackend()
        self._pools = Pools(
            self.config.per_minute,
            self.config.qa_per_minute,
            UPSTREAM_WINDOW + self.config.safety_margin,
        )
        self._in_flight_cap = InFlightCap(self.config.max_in_flight)
        self._lanes: dict[str, Lane] = {}
        self._clock: LoopClock | None = None
        self._closed = False
        self._admissions = 0

    def admit(
        self, token_key: str, user_id: Hashable, *, expensive: bool, budget: float
    ) -> Admission:
        """`async with limiter.admit(...)`: wait for a turn, or raise `LimiterBusy` at once when
        the expected wait exceeds `budget` seconds. Leaving the block frees the in-flight slot;
        the rate slot stays spent."""
        return Admission(self, token_key, user_id, expensive=expensive, budget=budget)

    async def pause(self, token_key: str, seconds: float) -> None:
        """Upstream answered retryAfter: admit nothing for this token for `seconds`."""
        if seconds <= 0:
            return
        lane = self._lane(token_key)
        now = self._clock_now()
        await self._backend.pause(token_key, now + seconds, now=now)
        lane.note_pause(now + seconds)
        log.info("token %s paused for %.1fs", token_key, seconds)

    async def refund(self, token_key: str, grant: Grant) -> None:
        """Give back the rate slot of an admission whose request never left this machine
        (no connection could be made): the upstream counted nothing."""
        lane = self._lanes.get(token_key)
        if lane is None:
            await self._backend.refund(token_key, grant.ticket)
            return
        await lane.refund(grant.ticket)

    async def pause_for_window(self, token_key: str) -> float:
        """Upstream refused this token with no wait given: pause it for a whole counting
        window (60 s plus the safety margin), the one wait after which every request the
        upstream counted has left its window. Shorter guesses (our own oldest stamp) would
        miss requests another client made on the same account. Returns the seconds paused."""
        seconds = self._pools.window
        await self.pause(token_key, seconds)
        return seconds

    def expected_wait(self, token_key: str, user_id: Hashable, expensive: bool) -> float:
        """Seconds a new request would wait now (with Redis: as of the last exchange with it)."""
        lane = self._lanes.get(token_key)
        return 0.0 if lane is None else lane.expected_wait(user_id, expensive)

    async def close(self) -> None:
        """Fail every waiter with `LimiterClosed`, stop the lanes and close the backend."""
        if self._closed:
            return
        self._closed = True
        lanes, self._lanes = list(self._lanes.values()), {}
        for lane in lanes:
            await lane.close()
        await self._backend.close()

    async def _lane_for_admission(self, token_key: str) -> Lane:
        if self._closed:
            raise LimiterClosed("the rate limiter is closed")
        self._admissions += 1
        if self._admissions % _SWEEP_EVERY == 0:
            self._sweep()
        lane = self._lane(token_key)
        await lane.refresh()
        return lane

    def _lane(self, token_key: str) -> Lane:
        lane = self._lanes.get(token_key)
        if lane is None:
            lane = self._lanes[token_key] = Lane(
                token_key,
                pools=self._pools,
                backend=self._backend,
                clock=self._loop_clock(),
                in_flight_cap=self._in_flight_cap,
                max_in_flight=self.config.max_in_flight_per_token,
            )
        return lane

    def _sweep(self) -> None:
        for key in [key for key, lane in self._lanes.items() if lane.idle()]:
            del self._lanes[key]

    def _loop_clock(self) -> LoopClock:
        if self._clock is None:
            self._clock = LoopClock(asyncio.get_running_loop())
        return self._clock

    def _clock_now(self) -> float:
        return self._loop_clock().now()

    def _waited(self, seconds: float) -> None:
        if self._on_wait is not None:
            self._on_wait(seconds)


class Admission:
    """The async context manager `Limiter.admit` returns; yields the `Grant`."""

    def __init__(
        self, limiter: Limiter, token_key: str, user_id: Hashable, *, expensive: bool, budget: float
    ) -> None:
        self._limiter = limiter
        self._key = token_key
        self._user = user_id
        self._expensive = expensive
        self._budget = budget
        self._lane: Lane | None = None

    async def __aenter__(self) -> Grant:
        started = self._limiter._clock_now()
        lane = await self._limiter._lane_for_admission(self._key)
        waiter = lane.enqueue(self._user, self._expensive)
        wait = lane.eta(waiter)
        if wait > self._budget:
            lane.withdraw(waiter)
            raise LimiterBusy(wait)
        lane.start()
        try:
            grant = await waiter.future
        except BaseException:
            await lane.abandon(waiter)
            raise
        self._lane = lane
        self._limiter._waited(self._limiter._clock_now() - started)
        return grant

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._lane is not None:
            self._lane.release()
            self._lane = None
