"""The shared-token quota on SQLite and PostgreSQL, including concurrent consumers."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from bot.accounts import QuotaExceeded, SharedTokenQuota
from bot.storage import Database, SharedTokenUsageRow
from tests.support.fakes import FakeWallClock


async def outcomes(
    quota: SharedTokenQuota, user_id: int, attempts: int, expensive: bool
) -> list[str]:
    results = await asyncio.gather(
        *(quota.consume(user_id, expensive=expensive) for _ in range(attempts)),
        return_exceptions=True,
    )
    return [
        "ok"
        if result is None
        else result.pool
        if isinstance(result, QuotaExceeded)
        else repr(result)
        for result in results
    ]


async def stored_counts(db: Database, user_id: int) -> dict[str, int]:
    async with db.session() as session:
        rows = await session.execute(
            select(SharedTokenUsageRow.pool, SharedTokenUsageRow.count).where(
                SharedTokenUsageRow.discord_user_id == user_id
            )
        )
        return {pool: count for pool, count in rows}


async def test_requests_are_counted_until_the_hourly_limit(
    database: Database, clock: FakeWallClock
) -> None:
    quota = SharedTokenQuota(database, per_hour=3, qa_per_hour=1, clock=clock)
    assert await quota.remaining(1) == (3, 1)

    for _ in range(3):
        await quota.consume(1, expensive=False)

    with pytest.raises(QuotaExceeded) as raised:
        await quota.consume(1, expensive=False)
    assert raised.value.pool == "all"
    assert raised.value.retry_after_seconds == 30  # the clock reads 10:59:30
    assert await quota.remaining(1) == (0, 0)
    assert await quota.remaining(2) == (3, 1)


async def test_an_expensive_request_takes_from_both_pools(
    database: Database, clock: FakeWallClock
) -> None:
    quota = SharedTokenQuota(database, per_hour=5, qa_per_hour=2, clock=clock)
    await quota.consume(1, expensive=True)
    assert await quota.remaining(1) == (4, 1)
    await quota.consume(1, expensive=True)

    with pytest.raises(QuotaExceeded) as raised:
        await quota.consume(1, expensive=True)
    assert raised.value.pool == "qa"
    # The refused request took nothing, and cheap requests still pass.
    assert await stored_counts(database, 1) == {"all": 2, "qa": 2}
    await quota.consume(1, expensive=False)
    assert await quota.remaining(1) == (2, 0)


async def test_a_refused_expensive_request_leaves_the_qa_pool_alone(
    database: Database, clock: FakeWallClock
) -> None:
    quota = SharedTokenQuota(database, per_hour=1, qa_per_hour=5, clock=clock)
    await quota.consume(1, expensive=False)

    with pytest.raises(QuotaExceeded) as raised:
        await quota.consume(1, expensive=True)
    assert raised.value.pool == "all"
    assert await stored_counts(database, 1) == {"all": 1}


async def test_a_new_hour_starts_afresh_and_old_windows_are_dropped(
    database: Database, clock: FakeWallClock
) -> None:
    quota = SharedTokenQuota(database, per_hour=1, qa_per_hour=1, clock=clock)
    await quota.consume(1, expensive=True)
    with pytest.raises(QuotaExceeded):
        await quota.consume(1, expensive=False)

    clock.advance(seconds=30)  # 11:00:00
    assert await quota.remaining(1) == (1, 1)
    await quota.consume(1, expensive=False)

    async with database.session() as session:
        windows = (await session.execute(select(SharedTokenUsageRow.window_start))).scalars().all()
    assert windows == [clock.now]


async def test_a_zero_limit_refuses_at_once(database: Database, clock: FakeWallClock) -> None:
    quota = SharedTokenQuota(database, per_hour=10, qa_per_hour=0, clock=clock)
    with pytest.raises(QuotaExceeded) as raised:
        await quota.consume(1, expensive=True)
    assert raised.value.pool == "qa"
    assert await stored_counts(database, 1) == {}


async def test_concurrent_requests_admit_exactly_the_limit(
    database: Database, clock: FakeWallClock
) -> None:
    quota = SharedTokenQuota(database, per_hour=7, qa_per_hour=7, clock=clock)
    results = await outcomes(quota, 1, attempts=20, expensive=False)
    assert sorted(results) == ["all"] * 13 + ["ok"] * 7
    assert await stored_counts(database, 1) == {"all": 7}


async def test_concurrent_expensive_requests_admit_exactly_the_qa_limit(
    database: Database, clock: FakeWallClock
) -> None:
    quota = SharedTokenQuota(database, per_hour=10, qa_per_hour=3, clock=clock)
    results = await outcomes(quota, 1, attempts=12, expensive=True)
    assert sorted(results) == ["ok"] * 3 + ["qa"] * 9
    assert await stored_counts(database, 1) == {"all": 3, "qa": 3}
    assert await quota.remaining(1) == (7, 0)
