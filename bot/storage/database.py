"""``Database``: one engine, transactional sessions, migrations and per-user data deletion."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import TypeVarTuple

from sqlalchemy import Row, Select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.storage.deletion import UserDataDeleters
from bot.storage.engine import DEFAULT_BUSY_TIMEOUT_MS, create_engine, parse_url
from bot.storage.errors import as_unavailable
from bot.storage.migrate import current_revision, upgrade_to_head

_Ts = TypeVarTuple("_Ts")


class Database:
    """The bot's database. Building it connects nowhere (a SQLite file's directory is created);
    every failure to reach the database surfaces as ``StorageUnavailable``."""

    def __init__(self, url: str, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> None:
        self._url = parse_url(url)
        self._engine = create_engine(self._url, busy_timeout_ms=busy_timeout_ms)
        self._sessions = async_sessionmaker(self._engine, expire_on_commit=False)
        self.user_data = UserDataDeleters()

    @property
    def dialect_name(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.dialect.name

    @property
    def display_url(self) -> str:
        """The URL with any password masked, for logs and messages."""
        return self._url.render_as_string(hide_password=True)

    def __repr__(self) -> str:
        return f"Database({self.display_url!r})"

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session in one transaction: committed when the block ends, rolled back on error."""
        async with self._unavailable_as_error(), self._sessions() as session, session.begin():
            yield session

    async def first(self, query: Select[*_Ts]) -> Row[*_Ts] | None:
        """The first row of a read-only query, on a connection without an ORM session (no
        identity map or unit of work): a quarter less CPU than ``session.get`` for the reads
        on a command's path."""
        async with self._unavailable_as_error(), self._engine.connect() as connection:
            return (await connection.execute(query)).first()

    async def ping(self) -> None:
        async with self._unavailable_as_error(), self._engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def migrate(self) -> str:
        """Apply every pending migration; returns the revision the database is at."""
        async with self._unavailable_as_error(), self._engine.begin() as connection:
            migration = await connection.run_sync(upgrade_to_head)
        migration.report(self.display_url)
        return migration.after

    async def revision(self) -> str | None:
        """The applied revision, or None for a database never migrated."""
        async with self._unavailable_as_error(), self._engine.connect() as connection:
            return await connection.run_sync(current_revision)

    async def delete_user_data(self, user_id: int) -> dict[str, int]:
        """Run every registered deleter for the user in one transaction; rows deleted by name."""
        async with self.session() as session:
            return await self.user_data.run(session, user_id)

    async def close(self) -> None:
        await self._engine.dispose()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @asynccontextmanager
    async def _unavailable_as_error(self) -> AsyncIterator[None]:
        try:
            yield
        except Exception as error:
            unavailable = as_unavailable(error)
            if unavailable is None:
                raise
            raise unavailable from error
