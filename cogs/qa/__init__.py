"""/ask, its follow-up buttons and the "Ask Magisterium" message context menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.qa.cog import QACog
from cogs.qa.followups import NewConversationButton, RelatedQuestionButton
from cogs.qa.replies import ReplyButton

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    bot.add_dynamic_items(RelatedQuestionButton, NewConversationButton, ReplyButton)
    await bot.add_cog(QACog(bot))


async def teardown(bot: MagisteriumBot) -> None:
    bot.remove_dynamic_items(RelatedQuestionButton, NewConversationButton, ReplyButton)
