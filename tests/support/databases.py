"""Database fixtures: every storage test runs on SQLite (a temporary file) and on PostgreSQL.

PostgreSQL comes from ``TEST_POSTGRES_URL`` (default: ``postgres`` then ``root`` on
127.0.0.1:5432, database ``test``, trust auth). Each test gets a database of its own, created
from that server and dropped afterwards, so tests are isolated, can run in parallel and can run
again. An unreachable PostgreSQL fails the tests: it is never skipped.

Register with ``pytest_plugins = ("tests.support.databases",)`` in ``tests/conftest.py``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

import asyncpg
import pytest
from sqlalchemy.engine import URL, make_url

from bot.accounts import TokenCipher, generate_key
from bot.storage import Database
from tests.support.fakes import FakeWallClock, cipher_for

T = TypeVar("T")

POSTGRES_URL_VARIABLE = "TEST_POSTGRES_URL"
_CANDIDATE_USERS = ("postgres", "root")
_DEFAULT_POSTGRES = "postgresql+asyncpg://{user}@127.0.0.1:5432/test"
BACKENDS = ("sqlite", "postgresql")


def run_outside_loop(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine on a loop of its own in another thread (for sync fixtures, and for
    admin work that must not share the test's loop)."""

    async def main() -> T:
        return await make()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main()).result()


def asyncpg_dsn(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def _can_connect(url: URL) -> str | None:
    try:
        connection = await asyncpg.connect(asyncpg_dsn(url), timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        return f"{type(error).__name__}: {error}"
    await connection.close()
    return None


@pytest.fixture(scope="session")
def postgres_server_url() -> URL:
    """A URL of the PostgreSQL test server that accepts connections; fails the tests if none."""
    configured = os.environ.get(POSTGRES_URL_VARIABLE)
    candidates = (
        [configured] if configured else [_DEFAULT_POSTGRES.format(user=u) for u in _CANDIDATE_USERS]
    )
    problems = []
    for candidate in candidates:
        url = make_url(candidate)
        problem = run_outside_loop(partial(_can_connect, url))
        if problem is None:
            return url
        problems.append(f"{url.render_as_string(hide_password=True)} ({problem})")
    pytest.fail(
        "PostgreSQL for the storage tests is unreachable: "
        + "; ".join(problems)
        + f". Start it, or point {POSTGRES_URL_VARIABLE} at one; these tests are never skipped.",
        pytrace=False,
    )


async def admin_execute(server: URL, statement: str) -> None:
    """Run one statement (CREATE/DROP DATABASE) on the server as its admin."""
    connection = await asyncpg.connect(asyncpg_dsn(server), timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture
def postgres_url(postgres_server_url: URL) -> Iterator[str]:
    """A new, empty PostgreSQL database for this test; dropped afterwards."""
    name = f"mgb_test_{uuid.uuid4().hex[:16]}"
    run_outside_loop(partial(admin_execute, postgres_server_url, f'CREATE DATABASE "{name}"'))
    try:
        yield postgres_server_url.set(database=name).render_as_string(hide_password=False)
    finally:
        drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
        run_outside_loop(partial(admin_execute, postgres_server_url, drop))


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/data/bot.db"


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """An empty database's URL, once per backend."""
    fixture = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(fixture)
    return url


@pytest.fixture
async def empty_database(database_url: str) -> AsyncIterator[Database]:
    """A ``Database`` on an empty database, never migrated."""
    async with Database(database_url) as db:
        yield db


@pytest.fixture
async def database(empty_database: Database) -> Database:
    """A migrated ``Database``, once per backend."""
    await empty_database.migrate()
    return empty_database


async def terminate_connections(server: URL, database_name: str) -> int:
    """Kill every server process serving ``database_name``: the database "goes down"."""
    connection = await asyncpg.connect(asyncpg_dsn(server), timeout=5)
    try:
        killed: list[Any] = await connection.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
            database_name,
        )
    finally:
        await connection.close()
    return len(killed)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def clock() -> FakeWallClock:
    return FakeWallClock(datetime(2025, 3, 1, 10, 59, 30, tzinfo=UTC))


@pytest.fixture
def key() -> str:
    return generate_key()


@pytest.fixture
def cipher(key: str) -> TokenCipher:
    return cipher_for(key)
