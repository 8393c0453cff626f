"""``ScheduleStore``: a server's schedules and their per-date claims in the bot's database (the
statements the planner runs are ``bot.daily.slots``', shared with a person's schedules).

The claim is the whole exactly-once guarantee. ``claim`` inserts the (server, feed, local date)
row with ``ON CONFLICT DO NOTHING``: of any number of ticks, restarts or processes sharing the
database, one insert wins. A claim left ``sending`` by a process that died mid-post can be
taken over once its lease (two minutes) has run out; the send then reads the channel's recent
history for the post and reuses the same Discord nonce, so a message that did go out is not
duplicated (Discord enforces nonces for a few minutes, longer than the lease and the minute to
the next tick).
"""

from __future__ import annotations

import datetime as dt
from typing import cast

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.daily.schedule import Feed, Schedule, ScheduleStatus, TokenSource
from bot.daily.slots import ClaimKind, SlotStore
from bot.i18n import N_
from bot.storage import Database
from bot.storage.housekeeping import rowcount
from bot.storage.models import DailyClaimRow as Claim
from bot.storage.models import DailyScheduleRow as Row
from bot.storage.upsert import dialect_insert

__all__ = ["OWNER_UNLINKED", "ClaimKind", "ScheduleStore"]

# Stored in English (a schedule's reasons are); /daily status translates it when shown.
OWNER_UNLINKED = N_(
    "The admin who set this schedule unlinked their Magisterium account. "
    "Run `/daily set` again to post with your account."
)
# Replaced by /daily set on an existing schedule; its history (last post, last error) stays.
_CONFIG = (
    "channel_id",
    "post_time",
    "timezone",
    "role_id",
    "discord_user_id",
    "token_source",
    "status",
    "status_reason",
    "active_since",
    "failures",
    "retry_at",
    "updated_at",
    "locale",
)


def _schedule(row: Row) -> Schedule:
    hour, minute = row.post_time.split(":")
    return Schedule(
        guild_id=row.guild_id,
        feed=Feed(row.feed),
        channel_id=row.channel_id,
        post_time=dt.time(int(hour), int(minute)),
        timezone=row.timezone,
        role_id=row.role_id,
        owner_id=row.discord_user_id,
        token_source=cast(TokenSource, row.token_source),
        status=ScheduleStatus(row.status),
        status_reason=row.status_reason,
        active_since=row.active_since,
        last_posted_date=row.last_posted_date,
        last_posted_at=row.last_posted_at,
        last_message_id=row.last_message_id,
        last_error=row.last_error,
        last_error_at=row.last_error_at,
        failures=row.failures,
        retry_at=row.retry_at,
        locale=row.locale,
    )


class ScheduleStore(SlotStore[Schedule]):
    def __init__(self, db: Database) -> None:
        super().__init__(db, row=Row, claim=Claim, owner_column="guild_id")
        db.user_data.register(Row.__tablename__, self._forget_owner)

    # -- schedules, as /daily sees them

    async def save(
        self,
        *,
        guild_id: int,
        feed: Feed,
        channel_id: int,
        post_time: dt.time,
        timezone: str,
        role_id: int | None,
        owner_id: int,
        token_source: TokenSource,
        now: dt.datetime,
        locale: str | None = None,
    ) -> Schedule:
        """Create or replace the server's schedule for ``feed``; active from ``now``; posting in
        ``locale`` (a catalogue code), or in the server's language when None."""
        values = {
            "guild_id": guild_id,
            "feed": feed.value,
            "channel_id": channel_id,
            "post_time": post_time.strftime("%H:%M"),
            "timezone": timezone,
            "role_id": role_id,
            "discord_user_id": owner_id,
            "token_source": token_source,
            "status": ScheduleStatus.ACTIVE.value,
            "status_reason": None,
            "active_since": now,
            "failures": 0,
            "retry_at": None,
            "updated_at": now,
            "locale": locale,
        }
        insert = dialect_insert(self._db.dialect_name, Row).values(**values)
        statement = insert.on_conflict_do_update(
            index_elements=[Row.guild_id, Row.feed],
            set_={name: insert.excluded[name] for name in _CONFIG},
        )
        async with self._db.session() as session:
            await session.execute(statement)
            row = await session.get(Row, (guild_id, feed.value), populate_existing=True)
            assert row is not None
            return _schedule(row)

    async def get(self, guild_id: int, feed: Feed) -> Schedule | None:
        async with self._db.session() as session:
            row = await session.get(Row, (guild_id, feed.value))
            return None if row is None else _schedule(row)

    async def of_guild(self, guild_id: int) -> list[Schedule]:
        statement = select(Row).where(Row.guild_id == guild_id).order_by(Row.feed)
        async with self._db.session() as session:
            return [_schedule(row) for row in await session.scalars(statement)]

    async def remove(self, guild_id: int, feed: Feed) -> bool:
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(self._where(guild_id, feed)))
            return rowcount(result) > 0

    async def remove_guild(self, guild_id: int) -> int:
        """Everything about a server that removed the bot: its schedules and claims."""
        async with self._db.session() as session:
            await session.execute(delete(Claim).where(Claim.guild_id == guild_id))
            result = await session.execute(delete(Row).where(Row.guild_id == guild_id))
            return rowcount(result)

    # -- the scheduler's reads (its writes are SlotStore's)

    async def live(self) -> list[Schedule]:
        """Every schedule that is not disabled (paused ones may resume)."""
        statement = select(Row).where(Row.status != ScheduleStatus.DISABLED.value)
        async with self._db.session() as session:
            return [_schedule(row) for row in await session.scalars(statement)]

    # -- user data

    async def _forget_owner(self, session: AsyncSession, user_id: int) -> int:
        """An admin unlinked: drop their id; schedules that used their token pause."""
        own = (
            (Row.discord_user_id == user_id)
            & (Row.token_source == "own")  # noqa: S105 (a source name, not a secret)
            & (Row.status != ScheduleStatus.DISABLED.value)
        )
        await session.execute(
            update(Row)
            .where(own)
            .values(status=ScheduleStatus.PAUSED.value, status_reason=OWNER_UNLINKED)
        )
        result = await session.execute(
            update(Row).where(Row.discord_user_id == user_id).values(discord_user_id=None)
        )
        return rowcount(result)
