"""``/account link`` when Sign in with Magisterium is configured: a link button to the sign-in
page (one-time, ten minutes, bound to the person, whose Discord name the page shows; a new link
replaces the person's older ones), and "paste a token instead" for people who already hold one.
Once the web callback has linked the account, this message says so, naming the Magisterium
account when the server told its name."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_, _, locale_of, using_locale
from bot.oauth import LinkedBySignIn, OAuthService
from bot.render.embeds import notice_embed
from bot.render.look import BRAND
from bot.render.views import BaseView
from cogs.account.views import LinkTokenModal, OnToken

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

SIGN_IN_TITLE = N_("Link your Magisterium account")
SIGN_IN_TEXT = N_(
    "Sign in with Magisterium to link your account: your questions then go to Magisterium "
    "with your own account. The link is only for you, works once, and expires in ten minutes."
)
# Translators: a link button's label (at most 80 characters).
SIGN_IN_LABEL = N_("Sign in with Magisterium")
# Translators: a button's label: opens a form to paste a Magisterium token by hand.
PASTE_LABEL = N_("Paste a token instead")
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


def discord_handle(user: discord.abc.User) -> str:
    """The name that tells one Discord account from every other (no display name: anyone can
    take someone else's), as the sign-in page shows it after an @."""
    if user.discriminator in ("", "0"):
        return user.name
    return f"{user.name}#{user.discriminator}"  # an account that kept its old tag


def linked_text(account_name: str | None) -> str:
    """The confirmation, in the current locale; the account's name is upstream text."""
    if account_name is None:
        return _(LINKED_TEXT)
    shown = discord.utils.escape_mentions(discord.utils.escape_markdown(account_name))
    return _(LINKED_AS_TEXT).format(account=f"**{shown}**")


class SignInView(BaseView):
    """The two ways to link, for the person who ran the command only."""

    def __init__(self, start_url: str, on_token: OnToken, *, author_id: int) -> None:
        super().__init__(timeout=600)
        self.author_id = author_id
        self._on_token = on_token
        self.add_item(discord.ui.Button(label=_(SIGN_IN_LABEL), url=start_url, emoji="🔐"))
        paste: discord.ui.Button[SignInView] = discord.ui.Button(
            label=_(PASTE_LABEL), style=discord.ButtonStyle.secondary
        )
        paste.callback = self._paste  # type: ignore[method-assign]
        self.add_item(paste)

    async def _paste(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(LinkTokenModal(self._on_token))


class SignIns:
    """The sign-ins this process started, so the callback can edit the message they came from
    (the interaction's token lasts 15 minutes; the sign-in link 10)."""

    def __init__(self) -> None:
        self._pending: dict[
            str, tuple[discord.Interaction[Any], SignInView, contextvars.Context]
        ] = {}

    async def offer(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        oauth: OAuthService,
        on_token: Callable[[discord.Interaction[Any], Any], Awaitable[None]],
    ) -> None:
        self._forget(interaction.user.id)  # the new link ends the person's others
        state, url = await oauth.begin(
            interaction.user.id, locale_of(interaction), discord_handle(interaction.user)
        )
        view = SignInView(url, on_token, author_id=interaction.user.id)
        embed = notice_embed(_(SIGN_IN_TITLE), _(SIGN_IN_TEXT), colour=BRAND)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        # discord.py finds its webhook adapter in a context variable: edit in this context.
        self._pending[state] = (interaction, view, contextvars.copy_context())

    async def linked(self, linked: LinkedBySignIn) -> None:
        """The web callback linked an account: turn its message into the confirmation."""
        pending = self._pending.pop(linked.state, None)
        if pending is None:
            return
        interaction, view, context = pending
        view.stop()
        if interaction.is_expired():
            return
        with using_locale(linked.locale):
            embed = notice_embed(_(LINKED_TITLE), linked_text(linked.account_name), colour=BRAND)
        loop = asyncio.get_running_loop()
        await loop.create_task(_edit(interaction, embed), context=context)

    def _forget(self, user_id: int) -> None:
        """Drop the sign-ins that can no longer end here: expired, or ``user_id``'s."""
        for state, (interaction, _view, _context) in list(self._pending.items()):
            if interaction.is_expired() or interaction.user.id == user_id:
                del self._pending[state]


async def _edit(interaction: discord.Interaction[Any], embed: discord.Embed) -> None:
    try:
        await interaction.edit_original_response(embed=embed, view=None)
    except discord.HTTPException as error:
        log.info("the sign-in message could not be edited: HTTP %s", error.status)
