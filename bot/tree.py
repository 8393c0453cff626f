"""The command tree: one error path for every application command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.error_reporting import report_interaction_error

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


class MagisteriumTree(app_commands.CommandTree["MagisteriumBot"]):
    async def on_error(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        error: app_commands.AppCommandError,
        /,
    ) -> None:
        command = interaction.command
        where = f"/{command.qualified_name}" if command else f"interaction {interaction.id}"
        await report_interaction_error(interaction, error, where=where)
