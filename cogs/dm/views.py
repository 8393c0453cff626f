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
    ReportedDynamicItem[discord.ui.Button[Any]], template=NEW_CONVERSATION_ID
):
    """Live views carry this DynamicItem itself, never a plain button with its custom_id:
    discord.py would run both, and the second response would fail ("Something went wrong").
    ``BaseView`` keeps the class registered when a view holding it stops."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label under an answer (at most 80 characters).
                label=_("New conversation"),
                emoji="🆕",
                style=discord.ButtonStyle.secondary,
                custom_id=NEW_CONVERSATION_ID,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> NewConversationButton:
        return cls()

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await start_new_conversation(interaction)


async def start_new_conversation(interaction: discord.Interaction[MagisteriumBot]) -> None:
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
