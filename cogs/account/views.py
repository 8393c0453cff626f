"""The modal where a person pastes their token."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from pydantic import SecretStr

from bot.render.views import BaseModal

TOKEN_FIELD_ID = "account:token"  # noqa: S105 - a component id

OnToken = Callable[[discord.Interaction[Any], SecretStr], Awaitable[None]]


class LinkTokenModal(BaseModal, title="Link your Magisterium account"):
    token: discord.ui.TextInput[LinkTokenModal] = discord.ui.TextInput(
        label="Magisterium access token",
        custom_id=TOKEN_FIELD_ID,
        style=discord.TextStyle.paragraph,
        placeholder="Paste the token issued by Magisterium's sign-in. Only you see this.",
        min_length=8,
        max_length=4000,
    )

    def __init__(self, on_token: OnToken) -> None:
        # The modal keeps discord.py's random custom_id: its store keys modals by custom_id
        # alone, so a fixed one would let two people's open modals collide.
        super().__init__(timeout=600)
        self._on_token = on_token

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await self._on_token(interaction, SecretStr(self.token.value.strip()))
