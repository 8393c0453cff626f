"""What /readings and /saints share: the command's body, the clock and the date's autocomplete.

Each day-feed cog subclasses :class:`DayFeedCog`, names its feed's day button and declares its
own slash command, whose body is :meth:`DayFeedCog.show`, with :meth:`DayFeedCog.date_autocomplete`
on its ``date`` option.

The command is declared in each subclass, not here: discord.py's ``CogMeta`` collects the app
commands of every class in the MRO, so a command defined in a base class would be copied into
each subclass with the base's one name and description; and the catalogues (bot/locales) are
keyed on each command's own ``N_()`` strings and Translators comments, where they are written.
An autocomplete callback is attached by the option's parameter name; a function defined in a
class is called with the cog that owns the command as ``self`` (discord.py binds it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.accounts.wall_clock import utcnow
from bot.dates import suggestions
from cogs._day_feed.day_message import DayButton, show_day
from cogs._zones import zone_here

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


class DayFeedCog(commands.Cog):
    """A slash command showing one day of a feed; a subclass sets ``button`` and declares the
    command."""

    button: ClassVar[type[DayButton]]  # the feed's previous/next day button, hence the feed

    def __init__(self, bot: MagisteriumBot, *, now: Callable[[], dt.datetime] = utcnow) -> None:
        self.bot = bot
        self.now = now  # an aware clock; tests pass a fixed instant

    async def show(self, interaction: discord.Interaction[MagisteriumBot], date: str) -> None:
        """The command: the day ``date`` names, counted from today in the person's timezone."""
        zone = await zone_here(interaction)
        today = zone.today(self.now())
        await show_day(interaction, self.button, date, today=today, in_utc=zone.fallback)

    async def date_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The date option's choices (local, no call), from today in the person's timezone."""
        zone = await zone_here(interaction)
        today = zone.today(self.now())
        found = suggestions(current, today=today, locale=str(interaction.locale))
        return [app_commands.Choice(name=s.name, value=s.value) for s in found]
