"""The limiter's clock: the event loop's time (so `looptime` fakes it in tests) on a wall epoch."""

from __future__ import annotations

import asyncio
import time
import weakref

# One offset per loop: every limiter in a loop (and through Redis, every process whose wall
# clock is in sync) stamps on the same scale.
_offsets: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, float] = weakref.WeakKeyDictionary()


class LoopClock:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        offset = _offsets.get(loop)
        if offset is None:
            offset = _offsets[loop] = time.time() - loop.time()
        self._offset = offset

    def now(self) -> float:
        return self.loop.time() + self._offset

    def to_loop(self, instant: float) -> float:
        return instant - self._offset
