"""Alembic environment. ``Database.migrate`` passes its connection in ``config.attributes``;
the ``alembic`` command line (for writing new revisions) connects to ``DATABASE_URL`` itself."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import Connection

from bot.storage.engine import DEFAULT_DATABASE_URL, create_engine, parse_url
from bot.storage.models import Base


def _configure_and_run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot ALTER most things: batch mode rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_command_line() -> None:
    url = context.config.get_main_option("sqlalchemy.url") or os.environ.get(
        "DATABASE_URL", DEFAULT_DATABASE_URL
    )
    engine = create_engine(parse_url(url))
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_configure_and_run)
    finally:
        await engine.dispose()


def _run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _configure_and_run(connection)
    elif context.is_offline_mode():
        raise SystemExit("offline (--sql) migrations are not supported; run them on a database")
    else:
        asyncio.run(_run_from_command_line())


_run()
