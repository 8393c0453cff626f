"""Public content is cached: repeated requests do not reach Magisterium or spend quota."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from bot.cache import LocalCache, RedisCache
from bot.cache.public import cache_key, normalise
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium
from tests.support.embed_parts import assert_shown
from tests.support.fakes import FakeClock
from tests.support.workers import REDIS_URL


async def test_local_cache_expires_entries_and_keeps_a_size_bound() -> None:
    clock = FakeClock(start=100.0)
    cache = LocalCache(max_entries=2, clock=clock.monotonic)
    await cache.set("a", "1", ttl=10)
    await cache.set("b", "2", ttl=10)
    assert await cache.get("a") == "1"  # "a" is now the most recently used
    await cache.set("c", "3", ttl=10)
    assert len(cache) == 2 and await cache.get("b") is None
    clock.advance(11)
    assert await cache.get("a") is None and await cache.get("c") is None


@pytest.fixture
async def redis_cache() -> AsyncIterator[RedisCache]:
    redis = Redis.from_url(REDIS_URL)
    prefix = f"test-cache-{uuid.uuid4().hex}"
    yield RedisCache(redis, prefix=prefix)
    keys = [key async for key in redis.scan_iter(f"{prefix}:*")]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


async def test_redis_cache_round_trip_and_expiry(redis_cache: RedisCache) -> None:
    await redis_cache.set("k", "value", ttl=60)
    assert await redis_cache.get("k") == "value"
    assert await redis_cache.get("missing") is None
    # Redis expires entries itself: the key carries the TTL.
    ttl_ms = await redis_cache._redis.pttl(f"{redis_cache._prefix}:k")
    assert 0 < ttl_ms <= 60_000


async def test_local_fill_lock_has_one_holder_until_released_or_lapsed() -> None:
    clock = FakeClock(start=100.0)
    cache = LocalCache(clock=clock.monotonic)
    token = await cache.claim("k", ttl=10)
    assert token is not None
    assert await cache.claim("k", ttl=10) is None
    await cache.release("k", "someone-else")
    assert await cache.claim("k", ttl=10) is None  # only its holder frees it
    assert await cache.extend("k", token, ttl=10)
    clock.advance(9)
    assert await cache.claim("k", ttl=10) is None  # extended: still held
    clock.advance(2)
    late = await cache.claim("k", ttl=10)  # lapsed: a new holder
    assert late is not None and late != token
    assert not await cache.extend("k", token, ttl=10)
    await cache.release("k", token)  # the old holder cannot free the new one's lock
    assert await cache.claim("k", ttl=10) is None
    await cache.release("k", late)
    assert await cache.claim("k", ttl=10) is not None


async def test_redis_fill_lock_is_set_nx_px_and_released_by_its_holder_only(
    redis_cache: RedisCache,
) -> None:
    redis, lock = redis_cache._redis, redis_cache.lock_key("k")
    token = await redis_cache.claim("k", ttl=5)
    assert token is not None and await redis.get(lock) == token.encode()
    assert 0 < await redis.pttl(lock) <= 5000
    assert await redis_cache.claim("k", ttl=5) is None
    await redis_cache.release("k", "someone-else")
    assert await redis.get(lock) == token.encode()
    assert not await redis_cache.extend("k", "someone-else", ttl=60)
    assert await redis.pttl(lock) <= 5000
    assert await redis_cache.extend("k", token, ttl=60)
    assert 5000 < await redis.pttl(lock) <= 60_000
    await redis_cache.release("k", token)
    assert await redis.exists(lock) == 0
    assert await redis_cache.get("k") is None  # the lock is not the entry
    assert not await redis_cache.extend("k", token, ttl=60)


def test_keys_fold_case_width_and_spacing_but_not_meaning() -> None:
    assert normalise("  Lumen   GENTIUM ") == "lumen gentium"
    assert cache_key("document_search", "Lumen Gentium") == cache_key(
        "document_search", "lumen  gentium"
    )
    assert cache_key("document_search", "x") != cache_key("document_fetch", "x")
    assert cache_key("saints_of_the_day", "2026-11-30") != cache_key(
        "saints_of_the_day", "2026-12-01"
    )


async def test_repeated_public_requests_are_served_from_the_cache(
    harness: Harness, fake: FakeMagisterium
) -> None:
    alice, bob = harness.user(), harness.user()
    await harness.slash("search", query="Lumen Gentium church", user=alice)
    await harness.slash("search", query="  lumen gentium CHURCH ", user=bob)
    await harness.slash("document", id="12345", user=alice)
    await harness.slash("document", id="12345", user=bob)
    await harness.slash("saints", date="2026-03-19", user=alice)
    again = await harness.slash("saints", date="2026-03-19", user=bob)
    assert_shown("Joseph", again.embeds, "description")  # the cached martyrology, in full
    assert fake.count(skill="document_search") == 1
    assert fake.count(skill="document_fetch") == 1
    assert fake.count(skill="saints_of_the_day") == 1


async def test_answers_are_never_cached(harness: Harness, fake: FakeMagisterium) -> None:
    await harness.slash("ask", question="What is grace?")
    await harness.slash("ask", question="What is grace?", user=harness.user())
    assert fake.count(skill="catholic_qa") == 2
