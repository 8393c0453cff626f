"""What the bot asks for when a server adds it: OAuth2 scopes and channel permissions."""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")

# Each one, and why: reading and answering in a channel (View Channel, Send Messages, Embed
# Links); "Send as file" (Attach Files); related questions answered in a thread on the answer
# (Create Public Threads, Send Messages in Threads); daily posts, which also check the channel's
# recent messages after a crash before posting again (Read Message History).
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)


def invite_url(application_id: int) -> str:
    """The "Add to Discord" link for the application."""
    return discord.utils.oauth_url(application_id, permissions=BOT_PERMISSIONS, scopes=SCOPES)
