"""Benchmark: how the rate limiter fares against a sliding-window upstream, in virtual time.

Run by hand from the repository root (offline, a few seconds):

    .venv/bin/python bench/limiter.py [--minutes 120] [--cycles 5] [--seed 7]

One Magisterium token with R = 15 requests a minute. The upstream counts like the project's fake
server (``devtools.fake_magisterium.ratelimit.SlidingWindow``: at most R hits in any 60 s,
counted on arrival) and answers 429 beyond that; a request arrives 0.05-0.5 s after it is
admitted and is
answered 0.5-3 s later. Everything runs on looptime's fast-forwarded loop clock.

Two workloads, each run against every design:
  saturated  20 users keep a 3R backlog: one heavy user keeps 26 requests outstanding, 19
             light users ask one question at a time after 1-4 minutes of thought. Prints the
             achieved rate / R after a 2-minute warm-up (goal >= 0.95), upstream 429s (goal 0),
             the light users' worst wait and how many of the heavy user's requests were
             admitted between a light question's arrival and its admission (at most 1 = served
             within two slots), and the heavy user's worst wait.
  bursty     the same 3R backlog arrives at once every 4 minutes (after idle): 429s and the
             time to drain it (the upstream allows it in 120 s: R now, R at 60 s, R at 120 s).

Designs: aiolimiter alone (with a semaphore for the in-flight cap, FIFO), bursting or paced,
and ``bot.limits.Limiter`` (sliding-window log, round-robin) with and without its safety margin.
A request refused with 429 is not retried (the user gets an error); the Limiter designs pause
the token for the retryAfter, as the bot does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import looptime
from aiolimiter import AsyncLimiter

# Runnable as `python bench/<name>.py` from a checkout: devtools is not installed.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.limits import Limiter, LimiterConfig, LocalBackend  # noqa: E402
from devtools.fake_magisterium.ratelimit import SlidingWindow  # noqa: E402

R = 15
TOKEN = "bench-token"
HEAVY = "heavy"
LIGHT_USERS = 19
HEAVY_OUTSTANDING = 3 * R - LIGHT_USERS
LATENCY = (0.05, 0.5)
SERVICE = (0.5, 3.0)
IN_FLIGHT = 4
WARMUP = 120.0


class Design(Protocol):
    name: str

    def admit(self, user: str) -> contextlib.AbstractAsyncContextManager[Any]: ...

    async def on_429(self, retry_after: float) -> None: ...

    async def close(self) -> None: ...


class FakeClockAsyncLimiter(AsyncLimiter):
    """aiolimiter, made to terminate on a frozen fake clock.

    Its next wake-up (`_last_check + needed / rate`) can round to exactly `now` when `needed` is
    float noise; on a fake clock, which only moves while the loop idles, it then re-runs at the
    same instant forever. Rounding the level to 1e-9 makes every wake-up a real step forward.
    """

    def _leak(self) -> None:
        super()._leak()
        self._level = round(self._level, 9)


class AiolimiterOnly:
    def __init__(self, max_rate: float, period: float, note: str = "") -> None:
        self.name = f"aiolimiter AsyncLimiter({max_rate:g}, {period:g}){note}"
        self._limiter = FakeClockAsyncLimiter(max_rate, period)
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)

    @contextlib.asynccontextmanager
    async def admit(self, user: str) -> AsyncIterator[None]:
        async with self._in_flight, self._limiter:
            yield

    async def on_429(self, retry_after: float) -> None:
        return None  # aiolimiter has no way to pause

    async def close(self) -> None:
        return None


class SlidingLog:
    def __init__(self, margin: float, note: str = "") -> None:
        self.name = f"Limiter sliding log, margin {margin:g} s{note}"
        config = LimiterConfig(
            per_minute=R, max_in_flight_per_token=IN_FLIGHT, safety_margin=margin
        )
        self._limiter = Limiter(config, backend=LocalBackend())

    def admit(self, user: str) -> contextlib.AbstractAsyncContextManager[Any]:
        return self._limiter.admit(TOKEN, user, expensive=False, budget=float("inf"))

    async def on_429(self, retry_after: float) -> None:
        await self._limiter.pause(TOKEN, retry_after)

    async def close(self) -> None:
        await self._limiter.close()


DESIGNS: list[Callable[[], Design]] = [
    lambda: AiolimiterOnly(R, 60),
    lambda: AiolimiterOnly(1, 60 / R, " paced"),
    lambda: AiolimiterOnly(1, 60 / (0.95 * R), " paced at 0.95 R"),
    lambda: AiolimiterOnly(1, 61 / R, " paced, 1 s margin"),
    lambda: SlidingLog(0.0),
    lambda: SlidingLog(1.0, " (chosen)"),
]


@dataclass
class Run:
    design: Design
    rng: random.Random
    upstream: SlidingWindow
    accepted: list[float] = field(default_factory=list)
    rejected: int = 0
    # (user, arrived, admitted) per request, and every admission as (time, user)
    requests: list[tuple[str, float, float]] = field(default_factory=list)
    admissions: list[tuple[float, str]] = field(default_factory=list)

    async def request(self, user: str) -> None:
        loop = asyncio.get_running_loop()
        arrived = loop.time()
        retry_after = 0
        async with self.design.admit(user):
            admitted = loop.time()
            self.requests.append((user, arrived, admitted))
            self.admissions.append((admitted, user))
            await asyncio.sleep(self.rng.uniform(*LATENCY))
            retry_after = self.upstream.retry_after(TOKEN)
            if retry_after == 0:
                self.upstream.hit(TOKEN)
                self.accepted.append(loop.time())
                await asyncio.sleep(self.rng.uniform(*SERVICE))
        if retry_after:
            self.rejected += 1
            await self.design.on_429(retry_after)


async def saturated(run: Run, end: float) -> None:
    loop = asyncio.get_running_loop()

    async def heavy_worker() -> None:
        while loop.time() < end:
            await run.request(HEAVY)

    async def light_worker(user: str) -> None:
        while True:
            await asyncio.sleep(run.rng.uniform(60, 240))
            if loop.time() >= end:
                return
            await run.request(user)

    workers = [heavy_worker() for _ in range(HEAVY_OUTSTANDING)]
    workers += [light_worker(f"light-{i}") for i in range(LIGHT_USERS)]
    await _run_until(workers, end)


async def bursty(run: Run, cycles: int, period: float = 240.0) -> None:
    for cycle in range(cycles):
        users = [HEAVY] * HEAVY_OUTSTANDING + [f"light-{i}" for i in range(LIGHT_USERS)]
        await _run_until([run.request(user) for user in users], (cycle + 1) * period)


async def _run_until(coros: list[Coroutine[Any, Any, None]], end: float) -> None:
    tasks = [asyncio.create_task(coro) for coro in coros]
    await asyncio.sleep(end - asyncio.get_running_loop().time())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def in_virtual_time(
    design_factory: Callable[[], Design],
    seed: int,
    body: Callable[[Run], Coroutine[Any, Any, None]],
) -> Run:
    loop = looptime.new_event_loop(start=0)

    async def main() -> Run:
        run = Run(design_factory(), random.Random(seed), SlidingWindow(R, loop.time))
        await body(run)
        await run.design.close()
        return run

    try:
        return loop.run_until_complete(main())
    finally:
        loop.close()


def fairness(run: Run) -> tuple[float, int, float]:
    """(light users' worst wait, most heavy admissions ahead of a light one, heavy's worst wait)."""
    light = [(arrived, admitted) for user, arrived, admitted in run.requests if user != HEAVY]
    heavy_at = [at for at, user in run.admissions if user == HEAVY]
    ahead = [sum(1 for at in heavy_at if arrived <= at < admitted) for arrived, admitted in light]
    heavy_waits = [admitted - arrived for user, arrived, admitted in run.requests if user == HEAVY]
    worst_light = max((admitted - arrived for arrived, admitted in light), default=0.0)
    return worst_light, max(ahead, default=0), max(heavy_waits, default=0.0)


def report_saturated(minutes: float, seed: int) -> None:
    end = minutes * 60
    print(f"saturated: 3R backlog from 20 users, {minutes:g} virtual minutes, R = {R}/min")
    print(
        f"{'design':54} {'rate/R':>6} {'429s':>5} {'light worst':>11} {'heavy ahead':>11} "
        f"{'heavy worst':>11}"
    )
    for factory in DESIGNS:
        run = in_virtual_time(factory, seed, lambda run: saturated(run, end))
        measured = sum(1 for at in run.accepted if WARMUP <= at < end)
        ratio = measured / (R * (end - WARMUP) / 60)
        light, ahead, heavy = fairness(run)
        print(
            f"{run.design.name:54} {ratio:6.3f} {run.rejected:5d} {light:10.1f}s {ahead:11d} "
            f"{heavy:10.1f}s"
        )


def report_bursty(cycles: int, seed: int) -> None:
    print(f"\nbursty: a 3R backlog at once every 4 minutes, {cycles} times (upstream allows 120 s)")
    print(f"{'design':54} {'429s':>5} {'mean drain':>10} {'light worst':>11}")
    for factory in DESIGNS:
        run = in_virtual_time(factory, seed, lambda run: bursty(run, cycles))
        drains = [
            max(at for at, _ in run.admissions if start <= at < start + 240) - start
            for start in (cycle * 240.0 for cycle in range(cycles))
        ]
        light, _, _ = fairness(run)
        print(f"{run.design.name:54} {run.rejected:5d} {sum(drains) / cycles:9.1f}s {light:10.1f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=120.0)
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    report_saturated(args.minutes, args.seed)
    report_bursty(args.cycles, args.seed)


if __name__ == "__main__":
    main()
