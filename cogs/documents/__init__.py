"""/document: a document's full text by id."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.documents.cog import DocumentsCog

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


async def setup(bot: MagisteriumBot) -> None:
    await bot.add_cog(DocumentsCog(bot))
