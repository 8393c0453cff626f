"""The paged answer (embeds with sources), and where answers go."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.a2a.results import Answer
from bot.render.embeds import answer_markdown, answer_pages
from bot.render.pager import Paginator

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

# The answer's action rows (Discord allows 5): 0 the pager, 1 "Read a source…", 2-3 related
# questions (up to 10), 4 "New conversation" and "Share in channel".
SOURCE_ROW = 1
RELATED_ROWS = (2, 3)
ACTIONS_ROW = 4
FILENAME = "answer.md"
VIEW_TIMEOUT = 600.0


@dataclass(frozen=True)
class Continues:
    """The conversation a public answer's message continues: a reply to it, or a mention in a
    thread made for it, asks in the same ``contextId`` (``cogs.qa.conversations``)."""

    context_id: str
    task_id: str | None

    @classmethod
    def of(cls, context_id: str | None, task_id: str | None) -> Continues | None:
        return cls(context_id, task_id) if context_id else None


class AnswerPager(Paginator):
    """An answer's pager, knowing the conversation it continues (None: none to continue)."""

    continues: Continues | None = None


def answer_pager(answer: Answer, *, question: str, author_id: int) -> AnswerPager:
    """The paginator for ``answer``, titled with the question (no follow-up buttons yet)."""
    pager = AnswerPager(
        answer_pages(answer, title=question),
        author_id=author_id,
        full_text=answer_markdown(answer, title=question),
        filename=FILENAME,
        timeout=VIEW_TIMEOUT,
    )
    pager.continues = Continues.of(answer.context_id, answer.task_id)
    return pager


def is_private_place(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    """DMs and group DMs: answers there are always private."""
    context = interaction.context
    return interaction.guild_id is None or context.dm_channel or context.private_channel


def is_private_source(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    """A component or form used in a private place or on a private message: answer privately."""
    message = interaction.message
    return is_private_place(interaction) or (message is not None and message.flags.ephemeral)
