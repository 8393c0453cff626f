"""``ServerTokenQuota``: each member's hourly allowance on their server's account.

The same fixed hourly windows and atomic conditional upserts as the shared token's quota
(:mod:`bot.accounts.quota`), counted per (server, member); the limits are the server's own,
set by its admins. Rows are kept for a day so ``/server status`` can say how many members used
the account this hour and in the last 24 hours (counts only); older ones are deleted as the
server makes its next request.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.accounts.errors import QuotaExceeded, QuotaPool
from bot.accounts.quota import WINDOW, window_start
from bot.accounts.server_registry import Allowance
from bot.accounts.wall_clock import Clock, utcnow
from bot.storage import Database, ServerTokenUsageRow, rows_of_user
from bot.storage.upsert import dialect_insert

Row = ServerTokenUsageRow
KEPT = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class ServerUsage:
    """How many members used the server's account: this hour, and in the last 24 hours."""

    members_this_hour: int
    members_last_day: int


class ServerTokenQuota:
    def __init__(self, db: Database, *, clock: Clock = utcnow) -> None:
        self._db = db
        self.clock = clock  # what "now" is (tests move it)
        db.user_data.register(Row.__tablename__, rows_of_user(Row))

    def retry_after(self) -> int:
        """Seconds until the current hourly window ends (when every allowance refills)."""
        now = self.clock()
        return max(1, math.ceil((window_start(now) + WINDOW - now).total_seconds()))

    async def consume(
        self, guild_id: int, user_id: int, allowance: Allowance, *, expensive: bool
    ) -> None:
        """Take one request from the member's allowance, or raise ``QuotaExceeded`` (a kind
        turned off included); a refused request takes nothing."""
        window = window_start(self.clock())
        limits: dict[QuotaPool, int] = {"all": allowance.per_hour, "qa": allowance.qa_per_hour}
        pools: tuple[QuotaPool, ...] = ("all", "qa") if expensive else ("all",)
        for pool in pools:
            if limits[pool] <= 0:
                raise QuotaExceeded(self.retry_after(), pool)
        async with self._db.session() as session:
            await session.execute(
                delete(Row).where(Row.guild_id == guild_id, Row.window_start <= window - KEPT)
            )
            for pool in pools:
                if not await self._increment(
                    session, (guild_id, user_id, window), pool, limit=limits[pool]
                ):
                    raise QuotaExceeded(self.retry_after(), pool)

    async def remaining(self, guild_id: int, user_id: int, allowance: Allowance) -> tuple[int, int]:
        """Requests left this hour: (any kind, expensive), the second never above the first."""
        window = window_start(self.clock())
        async with self._db.session() as session:
            rows = await session.execute(
                select(Row.pool, Row.count).where(
                    Row.guild_id == guild_id,
                    Row.discord_user_id == user_id,
                    Row.window_start == window,
                )
            )
            used = {pool: count for pool, count in rows}
        left_all = max(0, allowance.per_hour - used.get("all", 0))
        left_qa = max(0, allowance.qa_per_hour - used.get("qa", 0))
        return left_all, min(left_qa, left_all)

    async def usage(self, guild_id: int) -> ServerUsage:
        """Distinct members who used the account; never who they are or what they asked."""
        window = window_start(self.clock())
        members = func.count(Row.discord_user_id.distinct())
        of_guild = (Row.guild_id == guild_id, Row.pool == "all")
        async with self._db.session() as session:
            this_hour = await session.scalar(
                select(members).where(*of_guild, Row.window_start == window)
            )
            last_day = await session.scalar(
                select(members).where(*of_guild, Row.window_start > window - KEPT)
            )
        return ServerUsage(int(this_hour or 0), int(last_day or 0))

    async def _increment(
        self,
        session: AsyncSession,
        key: tuple[int, int, datetime],
        pool: QuotaPool,
        *,
        limit: int,
    ) -> bool:
        """Raise (guild, member, window)'s count in ``pool`` by one, unless at ``limit``."""
        guild_id, user_id, window = key
        insert = dialect_insert(self._db.dialect_name, Row).values(
            guild_id=guild_id, discord_user_id=user_id, window_start=window, pool=pool, count=1
        )
        statement = insert.on_conflict_do_update(
            index_elements=[Row.guild_id, Row.discord_user_id, Row.window_start, Row.pool],
            set_={"count": Row.count + 1},
            where=Row.count < limit,
        ).returning(Row.count)
        return (await session.execute(statement)).scalar_one_or_none() is not None
