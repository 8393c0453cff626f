"""Can the bot post in a channel? Named permissions, so an admin knows exactly what to fix."""

from __future__ import annotations

import discord

from bot.i18n import N_, _

PostChannel = discord.TextChannel | discord.Thread
POSTABLE_TYPES = (
    discord.ChannelType.text,
    discord.ChannelType.news,
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)

# Translators: a Discord permission's name: use the name Discord's own settings show in your
# language, so an admin finds it (the same goes for the permission names below).
VIEW_CHANNEL = N_("View Channel")
# Translators: a Discord permission's name, as Discord's settings show it in your language.
SEND_MESSAGES = N_("Send Messages")
# Translators: a Discord permission's name, as Discord's settings show it in your language.
SEND_MESSAGES_IN_THREADS = N_("Send Messages in Threads")
# Translators: a Discord permission's name, as Discord's settings show it in your language.
EMBED_LINKS = N_("Embed Links")
# Translators: a Discord permission's name ("Manage Threads", as Discord's settings show it in
# your language), and why it is needed.
MANAGE_THREADS_LOCKED = N_("Manage Threads (the thread is locked)")
# Translators: a Discord permission's name, as Discord's settings show it in your language.
MENTION_EVERYONE = N_("Mention @everyone, @here and All Roles")
PERMISSION_NAMES = frozenset(
    {
        VIEW_CHANNEL,
        SEND_MESSAGES,
        SEND_MESSAGES_IN_THREADS,
        EMBED_LINKS,
        MANAGE_THREADS_LOCKED,
        MENTION_EVERYONE,
    }
)
# Translators: {permissions} lists Discord permission names in bold ("**Embed Links**, …");
# {channel} is a channel mention.
MISSING = N_("I am missing {permissions} in {channel}.")


def missing_permissions(channel: PostChannel, me: discord.Member) -> list[str]:
    """The permissions the bot lacks to post a daily embed in ``channel``, by their names in
    Discord's settings (English: translate them with ``_()`` where shown); empty when it can
    post.

    Whether it can post comes from discord.py's effective permissions. The names come from the
    permissions as the server set them: the effective ones also drop Embed Links when Send
    Messages is denied (and everything without View Channel), which would send an admin to fix
    settings they never changed.
    """
    in_thread = isinstance(channel, discord.Thread)
    needed = [
        ("view_channel", VIEW_CHANNEL),
        (
            ("send_messages_in_threads", SEND_MESSAGES_IN_THREADS)
            if in_thread
            else ("send_messages", SEND_MESSAGES)
        ),
        ("embed_links", EMBED_LINKS),
    ]
    effective = channel.permissions_for(me)
    missing = [label for flag, label in needed if not getattr(effective, flag)]
    if missing:
        explicit = _as_set(channel, me)
        named = [label for flag, label in needed if not getattr(explicit, flag)]
        missing = named or missing
    locked = isinstance(channel, discord.Thread) and channel.locked
    if locked and not effective.manage_threads:
        missing.append(MANAGE_THREADS_LOCKED)
    return missing


def _as_set(channel: PostChannel, me: discord.Member) -> discord.Permissions:
    """The bot's permissions in ``channel`` from its roles and the channel's overwrites alone,
    without the rules Discord derives from them (no View Channel → nothing, and so on)."""
    permissions = discord.Permissions(me.guild_permissions.value)
    if permissions.administrator:
        return discord.Permissions.all()
    where = channel.parent if isinstance(channel, discord.Thread) else channel
    if where is None:
        return permissions
    everyone_allow, everyone_deny = where.overwrites_for(me.guild.default_role).pair()
    permissions.handle_overwrite(everyone_allow.value, everyone_deny.value)
    allow = deny = 0
    for role in me.roles:
        if role.is_default():
            continue
        role_allow, role_deny = where.overwrites_for(role).pair()
        allow, deny = allow | role_allow.value, deny | role_deny.value
    permissions.handle_overwrite(allow, deny)
    member_allow, member_deny = where.overwrites_for(me).pair()
    permissions.handle_overwrite(member_allow.value, member_deny.value)
    return permissions


def bold_names(names: list[str]) -> str:
    """``**View Channel**, **Embed Links**``."""
    return ", ".join(f"**{name}**" for name in names)


def describe_missing(channel: PostChannel, missing: list[str]) -> str:
    """What the bot lacks in ``channel``, in the current locale."""
    names = bold_names([_(name) for name in missing])
    return _(MISSING).format(permissions=names, channel=channel.mention)


def missing_reason(channel: PostChannel, missing: list[str]) -> str:
    """:func:`describe_missing` in English, as a schedule records it (``cogs.daily.reasons``)."""
    return MISSING.format(permissions=bold_names(missing), channel=channel.mention)


def role_problem(role: discord.Role, me: discord.Member) -> str | None:
    """Why pinging ``role`` would not work, in the current locale; or None."""
    if role.is_default():
        return _("Pick a role to ping: @everyone is never pinged by daily posts.")
    if not role.mentionable and not me.guild_permissions.mention_everyone:
        # Translators: {role} is a role mention; {permission} a Discord permission's name.
        # "Server Settings → Roles" is where Discord's settings list roles: use its names there.
        return _(
            "{role} is not mentionable, so my ping would not notify anyone. Make it "
            "mentionable (Server Settings → Roles), or give me **{permission}**."
        ).format(role=role.mention, permission=_(MENTION_EVERYONE))
    return None
