"""Asking and answering with follow-up buttons that survive a restart.

A related-question button's custom_id holds the conversation (contextId), the task id and the
question's index; the question itself comes from the QA cog's memory of recent answers, from
the button label when it is not cut, or from ``tasks/get`` with the clicker's token. The
clicker asks it as themselves, in the same conversation, in a thread on the answer (or a reply
where threads are not possible). "New conversation" opens a form and answers without a
contextId.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.a2a import errors
from bot.a2a.results import Answer
from bot.a2a.skills import CATHOLIC_QA
from bot.app.respond import defer
from bot.i18n import N_, _
from bot.render.discord_limits import BUTTONS_PER_ROW, CUSTOM_ID
from bot.render.pager import Paginator
from bot.render.views import BaseModal, ReportedDynamicItem
from bot.services.origin import Origin
from bot.services.user_errors import QuestionDeclined, UserFacingError
from cogs._feedback import feedback_buttons
from cogs.qa.answers import ACTIONS_ROW, RELATED_ROWS, answer_pager, is_private_source
from cogs.qa.clarify import Clarification
from cogs.qa.conversations import remember_answer
from cogs.qa.memory import RecentAnswers, recent_answers
from cogs.qa.share import offer_share, share_possible
from cogs.qa.sources import source_select
from cogs.qa.text import (
    MAX_QUESTION,
    button_label,
    clean_question,
    empty_question,
    full_question_from_label,
    thread_name,
)

if TYPE_CHECKING:
    from typing import Self

    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

RELATED_PREFIX = "qa:rel"
NEW_CONVERSATION_ID = "qa:new"
QUESTION_FIELD_ID = "qa:new:question"
EXPIRED_TITLE = N_("This suggestion has expired")
EXPIRED_TEXT = N_("This suggestion has expired; ask it with /ask.")
MAX_RELATED = BUTTONS_PER_ROW * len(RELATED_ROWS)
_ID = r"[A-Za-z0-9_.\-]{1,40}"
_RELATED_TEMPLATE = rf"{RELATED_PREFIX}:(?P<context>{_ID}):(?P<task>{_ID}):(?P<index>\d{{1,2}})"

_Button = discord.ui.Button[discord.ui.View]


def related_custom_id(context_id: str, task_id: str, index: int) -> str | None:
    """The custom_id for one related question, or None when the ids do not fit in one."""
    custom_id = f"{RELATED_PREFIX}:{context_id}:{task_id}:{index}"
    if len(custom_id) > CUSTOM_ID or re.fullmatch(_RELATED_TEMPLATE, custom_id) is None:
        return None
    return custom_id


class RelatedQuestionButton(ReportedDynamicItem[_Button], template=_RELATED_TEMPLATE):
    def __init__(self, context_id: str, task_id: str, index: int, *, label: str = "?") -> None:
        custom_id = f"{RELATED_PREFIX}:{context_id}:{task_id}:{index}"
        row = RELATED_ROWS[min(index // BUTTONS_PER_ROW, len(RELATED_ROWS) - 1)]
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=custom_id, style=discord.ButtonStyle.primary, row=row
            )
        )
        self.context_id = context_id
        self.task_id = task_id
        self.index = index

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["context"], match["task"], int(match["index"]), label=label or "?")

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await answer_related(interaction, self)


class NewConversationButton(ReportedDynamicItem[_Button], template=NEW_CONVERSATION_ID):
    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button label under an answer (at most 80 characters).
                label=_("New conversation"),
                emoji="✨",
                custom_id=NEW_CONVERSATION_ID,
                style=discord.ButtonStyle.secondary,
                row=ACTIONS_ROW,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls()

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        # A modal must be the first response: nothing is awaited before it.
        await interaction.response.send_modal(new_question_modal())


class QuestionModal(BaseModal):
    """A form for one question, asked where the form was opened: a new conversation, or, with
    ``context_id``, a continuation of that one. Built per person, in their language (a
    class-level title would be English forever); ``title`` and ``label`` are already
    translated."""

    def __init__(
        self, *, title: str, label: str, field_id: str, context_id: str | None = None
    ) -> None:
        super().__init__(title=title)
        self.context_id = context_id
        self.question: discord.ui.TextInput[QuestionModal] = discord.ui.TextInput(
            label=label,
            style=discord.TextStyle.paragraph,
            custom_id=field_id,
            min_length=1,
            max_length=MAX_QUESTION,
        )
        self.add_item(self.question)

    async def submitted(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        question = clean_question(self.question.value)
        if not question:
            raise empty_question()
        await ask_and_send(
            interaction,
            question,
            ephemeral=is_private_source(interaction),
            recent=recent_answers(interaction.client),
            context_id=self.context_id,
        )


def new_question_modal() -> QuestionModal:
    return QuestionModal(
        # Translators: a modal (form) title; Discord allows at most 45 characters.
        title=_("Ask a new question"),
        # Translators: the label of a text field; Discord allows at most 45 characters.
        label=_("Your question"),
        field_id=QUESTION_FIELD_ID,
    )


# --- answers --------------------------------------------------------------------------------


def answer_view(
    answer: Answer,
    *,
    question: str,
    author_id: int,
    recent: RecentAnswers,
    shareable: bool = False,
    new_conversation: discord.ui.Item[Any] | None = None,
) -> Paginator:
    """The paged answer with "Read a source…", its related-question buttons, "New
    conversation" (``new_conversation``, placed on the actions row, else the form asking a new
    question), when ``shareable`` (a private answer where a public post is possible) "Share in
    channel", and "Helpful" / "Not helpful"; what those need later is remembered in
    ``recent``."""
    view = answer_pager(answer, question=question, author_id=author_id)
    sources = source_select(answer, recent.citations)
    if sources is not None:
        view.add_item(sources)
    if answer.task_id and answer.context_id:
        recent.related.remember(answer.task_id, answer.related_questions)
        for index, related in enumerate(answer.related_questions[:MAX_RELATED]):
            if related_custom_id(answer.context_id, answer.task_id, index) is None:
                break  # ids too long for a custom_id: no buttons rather than broken ones
            label = button_label(related)
            view.add_item(
                RelatedQuestionButton(answer.context_id, answer.task_id, index, label=label)
            )
    if new_conversation is None:
        new_conversation = NewConversationButton()
    new_conversation.row = ACTIONS_ROW
    view.add_item(new_conversation)
    feedback = feedback_buttons(answer.task_id, row=ACTIONS_ROW)
    if shareable:
        offer_share(
            view, asker_id=author_id, sources=sources, shares=recent.shares, feedback=feedback
        )
    for button in feedback:
        view.add_item(button)
    return view


AnswerView = Paginator | Clarification


async def ask_as_invoker(
    interaction: discord.Interaction[MagisteriumBot],
    question: str,
    *,
    context_id: str | None,
    private: bool,
    recent: RecentAnswers,
) -> AnswerView:
    """Ask as whoever invoked ``interaction``: the paged answer, or Magisterium's question back.
    A ``private`` answer may be shared in the channel where that is possible. The answer's
    follow-ups are remembered in ``recent``.

    A declined question (task ``rejected``) is raised as :class:`QuestionDeclined`: the one
    error path shows Magisterium's words, privately, as its answer to this question.
    """
    service = interaction.client.services.magisterium
    user_id = interaction.user.id
    try:
        answer = await service.call(
            Origin.of(interaction), CATHOLIC_QA, question, context_id=context_id
        )
    except errors.InputRequired as asked:
        return Clarification(asked, question=question, asker_id=user_id)
    except errors.TaskRejected as rejected:
        raise QuestionDeclined(question, rejected) from None
    shareable = private and share_possible(interaction)
    return answer_view(
        answer, question=question, author_id=user_id, recent=recent, shareable=shareable
    )


async def ask_and_send(
    interaction: discord.Interaction[MagisteriumBot],
    question: str,
    *,
    ephemeral: bool,
    recent: RecentAnswers,
    context_id: str | None = None,
) -> None:
    """Defer at once, ask as the invoking person, then send the answer (or the question back);
    its follow-ups are remembered in ``recent``."""
    await defer(interaction, ephemeral=ephemeral)
    shown = await ask_as_invoker(
        interaction, question, context_id=context_id, private=ephemeral, recent=recent
    )
    sent = await shown.send(interaction, ephemeral=ephemeral)
    if not ephemeral:  # a reply to the public answer continues its conversation
        await remember_answer(interaction.client, sent, shown, guild_id=interaction.guild_id)


# --- related questions ----------------------------------------------------------------------


async def _question(
    interaction: discord.Interaction[MagisteriumBot],
    button: RelatedQuestionButton,
    recent: RecentAnswers,
) -> str:
    """The related question behind ``button``; a :class:`UserFacingError` when it is gone."""
    known = recent.related.question(button.task_id, button.index)
    if known is None:
        known = full_question_from_label(button.item.label)
    if known is not None:
        return known
    service = interaction.client.services.magisterium
    try:
        earlier = await service.earlier_answer(Origin.of(interaction), button.task_id)
    except errors.TaskNotFound:
        raise UserFacingError(_(EXPIRED_TITLE), _(EXPIRED_TEXT)) from None
    questions = earlier.related_questions
    recent.related.remember(button.task_id, questions)
    if not 0 <= button.index < len(questions):
        raise UserFacingError(_(EXPIRED_TITLE), _(EXPIRED_TEXT))
    return questions[button.index]


async def answer_related(
    interaction: discord.Interaction[MagisteriumBot], button: RelatedQuestionButton
) -> None:
    """Ask the related question as the clicker, continuing the same conversation."""
    private = is_private_source(interaction)
    recent = recent_answers(interaction.client)
    await defer(interaction, ephemeral=private)  # within 3 s, before any upstream call
    question = await _question(interaction, button, recent)
    shown = await ask_as_invoker(
        interaction, question, context_id=button.context_id, private=private, recent=recent
    )
    if not private and await _post_in_thread(interaction, question, shown):
        return
    sent = await shown.send(interaction, ephemeral=private)  # the reply fills "thinking…"
    if not private:
        await remember_answer(interaction.client, sent, shown, guild_id=interaction.guild_id)


async def _post_in_thread(
    interaction: discord.Interaction[MagisteriumBot], question: str, view: AnswerView
) -> bool:
    """Post the answer in a thread on the clicked message; False when that is not possible."""
    message = interaction.message
    if message is None or not isinstance(interaction.channel, discord.TextChannel):
        return False
    try:
        thread = message.thread or await message.create_thread(name=thread_name(question))
        sent = await thread.send(embed=view.current, view=view)
    except (discord.HTTPException, ValueError) as exc:
        log.info("qa follow-up not posted in a thread (%s); replying instead", type(exc).__name__)
        return False
    try:
        await interaction.delete_original_response()  # the public "thinking…" placeholder
    except discord.HTTPException as exc:
        log.info("qa placeholder not deleted: HTTP %s", exc.status)
    # A mention in the thread, or a reply to the answer, continues this conversation.
    await remember_answer(
        interaction.client, sent, view, guild_id=interaction.guild_id, thread=thread
    )
    return True
