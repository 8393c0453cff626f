"""The /account commands: link a token (modal), see status, unlink (delete everything)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr

from bot.accounts import AccountStatus
from bot.render.embeds import notice_embed
from bot.render.look import BRAND, ERROR, footer_text
from bot.respond import defer
from cogs.account.validation import TokenVerdict, check_token
from cogs.account.views import LinkTokenModal

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

HOW_TO_GET_A_TOKEN = (
    "A2A accepts only tokens issued by Magisterium's own sign-in (OAuth, as for its MCP "  # noqa: S105
    "connector), on a Pro, Organization or Enterprise plan; API Console keys do not work here."
)

VERDICT_MESSAGES: dict[TokenVerdict, tuple[str, str]] = {
    TokenVerdict.VALID: (
        "Account linked",
        "Your questions now go to Magisterium with your own account. "
        "`/account unlink` removes it at any time.",
    ),
    TokenVerdict.RATE_LIMITED: (
        "Account linked",
        "Saved. Magisterium is rate-limiting this account right now, so your next request may "
        "have to wait a minute.",
    ),
    TokenVerdict.INVALID: (
        "That token was refused",
        f"Magisterium did not accept it, so nothing was saved. {HOW_TO_GET_A_TOKEN}",
    ),
    TokenVerdict.NO_PLAN: (
        "A paid plan is needed",
        "The token is valid, but its account has no Pro, Organization or Enterprise plan, "
        "which Magisterium's API requires. Nothing was saved.",
    ),
    TokenVerdict.UNVERIFIED: (
        "Could not check the token",
        "Magisterium did not answer, so nothing was saved. Try again in a few minutes.",
    ),
}
STORED: dict[TokenVerdict, AccountStatus] = {
    TokenVerdict.VALID: "valid",
    TokenVerdict.RATE_LIMITED: "rate_limited",
}


class AccountCog(commands.Cog):
    account = app_commands.Group(
        name="account", description="Your Magisterium account: link, status, unlink"
    )

    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot

    @account.command(name="link", description="Link your Magisterium account to this bot")
    async def link(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        # A modal must be the first response: nothing may be awaited before it.
        await interaction.response.send_modal(LinkTokenModal(self._store_token))

    async def _store_token(
        self, interaction: discord.Interaction[MagisteriumBot], token: SecretStr
    ) -> None:
        await defer(interaction, ephemeral=True)
        verdict = await check_token(self.bot.services.a2a, token)
        if verdict in STORED:
            note = "rate-limited when linked" if verdict is TokenVerdict.RATE_LIMITED else None
            await self.bot.services.registry.link(
                interaction.user.id, token, status=STORED[verdict], note=note
            )
        log.info("account link by %s: %s", interaction.user.id, verdict.value)
        title, text = VERDICT_MESSAGES[verdict]
        colour = BRAND if verdict in STORED else ERROR
        await interaction.followup.send(
            embed=notice_embed(title, text, colour=colour), ephemeral=True
        )

    @account.command(name="status", description="Whether you are linked and what you have left")
    async def status(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await defer(interaction, ephemeral=True)
        await interaction.followup.send(
            embed=await self._status_embed(interaction.user.id), ephemeral=True
        )

    async def _status_embed(self, user_id: int) -> discord.Embed:
        account = await self.bot.services.registry.get(user_id)
        settings = self.bot.settings
        embed = discord.Embed(title="Your Magisterium account", colour=BRAND)
        if account is not None:
            since = discord.utils.format_dt(account.linked_at, "D")
            state = (
                "needs relinking (`/account link`)" if account.status == "invalid" else "working"
            )
            embed.add_field(name="Linked", value=f"Yes, since {since}", inline=True)
            embed.add_field(name="Token", value=f"Your own — {state}", inline=True)
            embed.add_field(
                name="Limits",
                value=f"{settings.rate_limit_per_minute} requests a minute, "
                f"{settings.qa_rate_limit_per_minute} of them `/ask` (your plan's limits)",
                inline=False,
            )
        elif self.bot.services.chooser.has_shared_token:
            left, qa_left = await self.bot.services.quota.remaining(user_id)
            embed.add_field(name="Linked", value="No", inline=True)
            embed.add_field(name="Token", value="The bot's shared account", inline=True)
            embed.add_field(
                name="Left this hour",
                value=f"{left} requests, {qa_left} of them `/ask`",
                inline=False,
            )
        else:
            embed.add_field(name="Linked", value="No — run `/account link` to start", inline=False)
        embed.set_footer(text=footer_text("account"))
        return embed

    @account.command(name="unlink", description="Delete your token and everything stored about you")
    async def unlink(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await defer(interaction, ephemeral=True)
        removed = await self.bot.services.registry.unlink(interaction.user.id)
        text = (
            "Your token and everything the bot stored about you are deleted."
            if removed
            else "Nothing was stored about you."
        )
        await interaction.followup.send(embed=notice_embed("Unlinked", text), ephemeral=True)
