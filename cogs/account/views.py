"""The modal where a person pastes their token."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from pydantic import SecretStr

from bot.i18n import _
from bot.render.views import BaseModal

TOKEN_FIELD_ID = "account:token"  # noqa: S105 - a component id

OnToken = Callable[[discord.Interaction[Any], SecretStr], Awaitable[None]]


class LinkTokenModal(BaseModal):
    """Built per person, in their language (a class-level title would be English forever)."""

    def __init__(self, on_token: OnToken) -> None:
        # The modal keeps discord.py's random custom_id: its store keys modals by custom_id
        # alone, so a fixed one would let two people's open modals collide.
        # Translators: a modal (form) title; Discord allows at most 45 characters.
        super().__init__(title=_("Link your Magisterium account"), timeout=600)
        self.token: discord.ui.TextInput[LinkTokenModal] = discord.ui.TextInput(
            # Translators: the label of a text field; Discord allows at most 45 characters.
            label=_("Magisterium access token"),
            custom_id=TOKEN_FIELD_ID,
            style=discord.TextStyle.paragraph,
            placeholder=_("Paste the token issued by Magisterium's sign-in. Only you see this."),
            min_length=8,
            max_length=4000,
        )
        self.add_item(self.token)
        self._on_token = on_token

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await self._on_token(interaction, SecretStr(self.token.value.strip()))
