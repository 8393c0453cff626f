"""Posting an answer to a server message: what the bot may do in its channel, the reply that
pings nobody, the thread an ask channel's answer goes in, and "Typing…" meanwhile."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot.render.pager import Paginator
from cogs.qa.clarify import Clarification
from cogs.qa.text import thread_name

log = logging.getLogger(__name__)


class Permissions:
    """What the bot may do in a channel, for answering there."""

    def __init__(self, channel: discord.abc.Messageable, me: discord.Member) -> None:
        perms = (
            channel.permissions_for(me)
            if isinstance(channel, discord.abc.GuildChannel | discord.Thread)
            else discord.Permissions.none()
        )
        in_thread = isinstance(channel, discord.Thread)
        locked = isinstance(channel, discord.Thread) and channel.locked and not perms.manage_threads
        send = perms.send_messages_in_threads if in_thread else perms.send_messages
        self.send = bool(perms.view_channel and send and not locked)
        self.embed = bool(perms.embed_links)
        self.reply = bool(perms.read_message_history)  # Discord asks it of a reply
        # A thread on a message: an ask channel's answer (else a reply in the channel).
        self.start_thread = bool(
            not in_thread and perms.create_public_threads and perms.send_messages_in_threads
        )


async def post(
    channel: discord.abc.Messageable,
    reference: discord.MessageReference | None,
    view: Paginator | Clarification,
    content: str | None,
) -> discord.Message | None:
    """The answer (or Magisterium's question back) in ``channel``, as a reply to ``reference``
    when given."""
    try:
        if isinstance(view, Clarification):
            shown = view if view.children else None
            return await send(channel, reference, content=content, embed=view.current, view=shown)
        return await view.send_to(channel, content=content, reply_to=reference)
    except discord.HTTPException as exc:
        view.stop()
        log.info("answer to a message not posted: HTTP %s code %s", exc.status, exc.code)
        return None


async def start_thread(message: discord.Message, question: str) -> discord.Thread | None:
    """A thread on an ask channel's message, for its answer; None when Discord refuses (the
    answer is then a reply in the channel). ``discord.NotFound``: the message is gone."""
    try:
        return message.thread or await message.create_thread(
            name=thread_name(question), auto_archive_duration=1440
        )
    except discord.NotFound:
        raise
    except discord.HTTPException as exc:
        log.info("ask channel thread not started: HTTP %s code %s", exc.status, exc.code)
        return None


def plain(embed: discord.Embed | None) -> str:
    if embed is None:
        return ""
    return "\n".join(part for part in (embed.title, embed.description) if part)[:2000]


def reference(
    message: discord.Message, permissions: Permissions
) -> discord.MessageReference | None:
    """A reply's reference to ``message`` (Discord needs Read Message History for one); a
    question deleted meanwhile makes it a plain message rather than a failure."""
    return message.to_reference(fail_if_not_exists=False) if permissions.reply else None


async def send(
    channel: discord.abc.Messageable,
    reference: discord.MessageReference | None,
    *,
    content: str | None = None,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message:
    """A message in ``channel``, as a reply to ``reference`` that pings nobody when given."""
    kwargs: dict[str, Any] = {}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    if reference is not None:
        kwargs.update(reference=reference, mention_author=False)
    return await channel.send(content, **kwargs)


async def start_typing(stack: contextlib.AsyncExitStack, channel: discord.abc.Messageable) -> None:
    """Show "Typing…" in ``channel`` until ``stack`` closes; an answer never fails for it."""
    try:
        await stack.enter_async_context(channel.typing())
    except discord.HTTPException as exc:
        log.info("no typing indicator: HTTP %s", exc.status)
