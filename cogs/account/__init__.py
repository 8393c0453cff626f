"""/account link | status | unlink."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.account.cog import AccountCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    await bot.add_cog(AccountCog(bot))
