"""Private questions in DMs: a plain DM to the bot is a question, answered in the DM."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._feedback import DYNAMIC_ITEMS as FEEDBACK_ITEMS
from cogs.dm.cog import DirectMessagesCog
from cogs.dm.views import NewConversationButton

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    bot.add_dynamic_items(NewConversationButton, *FEEDBACK_ITEMS)
    await bot.add_cog(DirectMessagesCog(bot))
