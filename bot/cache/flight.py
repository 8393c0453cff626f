"""Single-flight within one process: concurrent callers for one key share one run of the work.

The work runs in a task of its own, so the caller who started it can give up (a cancelled
interaction) without cancelling it for the others; it is cancelled only when every caller
has given up. An error reaches every caller, and nothing of it is kept: the next call starts
afresh.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

Work = Callable[[], Coroutine[Any, Any, T]]


class Flight(Generic[T]):
    """One run of the work for one key, and how many callers are waiting on it."""

    def __init__(self, key: str, task: asyncio.Task[T]) -> None:
        self.key = key
        self.task = task
        self.callers = 0


class SingleFlight(Generic[T]):
    def __init__(self) -> None:
        self._flights: dict[str, Flight[T]] = {}

    def in_flight(self, key: str) -> int:
        """Callers waiting on ``key``'s run right now (0 when nothing runs for it)."""
        flight = self._flights.get(key)
        return flight.callers if flight is not None and not flight.task.done() else 0

    def join(self, key: str, work: Work[T]) -> tuple[Flight[T], bool]:
        """The run for ``key``, started with ``work`` if none is going; True if this call
        started it (the caller leads)."""
        flight = self._flights.get(key)
        if flight is not None and not flight.task.done():
            return flight, False
        task = asyncio.create_task(work(), name=f"cache-fill:{key}")
        flight = Flight(key, task)
        self._flights[key] = flight
        task.add_done_callback(lambda done: self._finished(flight, done))
        return flight, True

    async def wait(self, flight: Flight[T]) -> T:
        """Its result or its error. Cancelling this wait leaves the run going for the others."""
        flight.callers += 1
        try:
            return await asyncio.shield(flight.task)
        finally:
            flight.callers -= 1
            if flight.callers == 0 and not flight.task.done():
                # Nobody wants the result any more: do not leave the call running unowned.
                self._forget(flight)
                flight.task.cancel()

    def _finished(self, flight: Flight[T], task: asyncio.Task[T]) -> None:
        self._forget(flight)
        if not task.cancelled() and task.exception() is not None:
            # Retrieved here too: when its last caller gave up at the very moment it failed,
            # nobody else would, and asyncio would log "exception was never retrieved".
            log.debug("fill of %s failed: %s", flight.key, type(task.exception()).__name__)

    def _forget(self, flight: Flight[T]) -> None:
        if self._flights.get(flight.key) is flight:
            del self._flights[flight.key]
