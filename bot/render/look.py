"""The bot's consistent look: colours and footers shared by every embed."""

from __future__ import annotations

import discord

from bot.i18n import _

BRAND = discord.Colour(0x8B1E3F)  # a deep liturgical red
ERROR = discord.Colour(0xC0392B)
NOTICE = discord.Colour(0x7F8C8D)

FOOTER_PREFIX = "Magisterium AI"


def footer_text(skill: str | None = None, task_id: str | None = None) -> str:
    parts = [FOOTER_PREFIX]
    if skill:
        parts.append(skill)
    if task_id:
        # Translators: part of an embed footer, "Magisterium AI · skill · task 1234"; {task_id}
        # is the upstream task's id, shown so a person can quote it.
        parts.append(_("task {task_id}").format(task_id=task_id))
    return " · ".join(parts)


def error_embed(title: str, text: str, *, error_id: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=title[:256], description=text[:4096], colour=ERROR)
    if error_id:
        # Translators: an error message's footer; {error_id} is the id to quote to the operator.
        embed.set_footer(text=_("error id {error_id}").format(error_id=error_id))
    return embed
