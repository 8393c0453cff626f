"""Which messages of an ask channel (``/server askchannel``) are questions, and the flood bound.

With the Message Content intent, in a channel the admins made an ask channel:

* a new message in a text channel is a question, answered in a thread the bot starts on it;
* a new post in a forum is a question (its title, then its text), answered in the post;
* a message in that thread, or in any post of that forum, continues the conversation;
* not: a reply to someone other than the bot, or a message that mentions people but not the
  bot (people talking to each other), and messages without text (an image, a sticker).
  A reply to the bot at the channel's top level is a mention's reply (``cogs.qa.mentions``).

A flood (a member posting 20 questions in a minute) is bounded three ways: each question is
charged to whoever's allowance serves it, as ``/ask`` is (their own account, else their hourly
allowance on the server's, else their quota on the shared one: never more than one member's
allowance of the server's account); a member has one question answered at a time
(:class:`FloodGuard`: one "still answering" note, then silence, until it is answered); and once
their allowance is used up they are told once, then not answered until it comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, auto
from time import monotonic

import discord

from bot.services.ask_channels import AskChannel, AskChannelKind, AskChannelStore

MAX_QUIET_MEMBERS = 10_000  # members told their allowance is used up, remembered at once


@dataclass(frozen=True)
class AskPlace:
    """Where in an ask channel a question was asked."""

    channel: AskChannel
    new: bool  # a new message or post (else a message in its thread)
    starts_thread: bool  # a text channel's new message: the bot starts a thread on it


async def ask_place_of(
    message: discord.Message, store: AskChannelStore, bot_id: int
) -> AskPlace | None:
    """Where ``message`` asks, when it is an ask channel's question; None otherwise."""
    channel = message.channel
    if isinstance(channel, discord.Thread):
        found = await store.find(channel.parent_id)
        if found is None:
            return None
        if found.kind is AskChannelKind.FORUM and message.id == channel.id:
            return AskPlace(found, new=True, starts_thread=False)  # the post's first message
        made_by_bot = channel.owner_id == bot_id
        if found.kind is AskChannelKind.TEXT and not made_by_bot:
            return None  # a thread members made in the channel: theirs
        return (
            AskPlace(found, new=False, starts_thread=False) if _for_bot(message, bot_id) else None
        )
    if not isinstance(channel, discord.TextChannel):
        return None
    found = await store.find(channel.id)
    if found is None or found.kind is not AskChannelKind.TEXT:
        return None
    if message.reference is not None or not _for_bot(message, bot_id):
        return None  # a reply at the top level: a mention's reply, if it mentions the bot
    return AskPlace(found, new=True, starts_thread=True)


def _for_bot(message: discord.Message, bot_id: int) -> bool:
    """Not people talking to each other: no reply to someone else, no mention of others alone."""
    reference = message.reference
    replied = reference.resolved if reference is not None else None
    if reference is not None and not (
        isinstance(replied, discord.Message) and replied.author.id == bot_id
    ):
        return False
    others = [user for user in message.mentions if user.id != bot_id]
    mentions_bot = any(user.id == bot_id for user in message.mentions)
    return not others or mentions_bot


def question_text(message: discord.Message, place: AskPlace) -> str:
    """What the message asks: a forum post's title, then its text (unless it repeats it)."""
    content = message.content
    if place.channel.kind is AskChannelKind.FORUM and place.new:
        title = getattr(message.channel, "name", "") or ""
        if title and not content.strip().startswith(title.strip()):
            return f"{title}\n\n{content}".strip()
    return content


class Turn(Enum):
    ASK = auto()  # answer it
    SAY_BUSY = auto()  # say once that their earlier question is still being answered
    SKIP = auto()  # stay silent


class FloodGuard:
    """One question at a time per member in ask channels, and silence after their allowance
    is used up until it comes back (this process's memory; a restart forgets it)."""

    def __init__(self, clock: Callable[[], float] = monotonic) -> None:
        self.clock = clock
        self._answering: dict[int, bool] = {}  # member -> told they must wait
        self._quiet_until: dict[int, float] = {}

    def turn(self, member_id: int) -> Turn:
        """Whether ``member_id``'s new question is asked now; ``ASK`` must be followed by
        :meth:`done`."""
        until = self._quiet_until.get(member_id)
        if until is not None:
            if until > self.clock():
                return Turn.SKIP
            del self._quiet_until[member_id]
        told = self._answering.get(member_id)
        if told is None:
            self._answering[member_id] = False
            return Turn.ASK
        if told:
            return Turn.SKIP
        self._answering[member_id] = True
        return Turn.SAY_BUSY

    def done(self, member_id: int) -> None:
        self._answering.pop(member_id, None)

    def quiet(self, member_id: int, seconds: float) -> None:
        """``member_id`` was told their allowance is used up: skip them for ``seconds``."""
        now = self.clock()
        if len(self._quiet_until) >= MAX_QUIET_MEMBERS:
            for member in [m for m, until in self._quiet_until.items() if until <= now]:
                del self._quiet_until[member]
            if len(self._quiet_until) >= MAX_QUIET_MEMBERS:  # all still quiet: drop the oldest
                del self._quiet_until[next(iter(self._quiet_until))]
        self._quiet_until[member_id] = now + seconds
