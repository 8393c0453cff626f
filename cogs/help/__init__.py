"""/help: what the bot does, how to link, privacy — in one screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.help.cog import HelpCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    await bot.add_cog(HelpCog(bot))
