"""``/clergy name:`` — a bishop's or cardinal's profile."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.a2a.lookups import LookupKind
from bot.i18n import N_
from cogs._lookups.show import lookup_command

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

NAME_MAX = 100


class ClergyCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("clergy"),
        description=N_("A bishop's or cardinal's profile"),
    )
    # Translators: the option's name (lowercase, one word): the name to look up.
    @app_commands.rename(name=N_("name"))
    @app_commands.describe(name=N_("A bishop, archbishop or cardinal, by name"))
    async def clergy(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        name: app_commands.Range[str, 1, NAME_MAX],
    ) -> None:
        await lookup_command(interaction, LookupKind.PERSON, name)
