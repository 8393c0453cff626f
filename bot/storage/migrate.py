"""Alembic, driven from code: the scripts ship inside the package, so an installed wheel
migrates without an ``alembic.ini`` or a working directory."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

log = logging.getLogger(__name__)

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


@dataclass(frozen=True)
class Migration:
    """What :func:`upgrade_to_head` did: the revision before (None: no tables) and after."""

    before: str | None
    after: str

    def report(self, database: str) -> None:
        """Log what was done to ``database`` (its URL, password masked) in one line, once
        committed (alembic's own lines, one a step, show at DEBUG only:
        ``bot.observability.logs``); nothing done, at DEBUG."""
        if self.before is None:
            log.info("database %s created at revision %s", database, self.after)
        elif self.before != self.after:
            log.info("database %s migrated from %s to %s", database, self.before, self.after)
        else:
            log.debug("database %s at revision %s: nothing to migrate", database, self.after)


def upgrade_to_head(connection: Connection) -> Migration:
    """Apply every pending migration on ``connection`` (committed by the caller)."""
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
    before = current_revision(connection)
    if before != scripts_head():
        command.upgrade(alembic_config(connection), "head")
    after = current_revision(connection)
    if after is None:
        raise RuntimeError("no migration was applied: the migration scripts are missing")
    return Migration(before, after)


@cache
def scripts_head() -> str | None:
    """The newest migration script's revision, read once per process (alembic imports every
    script to find it)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


@cache
def script_revisions() -> frozenset[str]:
    """Every revision this version's scripts know (a database at another was migrated by a
    newer version, or by hand)."""
    scripts = ScriptDirectory.from_config(alembic_config())
    return frozenset(script.revision for script in scripts.walk_revisions())


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()
