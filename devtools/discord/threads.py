"""Threads started on a message, which dpytest cannot do: Discord's answer, played locally."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from devtools.discord.payload_checks import form_errors, thread_problems
from devtools.discord.records import http_error
from devtools.discord.wire import thread_payload

if TYPE_CHECKING:
    from devtools.discord.harness import Harness


class FakeThreads:
    """``bot.http.start_thread_with_message`` answering as Discord does (dpytest has no
    threads): the thread takes the id of the message it is started on, and the bot then gets
    its THREAD_CREATE, which puts it in the cache (so messages posted in it find it). Each
    thread it opens is recorded, with the message it was opened on and the fields the bot
    asked for (``asked``: name, auto_archive_duration…).

    It refuses what Discord refuses, raising what discord.py raises for Discord's answer: a
    channel it does not know (404, 10003); a message outside a text or announcement channel —
    in a thread, a forum post, a DM (400, 50024); a name that is not 1-100 characters or an
    ``auto_archive_duration`` other than 60, 1440, 4320 or 10080 (400, 50035, the checks of
    :func:`~devtools.discord.payload_checks.thread_problems`); a second thread on a message
    (400, 160004). The harness installs one as ``harness.threads``."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.opened: list[dict[str, Any]] = []

    async def __call__(self, channel_id: int, message_id: int, **fields: Any) -> dict[str, Any]:
        channel = self.harness.bot.get_channel(int(channel_id))
        if channel is None:
            raise http_error(404, 10003, "Unknown Channel")
        # An announcement channel is a TextChannel too (``news``); threads, forum posts and
        # DMs are not.
        if not isinstance(channel, discord.TextChannel):
            raise http_error(400, 50024, "Cannot execute action on this channel type")
        body = {key: value for key, value in fields.items() if key != "reason"}  # a header
        problems = thread_problems(body)
        if problems:
            raise http_error(400, 50035, "Invalid Form Body", form_errors(problems))
        already = any(int(t["message_id"]) == int(message_id) for t in self.opened)
        if already or channel.guild.get_thread(int(message_id)) is not None:
            raise http_error(400, 160004, "A thread has already been created for this message")
        bot_user = self.harness.bot.user
        assert bot_user is not None
        data = thread_payload(
            int(message_id), parent=channel, name=fields["name"], owner_id=bot_user.id
        )
        self.opened.append({"message_id": message_id, "asked": fields, **data})
        self.harness.thread(fields["name"], parent=channel, thread_id=int(message_id))
        return data
