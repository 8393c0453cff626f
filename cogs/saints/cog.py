"""/saints date: — the Roman Martyrology of a day, with previous/next day buttons."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.a2a.results import Martyrology, NotFound
from cogs._dates import DayButton, DayFeed, local_today, show_day, suggestions

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def _fetch(bot: MagisteriumBot, user_id: int, day: dt.date) -> Martyrology | NotFound:
    # A date object goes upstream as the data part {"date": "YYYY-MM-DD"}.
    return await bot.services.magisterium.saints(user_id, day)


FEED = DayFeed(
    name="saints",
    title="Saints of the day",
    skill="saints_of_the_day",
    not_found="The Roman Martyrology has no entry Magisterium can show for this day. "
    "Try another date.",
    fetch=_fetch,
)


class SaintsDay(DayButton, template=FEED.template()):
    feed = FEED


class SaintsCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot, *, today: Callable[[], dt.date] = local_today) -> None:
        self.bot = bot
        self.today = today  # the clock; tests pass a fixed day

    @app_commands.command(name="saints", description="The saints of a day (Roman Martyrology)")
    @app_commands.describe(date="today, tomorrow, next Sunday, 19 March, 2026-12-01…")
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
