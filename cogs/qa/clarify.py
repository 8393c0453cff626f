"""Magisterium asking something back (a task ``input-required``), shown where the answer would
have gone, with a "Reply" button for the person who asked.

Where: in the answer's place, with the answer's visibility (public for a public /ask, private
for a private one or the message menu). The question is part of answering them: the final
answer then lands where they chose, and anyone reading the channel can follow the exchange.
Only the asker may reply (checked on the click), so a public question invites nobody else.

The button's custom_id carries the asker and the conversation (contextId), so
:class:`cogs.qa.replies.ReplyButton` answers it after a restart too. The message holds a plain,
non-dispatchable button: discord.py drops a DynamicItem class for the whole bot when a stored
view holding one stops, which would break every other Reply button.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.a2a import errors
from bot.i18n import _
from bot.render.discord_limits import CUSTOM_ID
from bot.render.embeds import QA_SKILL, footer
from bot.render.upstream import magisterium_asks
from cogs.qa.answers import Continues

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

REPLY_PREFIX = "qa:reply"
REPLY_EMOJI = "💬"
REPLY_TEMPLATE = rf"{REPLY_PREFIX}:(?P<asker>\d{{1,20}}):(?P<context>[A-Za-z0-9_.\-]{{1,64}})"


def reply_custom_id(asker_id: int, context_id: str | None) -> str | None:
    """The Reply button's custom_id, or None when there is no conversation to continue (or
    its id does not fit in a custom_id)."""
    if not context_id:
        return None
    custom_id = f"{REPLY_PREFIX}:{asker_id}:{context_id}"
    if len(custom_id) > CUSTOM_ID or re.fullmatch(REPLY_TEMPLATE, custom_id) is None:
        return None
    return custom_id


def reply_label() -> str:
    # Translators: a button under Magisterium's question back; it opens a form to answer it
    # (at most 80 characters).
    return _("Reply")


class _ShownButton(discord.ui.Button[Any]):
    """The Reply button as it appears on a message; the registered DynamicItem answers it."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(
            label=reply_label(),
            emoji=REPLY_EMOJI,
            custom_id=custom_id,
            style=discord.ButtonStyle.primary,
        )

    def is_dispatchable(self) -> bool:
        return False


class Clarification(discord.ui.View):
    """Magisterium's question and the Reply button, sent like an answer (``current``, ``send``).

    Never stored by discord.py (nothing in it is dispatchable), so it needs no timeout.
    """

    def __init__(self, asked: errors.InputRequired, *, question: str, asker_id: int) -> None:
        super().__init__(timeout=None)
        # Posted publicly, a reply to it continues the conversation Magisterium asked in.
        self.continues = Continues.of(asked.context_id, asked.task_id)
        custom_id = reply_custom_id(asker_id, asked.context_id)
        if custom_id is not None:
            self.add_item(_ShownButton(custom_id))
            hint = _("Press “Reply” to answer; only the person who asked can reply.")
        else:
            hint = _("Ask again with `/ask`, adding the detail Magisterium asks for.")
        self.current = magisterium_asks(
            question, asked.reason, hint, footer=footer(QA_SKILL, asked.task_id)
        )

    async def send(
        self, interaction: discord.Interaction[MagisteriumBot], *, ephemeral: bool
    ) -> discord.Message:
        """After the defer: fill the "thinking…" placeholder with the question."""
        view = self if self.children else discord.utils.MISSING
        return await interaction.followup.send(
            embed=self.current, view=view, ephemeral=ephemeral, wait=True
        )
