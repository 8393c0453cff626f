"""What the account caches' tests share: reads counted as the database driver receives them,
a token to compare, a fake monotonic clock, and a Redis client whose keys live under a prefix of
their own. A test module makes its ``reads`` and ``redis`` fixtures with :func:`reads_fixture`
and :func:`redis_fixture`, and imports ``ticks``."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any, Protocol

import pytest
from pydantic import SecretStr
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy import event
from sqlalchemy.engine import Engine

from tests.support.fakes import FakeClock
from tests.support.workers import REDIS_URL


class Reads:
    """Counts the queries that read ``table``, as the database driver receives them."""

    def __init__(self, table: str) -> None:
        self.count = 0
        self._from = f"FROM {table}"

    def __call__(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and self._from in statement:
            self.count += 1

    def since(self, before: int) -> int:
        return self.count - before


def reads_fixture(table: str) -> Any:
    """A fixture counting the reads of ``table`` during the test."""

    @pytest.fixture
    def reads() -> Iterator[Reads]:
        counter = Reads(table)
        event.listen(Engine, "before_cursor_execute", counter)
        yield counter
        event.remove(Engine, "before_cursor_execute", counter)

    return reads


@pytest.fixture
def ticks() -> FakeClock:
    return FakeClock()


class _HasToken(Protocol):
    @property
    def token(self) -> SecretStr: ...


def token_of(account: _HasToken | None) -> str | None:
    return None if account is None else account.token.get_secret_value()


def redis_fixture(name: str) -> Any:
    """A fixture: a client of the real Redis (failing the test when it is down), its
    ``test_prefix`` a prefix of its own under ``name``; every key under it is deleted after."""

    @pytest.fixture
    async def redis() -> AsyncIterator[Redis]:
        client = Redis.from_url(REDIS_URL, socket_timeout=2)
        try:
            await client.ping()
        except (RedisConnectionError, OSError) as exc:
            await client.aclose()
            pytest.fail(
                f"Redis at {REDIS_URL} is unreachable ({exc}); start it, these tests need it"
            )
        prefix = f"{name}:{uuid.uuid4().hex}"
        client.test_prefix = prefix  # type: ignore[attr-defined]
        yield client
        keys = [key async for key in client.scan_iter(match=f"{prefix}:*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()

    return redis
