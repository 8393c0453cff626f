"""Database fixtures: every storage test runs on SQLite (a temporary file) and on PostgreSQL.

PostgreSQL comes from ``TEST_POSTGRES_URL`` (default: ``postgres`` then ``root`` on
127.0.0.1:5432, database ``test``, trust auth). Each test gets a database of its own, created
from that server and dropped afterwards, so tests are isolated, can run in parallel and can run
again. An unreachable PostgreSQL fails the tests: it is never skipped.

Built once, copied per test: ``database`` is a copy of a database migrated once per session
(per xdist worker): a SQLite file copied with ``shutil.copyfile``, a PostgreSQL database made
with ``CREATE DATABASE … TEMPLATE``. ``empty_database`` and ``database_url`` stay empty, for
the tests of the migrations themselves. Every database name carries the xdist worker's id and
a random part (``mgb_test_gw1_…``), so neither two workers nor two runs at once share one.

Register with ``pytest_plugins = ("tests.support.databases",)`` in ``tests/conftest.py``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest
from sqlalchemy.engine import URL, make_url

from bot.accounts import TokenCipher, generate_key
from bot.storage import Database
from devtools.discord.fixtures import copy_sqlite
from tests.support.fakes import FakeWallClock, cipher_for
from tests.support.workers import worker_name

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


def new_database_name(kind: str = "test") -> str:
    """``mgb_<kind>_<worker>_<random>``: unique across workers and across runs at once."""
    return f"mgb_{kind}_{worker_name()}_{uuid.uuid4().hex[:16]}"


# Everything a test could have changed in a database's schema: relations, columns, defaults,
# constraints, functions and types outside the system schemas, and the migration applied.
_SCHEMA_FINGERPRINT = """
SELECT 'rel', n.nspname, c.relname, c.relkind::text, '' FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
UNION ALL
SELECT 'col', table_schema, table_name || '.' || column_name, data_type || ' ' || is_nullable,
       coalesce(column_default, '')
  FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
UNION ALL
SELECT 'con', n.nspname, c.conname, c.contype::text, pg_get_constraintdef(c.oid)
  FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
UNION ALL
SELECT 'fn', n.nspname, p.proname, '', ''
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
UNION ALL
SELECT 'type', n.nspname, t.typname, '', ''
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
UNION ALL
SELECT 'db', '', '', coalesce(array_to_string(setconfig, ','), ''), '' FROM pg_db_role_setting
  WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY 1, 2, 3, 4, 5
"""


async def schema_fingerprint(url: str) -> list[tuple[str, ...]]:
    """The schema of the database at ``url`` and its alembic revision, as comparable rows."""
    connection = await asyncpg.connect(asyncpg_dsn(make_url(url)), timeout=5)
    try:
        rows = [tuple(row) for row in await connection.fetch(_SCHEMA_FINGERPRINT)]
        if any(row[:3] == ("rel", "public", "alembic_version") for row in rows):
            versions = await connection.fetch("SELECT version_num FROM alembic_version")
            rows += [("revision", "", str(row[0]), "", "") for row in versions]
        return rows
    finally:
        await connection.close()


async def empty_every_table(url: str) -> None:
    """Close every other connection to the database at ``url``, then delete every row but the
    migration's and restart the sequences used: the template's state again. Only the tables
    with rows are truncated (a ``TRUNCATE`` makes and syncs new files)."""
    name = make_url(url).database
    connection = await asyncpg.connect(asyncpg_dsn(make_url(url)), timeout=5)
    try:
        await connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = $1 AND pid <> pg_backend_pid()",
            name,
        )
        tables = [
            row[0]
            for row in await connection.fetch(
                "SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) FROM pg_tables"
                " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
                " AND tablename <> 'alembic_version'"
            )
        ]
        if tables:
            any_row = " UNION ALL ".join(
                f"SELECT {index} FROM (SELECT 1 FROM {table} LIMIT 1) AS t{index}"  # noqa: S608
                for index, table in enumerate(tables)
            )
            used = [tables[row[0]] for row in await connection.fetch(any_row)]
            if used:
                await connection.execute(f"TRUNCATE {', '.join(used)} CASCADE")
        sequences = await connection.fetch(
            "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename)"
            " FROM pg_sequences WHERE last_value IS NOT NULL"
        )
        for row in sequences:
            await connection.execute(f"ALTER SEQUENCE {row[0]} RESTART")
    finally:
        await connection.close()


class PostgresDatabases:
    """This worker's databases on the PostgreSQL server.

    ``CREATE DATABASE`` and ``DROP DATABASE`` each take most of a second (they copy and sync a
    few megabytes), longer than most tests. So a migrated database a test used is not dropped:
    its other connections are closed, every table is emptied (``TRUNCATE … RESTART IDENTITY``)
    and, when its schema, functions, types, settings and revision are still the template's
    (:func:`schema_fingerprint`), it is handed to a later test of this worker; otherwise it is
    dropped. Empty databases (for the tests of the migrations) are always new, and dropped on a
    thread of their own so the tests do not wait. :meth:`close` (at the session's end) drops
    every database left and raises if a drop failed."""

    def __init__(self, server: URL) -> None:
        self.server = server
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="postgres-admin")
        self._drops: list[Future[None]] = []
        self._free: dict[str, list[str]] = {}
        self._fingerprints: dict[str, list[tuple[str, ...]]] = {}

    def url(self, name: str) -> str:
        return self.server.set(database=name).render_as_string(hide_password=False)

    def _create(self, template: str | None) -> str:
        name = new_database_name()
        create = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
        run_outside_loop(partial(admin_execute, self.server, create))
        return name

    def _drop(self, name: str) -> None:
        drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
        asyncio.run(admin_execute(self.server, drop))

    def take(self, template: str | None = None) -> str:
        """A database (a copy of ``template`` in its state as built, else new and empty)."""
        if template is None:
            return self._create(None)
        if template not in self._fingerprints:
            self._fingerprints[template] = run_outside_loop(
                partial(schema_fingerprint, self.url(template))
            )
        free = self._free.setdefault(template, [])
        return free.pop() if free else self._create(template)

    def give_back(self, name: str, template: str | None = None) -> None:
        """``name``'s test is over: reuse it for ``template``'s next test when it is the
        template's state again once emptied; drop it otherwise (in the background)."""
        if template is not None and self._reset(name, template):
            self._free[template].append(name)
            return
        self._drops.append(self._thread.submit(self._drop, name))

    def _reset(self, name: str, template: str) -> bool:
        url = self.url(name)
        try:
            run_outside_loop(partial(empty_every_table, url))
            fingerprint = run_outside_loop(partial(schema_fingerprint, url))
        except (OSError, asyncpg.PostgresError, TimeoutError):
            return False
        return fingerprint == self._fingerprints[template]

    def forget(self, template: str) -> None:
        """Drop the copies of ``template`` kept for reuse (before the template is dropped)."""
        for name in self._free.pop(template, []):
            self._drops.append(self._thread.submit(self._drop, name))

    def close(self) -> None:
        for template in list(self._free):
            self.forget(template)
        self._thread.shutdown(wait=True)
        for dropped in self._drops:
            dropped.result()  # a database left behind fails the session


@pytest.fixture(scope="session")
def postgres_databases(postgres_server_url: URL) -> Iterator[PostgresDatabases]:
    databases = PostgresDatabases(postgres_server_url)
    try:
        yield databases
    finally:
        databases.close()


async def _migrate(url: str) -> None:
    async with Database(url) as db:
        await db.migrate()


@pytest.fixture(scope="session")
def postgres_template(postgres_databases: PostgresDatabases) -> Iterator[str]:
    """The name of a PostgreSQL database migrated once for this session (this worker), which
    ``migrated_postgres_url`` copies; dropped at the end. Nothing stays connected to it (a
    template with a connection open cannot be copied)."""
    name = new_database_name("template")
    server = postgres_databases.server
    run_outside_loop(partial(admin_execute, server, f'CREATE DATABASE "{name}"'))
    try:
        run_outside_loop(partial(_migrate, postgres_databases.url(name)))
        yield name
    finally:
        postgres_databases.forget(name)
        drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
        run_outside_loop(partial(admin_execute, server, drop))


@contextmanager
def postgres_database(databases: PostgresDatabases, template: str | None = None) -> Iterator[str]:
    """The URL of a database for one test (a copy of ``template`` when given)."""
    name = databases.take(template)
    try:
        yield databases.url(name)
    finally:
        databases.give_back(name, template)


@pytest.fixture
def postgres_url(postgres_databases: PostgresDatabases) -> Iterator[str]:
    """A new, empty PostgreSQL database for this test; dropped afterwards."""
    with postgres_database(postgres_databases) as url:
        yield url


@pytest.fixture
def migrated_postgres_url(
    postgres_databases: PostgresDatabases, postgres_template: str
) -> Iterator[str]:
    """A PostgreSQL database at the head revision with no rows, as the session's template
    (a copy of it, or one a previous test used, emptied and checked)."""
    with postgres_database(postgres_databases, postgres_template) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/data/bot.db"


@pytest.fixture
def migrated_sqlite_url(tmp_path: Path, migrated_sqlite_template: Path) -> str:
    """A SQLite file at the head revision (a copy of the session's template)."""
    return copy_sqlite(migrated_sqlite_template, tmp_path / "data" / "bot.db")


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """An empty database's URL, once per backend."""
    fixture = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(fixture)
    return url


@pytest.fixture(params=BACKENDS)
def migrated_database_url(request: pytest.FixtureRequest) -> str:
    """A migrated database's URL, once per backend: a copy of a template built per session."""
    fixture = "migrated_sqlite_url" if request.param == "sqlite" else "migrated_postgres_url"
    url: str = request.getfixturevalue(fixture)
    return url


@pytest.fixture
async def empty_database(database_url: str) -> AsyncIterator[Database]:
    """A ``Database`` on an empty database, never migrated."""
    async with Database(database_url) as db:
        yield db


@pytest.fixture
async def database(migrated_database_url: str) -> AsyncIterator[Database]:
    """A migrated ``Database``, once per backend (the migrations ran once, on the template)."""
    async with Database(migrated_database_url) as db:
        yield db


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
