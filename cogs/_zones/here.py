"""The timezone "today" is in for the person asking, where they ask."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.services.timezones import ResolvedZone

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def zone_here(interaction: discord.Interaction[MagisteriumBot]) -> ResolvedZone:
    """The person's zone; in a server, that server's when they set none (DMs: theirs only).
    Never fails: a database that is down gives the UTC fallback."""
    bot: MagisteriumBot = interaction.client
    return await bot.services.timezones.resolve(interaction.user.id, interaction.guild_id)
