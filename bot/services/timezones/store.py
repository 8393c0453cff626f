"""``TimezoneStore``: people's and servers' timezones, and the one resolution every "today"
uses.

The order: the person's own (``/account timezone``), else their ``/mydaily`` timezone (the
schedule set most recently); then, in a server only, the server's (``/server timezone``), else
its ``/daily`` timezone (most recently set); else UTC, flagged as the fallback. It is read in
one SELECT of scalar subqueries, since it runs on every ``/readings``, ``/saints`` and every
autocomplete keystroke. A database that is down or slow gives the fallback, never an error.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import ScalarSelect, delete, literal, select

from bot.accounts.wall_clock import Clock, utcnow
from bot.services.timezones.zone import UTC_FALLBACK, ResolvedZone, ZoneSource, first_set
from bot.storage import Database, StorageUnavailable, rows_of_user
from bot.storage.models import (
    DailyScheduleRow,
    PersonalDailyRow,
    PersonTimezoneRow,
    ServerTimezoneRow,
)
from bot.storage.upsert import dialect_insert

log = logging.getLogger(__name__)

# Autocomplete must answer within Discord's 3 seconds: a slow database gives UTC instead.
RESOLVE_TIMEOUT_SECONDS = 1.0

_ORDER = (
    ZoneSource.PERSON,
    ZoneSource.PERSONAL_DAILY,
    ZoneSource.SERVER,
    ZoneSource.SERVER_DAILY,
)


def _none() -> ScalarSelect[Any]:
    return select(literal(None)).scalar_subquery()


def _candidates(user_id: int | None, guild_id: int | None) -> list[ScalarSelect[Any]]:
    """One scalar subquery per source, in ``_ORDER``; a source that does not apply is NULL."""
    person, personal_daily, server, server_daily = _none(), _none(), _none(), _none()
    if user_id is not None:
        person = (
            select(PersonTimezoneRow.timezone)
            .where(PersonTimezoneRow.discord_user_id == user_id)
            .scalar_subquery()
        )
        personal_daily = (
            select(PersonalDailyRow.timezone)
            .where(PersonalDailyRow.discord_user_id == user_id)
            .order_by(PersonalDailyRow.updated_at.desc())
            .limit(1)
            .scalar_subquery()
        )
    if guild_id is not None:
        server = (
            select(ServerTimezoneRow.timezone)
            .where(ServerTimezoneRow.guild_id == guild_id)
            .scalar_subquery()
        )
        server_daily = (
            select(DailyScheduleRow.timezone)
            .where(DailyScheduleRow.guild_id == guild_id)
            .order_by(DailyScheduleRow.updated_at.desc())
            .limit(1)
            .scalar_subquery()
        )
    return [person, personal_daily, server, server_daily]


class TimezoneStore:
    def __init__(
        self,
        db: Database,
        *,
        clock: Clock = utcnow,
        timeout: float = RESOLVE_TIMEOUT_SECONDS,
    ) -> None:
        self._db = db
        self.clock = clock
        self.timeout = timeout
        db.user_data.register(PersonTimezoneRow.__tablename__, rows_of_user(PersonTimezoneRow))

    async def resolve(self, user_id: int | None, guild_id: int | None) -> ResolvedZone:
        """The zone "today" is computed in for ``user_id`` asking in ``guild_id`` (None: a DM,
        where only the person's own settings apply). ``user_id`` None: the server's alone."""
        if user_id is None and guild_id is None:
            return UTC_FALLBACK
        query = select(*_candidates(user_id, guild_id))
        try:
            async with asyncio.timeout(self.timeout):
                row = await self._db.first(query)
        except (StorageUnavailable, TimeoutError) as error:
            log.warning("timezone unknown, using UTC: %s", error or type(error).__name__)
            return UTC_FALLBACK
        stored = tuple(row) if row is not None else (None,) * len(_ORDER)
        return first_set(zip(stored, _ORDER, strict=True))

    async def set_person(self, user_id: int, zone: str | None) -> None:
        """The person's own timezone; None forgets it (back to automatic)."""
        await self._set(PersonTimezoneRow, PersonTimezoneRow.discord_user_id, user_id, zone)

    async def set_server(self, guild_id: int, zone: str | None) -> None:
        """The server's timezone; None forgets it (back to its /daily timezone, else UTC)."""
        await self._set(ServerTimezoneRow, ServerTimezoneRow.guild_id, guild_id, zone)

    async def forget_server(self, guild_id: int) -> bool:
        """Delete the server's timezone (the bot was removed); True when one was set."""
        async with self._db.session() as session:
            result: Any = await session.execute(
                delete(ServerTimezoneRow).where(ServerTimezoneRow.guild_id == guild_id)
            )
        return bool(result.rowcount)

    async def _set(self, model: Any, key: Any, key_value: int, zone: str | None) -> None:
        async with self._db.session() as session:
            if zone is None:
                await session.execute(delete(model).where(key == key_value))
                return
            values = {key.key: key_value, "timezone": zone, "updated_at": self.clock()}
            insert = dialect_insert(self._db.dialect_name, model).values(**values)
            await session.execute(
                insert.on_conflict_do_update(
                    index_elements=[key],
                    set_={"timezone": zone, "updated_at": values["updated_at"]},
                )
            )
