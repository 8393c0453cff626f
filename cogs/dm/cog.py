"""Answering plain DMs: one question at a time per person, continuing their conversation."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.a2a import errors
from bot.a2a.skills import CATHOLIC_QA
from bot.app.error_reporting import error_embed_for
from bot.app.lifecycle import restarting_notice
from bot.app.user_input import strip_invisible
from bot.i18n import _, recent_locale, using_locale
from bot.render.embeds import QA_SKILL, footer, notice_embed
from bot.render.pager import Paginator
from bot.render.upstream import magisterium_asks
from bot.services.origin import Origin
from cogs.dm.answer_views import dm_answer_view
from cogs.dm.views import NewConversationButton

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

MAX_QUESTION = 2000


def asked_back(asked: errors.InputRequired, *, continues: bool) -> discord.Embed:
    """Magisterium's question back (a task ``input-required``); ``continues`` when the
    person's next DM is their reply in the same conversation."""
    if continues:
        hint = _("Your next message here is your reply; it continues this conversation.")
    else:
        hint = _("Send your question again with the detail Magisterium asks for.")
    return magisterium_asks(None, asked.reason, hint, footer=footer(QA_SKILL, asked.task_id))


def still_working() -> discord.Embed:
    """What someone who sends a second question before the first is answered sees."""
    return notice_embed(
        _("Still working"),
        _("I'm still answering your previous question; send this one again once it is answered."),
    )


class DirectMessagesCog(commands.Cog):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        self._pending: set[int] = set()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None or message.author.bot:
            return
        if not isinstance(message.channel, discord.DMChannel):
            return
        question = strip_invisible(message.content)
        if not question:
            return  # an attachment or sticker alone: nothing to ask
        # A DM carries no locale: answer in the language of the person's latest interaction.
        locale = recent_locale(message.author.id)
        origin = Origin.direct_message(message.author.id, message.channel.id, locale)
        with using_locale(locale):
            await self._reply(message, origin, question)

    async def _reply(self, message: discord.Message, origin: Origin, question: str) -> None:
        if self.bot.draining:
            await message.reply(embed=restarting_notice())
            return
        user_id = message.author.id
        if user_id in self._pending:
            await message.reply(embed=still_working())
            return
        self._pending.add(user_id)
        try:
            async with message.channel.typing():
                await self._answer(message, origin, question[:MAX_QUESTION])
        except Exception as error:
            embed = error_embed_for(error, where="DM question", typed=(message.content,))
            await message.reply(embed=embed)
        finally:
            self._pending.discard(user_id)

    async def _answer(self, message: discord.Message, origin: Origin, question: str) -> None:
        services = self.bot.services
        user_id = origin.user_id
        context_id = await services.conversations.context_of(user_id)
        try:
            answer = await services.magisterium.call(
                origin, CATHOLIC_QA, question, context_id=context_id
            )
        except errors.InputRequired as asked:
            await self._ask_back(message, asked)
            return
        if answer.context_id:
            await services.conversations.remember(user_id, answer.context_id)
        pager = dm_answer_view(self.bot, answer, question=question, author_id=user_id)
        await pager.send_to(message.channel)

    async def _ask_back(self, message: discord.Message, asked: errors.InputRequired) -> None:
        """Show Magisterium's question; its conversation becomes the person's, so their next
        DM continues it (the same contextId)."""
        if asked.context_id:
            await self.bot.services.conversations.remember(message.author.id, asked.context_id)
        embed = asked_back(asked, continues=bool(asked.context_id))
        pager = Paginator([embed], author_id=message.author.id, full_text=None, filename="")
        pager.add_item(NewConversationButton())
        await pager.send_to(message.channel)
