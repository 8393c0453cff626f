"""Per-user data deletion: every store registers how to delete what it keeps about a user.

Modelled on Red's ``red_delete_data_for_user``: ``/account unlink`` runs every registered deleter
in one transaction, so a user's data goes all at once or not at all. A new table holding user
data comes with a deleter registered by the store that owns it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

from sqlalchemy import delete
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import DeclarativeBase

from bot.storage.models import USER_ID_COLUMN

log = logging.getLogger(__name__)

UserDataDeleter = Callable[[AsyncSession, int], Awaitable[int]]
"""Deletes one user's rows inside the given session; returns how many rows it deleted."""


class UserDataDeleters:
    """The deleters registered on one ``Database``, run in registration order."""

    def __init__(self) -> None:
        self._deleters: dict[str, UserDataDeleter] = {}

    def register(self, name: str, deleter: UserDataDeleter) -> None:
        """Add ``deleter`` under ``name``; registering a name again replaces it (idempotent)."""
        self._deleters[name] = deleter

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._deleters)

    async def run(self, session: AsyncSession, user_id: int) -> dict[str, int]:
        deleted = {name: await delete(session, user_id) for name, delete in self._deleters.items()}
        log.info("deleted user data: %s", deleted)
        return deleted


def rows_of_user(model: type[DeclarativeBase]) -> UserDataDeleter:
    """A deleter for every row of ``model`` whose ``discord_user_id`` is the user."""
    column = getattr(model, USER_ID_COLUMN)

    async def delete_rows(session: AsyncSession, user_id: int) -> int:
        result = await session.execute(delete(model).where(column == user_id))
        return cast("CursorResult[Any]", result).rowcount

    return delete_rows
