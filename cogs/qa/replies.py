"""Replying to Magisterium's question back: the Reply button opens a form, and its answer is
asked in the same conversation (contextId), by the person who asked, where they asked.

The button works after a restart (a DynamicItem; its custom_id carries the asker and the
conversation). The form is the click's first response, as Discord requires of a modal.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_, _, use_interaction_locale
from bot.render.embeds import notice_embed
from bot.render.views import ReportedDynamicItem
from cogs.qa.clarify import REPLY_EMOJI, REPLY_PREFIX, REPLY_TEMPLATE, reply_label
from cogs.qa.followups import QuestionModal

if TYPE_CHECKING:
    from typing import Self

    from bot.app import MagisteriumBot

REPLY_FIELD_ID = "qa:reply:text"
NOT_THE_ASKER = N_("Only the person who asked can reply to Magisterium's question.")

_Button = discord.ui.Button[discord.ui.View]


class ReplyButton(ReportedDynamicItem[_Button], template=REPLY_TEMPLATE):
    def __init__(self, asker_id: int, context_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=reply_label(),
                emoji=REPLY_EMOJI,
                custom_id=f"{REPLY_PREFIX}:{asker_id}:{context_id}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.asker_id = asker_id
        self.context_id = context_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["asker"]), match["context"])

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """Only the asker replies; anyone else is told so, privately."""
        use_interaction_locale(interaction)
        if interaction.user.id == self.asker_id:
            return True
        await interaction.response.send_message(
            embed=notice_embed(_("Not your question"), _(NOT_THE_ASKER)), ephemeral=True
        )
        return False

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        # A modal must be the first response: nothing is awaited before it.
        await interaction.response.send_modal(reply_modal(self.context_id))


def reply_modal(context_id: str) -> QuestionModal:
    return QuestionModal(
        # Translators: a modal (form) title; Discord allows at most 45 characters.
        title=_("Reply to Magisterium"),
        # Translators: the label of a text field; Discord allows at most 45 characters.
        label=_("Your reply"),
        field_id=REPLY_FIELD_ID,
        context_id=context_id,
    )
