"""/saints date: — the Roman Martyrology of a day, with previous/next day buttons."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_
from cogs._dates import local_today, show_day, suggestions
from cogs._dates.feeds import SaintsDay

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


class SaintsCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot, *, today: Callable[[], dt.date] = local_today) -> None:
        self.bot = bot
        self.today = today  # the clock; tests pass a fixed day

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("saints"),
        # Translators: /saints; the Roman Martyrology is the Church's official list of saints
        # by day (use its usual name in your language).
        description=N_("The saints of a day (Roman Martyrology)"),
    )
    # Translators: a Discord option name (lowercase, one word): the day to show.
    @app_commands.rename(date=N_("date"))
    # Translators: examples of what the date option accepts. The bot reads dates typed in
    # English (or as YYYY-MM-DD) only, so keep these examples in English.
    @app_commands.describe(date=N_("today, tomorrow, next Sunday, 19 March, 2026-12-01…"))
    async def saints(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        date: app_commands.Range[str, 1, 100] = "today",
    ) -> None:
        await show_day(interaction, SaintsDay, date, today=self.today())

    @saints.autocomplete("date")
    async def date_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return suggestions(current, today=self.today())
