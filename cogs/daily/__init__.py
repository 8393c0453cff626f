"""/daily: the saints of the day or the Mass readings posted in a channel every day; and
/mydaily: the same, in a person's DMs (sent by the same daily tick)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._lookups.items import DYNAMIC_ITEMS
from cogs.daily.cog import DailyCog
from cogs.daily.personal_cog import PersonalDailyCog
from cogs.daily.post import ReadAll

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    # "Read it all" under posts sent before a restart; the saints' menu.
    bot.add_dynamic_items(ReadAll, *DYNAMIC_ITEMS)
    daily = DailyCog(bot)
    await bot.add_cog(daily)
    await bot.add_cog(PersonalDailyCog(bot, daily.config))


async def teardown(bot: MagisteriumBot) -> None:
    bot.remove_dynamic_items(ReadAll)
