"""Errors the event loop only reports: "Task exception was never retrieved", "Future exception
was never retrieved", exceptions in callbacks.

asyncio hands these to the loop's exception handler, which by default only logs them, so a
test that lets a task die unobserved would still pass. :class:`LoopErrors` installs a handler
that keeps them, and :meth:`LoopErrors.assert_none` collects garbage first (an unretrieved
exception is reported when its task is freed).

The fixture freezes what existed before the test (``gc.freeze``), so each collection only walks
the objects the test made: a full collection of the whole suite's heap costs ~0.1 s.

    from devtools.discord.loop_errors import loop_errors_fixture  # noqa: F401  (the fixture)

    pytestmark = pytest.mark.usefixtures("loop_errors")   # before ``harness``: checked last

and take ``loop_errors: LoopErrors`` as an argument to call ``loop_errors.assert_none()``.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any

import pytest

Handler = Any  # asyncio's handler type is private: (loop, context) -> object


class LoopErrors:
    """Keeps every context the running loop's exception handler receives."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.contexts: list[dict[str, Any]] = []
        self._previous: Handler | None = loop.get_exception_handler()
        loop.set_exception_handler(self._keep)

    def _keep(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.contexts.append(context)

    def restore(self) -> None:
        self.loop.set_exception_handler(self._previous)

    def collected(self) -> list[str]:
        """What was reported so far, after a full garbage collection, one line each."""
        gc.collect()
        return [describe(context) for context in self.contexts]

    def assert_none(self) -> None:
        reported = self.collected()
        assert not reported, "the event loop reported unhandled errors:\n" + "\n".join(reported)


def describe(context: dict[str, Any]) -> str:
    """One readable line for a loop error context: its message, exception and task name."""
    parts = [str(context.get("message", "?"))]
    exception = context.get("exception")
    if exception is not None:
        parts.append(f"{type(exception).__name__}: {exception}")
    task = context.get("task") or context.get("future")
    if isinstance(task, asyncio.Task):
        parts.append(f"task {task.get_name()!r}")
    return " | ".join(parts)


@pytest.fixture(name="loop_errors")
async def loop_errors_fixture() -> AsyncIterator[LoopErrors]:
    """Fails the test (at teardown, after the fixtures set up after it are torn down) if the
    loop reported an unretrieved task or future exception, or an error in a callback."""
    guard = LoopErrors(asyncio.get_running_loop())
    gc.freeze()
    try:
        yield guard
        guard.assert_none()
    finally:
        gc.unfreeze()
        guard.restore()
