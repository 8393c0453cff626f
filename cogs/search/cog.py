"""``/search query:`` — documents as a numbered list of links, and a select to open one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot.render.embeds import notice_embed, search_results_embed
from bot.respond import defer
from cogs._shared.document_view import clean_input, echo
from cogs.search.select import results_view

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

QUERY_MAX = 300
EMPTY_QUERY = ("Nothing to search for", "Type a few words to look for, such as `Lumen Gentium`.")


def no_results_embed(query: str) -> discord.Embed:
    return notice_embed(
        "Nothing found",
        f"No documents matched `{echo(query, 100)}`. Try other or fewer words, "
        "or a document's title.",
    )


class SearchCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @app_commands.command(name="search", description="Search Church documents")
    @app_commands.describe(query="Words to look for, such as a title or topic")
    async def search(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        query: app_commands.Range[str, 1, QUERY_MAX],
    ) -> None:
        cleaned = clean_input(query)
        if not cleaned:
            await interaction.response.send_message(
                embed=notice_embed(*EMPTY_QUERY), ephemeral=True
            )
            return
        private = interaction.guild_id is None
        await defer(interaction, ephemeral=private)
        results = await self.bot.services.magisterium.search(interaction.user.id, cleaned)
        if not results.hits:
            await interaction.followup.send(embed=no_results_embed(cleaned), ephemeral=private)
            return
        view = results_view(results.hits)
        await interaction.followup.send(
            embed=search_results_embed(results), view=view or MISSING, ephemeral=private
        )
