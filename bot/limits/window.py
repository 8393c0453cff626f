"""Sliding-window-log arithmetic shared by the backends, the dispatcher and the forecast.

A pool admits a request at `now` when fewer than `limit` of its stamps satisfy
`stamp + window > now`. Every comparison uses that one form so that a time computed as
`stamp + window` compares equal to the stamp's expiry, with no float drift between callers.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

UPSTREAM_WINDOW = 60.0
BASIC = "basic"
QA = "qa"


@dataclass(frozen=True)
class Quota:
    pool: str
    limit: int


@dataclass(frozen=True)
class Pools:
    """A token's two Magisterium pools and the window they are counted over."""

    basic: int
    qa: int
    window: float

    @property
    def all(self) -> tuple[Quota, Quota]:
        return Quota(BASIC, self.basic), Quota(QA, self.qa)

    def charged(self, expensive: bool) -> tuple[Quota, ...]:
        """The pools one request counts against: catholic_qa counts against both."""
        return self.all if expensive else self.all[:1]


@dataclass(frozen=True)
class PoolState:
    """One token's admissions still in the window (sorted per pool) and its pause."""

    pause_until: float = float("-inf")
    logs: Mapping[str, Sequence[float]] = field(default_factory=dict)

    def paused(self, until: float) -> PoolState:
        return PoolState(max(self.pause_until, until), self.logs)

    def idle(self, window: float, now: float) -> bool:
        live = any(stamps and stamps[-1] + window > now for stamps in self.logs.values())
        return not live and self.pause_until <= now


def free_at(stamps: Sequence[float], limit: int, window: float, now: float) -> float:
    """When the pool next has room: `now` when it has room already. `stamps` is sorted."""
    first_live = bisect_right(stamps, now, key=lambda stamp: stamp + window)
    live = len(stamps) - first_live
    if live < limit:
        return now
    return stamps[len(stamps) - limit] + window


def free_times(state: PoolState, pools: Pools, now: float) -> tuple[float, float]:
    """(basic, qa): when each pool next has room."""
    basic, qa = (
        free_at(state.logs.get(quota.pool, ()), quota.limit, pools.window, now)
        for quota in pools.all
    )
    return basic, qa


@dataclass(frozen=True)
class Later:
    """Nothing can be admitted before `until`."""

    until: float


def choose(
    heads: Iterable[bool], *, pause_until: float, basic_free: float, qa_free: float, now: float
) -> int | Later:
    """Index of the first head (in round-robin order) admissible at `now`, else when to look again.

    `heads` are the expensive flags of each user's oldest request. While only the stricter
    catholic_qa pool is full, a cheap request further down the rotation may go first; a full
    basic pool or a pause stops everyone.
    """
    if pause_until > now:
        return Later(pause_until)
    if basic_free > now:
        return Later(basic_free)
    for index, expensive in enumerate(heads):
        if not expensive or qa_free <= now:
            return index
    return Later(qa_free)
