"""The DynamicItems answering every lookup component, whatever message it is on."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.a2a.lookups import LookupKind
from bot.render.views import ReportedDynamicItem
from cogs._lookups.components import STATISTICS
from cogs._lookups.refs import LookupRef
from cogs._lookups.show import open_privately, replace_with_profile
from cogs._lookups.statistics import show_statistics

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

_Select = discord.ui.Select[Any]
_Button = discord.ui.Button[Any]


class LookupSelect(
    ReportedDynamicItem[_Select], template=r"lookup:(?P<mode>open|pick:(?P<invoker>\d{1,20}))"
):
    """Any lookup menu. ``open`` shows the profile privately to whoever chose; ``pick`` (the
    candidates under a command's answer) replaces that answer when its author chooses."""

    def __init__(self, custom_id: str, invoker_id: int | None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id))
        self.invoker_id = invoker_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        invoker = int(match["invoker"]) if match["invoker"] else None
        return cls(match[0], invoker)

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        values = list(self.item.values)
        ref = LookupRef.decode(values[0]) if values else None
        bot = interaction.client
        if ref is None:
            await interaction.response.defer()
            return
        if self.invoker_id is not None and interaction.user.id == self.invoker_id:
            await replace_with_profile(bot, interaction, ref)
        else:
            await open_privately(bot, interaction, ref)


class StatisticsButton(ReportedDynamicItem[_Button], template=r"lookup:stats:(?P<ref>.+)"):
    """A diocese's yearly statistics as a chart and a table, for whoever pressed it."""

    def __init__(self, ref: LookupRef, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label=STATISTICS, custom_id=custom_id))
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        ref = LookupRef.decode(match["ref"]) or LookupRef(LookupKind.DIOCESE, name="?")
        return cls(ref, match[0])

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await show_statistics(interaction, self.ref)


DYNAMIC_ITEMS = (LookupSelect, StatisticsButton)
