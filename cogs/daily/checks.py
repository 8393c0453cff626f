"""Can the bot post in a channel? Named permissions, so an admin knows exactly what to fix."""

from __future__ import annotations

import discord

PostChannel = discord.TextChannel | discord.Thread
POSTABLE_TYPES = (
    discord.ChannelType.text,
    discord.ChannelType.news,
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def missing_permissions(channel: PostChannel, me: discord.Member) -> list[str]:
    """The permissions the bot lacks to post a daily embed in ``channel``, by their names in
    Discord's settings; empty when it can post.

    Whether it can post comes from discord.py's effective permissions. The names come from the
    permissions as the server set them: the effective ones also drop Embed Links when Send
    Messages is denied (and everything without View Channel), which would send an admin to fix
    settings they never changed.
    """
    in_thread = isinstance(channel, discord.Thread)
    needed = [
        ("view_channel", "View Channel"),
        (
            ("send_messages_in_threads", "Send Messages in Threads")
            if in_thread
            else ("send_messages", "Send Messages")
        ),
        ("embed_links", "Embed Links"),
    ]
    effective = channel.permissions_for(me)
    missing = [label for flag, label in needed if not getattr(effective, flag)]
    if missing:
        explicit = _as_set(channel, me)
        named = [label for flag, label in needed if not getattr(explicit, flag)]
        missing = named or missing
    locked = isinstance(channel, discord.Thread) and channel.locked
    if locked and not effective.manage_threads:
        missing.append("Manage Threads (the thread is locked)")
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


def describe_missing(channel: PostChannel, missing: list[str]) -> str:
    names = ", ".join(f"**{name}**" for name in missing)
    return f"I am missing {names} in {channel.mention}."


def role_problem(role: discord.Role, me: discord.Member) -> str | None:
    """Why pinging ``role`` would not work, or None."""
    if role.is_default():
        return "Pick a role to ping: @everyone is never pinged by daily posts."
    if not role.mentionable and not me.guild_permissions.mention_everyone:
        return (
            f"{role.mention} is not mentionable, so my ping would not notify anyone. Make it "
            "mentionable (Server Settings → Roles), or give me **Mention @everyone, @here and "
            "All Roles**."
        )
    return None
