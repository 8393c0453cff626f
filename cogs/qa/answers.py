"""The paged answer (embeds with sources), the related-question memory, where answers go."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import discord

from bot.a2a.results import Answer
from bot.render.embeds import answer_markdown, answer_pages
from bot.render.pager import Paginator

# The answer's action rows (Discord allows 5): 0 the pager, 1 "Read a source…", 2-3 related
# questions (up to 10), 4 "New conversation" and "Share in channel".
SOURCE_ROW = 1
RELATED_ROWS = (2, 3)
ACTIONS_ROW = 4
FILENAME = "answer.md"
VIEW_TIMEOUT = 600.0


class RelatedMemory:
    """The related questions of recent answers, by task id (bounded; lost on restart)."""

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self._questions: OrderedDict[str, list[str]] = OrderedDict()

    def remember(self, task_id: str, questions: list[str]) -> None:
        self._questions[task_id] = list(questions)
        self._questions.move_to_end(task_id)
        while len(self._questions) > self.size:
            self._questions.popitem(last=False)

    def question(self, task_id: str, index: int) -> str | None:
        questions = self._questions.get(task_id)
        if questions is None or not 0 <= index < len(questions):
            return None
        return questions[index]

    def clear(self) -> None:
        self._questions.clear()


RELATED = RelatedMemory()


def answer_pager(answer: Answer, *, question: str, author_id: int) -> Paginator:
    """The paginator for ``answer``, titled with the question (no follow-up buttons yet)."""
    return Paginator(
        answer_pages(answer, title=question),
        author_id=author_id,
        full_text=answer_markdown(answer, title=question),
        filename=FILENAME,
        timeout=VIEW_TIMEOUT,
    )


def is_private_place(interaction: discord.Interaction[Any]) -> bool:
    """DMs and group DMs: answers there are always private."""
    context = interaction.context
    return interaction.guild_id is None or context.dm_channel or context.private_channel


def is_private_source(interaction: discord.Interaction[Any]) -> bool:
    """A component or form used in a private place or on a private message: answer privately."""
    message = interaction.message
    return is_private_place(interaction) or (message is not None and message.flags.ephemeral)
