"""Alembic, driven from code: the scripts ship inside the package, so an installed wheel
migrates without an ``alembic.ini`` or a working directory."""

from __future__ import annotations

from functools import cache

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

SCRIPT_LOCATION = "bot.storage:migrations"
# Any fixed number: the advisory lock that keeps two processes from migrating at once.
_POSTGRES_MIGRATION_LOCK = 7_324_001


# The newest migration; the tests and `migrate` compare against it.
HEAD_REVISION = "0010"


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade_to_head(connection: Connection) -> str:
    """Apply every pending migration on ``connection``; the revision it is at afterwards."""
    # Serialize processes migrating at once: the second waits, then finds nothing to do.
    if connection.dialect.name == "postgresql":
        connection.execute(
            text("SELECT pg_advisory_xact_lock(:key)"), {"key": _POSTGRES_MIGRATION_LOCK}
        )
    elif connection.dialect.name == "sqlite":
        # The sqlite3 driver runs DDL outside any transaction unless one is begun explicitly;
        # IMMEDIATE takes the write lock up front and makes the whole upgrade atomic.
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    # At the head already (every start but the first): alembic's env.py and scripts unread.
    if current_revision(connection) != scripts_head():
        command.upgrade(alembic_config(connection), "head")
    revision = current_revision(connection)
    if revision is None:
        raise RuntimeError("no migration was applied: the migration scripts are missing")
    return revision


@cache
def scripts_head() -> str | None:
    """The newest migration script's revision, read once per process (alembic imports every
    script to find it)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()
