"""An error after the answer was sent keeps the answer and tells the user privately."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.a2a.errors import RateLimited
from bot.app.respond import defer
from devtools.discord import Harness


class AnswerThenFail(commands.Cog):
    @app_commands.command(name="answer-then-fail", description="Answers, then fails")
    async def answer_then_fail(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=False)
        await interaction.followup.send("the public answer")  # fills the placeholder
        raise RateLimited("x", retry_after=3)  # e.g. fetching a second page fails


async def test_error_after_the_answer_keeps_the_answer(harness: Harness) -> None:
    await harness.bot.add_cog(AnswerThenFail())

    result = await harness.slash("answer-then-fail")

    answer = result.messages[0]
    assert answer.content == "the public answer"
    assert result.followups[-1].payload["flags"] == 64  # the error itself is private
    assert not answer.deleted
