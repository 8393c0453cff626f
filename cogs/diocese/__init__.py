"""/diocese: diocese_lookup and diocese_statistics_lookup: dioceses, their numbers and finances."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._lookups.items import DYNAMIC_ITEMS
from cogs.diocese.cog import DioceseCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    # Shared by every lookup cog and by /saints; registering twice is harmless, and they are
    # left registered on unload so the others' menus keep working.
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(DioceseCog(bot))
