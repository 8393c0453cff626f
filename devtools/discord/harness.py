"""The offline interaction harness: real payloads through the real CommandTree and views.

Every call builds the INTERACTION_CREATE (or MESSAGE_CREATE) payload Discord would send,
hands it to discord.py's own parser (``state.parsers[...]``) with the recording webhook adapter
in ``async_context``, then awaits the tasks discord.py started for it. Nothing calls a command
callback directly and nothing sleeps.

:class:`Harness` is assembled from its parts: ``core`` (state, users, guilds, places),
``dispatch`` (sending an interaction, expiring tokens), ``app_commands`` (slash commands,
autocomplete, context menus), ``components`` (buttons, selects, modals) and ``messages`` (DMs,
channel messages); this module adds its lifecycle.

One harness at a time per process: dpytest's backend is module-global.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, ClassVar

from discord.ext.test import backend

from devtools.discord import world
from devtools.discord.app_commands import AppCommandsMixin
from devtools.discord.commands import CommandUnavailable, InvalidOptions
from devtools.discord.components import ComponentsMixin
from devtools.discord.core import HarnessError
from devtools.discord.messages import MessagesMixin
from devtools.discord.tasks import WORK_TASK_PREFIXES, cancel_loops, settle
from devtools.discord.threads import FakeThreads


class Harness(AppCommandsMixin, ComponentsMixin, MessagesMixin):
    """Drive a bot like Discord would; read back what it sent. Build with :meth:`start`."""

    _active: ClassVar[Harness | None] = None
    threads: FakeThreads  # ``bot.http.start_thread_with_message``: the threads the bot opened

    @classmethod
    @asynccontextmanager
    async def start(
        cls,
        bot: world.AnyBot,
        *,
        run_setup_hook: bool = True,
        guild_name: str = "Test Guild",
        channel_name: str = "general",
        settle_timeout: float = 30.0,
        task_prefixes: tuple[str, ...] = WORK_TASK_PREFIXES,
        raise_ignored: bool = True,
    ) -> AsyncIterator[Harness]:
        """Configure ``bot`` on dpytest's backend, run its ``setup_hook``, yield a harness;
        on exit stop views, cancel loops and close the bot.

        ``raise_ignored``: an exception that discord.py's default handlers only log ("Ignoring
        exception in on_message / view / modal / dynamic item") is raised from the harness
        call instead, as an ExceptionGroup; the bot's own error path never logs that way.
        """
        if cls._active is not None:
            raise RuntimeError("another Harness is running: dpytest's backend is global")
        state = await world.configure(bot)
        try:
            if run_setup_hook:
                before = asyncio.all_tasks()
                await bot.setup_hook()
                await settle(before, prefixes=task_prefixes, guard_seconds=settle_timeout)
            channel = world.build_guild(bot, guild_name, channel_name)
            cancel_loops([bot, *bot.cogs.values()])
            harness = cls(
                bot,
                state,
                channel,
                settle_timeout=settle_timeout,
                task_prefixes=task_prefixes,
                raise_ignored=raise_ignored,
            )
            world.record_channel_sends(bot, harness._on_channel_send, harness._before_channel_send)
            harness._serve_cdn()
            harness._record_typing()
            harness._serve_empty_history()
            harness._serve_threads()
            cls._active = harness
            yield harness
        finally:
            cls._active = None
            await world.teardown(bot)

    def _serve_threads(self) -> None:
        """Threads started on a message (dpytest has none), refused as Discord refuses them;
        ``self.threads.opened`` lists those opened. A test wanting Discord to refuse one
        monkeypatches ``bot.http.start_thread_with_message`` over it."""
        self.threads = FakeThreads(self)
        self.bot.http.start_thread_with_message = self.threads  # type: ignore[method-assign,assignment]

    def _serve_empty_history(self) -> None:
        """A channel nobody wrote in has an empty history (dpytest raises KeyError)."""
        http = self.bot.http
        original = http.logs_from

        async def logs_from(channel_id: int, *args: Any, **kwargs: Any) -> Any:
            config = backend._cur_config
            if config is not None and channel_id not in config.messages:
                return []
            return await original(channel_id, *args, **kwargs)

        http.logs_from = logs_from  # type: ignore[method-assign,assignment]

    def _serve_cdn(self) -> None:
        """``Attachment.read()`` of an uploaded option gets the uploaded bytes back."""
        http = self.bot.http
        original = http.get_from_cdn

        async def get_from_cdn(url: str) -> bytes:
            if url in self._cdn:
                return self._cdn[url]
            data: bytes = await original(url)
            return data

        http.get_from_cdn = get_from_cdn  # type: ignore[method-assign]


__all__ = [
    "CommandUnavailable",
    "Harness",
    "HarnessError",
    "InvalidOptions",
]
