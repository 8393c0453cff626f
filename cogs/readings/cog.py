"""/readings date: — the Mass readings of a day, with previous/next day buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import N_
from cogs._day_feed import DayFeedCog
from cogs._day_feed.feeds import ReadingsDay

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


class ReadingsCog(DayFeedCog):
    button = ReadingsDay

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("readings"),
        # Translators: /readings, the readings of a day's Mass (the Catholic liturgy).
        description=N_("The Mass readings of a day"),
    )
    # Translators: a Discord option name (lowercase, one word): the day to show.
    @app_commands.rename(date=N_("date"))
    # Translators: examples of what the date option accepts, written in your language as
    # people type them (the bot reads dates in each language and in English); keep 2026-12-01.
    @app_commands.describe(date=N_("today, tomorrow, next Sunday, 19 March, 2026-12-01…"))
    async def readings(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        date: app_commands.Range[str, 1, 100] = "today",
    ) -> None:
        await self.show(interaction, date)

    readings.autocomplete("date")(DayFeedCog.date_autocomplete)
