"""Single-flight: concurrent lookups of one uncached key make one upstream call, in one
process and across processes sharing Redis. Counted by the fake Magisterium over HTTP."""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import SecretStr
from redis.asyncio import Redis

from bot.a2a import errors
from bot.a2a.results import Martyrology
from bot.a2a.skills import SAINTS_OF_THE_DAY
from bot.app.composition import Services, open_services
from bot.cache.fill import FillTiming
from bot.cache.public import PublicContentCache, cache_key
from bot.services.magisterium import MagisteriumService
from bot.services.origin import Origin
from bot.services.tokens import LinkedTokenInvalid
from devtools.discord import Harness
from devtools.discord.fixtures import harness_settings
from devtools.fake_magisterium import FakeMagisterium, Fault, RunningFakeServer
from tests.support.embed_parts import assert_shown
from tests.support.held_upstream import (
    EnteringCache,
    HeldUpstream,
    WatchedRedisCache,
    running_held_fake_server,
)
from tests.support.workers import REDIS_URL

DAY = dt.date(2026, 3, 19)
SKILL = "saints_of_the_day"
QUERY = DAY.isoformat()
METRIC = "magisterium_bot_cache_requests_total"
GUARD = 30.0  # against a hang only: every wait below ends on an event long before


@pytest.fixture
def held() -> HeldUpstream:
    return HeldUpstream()


@pytest.fixture
async def fake_server(
    fake: FakeMagisterium, held: HeldUpstream
) -> AsyncIterator[RunningFakeServer]:
    """Overrides the suite's fake server: this one holds requests until ``held.release()``."""
    async with running_held_fake_server(fake, held) as server:
        yield server


def service_of(harness: Harness) -> MagisteriumService:
    return harness.bot.services.magisterium


async def saints(service: MagisteriumService, user_id: int) -> object:
    """The saints of ``DAY``, asked by ``user_id`` (in no server)."""
    return await service.call(Origin(user_id), SAINTS_OF_THE_DAY, DAY)


def start_saints(service: MagisteriumService, *user_ids: int) -> list[asyncio.Task[object]]:
    return [asyncio.create_task(saints(service, user_id)) for user_id in user_ids]


async def release_when_all_joined(
    held: HeldUpstream, cache: PublicContentCache, callers: int
) -> None:
    """Tasks created together join before the first one's request can reach the fake."""
    async with asyncio.timeout(GUARD):
        await held.arrived.wait()
    assert cache.in_flight(SKILL, QUERY) == callers
    held.release()


# --- one process ------------------------------------------------------------------------------


async def test_concurrent_saints_commands_make_one_upstream_call(
    harness: Harness, fake: FakeMagisterium, held: HeldUpstream
) -> None:
    service = service_of(harness)
    cache = service.cache
    entering = EnteringCache(cache, expected=3)
    service.cache = entering  # type: ignore[assignment]
    users = [harness.user() for _ in range(3)]
    commands = asyncio.gather(*(harness.slash("saints", date=QUERY, user=u) for u in users))
    async with asyncio.timeout(GUARD):
        await entering.all_in.wait()
    assert cache.in_flight(SKILL, QUERY) == 3
    held.release()
    results = await commands
    for result in results:  # each of them shown the martyrology of St Joseph's day
        assert_shown("Joseph", result.embeds, "description")
    assert fake.count(skill=SKILL) == 1
    assert cache.counts == {"miss": 1, "shared": 2}
    registry = harness.bot.metrics.registry
    for result, count in {"miss": 1, "shared": 2, "hit": 0}.items():
        labels = {"result": result}
        assert (registry.get_sample_value(METRIC, labels) or 0) == count, result


async def test_an_upstream_error_reaches_every_waiter_and_is_not_kept(
    harness: Harness, fake: FakeMagisterium, held: HeldUpstream
) -> None:
    service = service_of(harness)
    fake.faults.add(Fault.INVALID_PARAMS, skill=SKILL)
    calls = start_saints(service, 1, 2, 3)
    await release_when_all_joined(held, service.cache, 3)
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert [type(outcome) for outcome in outcomes] == [errors.InvalidParams] * 3
    assert fake.count(skill=SKILL) == 1
    again = await saints(service, 4)
    assert isinstance(again, Martyrology) and "Joseph" in again.text
    assert fake.count(skill=SKILL) == 2


async def test_a_cancelled_waiter_does_not_cancel_the_call_for_the_others(
    harness: Harness, fake: FakeMagisterium, held: HeldUpstream
) -> None:
    service = service_of(harness)
    leader, quitter, stayer = start_saints(service, 1, 2, 3)
    async with asyncio.timeout(GUARD):
        await held.arrived.wait()
    quitter.cancel()
    await asyncio.wait([quitter])
    assert service.cache.in_flight(SKILL, QUERY) == 2
    held.release()
    first, last = await asyncio.gather(leader, stayer)
    assert quitter.cancelled()
    assert first == last and isinstance(first, Martyrology)
    assert fake.count(skill=SKILL) == 1


async def test_a_cancelled_leader_leaves_the_call_to_its_waiters(
    harness: Harness, fake: FakeMagisterium, held: HeldUpstream
) -> None:
    service = service_of(harness)
    leader, *waiters = start_saints(service, 1, 2, 3)
    async with asyncio.timeout(GUARD):
        await held.arrived.wait()
    leader.cancel()
    await asyncio.wait([leader])
    held.release()
    results = await asyncio.gather(*waiters)
    assert leader.cancelled()
    assert all(isinstance(result, Martyrology) for result in results)
    assert fake.count(skill=SKILL) == 1
    await saints(service, 4)  # the call the leader started filled the cache
    assert fake.count(skill=SKILL) == 1
    assert service.cache.counts == {"miss": 1, "shared": 2, "hit": 1}


async def test_when_every_caller_gives_up_the_call_is_cancelled(
    harness: Harness, fake: FakeMagisterium, held: HeldUpstream
) -> None:
    service = service_of(harness)
    callers = start_saints(service, 1, 2)
    async with asyncio.timeout(GUARD):
        await held.arrived.wait()
    (fill,) = [
        t for t in asyncio.all_tasks() if t.get_name() == f"cache-fill:{cache_key(SKILL, QUERY)}"
    ]
    for caller in callers:
        caller.cancel()
    await asyncio.wait([*callers, fill])
    assert fill.cancelled()
    assert service.cache.in_flight(SKILL, QUERY) == 0
    held.release()
    assert isinstance(await saints(service, 3), Martyrology)  # a fresh flight, not a dead one


async def test_the_leaders_own_token_refusal_is_not_passed_on(
    harness: Harness, fake: FakeMagisterium, held: HeldUpstream
) -> None:
    service = service_of(harness)
    await harness.bot.services.registry.link(1, SecretStr("invalid-linked-token"))
    refused, *others = start_saints(service, 1, 2, 3)
    await release_when_all_joined(held, service.cache, 3)
    with pytest.raises(LinkedTokenInvalid):
        await refused
    results = await asyncio.gather(*others)
    assert all(isinstance(result, Martyrology) for result in results)
    # The refused call, then one call for both others (with the operator's token).
    assert [r.token for r in fake.requests if r.skill == SKILL] == [
        "invalid-linked-token",
        "pro-operator-token",
    ]


# --- several processes on one Redis ---------------------------------------------------------


@pytest.fixture
async def prefix() -> AsyncIterator[str]:
    prefix = f"test-flight-{uuid.uuid4().hex}"
    yield prefix
    redis = Redis.from_url(REDIS_URL)
    keys = [key async for key in redis.scan_iter(f"{prefix}:*")]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


class Process:
    """One bot process's services, its public cache on the shared Redis."""

    def __init__(self, services: Services, store: WatchedRedisCache) -> None:
        self.services = services
        self.store = store
        self.cache: PublicContentCache = services.magisterium.cache

    async def saints(self, user_id: int) -> object:
        return await saints(self.services.magisterium, user_id)


@pytest.fixture
async def processes(
    fake_server: RunningFakeServer, tmp_path: Path, prefix: str
) -> AsyncIterator[list[Process]]:
    """Two bot processes' service stacks (built by ``open_services``) on one Redis."""
    started: list[Process] = []
    try:
        for number in range(2):
            database = f"sqlite+aiosqlite:///{tmp_path / f'bot-{number}.db'}"
            services = await open_services(harness_settings(fake_server.url, database))
            store = WatchedRedisCache(Redis.from_url(REDIS_URL), prefix=prefix)
            timing = FillTiming(lock_ttl=1.0, wait_limit=GUARD)
            services.magisterium.cache = PublicContentCache(
                store, metrics=services.metrics, timing=timing
            )
            started.append(Process(services, store))
        yield started
    finally:
        for process in started:
            await process.store.close()
            await process.services.aclose()


async def test_two_processes_on_one_redis_make_one_upstream_call(
    processes: list[Process], fake: FakeMagisterium, held: HeldUpstream
) -> None:
    first, second = processes
    holder = asyncio.create_task(first.saints(1))
    async with asyncio.timeout(GUARD):
        await held.arrived.wait()  # the first process holds the lock; its call is in flight
        waiter = asyncio.create_task(second.saints(2))
        await second.store.refused.wait()  # the second found the lock held: it waits
    held.release()
    assert await holder == await waiter
    assert fake.count(skill=SKILL) == 1
    assert first.cache.counts == {"miss": 1}
    assert second.cache.counts == {"shared": 1}
    assert await first.store._redis.exists(first.store.lock_key(cache_key(SKILL, QUERY))) == 0


async def test_a_slow_holder_keeps_its_lock_past_the_ttl(
    processes: list[Process], fake: FakeMagisterium, held: HeldUpstream
) -> None:
    first, second = processes
    holder = asyncio.create_task(first.saints(1))
    async with asyncio.timeout(GUARD):
        await held.arrived.wait()
        for _ in range(4):  # renewed every third of the 1 s TTL: now past it
            assert await first.store.renewals.get()
        waiter = asyncio.create_task(second.saints(2))
        await second.store.refused.wait()
    held.release()
    assert await holder == await waiter
    assert fake.count(skill=SKILL) == 1


async def test_a_dead_holders_lock_lapses_and_a_waiter_fetches(
    processes: list[Process], fake: FakeMagisterium, held: HeldUpstream, prefix: str
) -> None:
    _, second = processes
    held.release()
    lock = second.store.lock_key(cache_key(SKILL, QUERY))
    # A process that took the lock and died: nobody renews or releases it.
    assert await second.store._redis.set(lock, "dead-process", nx=True, px=300)
    result = await second.saints(2)
    assert second.store.refused.is_set()
    assert isinstance(result, Martyrology)
    assert fake.count(skill=SKILL) == 1
    assert second.cache.counts == {"miss": 1}


async def test_a_waiter_past_its_bound_fetches_and_leaves_the_holders_lock(
    processes: list[Process], fake: FakeMagisterium, held: HeldUpstream
) -> None:
    _, second = processes
    held.release()
    cache = PublicContentCache(second.store, timing=FillTiming(lock_ttl=1.0, wait_limit=0.2))
    second.services.magisterium.cache = cache
    lock = second.store.lock_key(cache_key(SKILL, QUERY))
    assert await second.store._redis.set(lock, "live-process", nx=True, px=60_000)
    async with asyncio.timeout(GUARD):  # well before the lock would lapse
        assert isinstance(await second.saints(2), Martyrology)
    assert second.store.refused.is_set()
    assert fake.count(skill=SKILL) == 1
    assert await second.store._redis.get(lock) == b"live-process"


async def test_the_holders_error_frees_the_lock_for_the_next_waiter(
    processes: list[Process], fake: FakeMagisterium, held: HeldUpstream
) -> None:
    first, second = processes
    fake.faults.add(Fault.INVALID_PARAMS, skill=SKILL)
    holder = asyncio.create_task(first.saints(1))
    async with asyncio.timeout(GUARD):
        await held.arrived.wait()
        waiter = asyncio.create_task(second.saints(2))
        await second.store.refused.wait()
    held.release()
    with pytest.raises(errors.InvalidParams):
        await holder
    # An exception does not cross Redis: the waiter took the lock and asked itself.
    assert isinstance(await waiter, Martyrology)
    assert fake.count(skill=SKILL) == 2
    assert second.cache.counts == {"miss": 1}
