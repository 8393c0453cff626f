"""``ScheduleStore``: schedules and their per-date claims in the bot's database.

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
from typing import Any, Literal, cast

from sqlalchemy import delete, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession

from bot.daily.schedule import Feed, Schedule, ScheduleStatus, TokenSource
from bot.i18n import N_
from bot.storage import Database
from bot.storage.models import DailyClaimRow as Claim
from bot.storage.models import DailyScheduleRow as Row
from bot.storage.upsert import dialect_insert

# Stored in English (a schedule's reasons are); /daily status translates it when shown.
OWNER_UNLINKED = N_(
    "The admin who set this schedule unlinked their Magisterium account. "
    "Run `/daily set` again to post with your account."
)
_REASON_LENGTH = 300
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


ClaimKind = Literal["new", "taken_over"]


def _clip(text: str | None) -> str | None:
    return None if text is None else text[:_REASON_LENGTH]


def _rowcount(result: Any) -> int:
    return cast("CursorResult[Any]", result).rowcount


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


def _where(guild_id: int, feed: Feed) -> Any:
    return (Row.guild_id == guild_id) & (Row.feed == feed.value)


def _claim_where(guild_id: int, feed: Feed, day: dt.date) -> Any:
    return (Claim.guild_id == guild_id) & (Claim.feed == feed.value) & (Claim.local_date == day)


class ScheduleStore:
    def __init__(self, db: Database) -> None:
        self._db = db
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
            result = await session.execute(delete(Row).where(_where(guild_id, feed)))
            return _rowcount(result) > 0

    async def remove_guild(self, guild_id: int) -> int:
        """Everything about a server that removed the bot: its schedules and claims."""
        async with self._db.session() as session:
            await session.execute(delete(Claim).where(Claim.guild_id == guild_id))
            result = await session.execute(delete(Row).where(Row.guild_id == guild_id))
            return _rowcount(result)

    # -- the scheduler's reads and writes

    async def live(self) -> list[Schedule]:
        """Every schedule that is not disabled (paused ones may resume)."""
        statement = select(Row).where(Row.status != ScheduleStatus.DISABLED.value)
        async with self._db.session() as session:
            return [_schedule(row) for row in await session.scalars(statement)]

    async def set_status(
        self,
        guild_id: int,
        feed: Feed,
        status: ScheduleStatus,
        reason: str | None,
        *,
        now: dt.datetime,
    ) -> None:
        """Pause, disable or resume; a pause or disable also records the reason as last error."""
        values: dict[str, Any] = {
            "status": status.value,
            "status_reason": _clip(reason),
            "updated_at": now,
        }
        if reason is not None:
            values |= {"last_error": _clip(reason), "last_error_at": now}
        if status is ScheduleStatus.ACTIVE:
            values |= {"failures": 0, "retry_at": None}
        async with self._db.session() as session:
            await session.execute(update(Row).where(_where(guild_id, feed)).values(**values))

    async def record_failure(
        self, schedule: Schedule, error: str, *, now: dt.datetime, retry_at: dt.datetime
    ) -> None:
        """A transient failure: counted, recorded, retried no earlier than ``retry_at``."""
        statement = (
            update(Row)
            .where(_where(schedule.guild_id, schedule.feed))
            .values(
                failures=Row.failures + 1,
                last_error=_clip(error),
                last_error_at=now,
                retry_at=retry_at,
                updated_at=now,
            )
        )
        async with self._db.session() as session:
            await session.execute(statement)

    async def note(self, schedule: Schedule, error: str, *, now: dt.datetime) -> None:
        """Record a problem that did not stop the post (a deleted role, say)."""
        statement = (
            update(Row)
            .where(_where(schedule.guild_id, schedule.feed))
            .values(last_error=_clip(error), last_error_at=now)
        )
        async with self._db.session() as session:
            await session.execute(statement)

    # -- claims

    async def claim(
        self,
        schedule: Schedule,
        day: dt.date,
        *,
        claimant: str,
        now: dt.datetime,
        lease: dt.timedelta,
    ) -> bool:
        """Take the claim on ``schedule``'s post for local date ``day``; True when it is ours.

        It is ours when nobody held it, or when it was left ``sending`` for longer than
        ``lease`` (its process died mid-post)."""
        won = await self.claim_or_take_over(schedule, day, claimant=claimant, now=now, lease=lease)
        return won is not None

    async def claim_or_take_over(
        self,
        schedule: Schedule,
        day: dt.date,
        *,
        claimant: str,
        now: dt.datetime,
        lease: dt.timedelta,
    ) -> ClaimKind | None:
        """As :meth:`claim`, telling a fresh claim (``"new"``) from one taken over from a
        process that died mid-post (``"taken_over"``: its message may have gone out)."""
        insert = (
            dialect_insert(self._db.dialect_name, Claim)
            .values(
                guild_id=schedule.guild_id,
                feed=schedule.feed.value,
                local_date=day,
                state="sending",
                claimed_by=claimant,
                claimed_at=now,
            )
            .on_conflict_do_nothing()
            .returning(Claim.local_date)
        )
        async with self._db.session() as session:
            if (await session.execute(insert)).first() is not None:
                return "new"
            # Built only when needed: most claims are new, and building a statement costs
            # more CPU than running it (a fan-out claims thousands).
            take_over = (
                update(Claim)
                .where(_claim_where(schedule.guild_id, schedule.feed, day))
                .where(Claim.state == "sending", Claim.claimed_at < now - lease)
                .values(claimed_by=claimant, claimed_at=now)
            )
            if _rowcount(await session.execute(take_over)) == 1:
                return "taken_over"
            return None

    async def release(self, schedule: Schedule, day: dt.date, *, claimant: str) -> None:
        """Give back an unsent claim, so a later tick retries the post."""
        statement = (
            delete(Claim)
            .where(_claim_where(schedule.guild_id, schedule.feed, day))
            .where(Claim.state == "sending", Claim.claimed_by == claimant)
        )
        async with self._db.session() as session:
            await session.execute(statement)

    async def posted(
        self,
        schedule: Schedule,
        day: dt.date,
        *,
        claimant: str,
        message_id: int,
        now: dt.datetime,
    ) -> None:
        """The post went out: the claim is final and the schedule remembers it."""
        async with self._db.session() as session:
            await session.execute(
                update(Claim)
                .where(_claim_where(schedule.guild_id, schedule.feed, day))
                .where(Claim.claimed_by == claimant)
                .values(state="posted", message_id=message_id)
            )
            await session.execute(
                update(Row)
                .where(_where(schedule.guild_id, schedule.feed))
                .values(
                    last_posted_date=day,
                    last_posted_at=now,
                    last_message_id=message_id,
                    failures=0,
                    retry_at=None,
                )
            )

    async def claims(self, guild_id: int, feed: Feed) -> dict[dt.date, str]:
        """The claims of one schedule by local date, with their state (for tests and status)."""
        statement = select(Claim.local_date, Claim.state).where(
            (Claim.guild_id == guild_id) & (Claim.feed == feed.value)
        )
        async with self._db.session() as session:
            return {day: state for day, state in (await session.execute(statement)).all()}

    async def prune_claims(self, before: dt.date) -> int:
        """Drop claims of dates older than ``before``; no slot can be due for them again."""
        async with self._db.session() as session:
            result = await session.execute(delete(Claim).where(Claim.local_date < before))
            return _rowcount(result)

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
        return _rowcount(result)
