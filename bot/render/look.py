"""The bot's consistent look: colours and footers shared by every embed."""

from __future__ import annotations

import discord

BRAND = discord.Colour(0x8B1E3F)  # a deep liturgical red
ERROR = discord.Colour(0xC0392B)
NOTICE = discord.Colour(0x7F8C8D)

FOOTER_PREFIX = "Magisterium AI"


def footer_text(skill: str | None = None, task_id: str | None = None) -> str:
    parts = [FOOTER_PREFIX]
    if skill:
        parts.append(skill)
    if task_id:
        parts.append(f"task {task_id}")
    return " · ".join(parts)


def error_embed(title: str, text: str, *, error_id: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=title[:256], description=text[:4096], colour=ERROR)
    if error_id:
        embed.set_footer(text=f"error id {error_id}")
    return embed
