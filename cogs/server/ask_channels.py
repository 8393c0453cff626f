"""What ``/server askchannel`` checks and answers, and the ask-channels line of ``/server status``.

An ask channel needs the Message Content intent (``MESSAGE_CONTENT_INTENT``, and its switch in
Discord's developer portal): without it the command says so and stores nothing. The bot must be
able to answer there, so the permissions it lacks are named before anything is stored.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import N_, _, format_number
from bot.render.embeds import notice_embed
from bot.services.ask_channels import MAX_PER_SERVER, AskChannel, AskChannelKind
from bot.services.user_errors import UserFacingError

# Translators: /server status: the heading over the list of ask channels.
ASK_CHANNELS = N_("Ask channels")
# (Discord's name of a permission, as its client shows it, the flag) the bot needs in an ask
# channel; a forum's posts are threads already, so it starts none there.
THREAD_PERMISSIONS = (
    # Translators: Discord's name of a permission, as its settings show it in your language.
    (N_("View Channel"), "view_channel"),
    # Translators: Discord's name of a permission, as its settings show it in your language.
    (N_("Send Messages in Threads"), "send_messages_in_threads"),
    # Translators: Discord's name of a permission, as its settings show it in your language.
    (N_("Embed Links"), "embed_links"),
    # Translators: Discord's name of a permission, as its settings show it in your language.
    (N_("Read Message History"), "read_message_history"),
)
TEXT_PERMISSIONS = (
    # Translators: Discord's name of a permission, as its settings show it in your language.
    (N_("Send Messages"), "send_messages"),
    # Translators: Discord's name of a permission, as its settings show it in your language.
    (N_("Create Public Threads"), "create_public_threads"),
)


class NoMessageContent(UserFacingError):
    def __init__(self) -> None:
        super().__init__(
            # Translators: the title when /server askchannel cannot work on this bot.
            _("Ask channels are not available on this bot"),
            # Translators: keep MESSAGE_CONTENT_INTENT=true as it is (a setting's name).
            _(
                "Every message of an ask channel is a question, so the bot must read messages "
                "that do not mention it, which Discord allows only with the Message Content "
                "intent. The bot's operator must turn on **Message Content Intent** in Discord's "
                "developer portal (the application's Bot page) and start the bot with "
                "`MESSAGE_CONTENT_INTENT=true`. Nothing was saved. Mentioning the bot works "
                "without it."
            ),
        )


class MissingPermissions(UserFacingError):
    def __init__(self, channel: str, missing: Sequence[str]) -> None:
        super().__init__(
            # Translators: the title when the bot lacks permissions in the chosen channel.
            _("I cannot answer in that channel"),
            # Translators: {channel}: a channel mention; {permissions}: permission names.
            _(
                "In {channel} I need these permissions: {permissions}. Grant them to my role, "
                "then run the command again. Nothing was saved."
            ).format(channel=channel, permissions=", ".join(missing)),
        )


class TooMany(UserFacingError):
    def __init__(self) -> None:
        super().__init__(
            # Translators: the title when a server already has the most ask channels allowed.
            _("Too many ask channels"),
            # Translators: {count} is a number (10).
            _(
                "A server can have {count} ask channels. Turn one off with "
                "`/server askchannel off` first."
            ).format(count=format_number(MAX_PER_SERVER)),
        )


def kind_of(channel: discord.TextChannel | discord.ForumChannel) -> AskChannelKind:
    return (
        AskChannelKind.FORUM if isinstance(channel, discord.ForumChannel) else AskChannelKind.TEXT
    )


def check_permissions(
    channel: discord.TextChannel | discord.ForumChannel, me: discord.Member
) -> None:
    """:class:`MissingPermissions` naming what the bot lacks to answer in ``channel``."""
    granted = channel.permissions_for(me)
    needed = (
        THREAD_PERMISSIONS
        if isinstance(channel, discord.ForumChannel)
        else (THREAD_PERMISSIONS + TEXT_PERMISSIONS)
    )
    missing = [_(label) for label, flag in needed if not getattr(granted, flag)]
    if missing:
        raise MissingPermissions(channel.mention, missing)


def set_embed(channel: discord.TextChannel | discord.ForumChannel) -> discord.Embed:
    """The answer to ``/server askchannel set``."""
    if isinstance(channel, discord.ForumChannel):
        # Translators: /server askchannel set, a forum; {channel} is the channel's mention.
        text = _(
            "Every new post in {channel} is now a question, answered in the post; messages in "
            "the post continue the conversation."
        )
    else:
        # Translators: /server askchannel set, a text channel; {channel}: the channel's mention.
        text = _(
            "Every new message in {channel} is now a question, answered in a thread on it; "
            "messages in that thread continue the conversation."
        )
    # Translators: the title of /server askchannel set's answer.
    return notice_embed(_("Ask channel set"), text.format(channel=channel.mention))


def off_embed(channel: discord.abc.GuildChannel, *, was_on: bool) -> discord.Embed:
    """The answer to ``/server askchannel off``."""
    if was_on:
        # Translators: the title of /server askchannel off's answer.
        title = _("Ask channel turned off")
        # Translators: /server askchannel off; {channel} is the channel's mention.
        text = _("Messages in {channel} are no longer questions (mentions still are).")
    else:
        # Translators: the title when /server askchannel off names a channel that is not one.
        title = _("Not an ask channel")
        # Translators: /server askchannel off; {channel} is the channel's mention.
        text = _("{channel} was not an ask channel, so nothing changed.")
    return notice_embed(title, text.format(channel=channel.mention))


def add_ask_channels(
    embed: discord.Embed, channels: Sequence[AskChannel], *, intent: bool
) -> discord.Embed:
    """The ask-channels line of ``/server status``."""
    if channels:
        value = ", ".join(f"<#{channel.channel_id}>" for channel in channels)
        if not intent:
            # Translators: /server status, after the list of ask channels.
            value += "\n" + _(
                "Inactive: the bot's operator has not turned on the Message Content intent."
            )
    else:
        # Translators: /server status: this server has no ask channel.
        value = _("None (`/server askchannel set` makes one)")
    embed.add_field(name=_(ASK_CHANNELS), value=value, inline=False)
    return embed
