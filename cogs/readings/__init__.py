"""/readings: the Mass readings of a day."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._day_feed.feeds import ReadingsDay
from cogs.readings.cog import ReadingsCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    bot.add_dynamic_items(ReadingsDay)  # day buttons of messages sent before a restart
    await bot.add_cog(ReadingsCog(bot))


async def teardown(bot: MagisteriumBot) -> None:
    bot.remove_dynamic_items(ReadingsDay)
