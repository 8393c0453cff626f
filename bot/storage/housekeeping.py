"""Small shared pieces of the stores: rows a statement touched, and purges run now and then."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult

from bot.storage.errors import StorageUnavailable

log = logging.getLogger(__name__)

PURGE_EVERY = timedelta(hours=1)


def rowcount(result: Any) -> int:
    """How many rows an UPDATE or DELETE touched."""
    return int(cast("CursorResult[Any]", result).rowcount or 0)


class OccasionalPurge:
    """A store's purge of old rows, run after a write at most once per :data:`PURGE_EVERY`
    in this process; a database that is down only postpones it to the next write."""

    def __init__(self, purge: Callable[[datetime], Awaitable[int]], *, rows: str) -> None:
        self._purge = purge
        self._rows = rows  # what is purged, for the log: "expired answer conversations"
        self._purged_at: datetime | None = None

    async def after_write(self, now: datetime) -> None:
        if self._purged_at is not None and now - self._purged_at < PURGE_EVERY:
            return
        self._purged_at = now
        try:
            purged = await self._purge(now)
        except StorageUnavailable as error:  # the write is in; the next purge catches up
            log.warning("%s not purged: %s", self._rows, error)
            return
        if purged:
            log.info("purged %d %s", purged, self._rows)
