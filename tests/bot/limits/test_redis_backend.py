"""The Redis backend against the real Redis at 127.0.0.1:6379 (CI runs it; never skipped)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Hashable

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.limits import Limiter, LimiterConfig, RedisBackend
from bot.limits.window import BASIC, QA, Pools
from tests.support.workers import REDIS_URL

KEY = "token-1"
POOLS = Pools(basic=3, qa=1, window=61.0)


@pytest.fixture
def prefix() -> str:
    return f"test-limits:{uuid.uuid4().hex}"


def client() -> Redis:
    # looptime moves the clock on while real I/O is pending: a socket timeout would fire.
    return Redis.from_url(REDIS_URL, socket_timeout=None)


@pytest.fixture
async def redis(prefix: str) -> AsyncIterator[Redis]:
    probe = Redis.from_url(REDIS_URL, socket_timeout=2)
    try:
        await probe.ping()
    except (RedisConnectionError, OSError) as exc:
        pytest.fail(f"Redis at {REDIS_URL} is unreachable ({exc}); start it, these tests need it")
    finally:
        await probe.aclose()
    redis = client()
    yield redis
    keys = [key async for key in redis.scan_iter(match=f"{prefix}:*")]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


async def test_acquire_counts_each_pool_atomically(redis: Redis, prefix: str) -> None:
    backend = RedisBackend(redis, prefix=prefix)
    now = 1_000.25

    verdicts = [
        await backend.acquire(KEY, POOLS, expensive=expensive, now=now + i, ticket=f"t{i}")
        for i, expensive in enumerate([True, True, False, False, False])
    ]

    # qa admits one; the basic pool (3) counts the qa request too.
    assert [v.granted for v in verdicts] == [True, False, True, True, False]
    assert verdicts[-1].state.logs == {BASIC: [now, now + 2, now + 3], QA: [now]}


async def test_stamps_expire_exactly_one_window_later(redis: Redis, prefix: str) -> None:
    backend = RedisBackend(redis, prefix=prefix)
    now = 1_700_000_000.123456
    for ticket in ("a", "b", "c"):
        assert (await backend.acquire(KEY, POOLS, expensive=False, now=now, ticket=ticket)).granted

    just_before = now + POOLS.window - 1e-6
    at_expiry = now + POOLS.window
    refused = await backend.acquire(KEY, POOLS, expensive=False, now=just_before, ticket="d")
    granted = await backend.acquire(KEY, POOLS, expensive=False, now=at_expiry, ticket="e")

    assert not refused.granted
    assert granted.granted
    assert granted.state.logs[BASIC] == [at_expiry]


async def test_refund_pause_and_ttl(redis: Redis, prefix: str) -> None:
    backend = RedisBackend(redis, prefix=prefix)
    now = 5_000.0
    await backend.acquire(KEY, POOLS, expensive=True, now=now, ticket="t1")
    ttl_ms = await redis.pttl(f"{prefix}:{{{KEY}}}:{QA}")
    assert 0 < ttl_ms <= 62_000

    await backend.refund(KEY, "t1")
    state = await backend.snapshot(KEY, POOLS, now=now)
    assert state.logs == {BASIC: [], QA: []}

    await backend.pause(KEY, now + 30, now=now)
    await backend.pause(KEY, now + 10, now=now)  # a shorter pause never shortens it
    paused = await backend.acquire(KEY, POOLS, expensive=False, now=now + 29, ticket="t2")
    resumed = await backend.acquire(KEY, POOLS, expensive=False, now=now + 30, ticket="t3")
    assert not paused.granted
    assert paused.state.pause_until == now + 30
    assert resumed.granted


@pytest.mark.looptime
async def test_two_limiters_sharing_a_token_never_exceed_the_rate_together(
    redis: Redis, prefix: str
) -> None:
    config = LimiterConfig(per_minute=5)
    clients = [client(), client()]  # one connection each, like two processes
    limiters = [Limiter(config, backend=RedisBackend(c, prefix=prefix)) for c in clients]
    stamps: list[float] = []

    async def call(limiter: Limiter, user: Hashable) -> None:
        async with limiter.admit(KEY, user, expensive=False, budget=float("inf")) as grant:
            stamps.append(grant.admitted_at)

    await asyncio.gather(
        *(call(limiter, (n, i)) for n, limiter in enumerate(limiters) for i in range(8))
    )

    stamps.sort()
    assert len(stamps) == 16
    # Any 5 + 1 consecutive admissions span at least the 60 s upstream window...
    assert min(b - a for a, b in zip(stamps, stamps[5:], strict=False)) >= 60.0
    # ...and together they kept pace: 16 requests at 5 a window take three refills.
    assert stamps[-1] == pytest.approx(3 * 61.0, abs=1.0)
    for limiter, own_client in zip(limiters, clients, strict=True):
        await limiter.close()
        await own_client.aclose()


@pytest.mark.looptime
async def test_a_pause_in_one_process_holds_the_other(redis: Redis, prefix: str) -> None:
    config = LimiterConfig()
    first = Limiter(config, backend=RedisBackend(redis, prefix=prefix))
    second = Limiter(config, backend=RedisBackend(redis, prefix=prefix))

    await first.pause(KEY, 30)
    async with second.admit(KEY, "u", expensive=False, budget=60) as grant:
        admitted = grant.admitted_at

    assert admitted >= 30.0
    assert admitted == pytest.approx(30.0, abs=0.05)
    await first.close()
    await second.close()
    assert await redis.ping()  # a client passed in stays the caller's to close


async def test_a_backend_made_from_a_url_owns_and_closes_its_client(
    prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[Redis] = []
    real_aclose = Redis.aclose

    async def spy(self: Redis, close_connection_pool: bool | None = None) -> None:
        closed.append(self)
        await real_aclose(self, close_connection_pool)

    monkeypatch.setattr(Redis, "aclose", spy)
    backend = RedisBackend.from_url(REDIS_URL, prefix=prefix)
    assert (await backend.acquire(KEY, POOLS, expensive=False, now=1.0, ticket="t")).granted
    await backend.refund(KEY, "t")

    await backend.close()

    assert len(closed) == 1
