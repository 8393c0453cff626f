"""The limiter's pools, pauses, wait budget and in-flight caps, on looptime's fake loop clock."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any

import pytest

from bot.limits import Limiter, LimiterBusy, LimiterClosed, LimiterConfig, LocalBackend

pytestmark = pytest.mark.looptime

KEY = "token-1"
# The upstream counts 60 s; we count 60 s plus the default 1 s margin, and wake 1 ms late.
REFILL = 61.0
SLOTS = pytest.approx(REFILL, abs=0.01)


def make(**overrides: Any) -> Limiter:
    return Limiter(LimiterConfig(**overrides), backend=LocalBackend())


async def admitted_at(
    limiter: Limiter, user: Hashable, *, expensive: bool = False, key: str = KEY
) -> float:
    async with limiter.admit(key, user, expensive=expensive, budget=float("inf")) as grant:
        return grant.admitted_at


async def admit_all(limiter: Limiter, users: list[Hashable], *, expensive: bool) -> list[float]:
    return list(
        await asyncio.gather(*(admitted_at(limiter, u, expensive=expensive) for u in users))
    )


async def test_basic_pool_admits_exactly_per_minute_then_waits_for_a_slot() -> None:
    limiter = make(per_minute=15)

    times = await admit_all(limiter, [f"user-{i}" for i in range(16)], expensive=False)

    assert times[:15] == [0.0] * 15
    assert times[15] == SLOTS
    await limiter.close()


async def test_qa_pool_admits_its_stricter_rate() -> None:
    limiter = make(per_minute=15, qa_per_minute=2)

    times = await admit_all(limiter, ["a", "b", "c"], expensive=True)

    assert times == [0.0, 0.0, SLOTS]
    await limiter.close()


async def test_qa_requests_also_count_against_the_basic_pool() -> None:
    limiter = make(per_minute=5, qa_per_minute=2)
    await admit_all(limiter, ["a", "b"], expensive=True)

    times = await admit_all(limiter, ["c", "d", "e", "f"], expensive=False)

    assert times == [0.0, 0.0, 0.0, SLOTS]
    await limiter.close()


async def test_a_full_qa_pool_does_not_hold_back_basic_requests() -> None:
    limiter = make(per_minute=15, qa_per_minute=1)
    await admitted_at(limiter, "a", expensive=True)

    qa = asyncio.create_task(admitted_at(limiter, "b", expensive=True))
    basic = asyncio.create_task(admitted_at(limiter, "c", expensive=False))

    assert await basic == 0.0
    assert await qa == SLOTS
    await limiter.close()


async def test_a_slot_frees_exactly_one_window_after_its_stamp() -> None:
    limiter = make(per_minute=2, safety_margin=0.0)
    await admitted_at(limiter, "a")
    await asyncio.sleep(10)
    await admitted_at(limiter, "a")

    times = await admit_all(limiter, ["b", "c"], expensive=False)

    assert times == [pytest.approx(60.0, abs=0.01), pytest.approx(70.0, abs=0.01)]
    await limiter.close()


async def test_pause_delays_waiters_already_queued_and_new_arrivals() -> None:
    limiter = make(per_minute=1)
    await admitted_at(limiter, "a")
    queued = asyncio.create_task(admitted_at(limiter, "b"))
    await asyncio.sleep(10)

    await limiter.pause(KEY, 100)
    late = asyncio.create_task(admitted_at(limiter, "c"))

    assert await queued == pytest.approx(110.0, abs=0.01)
    assert await late == pytest.approx(110.0 + REFILL, abs=0.01)
    await limiter.close()


async def test_pause_with_free_pools_still_holds_everyone() -> None:
    limiter = make()
    await limiter.pause(KEY, 30)

    assert limiter.expected_wait(KEY, "a", False) == pytest.approx(30.0)
    times = await admit_all(limiter, ["a", "b", "c"], expensive=False)

    assert times == [pytest.approx(30.0, abs=0.01)] * 3
    await limiter.close()


async def test_a_wait_beyond_the_budget_fails_at_once_with_the_expected_wait() -> None:
    limiter = make(per_minute=2)
    await admit_all(limiter, ["a", "b"], expensive=False)

    with pytest.raises(LimiterBusy) as busy:
        async with limiter.admit(KEY, "c", expensive=False, budget=10):
            pytest.fail("admitted beyond the budget")

    assert busy.value.retry_after == pytest.approx(REFILL)
    assert asyncio.get_running_loop().time() == 0.0
    assert "try again in 61 s" in str(busy.value)
    await limiter.close()


async def test_the_budget_accounts_for_the_round_robin_position() -> None:
    limiter = make(per_minute=1)
    await admitted_at(limiter, "heavy")
    backlog = [asyncio.create_task(admitted_at(limiter, "heavy")) for _ in range(3)]
    await asyncio.sleep(0)  # one turn of the loop: the three tasks queue their requests

    # A new user is next in turn after one more of the heavy user's requests...
    assert limiter.expected_wait(KEY, "light", False) == pytest.approx(2 * REFILL)
    # ...while the heavy user's fourth waits behind its own three.
    assert limiter.expected_wait(KEY, "heavy", False) == pytest.approx(4 * REFILL)
    with pytest.raises(LimiterBusy) as busy:
        async with limiter.admit(KEY, "heavy", expensive=False, budget=3 * REFILL):
            pass
    assert busy.value.retry_after == pytest.approx(4 * REFILL)
    assert await admitted_at(limiter, "light") == pytest.approx(2 * REFILL, abs=0.01)
    for task in backlog:
        task.cancel()
    await limiter.close()


async def test_in_flight_cap_per_token_bounds_concurrent_calls() -> None:
    limiter = make(max_in_flight_per_token=2)
    inside = 0
    peak = 0
    leave = asyncio.Semaphore(0)

    async def call(key: str) -> None:
        nonlocal inside, peak
        async with limiter.admit(key, "u", expensive=False, budget=60):
            inside += 1
            peak = max(peak, inside)
            await leave.acquire()
            inside -= 1

    calls = [asyncio.create_task(call(KEY)) for _ in range(5)]
    other_token = asyncio.create_task(call("token-2"))
    await asyncio.wait(calls, timeout=30)
    assert inside == 3  # two for KEY, one for the other token

    leave.release()
    await asyncio.wait(calls, timeout=30)
    assert inside == 3  # one left, the next one took its slot

    for _ in range(6):
        leave.release()
    await asyncio.gather(*calls, other_token)
    assert peak == 3
    await limiter.close()


async def test_overall_in_flight_cap_spans_tokens() -> None:
    limiter = make(max_in_flight_per_token=4, max_in_flight=3)
    inside = 0
    leave = asyncio.Semaphore(0)

    async def call(key: str) -> None:
        nonlocal inside
        async with limiter.admit(key, "u", expensive=False, budget=60):
            inside += 1
            await leave.acquire()
            inside -= 1

    calls = [asyncio.create_task(call(key)) for key in ["t1", "t2"] * 3]
    done, _ = await asyncio.wait(calls, timeout=30)
    assert (len(done), inside) == (0, 3)

    leave.release()
    done, _ = await asyncio.wait(calls, timeout=30)
    assert (len(done), inside) == (1, 3)

    for _ in range(5):
        leave.release()
    await asyncio.gather(*calls)
    await limiter.close()


async def test_leaving_by_an_error_frees_the_in_flight_slot() -> None:
    limiter = make(max_in_flight_per_token=1)

    with pytest.raises(RuntimeError):
        async with limiter.admit(KEY, "a", expensive=False, budget=1):
            raise RuntimeError("upstream failed")

    assert await admitted_at(limiter, "b") == 0.0
    await limiter.close()


async def test_close_fails_waiters_and_later_admissions() -> None:
    limiter = make(per_minute=1)
    await admitted_at(limiter, "a")
    waiting = asyncio.create_task(admitted_at(limiter, "b"))
    await asyncio.sleep(1)

    await limiter.close()

    with pytest.raises(LimiterClosed):
        await waiting
    with pytest.raises(LimiterClosed):
        await admitted_at(limiter, "c")


def test_config_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="qa_per_minute"):
        LimiterConfig(qa_per_minute=0)
    with pytest.raises(ValueError, match="safety_margin"):
        LimiterConfig(safety_margin=-1)
