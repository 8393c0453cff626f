"""The paged answer (embeds with sources), and where answers go."""

from __future__ import annotations

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


def answer_pager(answer: Answer, *, question: str, author_id: int) -> Paginator:
    """The paginator for ``answer``, titled with the question (no follow-up buttons yet)."""
    return Paginator(
        answer_pages(answer, title=question),
        author_id=author_id,
        full_text=answer_markdown(answer, title=question),
        filename=FILENAME,
        timeout=VIEW_TIMEOUT,
    )


def is_private_place(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    """DMs and group DMs: answers there are always private."""
    context = interaction.context
    return interaction.guild_id is None or context.dm_channel or context.private_channel


def is_private_source(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    """A component or form used in a private place or on a private message: answer privately."""
    message = interaction.message
    return is_private_place(interaction) or (message is not None and message.flags.ephemeral)
