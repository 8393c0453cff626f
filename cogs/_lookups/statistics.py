"""A diocese's yearly statistics: a chart, the latest years as a table, every number as CSV."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord

from bot.a2a.results import NotFound
from bot.a2a.skills import DIOCESE_STATISTICS_LOOKUP, ByNameOrId
from bot.app.respond import defer, send_private
from bot.i18n import N_, _, format_number
from bot.render.charts import (
    chart_series,
    numbers_csv,
    numbers_table,
    render_chart,
    translated_labels,
)
from bot.render.embeds import fit_embed, footer, notice_embed
from bot.render.look import BRAND
from bot.services.origin import Origin
from cogs._lookups.refs import LookupRef
from cogs._lookups.show import slug

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

CHART_FILE = "statistics.png"
NO_STATISTICS = (
    N_("No statistics found"),
    # Translators: Magisterium is a proper name.
    N_("Magisterium has no yearly statistics for this diocese."),
)
# Translators: the chart's alternative text, read out by screen readers.
CHART_ALT = N_("Chart of Catholics, priests, parishes and baptisms by year")
# Translators: the heading of a table of a diocese's numbers in its latest years.
LATEST_YEARS = N_("Latest years")
ALL_NUMBERS = N_("Every metric for every year is in the attached CSV file.")


async def show_statistics(interaction: discord.Interaction[MagisteriumBot], ref: LookupRef) -> None:
    """Fetch the series, draw it off the event loop, and send chart, table and file privately."""
    await defer(interaction, ephemeral=True)
    magisterium = interaction.client.services.magisterium
    query = ByNameOrId(name=ref.name, canonical_id=ref.canonical_id)
    stats = await magisterium.call(Origin.of(interaction), DIOCESE_STATISTICS_LOOKUP, query)
    if isinstance(stats, NotFound) or not stats.rows:
        title, text = NO_STATISTICS
        await send_private(interaction, embed=notice_embed(_(title), _(text)))
        return
    known = stats.diocese_name or ref.name or ref.canonical_id
    # Translators: the name of a diocese whose name is unknown.
    name = known or _("Diocese")
    first, last = stats.rows[0].year, stats.rows[-1].year
    labels = translated_labels()
    png = await asyncio.to_thread(render_chart, stats, title=name, labels=labels)
    embed = discord.Embed(
        # Translators: {name} is a diocese; {first}–{last} the years its numbers cover.
        title=_("{name} — statistics, {first}–{last}").format(name=name, first=first, last=last),
        description=_(ALL_NUMBERS),
        colour=BRAND,
    )
    series = chart_series(stats, labels)
    if series:
        table = numbers_table(series, number_format=format_number)
        embed.add_field(name=_(LATEST_YEARS), value=table, inline=False)
    csv_name = f"{slug(known or 'diocese')}-statistics.csv"
    files = [discord.File(io.BytesIO(numbers_csv(stats)), csv_name)]
    if png is not None:
        embed.set_image(url=f"attachment://{CHART_FILE}")
        files.insert(0, discord.File(io.BytesIO(png), CHART_FILE, description=_(CHART_ALT)))
    embed.set_footer(text=footer("diocese_statistics_lookup", stats.task_id))
    await interaction.followup.send(embed=fit_embed(embed), files=files, ephemeral=True)
