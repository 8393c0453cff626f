"""``/search query:`` — documents as a numbered list of links, and a select to open one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot.a2a.skills import DOCUMENT_SEARCH
from bot.app.respond import defer, send_private
from bot.i18n import N_, _
from bot.render.embeds import notice_embed, search_results_embed
from bot.services.origin import Origin
from cogs._shared.document_view import clean_input, echo
from cogs.search.select import results_view

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

QUERY_MAX = 300
EMPTY_QUERY = (
    N_("Nothing to search for"),
    # Translators: `Lumen Gentium` is the title of a Council document; keep it as it is.
    N_("Type a few words to look for, such as `Lumen Gentium`."),
)


def no_results_embed(query: str) -> discord.Embed:
    return notice_embed(
        _("Nothing found"),
        # Translators: {query} is what the person searched for, shown as inline code.
        _(
            "No documents matched `{query}`. Try other or fewer words, or a document's title."
        ).format(query=echo(query, 100)),
    )


class SearchCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("search"),
        description=N_("Search Church documents"),
    )
    # Translators: the option's name (lowercase, one word): the words to search for.
    @app_commands.rename(query=N_("query"))
    @app_commands.describe(query=N_("Words to look for, such as a title or topic"))
    async def search(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        query: app_commands.Range[str, 1, QUERY_MAX],
    ) -> None:
        cleaned = clean_input(query)
        if not cleaned:
            title, text = EMPTY_QUERY
            await interaction.response.send_message(
                embed=notice_embed(_(title), _(text)), ephemeral=True
            )
            return
        private = interaction.guild_id is None
        await defer(interaction, ephemeral=private)
        results = await self.bot.services.magisterium.call(
            Origin.of(interaction), DOCUMENT_SEARCH, cleaned
        )
        if not results.hits:
            await send_private(interaction, embed=no_results_embed(cleaned))
            return
        view = results_view(results.hits)
        await interaction.followup.send(
            embed=search_results_embed(results), view=view or MISSING, ephemeral=private
        )
