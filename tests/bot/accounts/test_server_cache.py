"""Servers' accounts served from memory, like people's (tests/bot/accounts/test_person_cache.py): no
database read while an entry is current; this process's own changes (link, relink, allowance,
refresh, refusal, unlink, the bot's removal) seen at once; another process's through the
guild's version in Redis at its next lookup, or without Redis once the entry is older than its
ttl. The reads are counted as the database driver receives them. On SQLite and PostgreSQL; the
Redis cases against the real Redis at 127.0.0.1:6379."""

from __future__ import annotations

import pytest
from pydantic import SecretStr
from redis.asyncio import Redis

from bot.accounts import (
    AccountCache,
    Allowance,
    RedisVersions,
    ServerAccountCache,
    ServerRegistry,
    TokenCipher,
)
from bot.storage import Database
from devtools.discord import Harness
from tests.cogs.server.test_server_commands import (
    ADMIN,
    ProbeCommands,
    link_server,
    probe,
    services_of,
)
from tests.support.account_caches import Reads, reads_fixture, redis_fixture, ticks, token_of
from tests.support.fakes import FakeClock

GUILD = 777_000_111
ADMIN_ID = 4242
TTL = 30.0
__all__ = ["probe", "ticks"]


reads = reads_fixture("server_accounts")


@pytest.fixture
def servers(database: Database, cipher: TokenCipher, ticks: FakeClock) -> ServerRegistry:
    return ServerRegistry(
        database, cipher, cache=ServerAccountCache(ttl=TTL, clock=ticks.monotonic)
    )


# --- in one process ------------------------------------------------------------------------------


async def test_a_servers_account_is_served_from_memory_without_a_database_read(
    servers: ServerRegistry, reads: Reads
) -> None:
    await servers.link(GUILD, ADMIN_ID, SecretStr("server-token"))
    first = reads.count
    assert token_of(await servers.get(GUILD)) == "server-token"
    assert reads.since(first) == 1
    cached = reads.count
    for _ in range(5):
        assert token_of(await servers.get(GUILD)) == "server-token"
    assert reads.since(cached) == 0


async def test_a_server_without_an_account_is_remembered_too(
    servers: ServerRegistry, reads: Reads
) -> None:
    assert await servers.get(GUILD) is None
    before = reads.count
    assert await servers.get(GUILD) is None
    assert reads.since(before) == 0


async def test_every_change_here_is_seen_at_once(servers: ServerRegistry) -> None:
    assert await servers.get(GUILD) is None
    await servers.link(GUILD, ADMIN_ID, SecretStr("first"), refresh_token=SecretStr("refresh-1"))
    assert token_of(await servers.get(GUILD)) == "first"
    await servers.link(GUILD, ADMIN_ID, SecretStr("second"), refresh_token=SecretStr("refresh-1"))
    assert token_of(await servers.get(GUILD)) == "second"  # relinked

    assert await servers.set_allowance(GUILD, Allowance(3, 1))
    allowed = await servers.get(GUILD)
    assert allowed is not None and allowed.allowance == Allowance(3, 1)

    assert await servers.refreshed(
        GUILD,
        old_refresh_token=SecretStr("refresh-1"),
        token=SecretStr("third"),
        refresh_token=SecretStr("refresh-2"),
        expires_at=None,
    )
    assert token_of(await servers.get(GUILD)) == "third"

    assert await servers.mark_invalid(GUILD, SecretStr("third"), note="refused")
    refused = await servers.get(GUILD)
    assert refused is not None and refused.status == "invalid"

    assert await servers.unlink(GUILD)
    assert await servers.get(GUILD) is None


async def test_without_redis_another_process_is_seen_once_the_entry_is_older_than_its_ttl(
    database: Database, cipher: TokenCipher, servers: ServerRegistry, ticks: FakeClock
) -> None:
    other_process = ServerRegistry(database, cipher, cache=ServerAccountCache(ttl=TTL))
    await other_process.link(GUILD, ADMIN_ID, SecretStr("first"))
    assert token_of(await servers.get(GUILD)) == "first"
    await other_process.set_allowance(GUILD, Allowance(0, 0))
    ticks.advance(TTL - 1)
    held = await servers.get(GUILD)
    assert held is not None and held.allowance.per_hour == 20  # within the bound: held
    ticks.advance(1.001)
    seen = await servers.get(GUILD)
    assert seen is not None and seen.allowance == Allowance(0, 0)
    await other_process.unlink(GUILD)
    ticks.advance(TTL + 0.001)
    assert await servers.get(GUILD) is None


# --- two processes on one database and one Redis -------------------------------------------------


redis = redis_fixture("test-server-accounts")


def process(database: Database, cipher: TokenCipher, redis: Redis) -> ServerRegistry:
    """A registry as another bot process has it: its own memory, the same database and Redis.
    A ttl far beyond the test: only the versions can make it read again."""
    prefix = redis.test_prefix + ":servers"  # type: ignore[attr-defined]
    versions = RedisVersions(redis, prefix=prefix, what="server-account")
    return ServerRegistry(database, cipher, cache=ServerAccountCache(ttl=600, versions=versions))


async def test_with_redis_another_processs_changes_are_seen_at_the_next_lookup(
    database: Database, cipher: TokenCipher, redis: Redis, reads: Reads
) -> None:
    a, b = process(database, cipher, redis), process(database, cipher, redis)
    assert await b.get(GUILD) is None  # "no account", remembered by b
    await a.link(GUILD, ADMIN_ID, SecretStr("first"))
    assert token_of(await b.get(GUILD)) == "first"
    before = reads.count
    assert token_of(await b.get(GUILD)) == "first"
    assert reads.since(before) == 0  # served from b's memory: one GET, no database read

    await a.set_allowance(GUILD, Allowance(5, 0))  # a quota change
    changed = await b.get(GUILD)
    assert changed is not None and changed.allowance == Allowance(5, 0)
    await a.mark_invalid(GUILD, SecretStr("first"))
    refused = await b.get(GUILD)
    assert refused is not None and refused.status == "invalid"
    await a.unlink(GUILD)
    assert await b.get(GUILD) is None


async def test_the_servers_versions_are_apart_from_peoples(
    database: Database, cipher: TokenCipher, redis: Redis, reads: Reads
) -> None:
    """A guild id and a user id never share a version: a person's change leaves the server's
    entry as it is."""
    prefix = redis.test_prefix  # type: ignore[attr-defined]
    people = AccountCache(ttl=600, versions=RedisVersions(redis, prefix=prefix + ":people"))
    b = process(database, cipher, redis)
    await b.link(GUILD, ADMIN_ID, SecretStr("server-token"))
    await b.get(GUILD)
    await people.changed(GUILD)  # the same number, as a person's id
    before = reads.count
    assert token_of(await b.get(GUILD)) == "server-token"
    assert reads.since(before) == 0
    assert RedisVersions.for_servers(redis)._key(GUILD) != RedisVersions(redis)._key(GUILD)


# --- the composed bot ----------------------------------------------------------------------------


async def test_members_requests_read_the_servers_account_once(
    harness: Harness, probe: ProbeCommands, reads: Reads
) -> None:
    await link_server(harness)
    member = harness.user()
    await harness.slash("probe-search", user=member)
    before = reads.count
    for _ in range(3):
        await harness.slash("probe-search", user=member)
    assert reads.since(before) == 0
    assert probe.calls == 4

    # An admin's change in this process is seen by the next request at once.
    await harness.slash("server quota", per_hour=0, qa_per_hour=0, member_permissions=ADMIN)
    account = await services_of(harness).servers.get(harness.guild.id)
    assert account is not None and account.allowance == Allowance(0, 0)
