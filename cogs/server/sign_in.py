"""``/server link`` when Sign in with Magisterium is configured: a link button to the sign-in
page (one-time, ten minutes, bound to this admin and this server, which the page names), and
"paste a token instead". The sign-in links the server's account, never the admin's own; once
the web callback has linked it, this message says so, with the allowances."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import N_, _, locale_of
from bot.oauth import LinkedBySignIn, OAuthService
from bot.render.embeds import notice_embed
from bot.render.look import BRAND
from cogs._sign_in.messages import SignInMessages, discord_handle
from cogs.server.replies import allowance_text
from cogs.server.views import OnToken, ServerTokenModal

if TYPE_CHECKING:
    from bot.accounts import ServerRegistry
    from bot.app import MagisteriumBot

SERVER_SIGN_IN_TITLE = N_("Link this server's Magisterium account")
SERVER_SIGN_IN_TEXT = N_(
    "Sign in with Magisterium to link the account this server's members use when they have not "
    "linked their own. The link is only for you, works once, and expires in ten minutes."
)
SERVER_LINKED_TITLE = N_("Server account linked")
SERVER_LINKED_TEXT = N_(
    "You signed in with Magisterium: members without their own account now use this server's "
    "Magisterium account, within the allowances below. `/server unlink` removes it at any time."
)
# Translators: {account} is the Magisterium account's name or email address.
SERVER_LINKED_AS_TEXT = N_(
    "You signed in with Magisterium as {account}: members without their own account now use "
    "that account, within the allowances below. `/server unlink` removes it at any time."
)


class ServerSignIns(SignInMessages):
    """``/server link``'s sign-ins: each links its server's account."""

    def __init__(self, servers: ServerRegistry) -> None:
        super().__init__(self._confirmation)
        self._servers = servers

    async def offer(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        oauth: OAuthService,
        on_token: OnToken,
        guild_id: int,
    ) -> None:
        user, guild = interaction.user, interaction.guild
        await self.show(
            interaction,
            lambda: oauth.begin(
                user.id,
                locale_of(interaction),
                discord_handle(user),
                guild_id=guild_id,
                guild_name=guild.name if guild is not None else None,
            ),
            embed=notice_embed(_(SERVER_SIGN_IN_TITLE), _(SERVER_SIGN_IN_TEXT), colour=BRAND),
            paste=lambda: ServerTokenModal(on_token),
            guild_id=guild_id,
        )

    async def _confirmation(self, linked: LinkedBySignIn) -> discord.Embed:
        if linked.account_name is None:
            text = _(SERVER_LINKED_TEXT)
        else:
            name = discord.utils.escape_mentions(discord.utils.escape_markdown(linked.account_name))
            text = _(SERVER_LINKED_AS_TEXT).format(account=f"**{name}**")
        embed = notice_embed(_(SERVER_LINKED_TITLE), text, colour=BRAND)
        account = await self._servers.get(linked.guild_id) if linked.guild_id else None
        if account is not None:
            embed.add_field(name=_("Allowance"), value=allowance_text(account.allowance))
        return embed
