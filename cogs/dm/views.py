"""The "New conversation" button under DM answers; it works after a restart too."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import _
from bot.render.embeds import notice_embed
from bot.render.views import ReportedDynamicItem

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

NEW_CONVERSATION_ID = "dm:new-conversation"


class NewConversationButton(
    ReportedDynamicItem[discord.ui.Button[Any]], template=r"dm:new-conversation"
):
    def __init__(self) -> None:
        super().__init__(new_conversation_button())

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> NewConversationButton:
        return cls()

    async def respond(self, interaction: discord.Interaction[Any]) -> None:
        await start_new_conversation(interaction)


def new_conversation_button() -> discord.ui.Button[Any]:
    """The button as a plain item of a live view.

    discord.py unregisters a DynamicItem class for the whole bot when a view holding one
    stops, so live views carry a plain button with the same custom_id; once the view is gone
    (timeout, restart), the registered :class:`NewConversationButton` answers the click.
    """
    button: discord.ui.Button[Any] = discord.ui.Button(
        # Translators: a button label under an answer (at most 80 characters).
        label=_("New conversation"),
        emoji="🆕",
        style=discord.ButtonStyle.secondary,
        custom_id=NEW_CONVERSATION_ID,
    )
    button.callback = start_new_conversation  # type: ignore[method-assign]
    return button


async def start_new_conversation(interaction: discord.Interaction[Any]) -> None:
    bot: MagisteriumBot = interaction.client
    await bot.services.conversations.forget(interaction.user.id)
    await interaction.response.send_message(
        embed=notice_embed(
            _("New conversation"),
            _(
                "Your next message starts a new conversation; earlier questions are not "
                "taken into account."
            ),
        )
    )
