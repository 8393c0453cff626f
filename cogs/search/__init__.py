"""/search: documents found, with a select that opens one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.search.cog import SearchCog
from cogs.search.select import OpenResultSelect

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    bot.add_dynamic_items(OpenResultSelect)
    await bot.add_cog(SearchCog(bot))


async def teardown(bot: MagisteriumBot) -> None:
    bot.remove_dynamic_items(OpenResultSelect)
