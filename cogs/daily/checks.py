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
    Discord's settings; empty when it can post."""
    permissions = channel.permissions_for(me)
    in_thread = isinstance(channel, discord.Thread)
    locked = isinstance(channel, discord.Thread) and channel.locked
    needed = [
        ("view_channel", "View Channel"),
        (
            ("send_messages_in_threads", "Send Messages in Threads")
            if in_thread
            else ("send_messages", "Send Messages")
        ),
        ("embed_links", "Embed Links"),
    ]
    missing = [label for flag, label in needed if not getattr(permissions, flag)]
    if locked and not permissions.manage_threads:
        missing.append("Manage Threads (the thread is locked)")
    return missing


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
