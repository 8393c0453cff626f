"""/saint, /pope, /clergy and /diocese: saint_lookup, pope_lookup, person_lookup and
diocese_lookup (with diocese_statistics_lookup behind a diocese's "Statistics" button)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._lookups.items import DYNAMIC_ITEMS
from cogs.lookups.cog import LookupsCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    # Shared with /saints and the daily posts; registering twice is harmless, and they are left
    # registered on unload so the others' menus keep working.
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(LookupsCog(bot))
