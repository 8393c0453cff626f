"""The command tree: one error path for every application command, and the door that closes
while the bot drains (bot.app.lifecycle)."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.app.error_reporting import report_interaction_error
from bot.app.lifecycle import restarting_notice
from bot.app.respond import send_private
from bot.i18n import use_interaction_locale

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


@dataclass(frozen=True)
class RunningCommand:
    """An application command being run, with the context its task started in."""

    interaction: discord.Interaction[MagisteriumBot]
    context: contextvars.Context

    def tell(self, embed: discord.Embed) -> asyncio.Task[bool]:
        """Send ``embed`` privately to the person who ran the command, in a new task."""
        # discord.py picks its webhook adapter from a contextvar: answer in the command's own.
        return asyncio.get_running_loop().create_task(
            send_private(self.interaction, embed=embed), context=self.context
        )


class MagisteriumTree(app_commands.CommandTree["MagisteriumBot"]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._running: dict[asyncio.Task[Any], RunningCommand] = {}

    async def interaction_check(self, interaction: discord.Interaction[MagisteriumBot], /) -> bool:
        """Speak the person's language; while the bot drains, turn new commands away
        (autocomplete gets no choices)."""
        use_interaction_locale(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            if self.client.draining:
                await interaction.response.autocomplete([])
                return False
            return True
        if self.client.draining:
            await send_private(interaction, embed=restarting_notice())
            return False
        self._track(interaction)
        return True

    def _track(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        task = asyncio.current_task()
        if task is None:
            return
        self._running[task] = RunningCommand(interaction, contextvars.copy_context())
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._running.pop(task, None)

    def take_running(self, tasks: Iterable[asyncio.Task[Any]]) -> list[RunningCommand]:
        """The commands ``tasks`` are running, no longer tracked."""
        return [command for task in tasks if (command := self._running.pop(task, None))]

    async def on_error(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        error: app_commands.AppCommandError,
        /,
    ) -> None:
        command = interaction.command
        where = f"/{command.qualified_name}" if command else f"interaction {interaction.id}"
        await report_interaction_error(interaction, error, where=where)
