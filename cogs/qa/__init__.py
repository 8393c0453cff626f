"""/ask, its follow-up buttons, "Read a source…", "Share in channel", the "Ask Magisterium"
message context menu, and questions asked by mentioning the bot (a second cog: cogs never
import each other, and mentions answer with /ask's view)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._feedback import DYNAMIC_ITEMS as FEEDBACK_ITEMS
from cogs.qa.cog import QACog
from cogs.qa.followups import NewConversationButton, RelatedQuestionButton
from cogs.qa.mentions import MentionsCog
from cogs.qa.replies import ReplyButton
from cogs.qa.share import ShareButton
from cogs.qa.sources import SourceSelect

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

DYNAMIC_ITEMS = (
    RelatedQuestionButton,
    NewConversationButton,
    ReplyButton,
    ShareButton,
    SourceSelect,
)


async def setup(bot: MagisteriumBot) -> None:
    # "Helpful" / "Not helpful" are shared with DM answers: added here too, never removed here.
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *FEEDBACK_ITEMS)
    await bot.add_cog(QACog(bot))
    await bot.add_cog(MentionsCog(bot))


async def teardown(bot: MagisteriumBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
