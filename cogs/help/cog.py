"""The /help command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.look import BRAND, footer_text

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

COMMANDS = (
    ("/ask", "Ask a question about Catholic teaching; the answer cites its sources."),
    ("/search", "Find Church documents; open one from the menu."),
    ("/document", "Read a document by its id, page by page."),
    ("/readings", "The Mass readings for a day (today, tomorrow, next Sunday, a date)."),
    ("/saints", "The saints of the day from the Roman Martyrology."),
    ("/saint", "A saint's life, feast day and patronage."),
    ("/pope", "A pope's pontificate and life."),
    ("/clergy", "A bishop's or cardinal's profile."),
    ("/diocese", "A diocese's bishop, numbers and finances, with a chart of its statistics."),
    ("/account", "Link your Magisterium account, see its status, or unlink it."),
    ("/daily", "Server admins: post the saints or the Mass readings in a channel every day."),
    ("DM the bot", "Ask privately: a plain DM is a question; the conversation continues."),
)

PRIVACY = (
    "Questions go to Magisterium AI on your behalf. The bot stores your Magisterium token "
    "encrypted, and nothing else about you beyond what features you set up. "
    "`/account unlink` deletes all of it at once. In DMs, and with `private: True`, only you "
    "see the answer."
)

LINKING = (
    "Magisterium's API needs your own account on a paid plan (Pro, Organization or Enterprise). "
    "Run `/account link` to connect it; until then the bot may answer with its operator's "
    "shared account, if one is configured, within a small quota."
)


def help_embed() -> discord.Embed:
    embed = discord.Embed(
        title="Magisterium AI for Discord",
        description="Answers about Catholic teaching, with the sources they rest on.",
        colour=BRAND,
    )
    embed.add_field(
        name="Commands", value="\n".join(f"`{name}` — {text}" for name, text in COMMANDS)
    )
    embed.add_field(name="Your account", value=LINKING, inline=False)
    embed.add_field(name="Privacy", value=PRIVACY, inline=False)
    embed.set_footer(text=footer_text("help"))
    return embed


class HelpCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot does, how to link, privacy")
    async def help(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)
