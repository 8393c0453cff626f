"""``PersonalScheduleStore``: people's daily DMs and their per-date claims (``/mydaily``).

The planner's statements (claim, release, posted, failures, status) are ``bot.daily.slots``',
the same as a server's schedules run. Read with each schedule: whether its person has a linked
account, which makes it post with their own token, else with the operator's. ``/account
unlink`` deletes a person's schedules and claims (a registered user-data deleter).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Select, delete, func, select, update

from bot.daily.personal import PersonalSchedule
from bot.daily.schedule import Feed, ScheduleStatus
from bot.daily.slots import SlotStore
from bot.storage import Database, LinkedAccountRow, rows_of_user
from bot.storage.housekeeping import rowcount
from bot.storage.models import PersonalDailyClaimRow as Claim
from bot.storage.models import PersonalDailyRow as Row
from bot.storage.upsert import dialect_insert

# Replaced by /mydaily set on an existing schedule; its history (last post, last error) stays.
_CONFIG = (
    "post_time",
    "timezone",
    "locale",
    "status",
    "status_reason",
    "active_since",
    "failures",
    "retry_at",
    "updated_at",
)


def _schedule(row: Row, linked: bool) -> PersonalSchedule:
    hour, minute = row.post_time.split(":")
    return PersonalSchedule(
        user_id=row.discord_user_id,
        feed=Feed(row.feed),
        post_time=dt.time(int(hour), int(minute)),
        timezone=row.timezone,
        locale=row.locale,
        token_source="own" if linked else "shared",
        status=ScheduleStatus(row.status),
        status_reason=row.status_reason,
        active_since=row.active_since,
        dm_channel_id=row.dm_channel_id,
        last_posted_date=row.last_posted_date,
        last_posted_at=row.last_posted_at,
        last_message_id=row.last_message_id,
        last_error=row.last_error,
        last_error_at=row.last_error_at,
        failures=row.failures,
        retry_at=row.retry_at,
    )


def _with_account() -> Select[Row, int]:
    """Schedules, each with its person's linked account id (None: no account linked)."""
    linked = LinkedAccountRow.discord_user_id
    return select(Row, linked).outerjoin(LinkedAccountRow, linked == Row.discord_user_id)


class PersonalScheduleStore(SlotStore[PersonalSchedule]):
    def __init__(self, db: Database) -> None:
        super().__init__(db, row=Row, claim=Claim, owner_column="discord_user_id")
        db.user_data.register(Claim.__tablename__, rows_of_user(Claim))
        db.user_data.register(Row.__tablename__, rows_of_user(Row))

    # -- schedules, as /mydaily sees them

    async def save(
        self,
        *,
        user_id: int,
        feed: Feed,
        post_time: dt.time,
        timezone: str,
        locale: str,
        now: dt.datetime,
        dm_channel_id: int | None = None,
    ) -> PersonalSchedule:
        """Create or replace the person's schedule for ``feed``, active from ``now`` (a paused
        one resumes). ``dm_channel_id``: their DM with the bot, when known; kept otherwise."""
        values = {
            "discord_user_id": user_id,
            "feed": feed.value,
            "post_time": post_time.strftime("%H:%M"),
            "timezone": timezone,
            "locale": locale,
            "dm_channel_id": dm_channel_id,
            "status": ScheduleStatus.ACTIVE.value,
            "status_reason": None,
            "active_since": now,
            "failures": 0,
            "retry_at": None,
            "updated_at": now,
        }
        insert = dialect_insert(self._db.dialect_name, Row).values(**values)
        replaced: dict[str, Any] = {name: insert.excluded[name] for name in _CONFIG}
        replaced["dm_channel_id"] = func.coalesce(insert.excluded.dm_channel_id, Row.dm_channel_id)
        statement = insert.on_conflict_do_update(
            index_elements=[Row.discord_user_id, Row.feed], set_=replaced
        )
        async with self._db.session() as session:
            await session.execute(statement)
        saved = await self.get(user_id, feed)
        assert saved is not None
        return saved

    async def get(self, user_id: int, feed: Feed) -> PersonalSchedule | None:
        statement = _with_account().where(self._where(user_id, feed))
        async with self._db.session() as session:
            found = (await session.execute(statement)).first()
        return None if found is None else _schedule(found[0], found[1] is not None)

    async def of_user(self, user_id: int) -> list[PersonalSchedule]:
        statement = _with_account().where(Row.discord_user_id == user_id).order_by(Row.feed)
        async with self._db.session() as session:
            rows = (await session.execute(statement)).all()
        return [_schedule(row, linked is not None) for row, linked in rows]

    async def remove(self, user_id: int, feed: Feed) -> bool:
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(self._where(user_id, feed)))
            return rowcount(result) > 0

    # -- the scheduler's reads (its writes are SlotStore's)

    async def live(self) -> list[PersonalSchedule]:
        """Every schedule that is not disabled (paused ones may resume)."""
        statement = _with_account().where(Row.status != ScheduleStatus.DISABLED.value)
        async with self._db.session() as session:
            rows = (await session.execute(statement)).all()
        return [_schedule(row, linked is not None) for row, linked in rows]

    async def remember_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """The person's DM channel with the bot (None: forget it, it is opened again)."""
        statement = (
            update(Row).where(Row.discord_user_id == user_id).values(dm_channel_id=channel_id)
        )
        async with self._db.session() as session:
            await session.execute(statement)

    # -- user data
