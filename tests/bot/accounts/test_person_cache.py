"""Linked accounts served from memory: no database read while an entry is current, and never
a stale one beyond its bound — this process's own changes at once, another process's through
Redis at its next lookup (or, without Redis, after the entry's ttl), a refused token at once.
On SQLite and PostgreSQL; the Redis cases against the real Redis at 127.0.0.1:6379."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import SecretStr
from redis.asyncio import Redis

from bot.accounts import AccountCache, RedisVersions, TokenCipher, TokenRegistry
from bot.accounts.registry import LinkedAccount
from bot.storage import Database
from tests.support.account_caches import Reads, reads_fixture, redis_fixture, ticks, token_of
from tests.support.databases import closed_port
from tests.support.fakes import FakeClock

USER = 4242
OTHER = 5151
TTL = 30.0
__all__ = ["ticks"]


reads = reads_fixture("linked_accounts")


@pytest.fixture
def registry(database: Database, cipher: TokenCipher, ticks: FakeClock) -> TokenRegistry:
    return TokenRegistry(database, cipher, cache=AccountCache(ttl=TTL, clock=ticks.monotonic))


# --- in one process ------------------------------------------------------------------------------


async def test_a_linked_token_is_served_from_memory_without_a_database_read(
    registry: TokenRegistry, reads: Reads
) -> None:
    await registry.link(USER, SecretStr("mine"))
    first = reads.count
    assert token_of(await registry.get(USER)) == "mine"
    assert reads.since(first) == 1
    cached = reads.count
    for _ in range(5):
        assert token_of(await registry.get(USER)) == "mine"
    assert reads.since(cached) == 0


async def test_a_person_who_linked_nothing_is_remembered_too(
    registry: TokenRegistry, reads: Reads
) -> None:
    assert await registry.get(OTHER) is None
    before = reads.count
    assert await registry.get(OTHER) is None
    assert reads.since(before) == 0


async def test_linking_relinking_and_unlinking_here_are_seen_at_once(
    registry: TokenRegistry,
) -> None:
    assert await registry.get(USER) is None
    await registry.link(USER, SecretStr("first"))
    assert token_of(await registry.get(USER)) == "first"
    await registry.link(USER, SecretStr("second"))
    assert token_of(await registry.get(USER)) == "second"
    assert await registry.unlink(USER)
    assert await registry.get(USER) is None


async def test_a_status_change_and_a_refresh_here_are_seen_at_once(
    registry: TokenRegistry,
) -> None:
    await registry.link(USER, SecretStr("access-1"), refresh_token=SecretStr("refresh-1"))
    assert (await registry.get(USER)) is not None
    assert await registry.mark_invalid(USER, note="refused")
    invalid = await registry.get(USER)
    assert invalid is not None and invalid.status == "invalid"
    assert await registry.refreshed(
        USER,
        old_refresh_token=SecretStr("refresh-1"),
        token=SecretStr("access-2"),
        refresh_token=None,
        expires_at=None,
    )
    fresh = await registry.get(USER)
    assert fresh is not None and fresh.status == "valid" and token_of(fresh) == "access-2"


async def test_a_refused_token_is_read_from_the_database_next_time(
    registry: TokenRegistry, reads: Reads
) -> None:
    await registry.link(USER, SecretStr("mine"))
    await registry.get(USER)
    registry.forget(USER)
    before = reads.count
    assert token_of(await registry.get(USER)) == "mine"
    assert reads.since(before) == 1


async def test_a_fresh_read_goes_to_the_database_and_replaces_what_was_held(
    database: Database, cipher: TokenCipher, registry: TokenRegistry, reads: Reads
) -> None:
    await registry.link(USER, SecretStr("old"))
    await registry.get(USER)
    await TokenRegistry(database, cipher).link(USER, SecretStr("new"))  # behind its back
    assert token_of(await registry.get(USER, fresh=True)) == "new"
    before = reads.count
    assert token_of(await registry.get(USER)) == "new"
    assert reads.since(before) == 1  # what it held was dropped, not served


async def test_without_redis_another_process_is_seen_once_the_entry_is_older_than_its_ttl(
    database: Database, cipher: TokenCipher, registry: TokenRegistry, ticks: FakeClock
) -> None:
    other_process = TokenRegistry(database, cipher, cache=AccountCache(ttl=TTL))
    await other_process.link(USER, SecretStr("first"))
    assert token_of(await registry.get(USER)) == "first"
    await other_process.unlink(USER)
    ticks.advance(TTL + 0.001)
    assert await registry.get(USER) is None


async def test_a_read_that_a_change_overlapped_is_not_kept() -> None:
    cache = AccountCache(ttl=TTL)
    reading, release = asyncio.Event(), asyncio.Event()
    served: list[str] = []

    async def slow_old_read() -> LinkedAccount | None:
        reading.set()
        await release.wait()
        served.append("old")
        return None  # what the database held before the change

    async def new_read() -> LinkedAccount | None:
        served.append("new")
        return None

    lookup = asyncio.create_task(cache.lookup(USER, slow_old_read))
    await reading.wait()
    await cache.changed(USER)  # committed while the old read was in flight
    release.set()
    await lookup
    await cache.lookup(USER, new_read)
    assert served == ["old", "new"]
    await cache.lookup(USER, new_read)
    assert served == ["old", "new"]  # the read after the change is kept


async def test_the_least_recently_used_entries_go_first() -> None:
    cache = AccountCache(ttl=TTL, max_entries=2)
    read_for: list[int] = []

    def reader(user: int) -> Callable[[], Any]:
        async def read() -> LinkedAccount | None:
            read_for.append(user)
            return None

        return read

    for user in (1, 2, 1, 3):  # 1 used again, so 2 is the oldest when 3 arrives
        await cache.lookup(user, reader(user))
    await cache.lookup(1, reader(1))
    await cache.lookup(2, reader(2))
    assert read_for == [1, 2, 3, 2]
    assert len(cache) == 2


# --- two processes on one database and one Redis -------------------------------------------------


redis = redis_fixture("test-accounts")


def process(database: Database, cipher: TokenCipher, redis: Redis) -> TokenRegistry:
    """A registry as another bot process has it: its own memory, the same database and Redis.
    A ttl far beyond the test: only the versions can make it read again."""
    versions = RedisVersions(redis, prefix=redis.test_prefix)  # type: ignore[attr-defined]
    return TokenRegistry(database, cipher, cache=AccountCache(ttl=600, versions=versions))


async def test_with_redis_another_processs_changes_are_seen_at_the_next_lookup(
    database: Database, cipher: TokenCipher, redis: Redis, reads: Reads
) -> None:
    a, b = process(database, cipher, redis), process(database, cipher, redis)
    assert await b.get(USER) is None  # "not linked", remembered by b
    await a.link(USER, SecretStr("first"))
    assert token_of(await b.get(USER)) == "first"
    before = reads.count
    assert token_of(await b.get(USER)) == "first"
    assert reads.since(before) == 0  # served from b's memory: one GET, no database read

    await a.link(USER, SecretStr("second"))  # relinked
    assert token_of(await b.get(USER)) == "second"
    await a.mark_invalid(USER)
    refused = await b.get(USER)
    assert refused is not None and refused.status == "invalid"
    await a.unlink(USER)
    assert await b.get(USER) is None


async def test_with_redis_a_refresh_in_another_process_replaces_the_token_here(
    database: Database, cipher: TokenCipher, redis: Redis
) -> None:
    a, b = process(database, cipher, redis), process(database, cipher, redis)
    await a.link(USER, SecretStr("access-1"), refresh_token=SecretStr("refresh-1"))
    assert token_of(await b.get(USER)) == "access-1"
    assert await a.refreshed(
        USER,
        old_refresh_token=SecretStr("refresh-1"),
        token=SecretStr("access-2"),
        refresh_token=SecretStr("refresh-2"),
        expires_at=None,
    )
    assert token_of(await b.get(USER)) == "access-2"


async def test_when_redis_is_unreachable_every_lookup_reads_the_database(
    database: Database, cipher: TokenCipher, caplog: pytest.LogCaptureFixture
) -> None:
    down = Redis.from_url(f"redis://127.0.0.1:{closed_port()}/0", socket_connect_timeout=1)
    versions = RedisVersions(down, prefix=f"test-accounts:{uuid.uuid4().hex}")
    here = TokenRegistry(database, cipher, cache=AccountCache(ttl=600, versions=versions))
    elsewhere = TokenRegistry(database, cipher)
    with caplog.at_level(logging.WARNING, logger="bot.accounts.account_cache"):
        await here.link(USER, SecretStr("first"))  # the bump fails; the link stands
        assert token_of(await here.get(USER)) == "first"
        await elsewhere.link(USER, SecretStr("second"))
        assert token_of(await here.get(USER)) == "second"  # nothing served unchecked
    assert caplog.messages == [
        "linked-account versions: could not bump in Redis (ConnectionError); reading the database"
    ]
    await down.aclose()


# --- the composed bot ----------------------------------------------------------------------------


def test_a_zero_ttl_is_refused_by_the_cache_itself() -> None:
    with pytest.raises(ValueError, match="ttl"):
        AccountCache(ttl=0)


def test_a_cache_shows_no_token() -> None:
    assert repr(AccountCache(ttl=TTL)) == "AccountCache(entries=0, ttl=30)"
