"""The private form where a server admin pastes the server's token."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from pydantic import SecretStr

from bot.i18n import _
from bot.render.views import BaseModal

SERVER_TOKEN_FIELD_ID = "server:token"  # noqa: S105 - a component id

OnToken = Callable[[discord.Interaction[Any], SecretStr], Awaitable[None]]


class ServerTokenModal(BaseModal):
    """Built per admin, in their language; only they see what they type. It keeps discord.py's
    random custom_id, so two admins' open forms never collide."""

    def __init__(self, on_token: OnToken) -> None:
        # Translators: a modal (form) title; Discord allows at most 45 characters.
        super().__init__(title=_("Link this server's Magisterium account"), timeout=600)
        self.token: discord.ui.TextInput[ServerTokenModal] = discord.ui.TextInput(
            # Translators: the label of a text field; Discord allows at most 45 characters.
            label=_("The server's Magisterium access token"),
            custom_id=SERVER_TOKEN_FIELD_ID,
            style=discord.TextStyle.paragraph,
            placeholder=_(
                "Paste a token issued by Magisterium's sign-in. Only you see this; members "
                "never do."
            ),
            min_length=8,
            max_length=4000,
        )
        self.add_item(self.token)
        self._on_token = on_token

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await self._on_token(interaction, SecretStr(self.token.value.strip()))
