"""The two day feeds, /readings and /saints, and their day buttons.

Here rather than in their cogs because ``/daily`` posts the same feeds, and cogs never import
each other.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import discord

from bot.a2a.results import Martyrology, NotFound, Readings
from bot.a2a.skills import LITURGICAL_READINGS, SAINTS_OF_THE_DAY
from bot.i18n import N_
from cogs._day_feed.day_message import DayButton, DayFeed, Fetched
from cogs._lookups.components import saints_select
from cogs._lookups.names import saint_names

if TYPE_CHECKING:
    from bot.services.magisterium import MagisteriumService
    from bot.services.origin import Origin


async def _readings(
    service: MagisteriumService, origin: Origin, day: dt.date
) -> Readings | NotFound:
    # An absolute date: the upstream never has to guess "today", and caching stays simple.
    return await service.call(origin, LITURGICAL_READINGS, day)


async def _saints(
    service: MagisteriumService, origin: Origin, day: dt.date
) -> Martyrology | NotFound:
    return await service.call(origin, SAINTS_OF_THE_DAY, day)


def saints_menu(result: Fetched, *, row: int = 2) -> list[discord.ui.Item[Any]]:
    """A menu opening the profile of each saint the day's martyrology names."""
    if not isinstance(result, Martyrology):
        return []
    select = saints_select(saint_names(result.text), row=row)
    return [select] if select is not None else []


# Titles and texts in English, translated where shown.
READINGS = DayFeed(
    name="readings",
    # Translators: the readings of the day's Mass (the Catholic liturgy), a title.
    title=N_("Mass readings"),
    skill=LITURGICAL_READINGS.id,
    # Translators: Magisterium is a proper name (the AI service the bot asks); never translated.
    not_found=N_("Magisterium has no Mass readings for this day. Try another date."),
    fetch=_readings,
)

SAINTS = DayFeed(
    name="saints",
    # Translators: the saints the Roman Martyrology commemorates on a day, a title.
    title=N_("Saints of the day"),
    skill=SAINTS_OF_THE_DAY.id,
    # Translators: the Roman Martyrology is the Catholic Church's official list of saints by
    # day (use its usual name in your language); Magisterium is a proper name.
    not_found=N_(
        "The Roman Martyrology has no entry Magisterium can show for this day. Try another date."
    ),
    fetch=_saints,
    extras=saints_menu,
)


class ReadingsDay(DayButton, template=READINGS.template()):
    feed = READINGS


class SaintsDay(DayButton, template=SAINTS.template()):
    feed = SAINTS
