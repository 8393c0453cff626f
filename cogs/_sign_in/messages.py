"""Sign in with Magisterium, offered in Discord: the private message with the sign-in link
and "paste a token instead", edited into a confirmation once the web callback has linked the
account. ``/account link`` (a person's own account) and ``/server link`` (a server's) each keep
a :class:`SignInMessages` of their own; each edits only the messages of its own sign-ins."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, NamedTuple

import discord

from bot.i18n import N_, _, using_locale
from bot.oauth import LinkedBySignIn
from bot.render.views import BaseView

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

# Translators: a link button's label (at most 80 characters).
SIGN_IN_LABEL = N_("Sign in with Magisterium")
# Translators: a button's label: opens a form to paste a Magisterium token by hand.
PASTE_LABEL = N_("Paste a token instead")


def discord_handle(user: discord.abc.User) -> str:
    """The name that tells one Discord account from every other (no display name: anyone can
    take someone else's), as the sign-in page shows it after an @."""
    if user.discriminator in ("", "0"):
        return user.name
    return f"{user.name}#{user.discriminator}"  # an account that kept its old tag


class SignInView(BaseView):
    """The two ways to link, for the person who ran the command only: the sign-in link, and a
    button that opens ``paste()``, the form to paste a token by hand."""

    def __init__(
        self, start_url: str, paste: Callable[[], discord.ui.Modal], *, author_id: int
    ) -> None:
        super().__init__(timeout=600)
        self.author_id = author_id
        self._paste_form = paste
        self.add_item(discord.ui.Button(label=_(SIGN_IN_LABEL), url=start_url, emoji="🔐"))
        paste_button: discord.ui.Button[SignInView] = discord.ui.Button(
            label=_(PASTE_LABEL), style=discord.ButtonStyle.secondary
        )
        paste_button.callback = self._paste  # type: ignore[method-assign]
        self.add_item(paste_button)

    async def _paste(self, interaction: discord.Interaction[discord.Client]) -> None:
        await interaction.response.send_modal(self._paste_form())


Confirmation = Callable[[LinkedBySignIn], Awaitable[discord.Embed]]


class _Pending(NamedTuple):
    interaction: discord.Interaction[MagisteriumBot]
    view: SignInView
    context: contextvars.Context
    scope: tuple[int, int | None]  # (the person, the server the sign-in is for, if any)


class SignInMessages:
    """The sign-in offers this process sent, so the callback can edit the message they came
    from (the interaction's token lasts 15 minutes; the sign-in link 10) into ``confirmation``
    (built in the person's language). One per kind of sign-in: each edits only its own."""

    def __init__(self, confirmation: Confirmation) -> None:
        self._confirmation = confirmation
        self._pending: dict[str, _Pending] = {}

    async def show(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        begin: Callable[[], Awaitable[tuple[str, str]]],
        *,
        embed: discord.Embed,
        paste: Callable[[], discord.ui.Modal],
        guild_id: int | None = None,
    ) -> None:
        """``begin()`` a sign-in (its state and link) and offer it privately, with ``embed``.
        ``guild_id``: a sign-in for that server (the person's others for it end)."""
        scope = (interaction.user.id, guild_id)
        self._forget(scope)  # the new link ends the person's others of this kind
        state, url = await begin()
        view = SignInView(url, paste, author_id=interaction.user.id)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        # discord.py finds its webhook adapter in a context variable: edit in this context.
        self._pending[state] = _Pending(interaction, view, contextvars.copy_context(), scope)

    async def linked(self, linked: LinkedBySignIn) -> None:
        """The web callback linked an account: turn its message into the confirmation."""
        pending = self._pending.pop(linked.state, None)
        if pending is None:
            return
        interaction, view, context, _scope = pending
        view.stop()
        if interaction.is_expired():
            return
        with using_locale(linked.locale):
            embed = await self._confirmation(linked)
        loop = asyncio.get_running_loop()
        await loop.create_task(_edit(interaction, embed), context=context)

    def _forget(self, scope: tuple[int, int | None]) -> None:
        """Drop the sign-ins that can no longer end here: expired, or the same person's of the
        same kind (a new state replaces them)."""
        for state, pending in list(self._pending.items()):
            if pending.interaction.is_expired() or pending.scope == scope:
                del self._pending[state]


async def _edit(interaction: discord.Interaction[MagisteriumBot], embed: discord.Embed) -> None:
    try:
        await interaction.edit_original_response(embed=embed, view=None)
    except discord.HTTPException as error:
        log.info("the sign-in message could not be edited: HTTP %s", error.status)
