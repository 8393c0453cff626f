"""``SharedTokenQuota``: how much each user may use the operator's shared token, per hour.

Fixed hourly windows, counted in the database so every bot process shares them. A request
takes one unit from the ``all`` pool and, when expensive (catholic_qa), one from ``qa`` too;
both in one transaction, so a refused request takes nothing.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.accounts.errors import QuotaExceeded, QuotaPool
from bot.accounts.wall_clock import Clock, utcnow
from bot.storage import Database, SharedTokenUsageRow, rows_of_user
from bot.storage.upsert import dialect_insert

Row = SharedTokenUsageRow
WINDOW = timedelta(hours=1)


class SharedTokenQuota:
    def __init__(
        self,
        db: Database,
        per_hour: int,
        qa_per_hour: int,
        *,
        clock: Clock = utcnow,
    ) -> None:
        self._db = db
        self._limits: dict[QuotaPool, int] = {"all": per_hour, "qa": qa_per_hour}
        self._clock = clock
        db.user_data.register(Row.__tablename__, rows_of_user(Row))

    async def consume(self, user_id: int, expensive: bool) -> None:
        """Take one request from the user's allowance, or raise ``QuotaExceeded``.

        Atomic under concurrency: each pool's count is raised by one conditional upsert
        (``INSERT ... ON CONFLICT DO UPDATE ... WHERE count < limit RETURNING count``), which
        returns nothing once the limit is reached.
        """
        now = self._clock()
        window = window_start(now)
        retry_after = max(1, math.ceil((window + WINDOW - now).total_seconds()))
        pools: tuple[QuotaPool, ...] = ("all", "qa") if expensive else ("all",)
        for pool in pools:
            if self._limits[pool] <= 0:
                raise QuotaExceeded(retry_after, pool)
        async with self._db.session() as session:
            # Past windows are never read again: keep only the current one.
            await session.execute(
                delete(Row).where(Row.discord_user_id == user_id, Row.window_start < window)
            )
            for pool in pools:
                if not await self._increment(session, user_id, window, pool):
                    raise QuotaExceeded(retry_after, pool)

    async def remaining(self, user_id: int) -> tuple[int, int]:
        """Requests left this hour: (any kind, expensive). An expensive request also takes
        from the first, so the second never exceeds it."""
        window = window_start(self._clock())
        async with self._db.session() as session:
            rows = await session.execute(
                select(Row.pool, Row.count).where(
                    Row.discord_user_id == user_id, Row.window_start == window
                )
            )
            used = {pool: count for pool, count in rows}
        left_all = max(0, self._limits["all"] - used.get("all", 0))
        left_qa = max(0, self._limits["qa"] - used.get("qa", 0))
        return left_all, min(left_qa, left_all)

    async def _increment(
        self, session: AsyncSession, user_id: int, window: datetime, pool: QuotaPool
    ) -> bool:
        insert = dialect_insert(self._db.dialect_name, Row).values(
            discord_user_id=user_id, window_start=window, pool=pool, count=1
        )
        statement = insert.on_conflict_do_update(
            index_elements=[Row.discord_user_id, Row.window_start, Row.pool],
            set_={"count": Row.count + 1},
            where=Row.count < self._limits[pool],
        ).returning(Row.count)
        return (await session.execute(statement)).scalar_one_or_none() is not None


def window_start(now: datetime) -> datetime:
    """The start of the hourly window holding ``now`` (UTC)."""
    return now.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
