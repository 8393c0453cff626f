"""Recording which conversation a public answer continues, where it was posted.

Every public answer to a question (a mention's reply, a public ``/ask``, a related question,
"New conversation", a reply to Magisterium's question back, a private answer posted with
"Share in channel") is recorded under the id of the message discord.py returned for it (each
message of a shared answer posted in several), and a thread made for a related question under
the thread's id, in ``services.answer_conversations`` (24 hours). A reply to that message, or a
mention in that thread, then continues the conversation (``cogs.qa.mentions``). Private
answers are not recorded: nobody can reply to an ephemeral message.

Recording never fails an answer: with the database down, the answer stands and a reply to it
is asked as a new question.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.services.answer_conversations import Kind
from bot.storage import StorageUnavailable
from cogs.qa.answers import AnswerPager, Continues
from cogs.qa.clarify import Clarification

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)


def continues_of(view: discord.ui.View) -> Continues | None:
    """The conversation an answer's view (a pager, or Magisterium's question back) continues."""
    if isinstance(view, AnswerPager | Clarification):
        return view.continues
    return None


async def remember_answer(
    bot: MagisteriumBot,
    message: discord.Message | None,
    view: discord.ui.View,
    *,
    guild_id: int | None,
    thread: discord.Thread | None = None,
) -> None:
    """Record that ``message`` (the answer ``view`` shows) and ``thread`` (a thread it was
    posted in for the conversation) continue the answer's conversation."""
    continues = continues_of(view)
    places = [(thread.id, Kind.THREAD)] if thread is not None else []
    if message is not None:
        places.append((message.id, Kind.MESSAGE))
    await _record(bot, continues, places, guild_id=guild_id)


async def remember_shared(
    bot: MagisteriumBot,
    messages: Sequence[discord.Message],
    continues: Continues | None,
    *,
    guild_id: int | None,
) -> None:
    """Record that ``messages`` (a private answer posted publicly with "Share in channel")
    continue ``continues``, the conversation of the private answer they show."""
    places = [(message.id, Kind.MESSAGE) for message in messages]
    await _record(bot, continues, places, guild_id=guild_id)


async def _record(
    bot: MagisteriumBot,
    continues: Continues | None,
    places: Sequence[tuple[int, Kind]],
    *,
    guild_id: int | None,
) -> None:
    if continues is None or not places:
        return
    store = bot.services.answer_conversations
    try:
        for place_id, kind in places:
            await store.remember(
                place_id,
                kind=kind,
                guild_id=guild_id,
                context_id=continues.context_id,
                task_id=continues.task_id,
            )
    except StorageUnavailable as error:
        log.warning("answer conversation not recorded (a reply asks anew): %s", error)
