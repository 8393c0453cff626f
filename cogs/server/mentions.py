"""What ``/server mentions`` answers, and the mentions line of ``/server status``."""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render.embeds import notice_embed


def mentions_state(enabled: bool) -> str:
    """Whether a mention of the bot is a question in this server, in the current locale."""
    if enabled:
        # Translators: /server status and /server mentions: mentions of the bot are answered.
        return _("On: a message that mentions the bot with a question is answered as a reply")
    # Translators: /server status and /server mentions: mentions of the bot are ignored.
    return _("Off: the bot ignores mentions here (`/ask` still works)")


def mentions_embed(enabled: bool) -> discord.Embed:
    """The answer to ``/server mentions``."""
    # Translators: the title of /server mentions' answer.
    title = _("Mentions turned on") if enabled else _("Mentions turned off")
    return notice_embed(title, mentions_state(enabled))


def add_mentions(embed: discord.Embed, enabled: bool) -> discord.Embed:
    """The mentions line of ``/server status``."""
    # Translators: /server status: the heading over whether mentions are answered.
    embed.add_field(name=_("Mentions"), value=mentions_state(enabled), inline=False)
    return embed
