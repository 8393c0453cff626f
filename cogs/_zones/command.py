"""The one flow of ``/account timezone`` and ``/server timezone``: no zone shows the current one
and where it comes from; a zone is checked, saved and confirmed; "Automatic" forgets it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.app.respond import defer
from bot.services.timezones import ResolvedZone
from cogs._zones.inputs import zone_or_automatic
from cogs._zones.replies import Wording, zone_embed

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def answer_zone(
    interaction: discord.Interaction[MagisteriumBot],
    typed: str | None,
    wording: Wording,
    *,
    save: Callable[[str | None], Awaitable[None]],
    resolve: Callable[[], Awaitable[ResolvedZone]],
    now: dt.datetime,
) -> None:
    """Privately: an unknown zone is refused (with close names) before anything is stored."""
    chosen = zone_or_automatic(typed, wording.choice) if typed is not None else None
    await defer(interaction, ephemeral=True)
    title = wording.shown
    if typed is not None:
        await save(chosen)
        title = wording.saved if chosen is not None else wording.automatic
    zone = await resolve()
    await interaction.followup.send(embed=zone_embed(title, wording, zone, now), ephemeral=True)
