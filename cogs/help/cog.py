"""The /help command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _
from bot.render.look import BRAND, footer_text

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

# /help's list: each command (shown with its name as Discord shows it in the reader's language:
# the same catalogue entries the Translator gives `sync`) and what it does.
COMMANDS = (
    # Translators: /help's description of the /ask command (Magisterium AI answers).
    ("/ask", N_("Ask a question about Catholic teaching; the answer cites its sources.")),
    ("/search", N_("Find Church documents; open one from the menu.")),
    ("/document", N_("Read a document by its id, page by page.")),
    # Translators: /help's description of /readings; "Mass readings": the day's Bible readings.
    ("/readings", N_("The Mass readings for a day (today, tomorrow, next Sunday, a date).")),
    # Translators: /help's description of /saints; the Roman Martyrology is the Church's
    # official list of saints (use its usual name in your language).
    ("/saints", N_("The saints of the day from the Roman Martyrology.")),
    ("/saint", N_("A saint's life, feast day and patronage.")),
    ("/pope", N_("A pope's pontificate and life.")),
    ("/clergy", N_("A bishop's or cardinal's profile.")),
    ("/diocese", N_("A diocese's bishop, numbers and finances, with a chart of its statistics.")),
    # Translators: shown like a command in the /help list: sending the bot a direct message.
    (N_("DM the bot"), N_("Ask privately: a plain DM is a question; the conversation continues.")),
    # Translators: shown like a command in the /help list: @-mentioning the bot in a server.
    (
        N_("Mention the bot"),
        N_("In a server: your question after my mention is answered as a reply to it."),
    ),
)
# The rest of the list under a heading of its own: one field holds at most 1,024 characters.
SETUP_COMMANDS = (
    ("/account", N_("Link your Magisterium account, see its status, or unlink it.")),
    # Translators: /help's description of /account timezone. In backticks: the commands as
    # Discord shows them in your language (your translations of their names).
    (
        "/account timezone",
        N_(
            "Your timezone, so that “today” in `/readings` and `/saints` is your day (else the "
            "server's, set by its admins with `/server timezone`, else UTC)."
        ),
    ),
    # Translators: /help's description of /daily; "Mass readings": the day's Bible readings.
    ("/daily", N_("Server admins: post the saints or the Mass readings in a channel every day.")),
    # Translators: /help's description of /mydaily; "Mass readings": the day's Bible readings.
    ("/mydaily", N_("The saints or the Mass readings in your DMs every day, at your time.")),
    # Translators: /help's description of /server; Magisterium is the service's name.
    ("/server", N_("Server admins: the server's own Magisterium account for its members.")),
)

# Translators: /help's privacy paragraph. In backticks: the command and option as Discord
# shows them in your language (your translations of their names); Magisterium AI is a name.
PRIVACY = N_(
    "Questions go to Magisterium AI on your behalf. The bot stores your Magisterium token "
    "encrypted, and nothing else about you beyond what features you set up. "
    "`/account unlink` deletes all of it at once. In DMs, and with `private: True`, only you "
    "see the answer."
)

# Translators: /help's paragraph on sharing and sources. In bold: the button's and the menu's
# labels as you translated them; "@you" stands for the person's own mention.
ANSWERS = N_(
    "A private answer asked in a server has **Share in channel**: it posts the answer there, "
    '"Asked by @you", pinging nobody. **Read a source…** under an answer shows you the '
    "passage it cites and the document itself, privately."
)

# Translators: /help's paragraph on a server's own account. In backticks: the commands as
# Discord shows them in your language (your translations of their names).
SERVER_ACCOUNT = N_(
    "A server's admins can link the server's own Magisterium account with `/server link`; "
    "members without one of their own then use it within an hourly allowance. Its token is "
    "stored encrypted, for that server only, with each member's request counts for 24 hours; "
    "`/server status` shows admins how many members used it, never who asked what. "
    "`/server unlink`, or removing the bot, deletes it all at once."
)

# Translators: /help's paragraph on asking by mention. In backticks: the command as Discord
# shows it in your language (your translations of its name); keep **…** (bold).
MENTIONS = N_(
    "In a server, write **@** and my name, then your question: I answer as a reply, pinging "
    "no one. Reply to one of my answers, or mention me in a thread I made for a conversation, "
    "to continue it; anyone may. For that the bot keeps, for 24 hours, which conversation each "
    "of its answers belongs to, never who asked. Admins can turn mentions off with "
    "`/server mentions`."
)

# Translators: /help, after the paragraph on asking by mention. In backticks: the command as
# Discord shows it in your language (your translations of its names).
ASK_CHANNELS = N_(
    "Where the bot's operator allows it, admins can also make a channel an ask channel "
    "(`/server askchannel`): there every new message or forum post is a question, answered "
    "in a thread, and the thread continues the conversation."
)

# Translators: /help's paragraph on linking. `/account link`: your translated names; Pro,
# Organization and Enterprise are the names of Magisterium's plans.
LINKING = N_(
    "Magisterium's API needs your own account on a paid plan (Pro, Organization or Enterprise). "
    "Run `/account link` to connect it; until then the bot may answer with its operator's "
    "shared account, if one is configured, within a small quota."
)


def command_mention(command: str) -> str:
    """``/account link`` as Discord shows it in the current language (``/konto verknüpfen``)."""
    return "/" + " ".join(_(word) for word in command.removeprefix("/").split())


def _command_line(name: str, text: str) -> str:
    """One line of the list: a command (localised) or a translated label, and its text."""
    shown = command_mention(name) if name.startswith("/") else _(name)
    return f"`{shown}` — {_(text)}"


def help_embed() -> discord.Embed:
    """The /help screen, in the current locale."""
    embed = discord.Embed(
        # Translators: the title of /help; Magisterium AI is a proper name.
        title=_("Magisterium AI for Discord"),
        description=_("Answers about Catholic teaching, with the sources they rest on."),
        colour=BRAND,
    )
    embed.add_field(
        name=_("Commands"),
        value="\n".join(_command_line(name, text) for name, text in COMMANDS),
        inline=False,
    )
    embed.add_field(
        # Translators: /help's heading over /account, /daily, /mydaily and /server.
        name=_("Accounts and daily posts"),
        value="\n".join(_command_line(name, text) for name, text in SETUP_COMMANDS),
        inline=False,
    )
    embed.add_field(name=_("Your account"), value=_(LINKING), inline=False)
    # Translators: /help's heading over the paragraph on sharing answers and reading sources.
    embed.add_field(name=_("Sharing and sources"), value=_(ANSWERS), inline=False)
    # Translators: /help's heading over the paragraph on a server's own Magisterium account.
    embed.add_field(name=_("A server's account"), value=_(SERVER_ACCOUNT), inline=False)
    # Translators: /help's heading over the paragraph on asking by mentioning the bot.
    embed.add_field(
        name=_("Asking by mention"),
        value=f"{_(MENTIONS)}\n{_(ASK_CHANNELS)}",
        inline=False,
    )
    embed.add_field(name=_("Privacy"), value=_(PRIVACY), inline=False)
    embed.set_footer(text=footer_text("help"))
    return embed


class HelpCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("help"),
        description=N_("What this bot does, how to link, privacy"),
    )
    async def help(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)
