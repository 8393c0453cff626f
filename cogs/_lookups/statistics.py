"""A diocese's yearly statistics: a chart, the latest years as a table, every number as CSV."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.a2a.results import NotFound
from bot.render.charts import chart_series, numbers_csv, numbers_table, render_chart
from bot.render.embeds import fit_embed, footer, notice_embed
from bot.render.look import BRAND
from bot.respond import defer, send_private
from cogs._lookups.refs import LookupRef
from cogs._lookups.show import slug

CHART_FILE = "statistics.png"
NO_STATISTICS = (
    "No statistics found",
    "Magisterium has no yearly statistics for this diocese.",
)
CHART_ALT = "Chart of Catholics, priests, parishes and baptisms by year"
LATEST_YEARS = "Latest years"
ALL_NUMBERS = "Every metric for every year is in the attached CSV file."


async def show_statistics(interaction: discord.Interaction[Any], ref: LookupRef) -> None:
    """Fetch the series, draw it off the event loop, and send chart, table and file privately."""
    await defer(interaction, ephemeral=True)
    magisterium = interaction.client.services.magisterium
    stats = await magisterium.diocese_statistics(
        interaction.user.id, name=ref.name, canonical_id=ref.canonical_id
    )
    if isinstance(stats, NotFound) or not stats.rows:
        await send_private(interaction, embed=notice_embed(*NO_STATISTICS))
        return
    name = stats.diocese_name or ref.name or ref.canonical_id or "Diocese"
    first, last = stats.rows[0].year, stats.rows[-1].year
    png = await asyncio.to_thread(render_chart, stats, title=name)
    embed = discord.Embed(
        title=f"{name} — statistics, {first}–{last}",
        description=ALL_NUMBERS,
        colour=BRAND,
    )
    series = chart_series(stats)
    if series:
        embed.add_field(name=LATEST_YEARS, value=numbers_table(series), inline=False)
    files = [discord.File(io.BytesIO(numbers_csv(stats)), f"{slug(name)}-statistics.csv")]
    if png is not None:
        embed.set_image(url=f"attachment://{CHART_FILE}")
        files.insert(0, discord.File(io.BytesIO(png), CHART_FILE, description=CHART_ALT))
    embed.set_footer(text=footer("diocese_statistics_lookup", stats.task_id))
    await interaction.followup.send(embed=fit_embed(embed), files=files, ephemeral=True)
