"""One token's waiting room: its fair queue, its in-flight count and the task admitting from it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import uuid
from collections.abc import Callable, Hashable

from bot.limits.backend import Backend
from bot.limits.config import LimiterClosed
from bot.limits.fair_queue import FairQueue, Grant, Waiter
from bot.limits.forecast import forecast
from bot.limits.loop_time import LoopClock
from bot.limits.window import Later, Pools, PoolState, choose, free_times

log = logging.getLogger(__name__)

# Wake a little after a slot frees so that rounding never finds it still taken.
WAKE_SLACK = 0.001
# After the backend refused what our cached state allowed (another process was first).
DENIED_BACKOFF = 0.01


class InFlightCap:
    """The process-wide cap on requests in flight; wakes the lanes it held back."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._held: list[Callable[[], None]] = []

    def try_take(self, wake: Callable[[], None]) -> bool:
        if self.count >= self.limit:
            self._held.append(wake)
            return False
        self.count += 1
        return True

    def give(self) -> None:
        self.count -= 1
        held, self._held = self._held, []
        for wake in held:
            wake()


class Lane:
    def __init__(
        self,
        key: str,
        *,
        pools: Pools,
        backend: Backend,
        clock: LoopClock,
        in_flight_cap: InFlightCap,
        max_in_flight: int,
    ) -> None:
        self.key = key
        self.state = PoolState()
        self.queue = FairQueue()
        self.in_flight = 0
        self._pools = pools
        self._backend = backend
        self._clock = clock
        self._in_flight_cap = in_flight_cap
        self._max_in_flight = max_in_flight
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- the waiting side -------------------------------------------------------------------

    async def refresh(self) -> None:
        self.state = await self._backend.snapshot(self.key, self._pools, now=self._clock.now())

    def enqueue(self, user: Hashable, expensive: bool) -> Waiter:
        waiter = Waiter(user, expensive, self._clock.loop.time())
        self.queue.push(waiter)
        return waiter

    def eta(self, waiter: Waiter) -> float:
        """Expected wait of `waiter`, the last request its user queued."""
        return forecast(self.state, self._pools, self.queue.plan(), waiter.user, self._clock.now())

    def expected_wait(self, user: Hashable, expensive: bool) -> float:
        plan = self.queue.plan(extra=(user, expensive))
        return forecast(self.state, self._pools, plan, user, self._clock.now())

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"limiter-lane-{self.key}")
        self.wake()

    def withdraw(self, waiter: Waiter) -> None:
        if self.queue.remove(waiter):
            self.wake()

    async def abandon(self, waiter: Waiter) -> None:
        """The waiting task ended before using its admission (cancelled, or the lane failed)."""
        if self.queue.remove(waiter):
            self.wake()
            return
        fut = waiter.future
        if fut.done() and not fut.cancelled() and fut.exception() is None:
            # Granted just as the caller gave up: the request was never sent.
            self.release()
            await self._forget(fut.result().ticket)

    async def refund(self, ticket: str) -> None:
        """Forget an admission whose request was never sent, and let the next one try."""
        await self._forget(ticket)
        self.wake()

    def release(self) -> None:
        self.in_flight -= 1
        self._in_flight_cap.give()
        self.wake()

    def note_pause(self, until: float) -> None:
        self.state = self.state.paused(until)
        self.wake()

    def wake(self) -> None:
        self._wake.set()

    def idle(self) -> bool:
        busy = self.queue or self.in_flight or self._task is not None
        return not busy and self.state.idle(self._pools.window, self._clock.now())

    async def close(self) -> None:
        for waiter in self.queue.drain():
            if not waiter.future.done():
                waiter.future.set_exception(LimiterClosed("the rate limiter was closed"))
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task])

    # -- the admitting side -----------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while self.queue:
                self._wake.clear()
                until = await self._step()
                if until is not None:
                    await self._sleep(until)
        except Exception as exc:
            log.exception("rate limiter backend failed for token %s", self.key)
            for waiter in self.queue.drain():
                if not waiter.future.done():
                    waiter.future.set_exception(exc)
        finally:
            self._task = None

    async def _step(self) -> float | None:
        """Admit one request if one may go now; else when to look again (inf: when woken)."""
        if self.in_flight >= self._max_in_flight or not self._in_flight_cap.try_take(self.wake):
            return math.inf
        self.in_flight += 1  # hold both in-flight slots while the backend decides
        admitted = False
        try:
            admitted, until = await self._admit_head()
            return until
        finally:
            if not admitted:
                self.in_flight -= 1
                self._in_flight_cap.give()

    async def _admit_head(self) -> tuple[bool, float | None]:
        now = self._clock.now()
        heads = self._live_heads()
        if not heads:
            return False, None
        basic_free, qa_free = free_times(self.state, self._pools, now)
        pick = choose(
            [waiter.expensive for waiter in heads],
            pause_until=self.state.pause_until,
            basic_free=basic_free,
            qa_free=qa_free,
            now=now,
        )
        if isinstance(pick, Later):
            return False, pick.until + WAKE_SLACK
        waiter = heads[pick]
        ticket = uuid.uuid4().hex
        verdict = await self._backend.acquire(
            self.key, self._pools, expensive=waiter.expensive, now=now, ticket=ticket
        )
        self.state = verdict.state
        if not verdict.granted:
            return False, now + DENIED_BACKOFF
        if waiter.future.done():  # it gave up while the backend decided
            self.queue.remove(waiter)
            await self._forget(ticket)
            return False, None
        self.queue.served(waiter)
        admitted_at = self._clock.to_loop(now)
        waiter.future.set_result(Grant(ticket, admitted_at))
        return True, None

    def _live_heads(self) -> list[Waiter]:
        """The heads, dropping requests that gave up but have not run their cleanup yet."""
        while True:
            heads = self.queue.heads()
            gone = [waiter for waiter in heads if waiter.future.done()]
            if not gone:
                return heads
            for waiter in gone:
                self.queue.remove(waiter)

    async def _forget(self, ticket: str) -> None:
        await self._backend.refund(self.key, ticket)
        await self.refresh()

    async def _sleep(self, until: float) -> None:
        if math.isinf(until):
            await self._wake.wait()
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(self._clock.to_loop(until)):
                await self._wake.wait()
