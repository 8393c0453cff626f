"""/readings date: — the Mass readings of a day, with previous/next day buttons."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.a2a.results import NotFound, Readings
from cogs._dates import DayButton, DayFeed, local_today, show_day, suggestions

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def _fetch(bot: MagisteriumBot, user_id: int, day: dt.date) -> Readings | NotFound:
    # An absolute ISO date: the upstream never has to guess "today", and caching stays simple.
    return await bot.services.magisterium.readings(user_id, day)


FEED = DayFeed(
    name="readings",
    title="Mass readings",
    skill="liturgical_readings",
    not_found="Magisterium has no Mass readings for this day. Try another date.",
    fetch=_fetch,
)


class ReadingsDay(DayButton, template=FEED.template()):
    feed = FEED


class ReadingsCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot, *, today: Callable[[], dt.date] = local_today) -> None:
        self.bot = bot
        self.today = today  # the clock; tests pass a fixed day

    @app_commands.command(name="readings", description="The Mass readings of a day")
    @app_commands.describe(date="today, tomorrow, next Sunday, 19 March, 2026-12-01…")
    async def readings(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        date: app_commands.Range[str, 1, 100] = "today",
    ) -> None:
        await show_day(interaction, ReadingsDay, date, today=self.today())

    @readings.autocomplete("date")
    async def date_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return suggestions(current, today=self.today())
