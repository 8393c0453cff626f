"""/saints date: — the Roman Martyrology of a day, with previous/next day buttons."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.accounts.clock import utcnow
from bot.dates import suggestions
from bot.i18n import N_
from cogs._dates import show_day
from cogs._dates.feeds import SaintsDay
from cogs._zones import zone_here

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


class SaintsCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot, *, now: Callable[[], dt.datetime] = utcnow) -> None:
        self.bot = bot
        self.now = now  # an aware clock; tests pass a fixed instant

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("saints"),
        # Translators: /saints; the Roman Martyrology is the Church's official list of saints
        # by day (use its usual name in your language).
        description=N_("The saints of a day (Roman Martyrology)"),
    )
    # Translators: a Discord option name (lowercase, one word): the day to show.
    @app_commands.rename(date=N_("date"))
    # Translators: examples of what the date option accepts, written in your language as
    # people type them (the bot reads dates in each language and in English); keep 2026-12-01.
    @app_commands.describe(date=N_("today, tomorrow, next Sunday, 19 March, 2026-12-01…"))
    async def saints(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        date: app_commands.Range[str, 1, 100] = "today",
    ) -> None:
        zone = await zone_here(interaction)
        today = zone.today(self.now())
        await show_day(interaction, SaintsDay, date, today=today, in_utc=zone.fallback)

    @saints.autocomplete("date")
    async def date_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        zone = await zone_here(interaction)
        today = zone.today(self.now())
        found = suggestions(current, today=today, locale=str(interaction.locale))
        return [app_commands.Choice(name=s.name, value=s.value) for s in found]
