"""``/account link`` when Sign in with Magisterium is configured: a link button to the sign-in
page (one-time, ten minutes, bound to the person), and "paste a token instead" for people who
already hold one. Once the web callback has linked the account, this message says so."""

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
        self._forget_expired()
        state, url = await oauth.begin(interaction.user.id, locale_of(interaction))
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
            embed = notice_embed(_(LINKED_TITLE), _(LINKED_TEXT), colour=BRAND)
        loop = asyncio.get_running_loop()
        await loop.create_task(_edit(interaction, embed), context=context)

    def _forget_expired(self) -> None:
        for state, (interaction, _view, _context) in list(self._pending.items()):
            if interaction.is_expired():
                del self._pending[state]


async def _edit(interaction: discord.Interaction[Any], embed: discord.Embed) -> None:
    try:
        await interaction.edit_original_response(embed=embed, view=None)
    except discord.HTTPException as error:
        log.info("the sign-in message could not be edited: HTTP %s", error.status)
