"""/saints: the Roman Martyrology of a day."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._day_feed.feeds import SaintsDay
from cogs._lookups.items import DYNAMIC_ITEMS
from cogs.saints_of_the_day.cog import SaintsCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    # Day buttons of messages sent before a restart; the saints' menu.
    bot.add_dynamic_items(SaintsDay, *DYNAMIC_ITEMS)
    await bot.add_cog(SaintsCog(bot))


async def teardown(bot: MagisteriumBot) -> None:
    bot.remove_dynamic_items(SaintsDay)
