"""/ask and the "Ask Magisterium" message context menu."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.a2a.results import Answer
from bot.i18n import N_, _
from bot.render.look import error_embed
from bot.render.pager import Paginator
from bot.render.split import truncate
from cogs.qa.answers import is_private_place
from cogs.qa.followups import answer_view, ask_and_send
from cogs.qa.memory import QA_COG_NAME, RecentAnswers
from cogs.qa.text import MAX_QUESTION, clean_question, empty_question

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

# Translators: the name of a message context-menu command (Apps › …); up to 32 characters,
# capitals and spaces allowed. Magisterium is a proper name.
CONTEXT_MENU_NAME = N_("Ask Magisterium")
NO_TEXT_TITLE = N_("Nothing to ask about")
NO_TEXT = N_(
    "That message has no text I can ask Magisterium about. Pick a message with words in it."
)


async def _refuse(interaction: discord.Interaction[MagisteriumBot], title: str, text: str) -> None:
    """A private error as the first response: nothing was deferred or asked."""
    await interaction.response.send_message(embed=error_embed(title, text), ephemeral=True)


def message_text(message: discord.Message) -> str:
    """What a message says: its content, else its embeds' titles and descriptions."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
    return clean_question("\n\n".join(p for p in parts if p and p.strip()))


class QACog(commands.Cog, name=QA_COG_NAME):
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        # What the buttons and menus under recent answers need: this cog's, so a reload (a new
        # cog) starts empty; bounded by ANSWER_MEMORY_SIZE and SHARE_MEMORY_SIZE.
        self.recent = RecentAnswers.sized(
            answers=bot.settings.answer_memory_size, shares=bot.settings.share_memory_size
        )
        self.context_menu = app_commands.ContextMenu(
            name=CONTEXT_MENU_NAME, callback=self.ask_about_message
        )

    def answer_view(
        self,
        answer: Answer,
        *,
        question: str,
        author_id: int,
        new_conversation: discord.ui.Item[Any],
    ) -> Paginator:
        """``/ask``'s answer view with this cog's memories, for ``cogs.dm``'s plain-DM answers
        (a cog never imports another: it finds this one by name), with its own "New
        conversation"."""
        return answer_view(
            answer,
            question=question,
            author_id=author_id,
            recent=self.recent,
            new_conversation=new_conversation,
        )

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.context_menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.context_menu.name, type=self.context_menu.type)

    @app_commands.command(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("ask"),
        # Translators: Magisterium AI is a proper name (the service), never translated.
        description=N_("Ask Magisterium AI about Catholic teaching"),
    )
    @app_commands.describe(
        question=N_("Your question (up to 2000 characters)"),
        private=N_("Only you see the answer (always private in DMs)"),
    )
    @app_commands.rename(
        # Translators: a Discord option name: lowercase, one word, at most 32 characters.
        question=N_("question"),
        # Translators: a Discord option name (true/false: only you see the answer): lowercase,
        # one word, at most 32 characters.
        private=N_("private"),
    )
    async def ask(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        question: app_commands.Range[str, 1, MAX_QUESTION],
        private: bool = False,
    ) -> None:
        cleaned = clean_question(question)
        if not cleaned:
            error = empty_question().user_message
            await _refuse(interaction, error.title, error.text)
            return
        ephemeral = private or is_private_place(interaction)
        await ask_and_send(interaction, cleaned, ephemeral=ephemeral, recent=self.recent)

    async def ask_about_message(
        self, interaction: discord.Interaction[MagisteriumBot], message: discord.Message
    ) -> None:
        text = message_text(message)
        if not text:
            await _refuse(interaction, _(NO_TEXT_TITLE), _(NO_TEXT))
            return
        await ask_and_send(
            interaction, truncate(text, MAX_QUESTION), ephemeral=True, recent=self.recent
        )
