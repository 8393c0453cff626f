"""/server link | quota | status | unlink: a server's own Magisterium account for its members."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.server.cog import ServerCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    await bot.add_cog(ServerCog(bot))
