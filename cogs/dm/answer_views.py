"""A plain-DM answer with ``/ask``'s controls: "Read a source…", the related questions and the
feedback buttons, with the DM's own "New conversation".

``/ask``'s view, its memories and the restart-safe items it holds all belong to the QA cog, and a
cog never imports another (``tests/test_layers.py``): this one finds the running QA cog by name
and asks it for the view. Without it (the ``cogs.qa`` extension not loaded, so nothing would
answer those controls) the answer keeps the DM's plain pager.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord

from bot.a2a.results import Answer
from bot.render.embeds import answer_markdown, answer_pages
from bot.render.pager import Paginator
from cogs._feedback import feedback_buttons
from cogs.dm.views import NewConversationButton

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

# cogs.qa.memory.QA_COG_NAME, which this cog may not import (tests/cogs/dm checks they agree).
QA_COG_NAME = "QACog"


@runtime_checkable
class BuildsAnswerViews(Protocol):
    """What the QA cog offers for an answer it did not ask for (``QACog.answer_view``)."""

    def answer_view(
        self,
        answer: Answer,
        *,
        question: str,
        author_id: int,
        new_conversation: discord.ui.Item[Any],
    ) -> Paginator: ...


def dm_answer_view(
    bot: MagisteriumBot, answer: Answer, *, question: str, author_id: int
) -> Paginator:
    """The answer to ``question``, asked in a DM by ``author_id``, as ``/ask`` in a DM shows it,
    with the DM's "New conversation"; the plain pager when the QA cog is not running."""
    qa = bot.get_cog(QA_COG_NAME)
    if isinstance(qa, BuildsAnswerViews):
        return qa.answer_view(
            answer, question=question, author_id=author_id, new_conversation=NewConversationButton()
        )
    return plain_answer_view(answer, author_id=author_id)


def plain_answer_view(answer: Answer, *, author_id: int) -> Paginator:
    """The pages, "New conversation" and the feedback buttons."""
    pager = Paginator(
        answer_pages(answer),
        author_id=author_id,
        full_text=answer_markdown(answer),
        filename="answer.md",
    )
    pager.add_item(NewConversationButton())
    for button in feedback_buttons(answer.task_id):
        pager.add_item(button)
    return pager
