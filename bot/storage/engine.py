"""The async engine for a database URL: SQLite (aiosqlite) or PostgreSQL (asyncpg)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/magisterium-bot.db"
SUPPORTED_DRIVERS = ("sqlite+aiosqlite", "postgresql+asyncpg")
DEFAULT_BUSY_TIMEOUT_MS = 5000
# asyncpg waits 60 s for a connection by default, longer than a deferred interaction should.
POSTGRES_CONNECT_TIMEOUT_S = 10.0


def parse_url(url: str) -> URL:
    """The URL, checked to name a supported async driver (the message hides any password)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ValueError("DATABASE_URL is not a database URL") from None  # never echo it
    if parsed.drivername not in SUPPORTED_DRIVERS:
        raise ValueError(
            f"DATABASE_URL: unsupported driver {parsed.drivername!r}; "
            f"use one of: {', '.join(SUPPORTED_DRIVERS)}"
        )
    return parsed


def create_engine(url: URL, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> AsyncEngine:
    """An engine that has not connected yet. SQLite: the file's directory is created here."""
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, busy_timeout_ms)
    return create_async_engine(
        url,
        pool_pre_ping=True,
        hide_parameters=True,
        connect_args={"timeout": POSTGRES_CONNECT_TIMEOUT_S},
    )


def sqlite_path(url: URL) -> Path | None:
    """The database file of a SQLite URL, or None for an in-memory database."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_engine(url: URL, busy_timeout_ms: int) -> AsyncEngine:
    path = sqlite_path(url)
    options: dict[str, Any] = {"hide_parameters": True}
    if path is None:
        # Every connection to ":memory:" is a new empty database: share a single one.
        options["poolclass"] = StaticPool
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, **options)

    @event.listens_for(engine.sync_engine, "connect")
    def _set_pragmas(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Pragmas are per connection, so every new pooled connection gets them.
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    return engine
