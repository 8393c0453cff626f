"""Magisterium's own words inside the bot's messages: a task's status message (why it failed,
what it asks, why it declined), clipped to Discord's limits and shown as it came.

It is upstream text: never a format string, never trusted to fit. Mentions in it stay inert
(the client's ``AllowedMentions.none()``; embeds never ping anyway).
"""

from __future__ import annotations

import discord

from bot.i18n import N_, _
from bot.render.discord_limits import EMBED_AUTHOR, EMBED_DESCRIPTION, EMBED_FOOTER, EMBED_TITLE
from bot.render.look import BRAND, FOOTER_PREFIX, error_embed
from bot.render.split import truncate

# Translators: the small heading above Magisterium's question back to the person.
ASKS = N_("Magisterium asks")
# Translators: shown when Magisterium's question back to the person came without any text.
NO_QUESTION_WORDS = N_("Magisterium needs more detail to answer this.")

_GAP = "\n\n"
_QUOTE = ">>> "  # Discord's block quote: everything after it, line breaks included


def clip_words(words: str, limit: int) -> str:
    """``words`` without surrounding blank space, cut to ``limit`` characters."""
    return truncate(words.strip(), max(0, limit))


def with_quote(text: str, quote: str) -> str:
    """The bot's ``text``, then Magisterium's words as a block quote; within a description."""
    room = EMBED_DESCRIPTION - len(text) - len(_GAP) - len(_QUOTE)
    words = clip_words(quote, room)
    return f"{text}{_GAP}{_QUOTE}{words}" if words else text


def reply_first(quote: str, text: str) -> str:
    """Magisterium's words as the message itself, the bot's ``text`` under them in italics."""
    note = f"*{text}*" if text else ""
    words = clip_words(quote, EMBED_DESCRIPTION - len(note) - len(_GAP))
    if not words:
        return text
    return f"{words}{_GAP}{note}" if note else words


def error_with_quote(
    title: str, text: str, quote: str, *, error_id: str | None = None
) -> discord.Embed:
    """A failure's explanation with what Magisterium said about it."""
    return error_embed(title, with_quote(text, quote), error_id=error_id)


def magisterium_reply(title: str, quote: str, text: str) -> discord.Embed:
    """Magisterium answered this way itself (a declined request): shown as its answer."""
    embed = discord.Embed(
        title=truncate(title, EMBED_TITLE) or None,
        description=reply_first(quote, text) or None,
        colour=BRAND,
    )
    embed.set_footer(text=FOOTER_PREFIX)
    return embed


def magisterium_asks(title: str | None, question: str, hint: str, *, footer: str) -> discord.Embed:
    """Magisterium's question back to the person (a task ``input-required``): "Magisterium
    asks" above ``title`` (what they asked), its words, then ``hint`` (how to reply)."""
    embed = discord.Embed(
        title=truncate(title, EMBED_TITLE) if title else None,
        description=reply_first(question.strip() or _(NO_QUESTION_WORDS), hint),
        colour=BRAND,
    )
    embed.set_author(name=truncate(_(ASKS), EMBED_AUTHOR))
    embed.set_footer(text=truncate(footer, EMBED_FOOTER))
    return embed
