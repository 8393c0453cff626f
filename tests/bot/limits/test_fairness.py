"""Round-robin between users sharing a token, and waiters that give up leaving no trace."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

import pytest

from bot.limits import Limiter, LimiterConfig, LocalBackend
from bot.limits.backend import Verdict
from bot.limits.window import Pools

pytestmark = pytest.mark.looptime

KEY = "token-1"
REFILL = 61.0


async def test_a_single_question_is_served_within_two_slots_of_a_burst_of_twenty() -> None:
    # One call in flight at a time, one second each: slots come one by one.
    limiter = Limiter(LimiterConfig(per_minute=15, max_in_flight_per_token=1))
    order: list[tuple[float, Hashable]] = []

    async def call(user: str) -> None:
        async with limiter.admit(KEY, user, expensive=False, budget=float("inf")) as grant:
            order.append((grant.admitted_at, user))
            await asyncio.sleep(1)

    burst = [asyncio.create_task(call("heavy")) for _ in range(20)]
    await asyncio.sleep(2.5)
    await call("light")

    served_after_arrival = [(at, user) for at, user in order if at >= 2.5]
    assert served_after_arrival[:2] == [(3.0, "heavy"), (4.0, "light")]
    await asyncio.gather(*burst)
    assert len(order) == 21
    await limiter.close()


async def test_users_take_turns_whatever_their_backlog() -> None:
    limiter = Limiter(LimiterConfig(per_minute=1))
    order: list[Hashable] = []

    async def call(user: str) -> None:
        async with limiter.admit(KEY, user, expensive=False, budget=float("inf")):
            order.append(user)

    tasks = [asyncio.create_task(call(u)) for u in ["a"] * 4 + ["b"] * 2 + ["c"]]
    await asyncio.gather(*tasks)

    assert order == ["a", "b", "c", "a", "b", "a", "a"]
    await limiter.close()


async def test_a_cancelled_waiter_leaves_no_trace() -> None:
    limiter = Limiter(LimiterConfig(per_minute=1))
    async with limiter.admit(KEY, "x", expensive=False, budget=1):
        pass
    gives_up = asyncio.create_task(_admitted_at(limiter, "a"))
    stays = asyncio.create_task(_admitted_at(limiter, "b"))
    await asyncio.sleep(5)
    # A newcomer would come after both waiters: at 3 * REFILL, 5 s from now.
    assert limiter.expected_wait(KEY, "c", False) == pytest.approx(3 * REFILL - 5)

    gives_up.cancel()
    await asyncio.wait([gives_up])

    assert limiter.expected_wait(KEY, "c", False) == pytest.approx(2 * REFILL - 5)
    assert await stays == pytest.approx(REFILL, abs=0.01)
    assert limiter.expected_wait(KEY, "c", False) == pytest.approx(REFILL, abs=0.01)
    await limiter.close()


class CancelDuringAcquire(LocalBackend):
    """Cancels a task while the backend decides on it: at once, or just after the grant."""

    def __init__(self) -> None:
        super().__init__()
        self.victim: asyncio.Task[float] | None = None
        self.after_grant = False

    async def acquire(
        self, key: str, pools: Pools, *, expensive: bool, now: float, ticket: str
    ) -> Verdict:
        verdict = await super().acquire(key, pools, expensive=expensive, now=now, ticket=ticket)
        if self.victim is not None:
            victim, self.victim = self.victim, None
            if self.after_grant:
                # Runs before the victim resumes from its granted future.
                asyncio.get_running_loop().call_soon(victim.cancel)
            else:
                victim.cancel()
        return verdict


@pytest.mark.parametrize("after_grant", [False, True])
async def test_a_waiter_cancelled_as_it_is_admitted_gives_back_both_slots(
    after_grant: bool,
) -> None:
    backend = CancelDuringAcquire()
    backend.after_grant = after_grant
    limiter = Limiter(LimiterConfig(per_minute=1, max_in_flight_per_token=1), backend=backend)
    victim = asyncio.create_task(_admitted_at(limiter, "a"))
    backend.victim = victim

    with pytest.raises(asyncio.CancelledError):
        await victim

    # Neither the rate slot nor the in-flight slot stayed taken.
    assert limiter.expected_wait(KEY, "b", False) == 0.0
    async with limiter.admit(KEY, "b", expensive=False, budget=0) as grant:
        assert grant.admitted_at == 0.0
    await limiter.close()


async def _admitted_at(limiter: Limiter, user: Hashable) -> float:
    async with limiter.admit(KEY, user, expensive=False, budget=float("inf")) as grant:
        return grant.admitted_at
