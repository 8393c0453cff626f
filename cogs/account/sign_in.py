"""``/account link`` when Sign in with Magisterium is configured: a link button to the sign-in
page (one-time, ten minutes, bound to the person, whose Discord name the page shows; a new link
replaces the person's older ones), and "paste a token instead" for people who already hold one.
Once the web callback has linked the account, this message says so, naming the Magisterium
account when the server told its name. The message itself is cogs._sign_in's, shared with
``/server link``, whose sign-ins link a server's account instead."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import N_, _, locale_of
from bot.oauth import LinkedBySignIn, OAuthService
from bot.render.embeds import notice_embed
from bot.render.look import BRAND
from cogs._sign_in.messages import SignInMessages, discord_handle
from cogs.account.views import LinkTokenModal, OnToken

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

SIGN_IN_TITLE = N_("Link your Magisterium account")
SIGN_IN_TEXT = N_(
    "Sign in with Magisterium to link your account: your questions then go to Magisterium "
    "with your own account. The link is only for you, works once, and expires in ten minutes."
)
LINKED_TITLE = N_("Account linked")
LINKED_TEXT = N_(
    "You signed in with Magisterium: your questions now go to Magisterium with your own "
    "account. `/account unlink` removes it at any time."
)
# Translators: {account} is the Magisterium account's name or email address.
LINKED_AS_TEXT = N_(
    "You signed in with Magisterium as {account}: your questions now go to Magisterium with "
    "that account. `/account unlink` removes it at any time."
)


def linked_text(account_name: str | None) -> str:
    """The confirmation, in the current locale; the account's name is upstream text."""
    if account_name is None:
        return _(LINKED_TEXT)
    shown = discord.utils.escape_mentions(discord.utils.escape_markdown(account_name))
    return _(LINKED_AS_TEXT).format(account=f"**{shown}**")


async def _person_linked(linked: LinkedBySignIn) -> discord.Embed:
    return notice_embed(_(LINKED_TITLE), linked_text(linked.account_name), colour=BRAND)


class SignIns(SignInMessages):
    """``/account link``'s sign-ins: each links the person's own account."""

    def __init__(self) -> None:
        super().__init__(_person_linked)

    async def offer(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        oauth: OAuthService,
        on_token: OnToken,
    ) -> None:
        user = interaction.user
        await self.show(
            interaction,
            lambda: oauth.begin(user.id, locale_of(interaction), discord_handle(user)),
            embed=notice_embed(_(SIGN_IN_TITLE), _(SIGN_IN_TEXT), colour=BRAND),
            paste=lambda: LinkTokenModal(on_token),
        )
