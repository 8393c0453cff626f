"""The daily posts' pace: under Discord's global rate limit, whatever the number of servers.

Discord lets a bot make 50 requests a second over every route but the interaction endpoints,
counted on its token, so shared by every process that runs some of its shards. discord.py
learns of that limit only from a 429 with ``global: true``; a fan-out of thousands of posts at
a fixed concurrency meets it again and again (the bench, ``bench/daily_fanout.py``: 700 such
429s for 5,000 posts from one process, 2,400 from four), and every 429 counts toward the
invalid requests after which Discord bans the bot's address (10,000 in 10 minutes). So the
posts start evenly spaced, at a rate under the limit (room left for the bot's other requests),
each process at its share: its shards out of all the bot's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection

# Discord's global limit is 50 requests a second per bot; the posts leave a tenth of it to the
# rest (DMs, threads, history reads) over every process together.
DEFAULT_POSTS_PER_SECOND = 45.0


def process_share(shard_ids: Collection[int] | None, shard_count: int | None) -> float:
    """This process's part of the bot's traffic: its shards out of all (1 when it runs every
    shard, or when sharding is not known)."""
    if not shard_ids or not shard_count:
        return 1.0
    return min(1.0, len(set(shard_ids)) / shard_count)


class Pace:
    """At most ``per_second`` starts a second: each :meth:`turn` starts at least
    ``1 / per_second`` after the one before it actually started, callers in the order they came.
    Spaced from the actual start, not from a schedule: a caller that woke late (a busy event
    loop) does not let the ones behind it catch up in a burst, and neither does an idle spell.
    0: no pacing."""

    def __init__(
        self,
        per_second: float,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if per_second < 0:
            raise ValueError("Pace needs per_second >= 0")
        self.per_second = per_second
        self._clock = clock
        self._sleep = sleep
        self._next = float("-inf")  # the earliest instant the next turn may start
        self._queue = asyncio.Lock()  # fair: its waiters get it in the order they came

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    async def turn(self) -> None:
        """Wait for this caller's turn."""
        if self.per_second <= 0:
            return
        async with self._queue:
            wait = self._next - self._now()
            if wait > 0:
                await self._sleep(wait)
            self._next = self._now() + 1 / self.per_second
