"""Per-token sliding-window request caps on an injected clock."""

from __future__ import annotations

import math
from collections import defaultdict, deque
from collections.abc import Callable

WINDOW_SECONDS = 60.0


class SlidingWindow:
    """At most `limit` hits per key in any WINDOW_SECONDS span."""

    def __init__(self, limit: int, clock: Callable[[], float]) -> None:
        self.limit = limit
        self._clock = clock
        self._hits: defaultdict[str, deque[float]] = defaultdict(deque)

    def _prune(self, key: str, now: float) -> deque[float]:
        hits = self._hits[key]
        while hits and now - hits[0] >= WINDOW_SECONDS:
            hits.popleft()
        return hits

    def retry_after(self, key: str) -> int:
        """0 when a hit is allowed now, else whole seconds (>= 1) until a slot frees."""
        now = self._clock()
        hits = self._prune(key, now)
        if len(hits) < self.limit:
            return 0
        if self.limit <= 0:
            return math.ceil(WINDOW_SECONDS)
        # The slot that frees the window is the one `limit` places from the end.
        oldest_blocking = hits[len(hits) - self.limit]
        return max(1, math.ceil(oldest_blocking + WINDOW_SECONDS - now))

    def hit(self, key: str) -> None:
        self._hits[key].append(self._clock())

    def clear(self) -> None:
        self._hits.clear()
