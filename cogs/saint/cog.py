"""``/saint name:`` — a saint's life, feast day and patronage."""

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


class SaintCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("saint"),
        description=N_("A saint's life, feast day and patronage"),
    )
    # Translators: the option's name (lowercase, one word): the name to look up.
    @app_commands.rename(name=N_("name"))
    @app_commands.describe(
        name=N_("A saint, blessed, venerable or servant of God: Thérèse of Lisieux, Francis…")
    )
    async def saint(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        name: app_commands.Range[str, 1, NAME_MAX],
    ) -> None:
        await lookup_command(interaction, LookupKind.SAINT, name)
