"""The private form where a token is pasted: a person's (/account link) or a server's
(/server link)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from pydantic import SecretStr

from bot.render.views import BaseModal

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

OnToken = Callable[["discord.Interaction[MagisteriumBot]", SecretStr], Awaitable[None]]


class TokenModal(BaseModal):
    """Built per person, in their language (a class-level title would be English forever).

    It keeps discord.py's random custom_id: its store keys modals by custom_id alone, so a fixed
    one would let two people's open forms collide. The texts come translated."""

    def __init__(
        self, on_token: OnToken, *, title: str, label: str, placeholder: str, field_id: str
    ) -> None:
        super().__init__(title=title, timeout=600)
        self.token: discord.ui.TextInput[TokenModal] = discord.ui.TextInput(
            label=label,
            custom_id=field_id,
            style=discord.TextStyle.paragraph,
            placeholder=placeholder,
            min_length=8,
            max_length=4000,
        )
        self.add_item(self.token)
        self._on_token = on_token

    async def submitted(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await self._on_token(interaction, SecretStr(self.token.value.strip()))
