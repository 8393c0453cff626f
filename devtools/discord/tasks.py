"""Waiting for the work an event starts, by awaiting its tasks (never by sleeping).

discord.py runs each interaction and event in its own task, recognisable by name:

* ``CommandTree-invoker``: a slash command, context menu or autocomplete;
* ``discord-ui-view-dispatch-<view id>``: a view item's callback;
* ``discord-ui-dynamic-item-<class>-<custom id>``: a DynamicItem's callback;
* ``discord-ui-modal-dispatch-<modal id>``: a modal's ``on_submit``;
* ``discord.py: <event>``: an event listener (``on_message``, ``on_interaction``…).

Tasks named otherwise (view timeouts, ``delete_after`` timers, ``tasks.loop``s) are never
awaited: they sleep on the real clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Iterator
from typing import Any

from discord.ext import tasks

from bot.app import lifecycle

# discord.py's names for the work it starts; graceful shutdown waits on the same tasks.
WORK_TASK_PREFIXES = lifecycle.WORK_TASK_PREFIXES


class SettleTimeout(AssertionError):
    """Work tasks were still running after the settle timeout: something waits forever."""


def work_tasks(prefixes: tuple[str, ...] = WORK_TASK_PREFIXES) -> set[asyncio.Task[object]]:
    return {t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(prefixes)}


async def settle(
    known: Iterable[asyncio.Task[object]],
    *,
    prefixes: tuple[str, ...] = WORK_TASK_PREFIXES,
    guard_seconds: float = 30.0,
) -> None:
    """Await every work task started since ``known`` was taken, and those they start in turn.

    Raises the tasks' own exceptions (an ExceptionGroup) instead of leaving them unretrieved,
    and :class:`SettleTimeout` if they do not finish within ``guard_seconds`` (a guard
    against a hang, not a wait: normal runs never reach it).
    """
    seen = set(known)
    errors: list[Exception] = []
    try:
        async with asyncio.timeout(guard_seconds):
            while pending := work_tasks(prefixes) - seen:
                seen |= pending
                results = await asyncio.gather(*pending, return_exceptions=True)
                for outcome in results:
                    if isinstance(outcome, asyncio.CancelledError):
                        continue
                    if isinstance(outcome, Exception):
                        errors.append(outcome)
                    elif isinstance(outcome, BaseException):
                        raise outcome
    except TimeoutError:
        names = sorted(t.get_name() for t in work_tasks(prefixes) - set(known))
        raise SettleTimeout(f"tasks still running after {guard_seconds}s: {names}") from None
    if errors:
        raise ExceptionGroup("a task started by this event raised", errors)


def running_loops() -> list[tasks.Loop[Any]]:
    """Every ``tasks.loop`` with a live task, wherever it was defined."""
    found: list[tasks.Loop[Any]] = []
    for task in asyncio.all_tasks():
        coro = task.get_coro()
        frame = getattr(coro, "cr_frame", None)
        if getattr(coro, "__qualname__", "") == "Loop._loop" and frame is not None:
            loop = frame.f_locals.get("self")
            if isinstance(loop, tasks.Loop) and loop not in found:
                found.append(loop)
    return found


def cancel_loops(owners: Iterable[object]) -> list[tasks.Loop[Any]]:
    """Cancel the bot's and its cogs' ``tasks.loop``s, and any other running loop."""
    cancelled: list[tasks.Loop[Any]] = []
    for owner in owners:
        for value in list(vars(owner).values()):
            if isinstance(value, tasks.Loop) and value.is_running():
                value.cancel()
                cancelled.append(value)
    for loop in running_loops():
        if loop not in cancelled:
            loop.cancel()
            cancelled.append(loop)
    return cancelled


def ignored_exceptions(records: Iterable[logging.LogRecord]) -> list[Exception]:
    """Exceptions discord.py caught and only logged: "Ignoring exception in on_message",
    "... in view", "... in modal", "... in dynamic item callback" (the default handlers)."""
    return [
        record.exc_info[1]
        for record in records
        if record.getMessage().startswith("Ignoring exception")
        and record.exc_info
        and isinstance(record.exc_info[1], Exception)
    ]


class _Collect(logging.Handler):
    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record)


@contextlib.contextmanager
def collect_logs(into: list[logging.LogRecord]) -> Iterator[None]:
    """Append every WARNING+ record logged anywhere to ``into`` while the block runs."""
    handler = _Collect(into)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
