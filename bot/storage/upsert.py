"""``INSERT ... ON CONFLICT`` for the database in use (SQLite and PostgreSQL spell it alike)."""

from __future__ import annotations

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import DeclarativeBase


def dialect_insert(
    dialect_name: str, model: type[DeclarativeBase]
) -> postgresql.Insert | sqlite.Insert:
    """An insert with ``on_conflict_do_update``; both dialects accept the same arguments."""
    if dialect_name == "postgresql":
        return postgresql.insert(model)
    if dialect_name == "sqlite":
        return sqlite.insert(model)
    raise ValueError(f"unsupported database dialect: {dialect_name}")
