"""Base classes for every view and modal: errors go through the one reporting path."""

from __future__ import annotations

from typing import Any

import discord

from bot.error_reporting import report_interaction_error


class BaseView(discord.ui.View):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await report_interaction_error(
            interaction, error, where=f"{type(self).__name__} {type(item).__name__}"
        )


class BaseModal(discord.ui.Modal):
    # discord.py's Modal.on_error drops the ``item`` argument of the View it derives from.
    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await report_interaction_error(interaction, error, where=type(self).__name__)
