"""Graceful shutdown: stop taking new work, let running work finish within a bound, close.

On SIGTERM (or SIGINT) the bot starts draining: the command tree and the DM cog turn new
requests away with :func:`restarting_notice`, every interaction or event discord.py is
running gets up to ``grace`` seconds to finish, what is still running then is cancelled (its
user told so), and the bot closes the gateway, then its services. A second signal skips the
rest of the wait.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.i18n import _
from bot.render.embeds import notice_embed

if TYPE_CHECKING:
    from bot.app import MagisteriumBot
    from bot.app.tree import MagisteriumTree

log = logging.getLogger(__name__)

# The daily posts' tick runs in a task of this name, so that a drain lets its sends finish.
DAILY_TICK_TASK = "daily-posts-tick"
# discord.py names the task of each unit of work it starts (see devtools/discord/tasks.py).
WORK_TASK_PREFIXES: tuple[str, ...] = (
    DAILY_TICK_TASK,
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: ",
)
# How long cancelled work gets to unwind, and its users to be told, after the grace period.
CUT_OFF_SECONDS = 3.0
SHUTDOWN_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def restarting_notice() -> discord.Embed:
    """What someone who asks something while the bot is draining sees."""
    return notice_embed(_("Restarting"), _("The bot is restarting — try again in a minute."))


def cut_off_notice() -> discord.Embed:
    """What someone whose command was still running when the grace period ended sees."""
    return notice_embed(
        _("Interrupted"),
        _("The bot restarted before it could finish this. Try again in a minute."),
    )


def in_flight_tasks() -> set[asyncio.Task[Any]]:
    """Interactions and events discord.py is running now (the caller's own task excluded)."""
    others = asyncio.all_tasks() - {asyncio.current_task()}
    return {t for t in others if not t.done() and t.get_name().startswith(WORK_TASK_PREFIXES)}


async def drain_and_close(
    bot: MagisteriumBot, *, grace: float, force: asyncio.Event | None = None
) -> None:
    """Stop taking new work, wait at most ``grace`` seconds (less once ``force`` is set) for
    the work in flight, cancel the rest, then close the bot. Safe to follow with ``close()``."""
    bot.draining = True
    log.info(
        "shutting down: draining %d in-flight interactions (up to %g s)",
        len(in_flight_tasks()),
        grace,
    )
    try:
        late = await _wait_for_work(grace, force)
        if late:
            log.warning(
                "%d in-flight tasks still running after the grace period; cancelling them",
                len(late),
            )
            await _cut_off(bot, late)
    finally:
        await bot.close()
    log.info("shut down")


async def _wait_for_work(grace: float, force: asyncio.Event | None) -> set[asyncio.Task[Any]]:
    """Wait until no work is running (work started meanwhile included), the deadline passes or
    ``force`` is set; return the work still running."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    forced: set[asyncio.Future[Any]] = set()
    if force is not None:
        forced.add(asyncio.ensure_future(force.wait()))
    try:
        while pending := in_flight_tasks():
            remaining = deadline - loop.time()
            if remaining <= 0 or any(f.done() for f in forced):
                return pending
            await asyncio.wait(
                {*pending, *forced}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
            )
        return set()
    finally:
        for waiter in forced:
            waiter.cancel()


async def _cut_off(bot: MagisteriumBot, late: set[asyncio.Task[Any]]) -> None:
    """Cancel ``late`` and tell the people whose commands they were, within a bound."""
    tree = cast("MagisteriumTree", bot.tree)  # create_bot always builds a MagisteriumTree
    interrupted = tree.take_running(late)
    for task in late:
        task.cancel()
    await asyncio.wait(late, timeout=CUT_OFF_SECONDS)
    # Each notice in the language of the command it interrupts (its context holds the locale).
    notices = [command.tell(command.context.run(cut_off_notice)) for command in interrupted]
    if notices:
        _sent, unsent = await asyncio.wait(notices, timeout=CUT_OFF_SECONDS)
        for notice in unsent:
            notice.cancel()


class ShutdownSignals:
    """Starts :func:`drain_and_close` on the first signal; a second one stops the waiting."""

    def __init__(self, bot: MagisteriumBot, *, grace: float) -> None:
        self.bot = bot
        self.grace = grace
        self.drain: asyncio.Task[None] | None = None
        self._force = asyncio.Event()

    def received(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if self.drain is None:
            log.info("received %s", name)
            self.drain = asyncio.get_running_loop().create_task(
                drain_and_close(self.bot, grace=self.grace, force=self._force),
                name="bot-shutdown",
            )
        else:
            log.warning("received %s again: closing without waiting", name)
            self._force.set()

    async def wait_closed(self) -> None:
        """Await a drain that was started (its close finishing), if any."""
        if self.drain is not None:
            await self.drain


def install_signal_handlers(
    loop: asyncio.AbstractEventLoop, bot: MagisteriumBot, grace: float
) -> ShutdownSignals:
    """Drain and close ``bot`` on SIGTERM or SIGINT received while ``loop`` runs (closing the
    loop removes the handlers)."""
    signals = ShutdownSignals(bot, grace=grace)
    for signum in SHUTDOWN_SIGNALS:
        try:
            loop.add_signal_handler(signum, signals.received, signum)
        except NotImplementedError:  # Windows' event loops: Ctrl+C still stops the process
            log.debug("no handler for %s on this platform", signum.name)
    return signals
