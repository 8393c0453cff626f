"""Threads started on a message, which dpytest cannot do: Discord's answer, played locally."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from devtools.discord.wire import thread_payload

if TYPE_CHECKING:
    from devtools.discord.harness import Harness


class FakeThreads:
    """``bot.http.start_thread_with_message`` answering as Discord does (dpytest has no
    threads): the thread takes the id of the message it is started on, and the bot then gets
    its THREAD_CREATE, which puts it in the cache (so messages posted in it find it). Each
    thread it opens is recorded, with the message it was opened on and the fields the bot
    asked for (``asked``: name, auto_archive_duration…)."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.opened: list[dict[str, Any]] = []

    async def __call__(self, channel_id: int, message_id: int, **fields: Any) -> dict[str, Any]:
        found = self.harness.bot.get_channel(int(channel_id))
        channel = found if isinstance(found, discord.TextChannel) else self.harness.channel
        bot_user = self.harness.bot.user
        assert bot_user is not None
        data = thread_payload(
            int(message_id), parent=channel, name=fields["name"], owner_id=bot_user.id
        )
        self.opened.append({"message_id": message_id, "asked": fields, **data})
        self.harness.thread(fields["name"], parent=channel, thread_id=int(message_id))
        return data
