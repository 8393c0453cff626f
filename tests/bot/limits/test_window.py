"""The pure parts of the limiter: sliding-window arithmetic, the admission rule, the forecast."""

from __future__ import annotations

import asyncio

import pytest

from bot.limits import Limiter, LimiterConfig, LocalBackend
from bot.limits.backend import Verdict
from bot.limits.forecast import forecast
from bot.limits.window import BASIC, QA, Later, Pools, PoolState, choose, free_at, free_times

POOLS = Pools(basic=3, qa=1, window=61.0)


def test_a_pool_has_room_until_limit_stamps_are_live() -> None:
    assert free_at([0.0, 1.0], 3, 61.0, now=2.0) == 2.0
    assert free_at([0.0, 1.0, 2.0], 3, 61.0, now=2.0) == 61.0


def test_a_stamp_expires_at_exactly_stamp_plus_window() -> None:
    stamps = [0.1, 0.2, 0.3]
    expiry = free_at(stamps, 3, 61.0, now=5.0)

    assert expiry == 0.1 + 61.0
    assert free_at(stamps, 3, 61.0, now=expiry) == expiry
    assert free_at(stamps, 3, 61.0, now=expiry - 1e-9) == expiry


def test_choose_stops_everyone_on_a_pause_or_a_full_basic_pool() -> None:
    assert choose([False], pause_until=9.0, basic_free=0.0, qa_free=0.0, now=1.0) == Later(9.0)
    assert choose([False], pause_until=0.0, basic_free=5.0, qa_free=0.0, now=1.0) == Later(5.0)


def test_choose_lets_a_cheap_request_pass_a_blocked_expensive_one() -> None:
    assert choose([True, True, False], pause_until=0, basic_free=1, qa_free=30, now=1) == 2
    assert choose([True, True], pause_until=0, basic_free=1, qa_free=30, now=1) == Later(30)
    assert choose([True, False], pause_until=0, basic_free=1, qa_free=1, now=1) == 0


def test_forecast_follows_the_rotation_and_both_pools() -> None:
    state = PoolState(logs={BASIC: [0.0, 0.0, 0.0], QA: [0.0]})
    # At 61 the three basic slots free: a, b, c take them; a's second waits for the next turn.
    plan = [("a", [False, False]), ("b", [False]), ("c", [True])]

    assert forecast(state, POOLS, plan, "b", now=0.0) == 61.0
    assert forecast(state, POOLS, plan, "c", now=0.0) == 61.0
    assert forecast(state, POOLS, plan, "a", now=0.0) == 122.0


def test_forecast_waits_out_a_pause() -> None:
    state = PoolState(pause_until=40.0)

    assert forecast(state, POOLS, [("a", [False])], "a", now=10.0) == 30.0


def test_forecast_rejects_a_target_that_is_not_queued() -> None:
    with pytest.raises(ValueError, match="target"):
        forecast(PoolState(), POOLS, [("a", [False])], "b", now=0.0)


class FailingBackend(LocalBackend):
    async def acquire(
        self, key: str, pools: Pools, *, expensive: bool, now: float, ticket: str
    ) -> Verdict:
        raise ConnectionError("backend down")


@pytest.mark.looptime
async def test_a_failing_backend_reaches_the_waiters_instead_of_hanging_them() -> None:
    limiter = Limiter(LimiterConfig(), backend=FailingBackend())

    async def call() -> None:
        async with limiter.admit("k", "u", expensive=False, budget=10):
            pytest.fail("admitted without the backend")

    results = await asyncio.gather(call(), call(), return_exceptions=True)

    assert [type(r) for r in results] == [ConnectionError, ConnectionError]
    await limiter.close()


async def test_local_backend_refund_and_pause() -> None:
    backend = LocalBackend()
    granted = await backend.acquire("k", POOLS, expensive=True, now=0.0, ticket="t1")
    assert granted.granted
    assert granted.state.logs == {BASIC: [0.0], QA: [0.0]}

    await backend.refund("k", "t1")
    await backend.pause("k", 20.0, now=0.0)
    await backend.pause("k", 10.0, now=0.0)

    state = await backend.snapshot("k", POOLS, now=5.0)
    assert state == PoolState(20.0, {BASIC: [], QA: []})
    refused = await backend.acquire("k", POOLS, expensive=False, now=19.0, ticket="t2")
    assert not refused.granted
    assert (await backend.acquire("k", POOLS, expensive=False, now=20.0, ticket="t3")).granted


# --- a token's state: when it is idle (its limiter entry can go) and how a pause extends -------


def test_a_token_with_nothing_in_the_window_and_no_pause_is_idle() -> None:
    assert PoolState().idle(60.0, now=0.0)
    assert PoolState(logs={BASIC: [], QA: []}).idle(60.0, now=0.0)


def test_a_token_is_busy_until_its_last_stamp_leaves_the_window() -> None:
    state = PoolState(logs={BASIC: [0.0, 50.0]})
    assert not state.idle(60.0, now=70.0)  # the first stamp is gone, the last is not
    assert not state.idle(60.0, now=109.9)
    assert state.idle(60.0, now=110.0)  # 50 + 60: expired at exactly stamp + window


def test_one_pool_in_use_keeps_the_token_busy() -> None:
    state = PoolState(logs={BASIC: [], QA: [65.0]})
    assert not state.idle(60.0, now=100.0)
    assert state.idle(60.0, now=125.0)


def test_a_paused_token_is_not_idle_until_the_pause_ends() -> None:
    state = PoolState(pause_until=30.0)
    assert not state.idle(60.0, now=29.0)
    assert state.idle(60.0, now=30.0)


def test_a_pause_only_ever_extends() -> None:
    logs = {BASIC: [1.0, 2.0]}
    state = PoolState(20.0, logs)
    assert state.paused(40.0) == PoolState(40.0, logs)
    assert state.paused(10.0) == PoolState(20.0, logs)  # a shorter pause does not cut it short
    assert PoolState().paused(5.0).pause_until == 5.0


def test_each_pool_frees_on_its_own_stamps_and_limit() -> None:
    pools = Pools(basic=3, qa=1, window=60.0)
    state = PoolState(logs={BASIC: [0.0, 1.0, 2.0], QA: [10.0]})
    assert free_times(state, pools, now=5.0) == (60.0, 70.0)
    # An unused pool has room now; so does one whose stamps have all expired.
    assert free_times(PoolState(logs={QA: [0.0]}), pools, now=5.0) == (5.0, 60.0)
    assert free_times(state, pools, now=80.0) == (80.0, 80.0)


def test_a_pool_frees_when_its_oldest_counted_stamp_expires() -> None:
    # Limit 2: room once a single stamp is live, when the second-newest (2.0) expires.
    assert free_at([0.0, 1.0, 2.0, 3.0], 2, 60.0, now=10.0) == 62.0
    assert free_at([0.0, 1.0, 2.0, 3.0], 4, 60.0, now=10.0) == 60.0
    assert free_at([0.0, 1.0, 2.0, 3.0], 5, 60.0, now=10.0) == 10.0
