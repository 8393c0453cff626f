"""The claim and the record of a schedule's slots, for both kinds of schedule.

A server's schedules (``bot.daily.store``) and a person's (``bot.daily.personal_store``) live in
tables of their own, keyed by (server, feed) or (person, feed), each with its claims keyed by
that and the local date. The statements the planner runs on them are the same, written once
here: the claim (``INSERT … ON CONFLICT DO NOTHING``, the whole exactly-once guarantee; a
``sending`` claim whose lease ran out taken over), its release, the post recorded, a failure,
a status, a note, and pruning.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Generic, Literal, TypeVar

from sqlalchemy import delete, select, update

from bot.daily.schedule import Feed, ScheduleStatus, Slotted
from bot.storage import Database
from bot.storage.housekeeping import rowcount
from bot.storage.upsert import dialect_insert

ClaimKind = Literal["new", "taken_over"]
S = TypeVar("S", bound=Slotted)
REASON_LENGTH = 300


def clip(text: str | None) -> str | None:
    return None if text is None else text[:REASON_LENGTH]


class SlotStore(Generic[S]):
    """Schedules in ``row`` (keyed by ``owner_column`` and feed), claims in ``claim`` (keyed by
    the same and the local date)."""

    def __init__(self, db: Database, *, row: Any, claim: Any, owner_column: str) -> None:
        self._db = db
        self._row = row
        self._claim = claim
        self._owner_column = owner_column
        self._row_owner = getattr(row, owner_column)
        self._claim_owner = getattr(claim, owner_column)

    def _where(self, owner: int, feed: Feed) -> Any:
        return (self._row_owner == owner) & (self._row.feed == feed.value)

    def _claim_where(self, owner: int, feed: Feed, day: dt.date) -> Any:
        claim = self._claim
        return (self._claim_owner == owner) & (claim.feed == feed.value) & (claim.local_date == day)

    # -- the schedule's record

    async def set_status(
        self,
        owner: int,
        feed: Feed,
        status: ScheduleStatus,
        reason: str | None,
        *,
        now: dt.datetime,
    ) -> None:
        """Pause, disable or resume; a pause or disable also records the reason as last error."""
        values: dict[str, Any] = {
            "status": status.value,
            "status_reason": clip(reason),
            "updated_at": now,
        }
        if reason is not None:
            values |= {"last_error": clip(reason), "last_error_at": now}
        if status is ScheduleStatus.ACTIVE:
            values |= {"failures": 0, "retry_at": None}
        async with self._db.session() as session:
            await session.execute(update(self._row).where(self._where(owner, feed)).values(values))

    async def record_failure(
        self, schedule: S, error: str, *, now: dt.datetime, retry_at: dt.datetime
    ) -> None:
        """A transient failure: counted, recorded, retried no earlier than ``retry_at``."""
        statement = (
            update(self._row)
            .where(self._where(*schedule.key))
            .values(
                failures=self._row.failures + 1,
                last_error=clip(error),
                last_error_at=now,
                retry_at=retry_at,
                updated_at=now,
            )
        )
        async with self._db.session() as session:
            await session.execute(statement)

    async def note(self, schedule: S, error: str, *, now: dt.datetime) -> None:
        """Record a problem that did not stop the post (a deleted role, say)."""
        statement = (
            update(self._row)
            .where(self._where(*schedule.key))
            .values(last_error=clip(error), last_error_at=now)
        )
        async with self._db.session() as session:
            await session.execute(statement)

    # -- claims

    async def claim(
        self,
        schedule: S,
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
        schedule: S,
        day: dt.date,
        *,
        claimant: str,
        now: dt.datetime,
        lease: dt.timedelta,
    ) -> ClaimKind | None:
        """As :meth:`claim`, telling a fresh claim (``"new"``) from one taken over from a
        process that died mid-post (``"taken_over"``: its message may have gone out)."""
        owner, feed = schedule.key
        claim = self._claim
        insert = (
            dialect_insert(self._db.dialect_name, claim)
            .values(
                {
                    self._owner_column: owner,
                    "feed": feed.value,
                    "local_date": day,
                    "state": "sending",
                    "claimed_by": claimant,
                    "claimed_at": now,
                }
            )
            .on_conflict_do_nothing()
            .returning(claim.local_date)
        )
        async with self._db.session() as session:
            if (await session.execute(insert)).first() is not None:
                return "new"
            # Built only when needed: most claims are new, and building a statement costs
            # more CPU than running it (a fan-out claims thousands).
            take_over = (
                update(claim)
                .where(self._claim_where(owner, feed, day))
                .where(claim.state == "sending", claim.claimed_at < now - lease)
                .values(claimed_by=claimant, claimed_at=now)
            )
            if rowcount(await session.execute(take_over)) == 1:
                return "taken_over"
            return None

    async def release(self, schedule: S, day: dt.date, *, claimant: str) -> None:
        """Give back an unsent claim, so a later tick retries the post."""
        claim = self._claim
        statement = (
            delete(claim)
            .where(self._claim_where(*schedule.key, day))
            .where(claim.state == "sending", claim.claimed_by == claimant)
        )
        async with self._db.session() as session:
            await session.execute(statement)

    async def posted(
        self,
        schedule: S,
        day: dt.date,
        *,
        claimant: str,
        message_id: int,
        now: dt.datetime,
    ) -> None:
        """The post went out: the claim is final and the schedule remembers it."""
        async with self._db.session() as session:
            await session.execute(
                update(self._claim)
                .where(self._claim_where(*schedule.key, day))
                .where(self._claim.claimed_by == claimant)
                .values(state="posted", message_id=message_id)
            )
            await session.execute(
                update(self._row)
                .where(self._where(*schedule.key))
                .values(
                    last_posted_date=day,
                    last_posted_at=now,
                    last_message_id=message_id,
                    failures=0,
                    retry_at=None,
                )
            )

    async def claims(self, owner: int, feed: Feed) -> dict[dt.date, str]:
        """The claims of one schedule by local date, with their state (for tests and status)."""
        claim = self._claim
        statement = select(claim.local_date, claim.state).where(
            (self._claim_owner == owner) & (claim.feed == feed.value)
        )
        async with self._db.session() as session:
            return {day: state for day, state in (await session.execute(statement)).all()}

    async def prune_claims(self, before: dt.date) -> int:
        """Drop claims of dates older than ``before``; no slot can be due for them again."""
        claim = self._claim
        async with self._db.session() as session:
            result = await session.execute(delete(claim).where(claim.local_date < before))
            return rowcount(result)
