"""Questions asked where people talk: in a server, a message that mentions the bot, or replies
to one of its answers, is a question (catholic_qa), answered publicly as a reply to it. So is
every new message of an ask channel (``/server askchannel``, with the Message Content intent),
answered in a thread the bot starts on it, and every message in that thread or in a post of an
ask forum: ``cogs.qa.ask_channels`` says which messages count, and bounds a flood.

The answer is what a public ``/ask`` shows (``answer_view``: pages, "Read a source…", related
questions, "New conversation", the feedback buttons), sent as a reply that pings nobody, the
asker included, with "Typing…" while Magisterium works. It is asked as its author
(``Origin.server_message``: their own token, else the server's account, else the shared one).

What counts (``cogs.qa.mention_text`` reads the text):

* the bot's user mention, or its own managed role's where Discord delivers the text (a role
  mention whose text is withheld gets a note saying to mention the app itself);
* a reply to one of the bot's messages (Discord adds the mention unless the replier turns it
  off, and then withholds the text);
* not: a mention only inside code or a quote, @everyone/@here alone, messages of bots, webhooks
  and the system, DMs (``cogs.dm``), servers whose admins turned mentions off
  (``/server mentions``), channels where the bot cannot post.

What it continues: a reply to a recorded answer asks in that answer's conversation, whoever
writes it; a mention in a thread made for a conversation (or started on an answer) continues
the thread's. A reply to a message that is no answer is a new question; a reply to an answer,
or a mention in the bot's thread, whose conversation Magisterium forgot (24 h) is a new question
with a note saying so. See ``cogs.qa.conversations`` for what is recorded.

Bad input: a bare mention gets a short how-to; a message over 2,000 characters is asked with
its first 2,000 and the reply says so; a question deleted before its answer is ready gets no
answer (its text would be the answer's title, public again); an edit is not a new question
(the answer is to the text as sent); errors get the words ``/ask`` gives them, as a reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord.ext import commands
from discord.utils import escape_markdown, snowflake_time

from bot.a2a import errors
from bot.a2a.skills import CATHOLIC_QA
from bot.accounts.errors import QuotaExceeded
from bot.accounts.wall_clock import utcnow
from bot.app.error_reporting import error_embed_for, outcome_of
from bot.app.lifecycle import restarting_notice
from bot.i18n import N_, _, format_number, recent_locale, using_locale
from bot.render.embeds import notice_embed
from bot.render.pager import Paginator
from bot.services.answer_conversations import RETENTION, Conversation, Kind
from bot.services.origin import Origin
from bot.services.tokens import NoTokenAvailable
from bot.services.user_errors import QuestionDeclined
from bot.storage import StorageUnavailable
from cogs.qa import message_posting as posting
from cogs.qa.ask_channels import AskPlace, FloodGuard, Turn, ask_place_of, question_text
from cogs.qa.clarify import REPLY_PREFIX, Clarification
from cogs.qa.conversations import remember_answer
from cogs.qa.followups import NEW_CONVERSATION_ID, answer_view
from cogs.qa.memory import recent_answers
from cogs.qa.mention_text import Mentioned, Question, addresses, mention_names, question_of
from cogs.qa.text import MAX_QUESTION

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

MENTIONS_COG_NAME = "Mentions"
QUESTION_TYPES = (discord.MessageType.default, discord.MessageType.reply)

# Translators: the title of the reply to a message that mentions the bot with no question.
HOW_TO_TITLE = N_("Ask me a question")
# Translators: the reply to a bare mention. {name}: the bot's name in this server; {ask}: the
# /ask command as Discord shows it in your language. Keep **…** (bold) around the example.
HOW_TO = N_(
    "Mention me with your question in the same message, for example: "
    "**@{name} What is grace?** Or use `{ask}`."
)
# Translators: the reply when someone mentioned the bot's role (Discord makes one with the
# bot's name in each server) and Discord did not show the bot that message's text.
ROLE_HOW_TO = N_(
    "I cannot read a message that mentions my role. Mention me, the app **@{name}** (not the "
    "role of that name), followed by your question. Or use `{ask}`."
)
# Translators: a line above an answer; {limit} is a number of characters (2,000).
CUT_NOTE = N_(
    "Your message is longer than {limit} characters: I asked Magisterium about its first {limit}."
)
# Translators: a line above an answer to a reply to an old answer (or in an old thread).
EXPIRED_NOTE = N_(
    "That conversation has expired (Magisterium keeps one for {hours} hours), so I answered "
    "this as a new question."
)
# Translators: the title of the reply to a second question in an ask channel while the first
# of the same person is still being answered.
BUSY_TITLE = N_("One question at a time")
# Translators: the reply to a second question in an ask channel (see above).
BUSY = N_(
    "I am still answering your previous question. Ask this one again once that answer is posted."
)
# How long a reply to an answer waits for that answer's record, when it overtook it.
RECORD_WAIT = 10.0
# Told once a person's allowance is used up, then silent for this long when it is not known.
QUIET_WITHOUT_TOKEN = 600.0
# Translators: the bot may post in the channel but not show embeds. {ask}: the /ask command.
NO_EMBEDS = N_(
    "I need the Embed Links permission in this channel to show answers here. A server admin "
    "can grant it; meanwhile, use `{ask}`."
)


def _ask_command() -> str:
    """``/ask`` as Discord shows it in the current language."""
    return "/" + _("ask")


def _custom_ids(message: discord.Message) -> list[str]:
    found: list[str] = []
    for row in message.components:
        for child in getattr(row, "children", [row]):
            custom_id = getattr(child, "custom_id", None)
            if custom_id:
                found.append(custom_id)
    return found


def looks_like_answer(message: discord.Message) -> bool:
    """An answer of the bot's to a question, or Magisterium's question back: both carry
    buttons only those have ("New conversation", "Reply")."""
    return any(
        custom_id == NEW_CONVERSATION_ID or custom_id.startswith(f"{REPLY_PREFIX}:")
        for custom_id in _custom_ids(message)
    )


def _older_than_retention(object_id: int, now: datetime) -> bool:
    return now - snowflake_time(object_id) >= RETENTION


class MentionsCog(commands.Cog, name=MENTIONS_COG_NAME):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        self.now = utcnow  # an aware clock; tests move it
        # The questions being answered now, and which of them were deleted meanwhile.
        self._answering: set[int] = set()
        self._deleted: set[int] = set()
        # Answers being posted and recorded now, by the channel (or thread) they go to.
        self._posting: dict[int, set[asyncio.Event]] = {}
        self.flood = FloodGuard()  # one question at a time per member in ask channels
        self._turns: dict[int, int] = {}  # an ask channel's question being answered -> asker

    # --- events ------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        guild, me = message.guild, self.bot.user
        if guild is None or me is None or not _from_a_person(message):
            return
        member = guild.me
        if member is None:
            return
        mentioned = Mentioned(me.id, getattr(guild.self_role, "id", None))
        place = await self._ask_place(message, me.id)
        if place is not None:
            await self._in_ask_channel(message, place, mentioned, member)
            return
        user_mentioned = any(user.id == me.id for user in message.mentions)
        role_mentioned = mentioned.role_id is not None and any(
            role.id == mentioned.role_id for role in message.role_mentions
        )
        if not (user_mentioned or role_mentioned):
            return
        replies_to_bot = user_mentioned and _replies_to(message, me.id)
        addressed = replies_to_bot or addresses(message.content, mentioned)
        # The bot's role mentioned, and the text withheld: say to mention the app instead.
        role_unread = not addressed and role_mentioned and not message.content.strip()
        if not (addressed or role_unread):
            return  # a mention only in code or quotes, or of someone else
        permissions = posting.Permissions(message.channel, member)
        if not permissions.send:
            log.info("mention in guild %s: cannot post in channel %s", guild.id, message.channel.id)
            return
        if not await self._mentions_on(guild.id):
            return
        locale = recent_locale(message.author.id, guild.preferred_locale)
        with using_locale(locale):
            if role_unread:
                await self._reply(message, permissions, embed=_how_to(member, ROLE_HOW_TO))
            else:
                question = question_of(message.content, mentioned, names=_names(message))
                await self._handle(message, question, permissions, locale)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if payload.message_id in self._answering:
            self._deleted.add(payload.message_id)

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        self._deleted.update(self._answering & payload.message_ids)

    # --- ask channels ------------------------------------------------------------------------

    async def _ask_place(self, message: discord.Message, bot_id: int) -> AskPlace | None:
        """Where ``message`` asks in an ask channel; None outside them, or without the
        Message Content intent (the text would be withheld)."""
        if not self.bot.intents.message_content:
            return None
        return await ask_place_of(message, self.bot.services.ask_channels, bot_id)

    async def _in_ask_channel(
        self,
        message: discord.Message,
        place: AskPlace,
        mentioned: Mentioned,
        member: discord.Member,
    ) -> None:
        permissions = posting.Permissions(message.channel, member)
        if not permissions.send:
            log.info("ask channel %s: cannot post there", place.channel.channel_id)
            return
        text = question_text(message, place)
        question = question_of(text, mentioned, names=_names(message))
        if not question.text:
            return  # an image or a sticker: nothing to ask
        asker = message.author.id
        turn = self.flood.turn(asker)
        if turn is Turn.SKIP:
            return
        assert message.guild is not None
        locale = recent_locale(asker, message.guild.preferred_locale)
        with using_locale(locale):
            if turn is Turn.SAY_BUSY:
                await self._reply(message, permissions, embed=notice_embed(_(BUSY_TITLE), _(BUSY)))
                return
            self._turns[message.id] = asker
            try:
                await self._handle(message, question, permissions, locale, place=place)
            finally:
                self._end_turn(message.id)

    def _end_turn(self, question_id: int) -> None:
        """The asker's question is answered (posted) or failed: their next one may be asked."""
        asker = self._turns.pop(question_id, None)
        if asker is not None:
            self.flood.done(asker)

    def _quiet_after(self, asker: int, error: Exception) -> None:
        """After telling a person their allowance is used up, answer nothing more of theirs
        in ask channels until it comes back."""
        if isinstance(error, QuotaExceeded):
            self.flood.quiet(asker, error.retry_after_seconds)
        elif isinstance(error, NoTokenAvailable):
            self.flood.quiet(asker, QUIET_WITHOUT_TOKEN)

    # --- answering ---------------------------------------------------------------------------

    async def _mentions_on(self, guild_id: int) -> bool:
        try:
            return await self.bot.services.server_settings.mentions_enabled(guild_id)
        except StorageUnavailable as error:
            # The admins may have turned mentions off: answer nothing rather than ignore them.
            log.warning("mention in guild %s left unanswered: %s", guild_id, error)
            return False

    async def _handle(
        self,
        message: discord.Message,
        question: Question,
        permissions: posting.Permissions,
        locale: str,
        *,
        place: AskPlace | None = None,
    ) -> None:
        assert message.guild is not None and message.guild.me is not None
        if not permissions.embed:
            await self._reply(message, permissions, content=_(NO_EMBEDS).format(ask=_ask_command()))
            return
        if self.bot.draining:
            await self._reply(message, permissions, embed=restarting_notice())
            return
        if not question.text:
            await self._reply(message, permissions, embed=_how_to(message.guild.me, HOW_TO))
            return
        self._answering.add(message.id)
        try:
            await self._answer(message, question, permissions, locale, place)
        finally:
            self._answering.discard(message.id)
            self._deleted.discard(message.id)

    async def _answer(
        self,
        message: discord.Message,
        question: Question,
        permissions: posting.Permissions,
        locale: str,
        place: AskPlace | None,
    ) -> None:
        guild = message.guild
        assert guild is not None
        conversation, expired = await self._conversation(message, in_ask_thread=_continues(place))
        origin = Origin.server_message(message.author.id, guild.id, message.channel.id, locale)
        notes = []
        if question.cut:
            notes.append(_(CUT_NOTE).format(limit=format_number(MAX_QUESTION)))
        if expired:
            notes.append(_(EXPIRED_NOTE).format(hours=int(RETENTION.total_seconds() // 3600)))
        content = "\n".join(notes) or None
        try:
            async with contextlib.AsyncExitStack() as typing:
                await posting.start_typing(typing, message.channel)
                view = await self._ask(message, question.text, origin, conversation)
        except Exception as error:  # the words /ask gives it, as a reply
            where = "mention" if place is None else "ask_channel"
            self.bot.metrics.command_finished(where, outcome_of(error))
            embed = error_embed_for(error, where=where, typed=(message.content,))
            if place is not None:
                self._quiet_after(message.author.id, error)
            if message.id not in self._deleted:
                await self._reply(message, permissions, embed=embed)
            return
        self.bot.metrics.command_finished("mention" if place is None else "ask_channel", "ok")
        if message.id in self._deleted:
            log.info("question in guild %s deleted before its answer: not posted", guild.id)
            view.stop()
            return
        # A reply (or a message in the thread) racing this answer's record waits for it.
        posted = asyncio.Event()
        goes_to = {message.channel.id, message.id}  # the channel, or a thread started on it
        for channel_id in goes_to:
            self._posting.setdefault(channel_id, set()).add(posted)
        try:
            sent, thread = await self._deliver(message, permissions, view, content, question, place)
            self._end_turn(message.id)  # answered: the asker may ask again while it is recorded
            if sent is not None:
                await self._record(sent, view, guild.id, thread, conversation, place)
        finally:
            posted.set()
            for channel_id in goes_to:
                pending = self._posting.get(channel_id, set())
                pending.discard(posted)
                if not pending:
                    self._posting.pop(channel_id, None)

    async def _record(  # noqa: PLR0917 (one answer's parts)
        self,
        sent: discord.Message,
        view: Paginator | Clarification,
        guild_id: int,
        thread: discord.Thread | None,
        conversation: Conversation | None,
        place: AskPlace | None,
    ) -> None:
        # The thread continues this conversation when it continued one, the bot made it, or
        # it is an ask channel's.
        keeps_thread = thread is not None and (
            place is not None
            or (conversation is not None and conversation.kind is Kind.THREAD)
            or thread.owner_id == getattr(self.bot.user, "id", None)
        )
        await remember_answer(
            self.bot, sent, view, guild_id=guild_id, thread=thread if keeps_thread else None
        )

    async def _ask(
        self,
        message: discord.Message,
        question: str,
        origin: Origin,
        conversation: Conversation | None,
    ) -> Paginator | Clarification:
        """Magisterium's answer as ``/ask`` shows it, or its question back."""
        context_id = conversation.context_id if conversation is not None else None
        try:
            answer = await self.bot.services.magisterium.call(
                origin, CATHOLIC_QA, question, context_id=context_id
            )
        except errors.InputRequired as asked:
            return Clarification(asked, question=question, asker_id=message.author.id)
        except errors.TaskRejected as rejected:
            raise QuestionDeclined(question, rejected) from None
        return answer_view(
            answer,
            question=question,
            author_id=message.author.id,
            recent=recent_answers(self.bot),
        )

    async def _conversation(
        self, message: discord.Message, *, in_ask_thread: bool = False
    ) -> tuple[Conversation | None, bool]:
        """The conversation the message continues (the answer it replies to, else the thread
        it is in), and whether one it would have continued has expired."""
        places: list[int] = []
        reference = message.reference
        if reference is not None and reference.message_id is not None:
            places.append(reference.message_id)
        if isinstance(message.channel, discord.Thread):
            places.append(message.channel.id)
        store = self.bot.services.answer_conversations
        if places and message.channel.id in self._posting:
            # The message may have overtaken the record of an answer it continues.
            await self._answers_posted(self._posting[message.channel.id])
        try:
            for place in places:
                found = await store.find(place)
                if found is not None:
                    return found, False
        except StorageUnavailable as error:
            log.warning("mention asked as a new question: %s", error)
            return None, False
        return None, self._expired(message, in_ask_thread=in_ask_thread)

    @staticmethod
    async def _answers_posted(posting: set[asyncio.Event]) -> None:
        """Until the answers being posted there now are recorded (at most :data:`RECORD_WAIT`)."""
        pending = [asyncio.create_task(event.wait()) for event in posting]
        _done, still = await asyncio.wait(pending, timeout=RECORD_WAIT)
        for task in still:
            task.cancel()

    def _expired(
        self, message: discord.Message, now: datetime | None = None, *, in_ask_thread: bool = False
    ) -> bool:
        """A reply to an answer of the bot's, or a mention in a thread the bot made (or a
        message in an ask channel's thread), that no longer continues anything because
        Magisterium forgot the conversation."""
        me = self.bot.user
        if me is None:
            return False
        now = now or self.now()
        reference = message.reference
        replied = reference.resolved if reference is not None else None
        if isinstance(replied, discord.Message) and replied.author.id == me.id:
            return looks_like_answer(replied) and _older_than_retention(replied.id, now)
        channel = message.channel
        return (
            isinstance(channel, discord.Thread)
            and (channel.owner_id == me.id or in_ask_thread)
            and _older_than_retention(channel.id, now)
        )

    # --- sending -----------------------------------------------------------------------------

    async def _deliver(  # noqa: PLR0917 (one answer's parts)
        self,
        message: discord.Message,
        permissions: posting.Permissions,
        view: Paginator | Clarification,
        content: str | None,
        question: Question,
        place: AskPlace | None,
    ) -> tuple[discord.Message | None, discord.Thread | None]:
        """The answer posted where it belongs, and the thread it is in (if any): an ask
        channel's new message gets a thread on it; everything else a reply."""
        if place is not None and place.starts_thread and permissions.start_thread:
            try:
                thread = await posting.start_thread(message, question.text)
            except discord.NotFound:  # the question was deleted meanwhile: no answer
                view.stop()
                log.info("ask channel question deleted before its thread: not answered")
                return None, None
            if thread is not None:
                return await posting.post(thread, None, view, content), thread
        sent = await posting.post(
            message.channel, posting.reference(message, permissions), view, content
        )
        thread = message.channel if isinstance(message.channel, discord.Thread) else None
        return sent, thread

    async def _reply(
        self,
        message: discord.Message,
        permissions: posting.Permissions,
        *,
        embed: discord.Embed | None = None,
        content: str | None = None,
    ) -> None:
        """A short reply (a how-to, a note, an error) that pings nobody."""
        reference = posting.reference(message, permissions)
        try:
            if embed is not None and permissions.embed:
                await posting.send(message.channel, reference, content=content, embed=embed)
            else:
                await posting.send(
                    message.channel, reference, content=content or posting.plain(embed)
                )
        except discord.HTTPException as exc:
            log.info("mention reply not posted: HTTP %s code %s", exc.status, exc.code)


def _continues(place: AskPlace | None) -> bool:
    return place is not None and not place.new


def _from_a_person(message: discord.Message) -> bool:
    """Not a bot, a webhook or the system, and an ordinary message or reply."""
    author = message.author
    return (
        not (author.bot or author.system or message.webhook_id is not None)
        and message.type in QUESTION_TYPES
    )


def _replies_to(message: discord.Message, bot_id: int) -> bool:
    """A reply to one of the bot's messages (as far as Discord says: the replied message, or,
    when it is gone or unresolved, the bot's mention Discord added to the reply)."""
    reference = message.reference
    if message.type is not discord.MessageType.reply or reference is None:
        return False
    replied = reference.resolved
    if isinstance(replied, discord.Message):
        return replied.author.id == bot_id
    return True  # the bot is in the mentions and the replied message is unknown


def _names(message: discord.Message) -> dict[str, str]:
    return mention_names(
        ((user.id, user.display_name) for user in message.mentions),
        ((role.id, role.name) for role in message.role_mentions),
        ((channel.id, getattr(channel, "name", "")) for channel in message.channel_mentions),
    )


def _how_to(me: discord.Member, text: str) -> discord.Embed:
    name = escape_markdown(me.display_name)
    return notice_embed(_(HOW_TO_TITLE), _(text).format(name=name, ask=_ask_command()))
