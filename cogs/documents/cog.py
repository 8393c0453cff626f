"""``/document id:`` — one document's full text, paged, with "Send as file"."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.respond import defer
from bot.i18n import N_, _
from bot.render.embeds import notice_embed
from cogs._shared.document_view import clean_input, show_document

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

ID_MAX = 100
EMPTY_ID = (
    N_("No document id given"),
    # Translators: `/search` is a slash command: use your translation of its name.
    N_("Give the id of a document, such as `12345`; find ids with `/search`."),
)


class DocumentsCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("document"),
        description=N_("Read a document's full text by its id"),
    )
    # Translators: a Discord option name (/document id:): lowercase, one word, at most 32
    # characters.
    @app_commands.rename(doc_id=N_("id"))
    @app_commands.describe(doc_id=N_("The document's id, as shown by /search"))
    async def document(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        doc_id: app_commands.Range[str, 1, ID_MAX],
    ) -> None:
        cleaned = clean_input(doc_id)
        if not cleaned:
            title, text = EMPTY_ID
            embed = notice_embed(_(title), _(text))
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        private = interaction.guild_id is None
        await defer(interaction, ephemeral=private)
        await show_document(interaction, cleaned, ephemeral=private)
