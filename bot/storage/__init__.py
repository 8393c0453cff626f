"""Storage: the database (SQLite or PostgreSQL), its migrations and per-user data deletion."""

from bot.storage.database import Database
from bot.storage.deletion import UserDataDeleter, UserDataDeleters, rows_of_user
from bot.storage.engine import DEFAULT_DATABASE_URL
from bot.storage.errors import StorageUnavailable
from bot.storage.models import (
    Base,
    LinkedAccountRow,
    ServerAccountRow,
    ServerTokenUsageRow,
    SharedTokenUsageRow,
)

__all__ = [
    "DEFAULT_DATABASE_URL",
    "Base",
    "Database",
    "LinkedAccountRow",
    "ServerAccountRow",
    "ServerTokenUsageRow",
    "SharedTokenUsageRow",
    "StorageUnavailable",
    "UserDataDeleter",
    "UserDataDeleters",
    "rows_of_user",
]
