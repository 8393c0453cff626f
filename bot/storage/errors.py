"""The one storage error the rest of the bot handles: the database cannot be used right now."""

from __future__ import annotations

import logging
import sqlite3

from sqlalchemy import exc as sa_exc

log = logging.getLogger(__name__)

# Driver errors arrive wrapped in SQLAlchemy's DBAPIError, carrying the SQLSTATE.
# SQLSTATE classes that mean "not now" rather than "wrong query": connection exception,
# authorization, unknown database, rollback (serialization/deadlock), resources, operator
# intervention (shutdown), system error.
# 55: "object not in prerequisite state", e.g. a database that does not allow connections now.
_UNAVAILABLE_SQLSTATE_CLASSES = frozenset({"08", "28", "3D", "40", "53", "55", "57", "58"})

# SQLite reports these as OperationalError too, but retrying cannot help: a missing migration
# or a bad query must surface as the bug it is, not as "try again shortly".
_SCHEMA_OR_QUERY_BUGS = ("no such table", "no such column", "has no column", "syntax error")

_RAW_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,  # connection refused, unreachable host, DNS failure
    TimeoutError,
    sqlite3.OperationalError,
    sa_exc.TimeoutError,  # the connection pool is exhausted
)


class StorageUnavailable(Exception):
    """The database cannot be reached or is busy; nothing stored was changed by the failed call.

    The message names the kind of failure only: never a URL, a password or SQL parameters.
    """


def as_unavailable(error: BaseException) -> StorageUnavailable | None:
    """The ``StorageUnavailable`` that ``error`` amounts to, or None for a genuine bug."""
    reason = _reason(error)
    if reason is None:
        return None
    log.warning("storage unavailable: %s (%s)", reason, type(error).__name__)
    return StorageUnavailable(f"the database is unavailable: {reason}")


def _reason(error: BaseException) -> str | None:
    if isinstance(error, sa_exc.DBAPIError):
        return _dbapi_reason(error)
    if isinstance(error, _RAW_UNAVAILABLE):
        if "locked" in str(error).lower():
            return "it is locked by another writer"
        if isinstance(error, TimeoutError | sa_exc.TimeoutError):
            return "it did not answer in time"
        return "cannot connect to it"
    return None


def _dbapi_reason(error: sa_exc.DBAPIError) -> str | None:
    message = str(error.orig).lower()
    if "locked" in message or "busy" in message:
        return "it is locked by another writer"
    if any(marker in message for marker in _SCHEMA_OR_QUERY_BUGS):
        return None
    if error.connection_invalidated:
        return "the connection to it was lost"
    sqlstate = getattr(error.orig, "sqlstate", None)
    if isinstance(sqlstate, str) and sqlstate[:2] in _UNAVAILABLE_SQLSTATE_CLASSES:
        return f"the server refused the operation (SQLSTATE {sqlstate})"
    if isinstance(error, sa_exc.OperationalError | sa_exc.InterfaceError):
        return "the operation failed at the database"
    return None
