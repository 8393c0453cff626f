"""At most one log line per interval for an event that can come in floods."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

INTERVAL_SECONDS = 60.0


class LogThrottle:
    """Counts events and lets one of them be logged per ``interval`` seconds, so a flood
    costs one line a minute; the line can say how many were held back before it."""

    def __init__(
        self, interval: float = INTERVAL_SECONDS, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._interval = interval
        self._clock = clock
        self._next_line = -math.inf
        self._held_back = 0

    def event(self) -> int | None:
        """Count one event: None if it must not be logged, else how many were held back
        since the last line (0 for a lone event)."""
        now = self._clock()
        if now < self._next_line:
            self._held_back += 1
            return None
        held_back, self._held_back = self._held_back, 0
        self._next_line = now + self._interval
        return held_back
