"""A paginator: ◀ / page x/y / ▶ over a list of embeds, plus "Send as file".

Only the person who ran the command may use its buttons (extra items added by callers
included); the file button is open to everyone, since it only sends a private copy of what the
message already shows. On timeout the buttons are disabled through the newest interaction token
(a page turn refreshes the 15-minute window), so a pager that was used late still greys out.
"""

from __future__ import annotations

import logging
from typing import Any
from weakref import WeakValueDictionary

import discord
from discord.ui.select import BaseSelect
from discord.utils import MISSING

from bot.i18n import N_, _
from bot.render.embeds import notice_embed
from bot.render.files import text_file
from bot.render.views import BaseView

log = logging.getLogger(__name__)

NOT_OWNER = N_("Only the person who ran this command can turn its pages.")
# Translators: pager button labels, at most 80 characters (short is better).
PREVIOUS = N_("◀ Previous")
# Translators: pager button label.
NEXT = N_("Next ▶")
# Translators: pager button label: sends the whole text privately as a .md attachment.
SEND_AS_FILE = N_("Send as file")

_Button = discord.ui.Button["Paginator"]
_Disableable = (discord.ui.Button, BaseSelect)


class Paginator(BaseView):
    def __init__(
        self,
        pages: list[discord.Embed],
        *,
        author_id: int,
        full_text: str | None,
        filename: str,
        timeout: float = 600,
    ) -> None:
        super().__init__(timeout=timeout)
        self.pages = pages or [
            notice_embed(_("Nothing to show"), _("There is nothing on this page."))
        ]
        self.author_id = author_id
        self.full_text = full_text
        self.filename = filename
        self.index = 0
        # Custom ids anyone may use; callers can add their own public items here.
        self.public_custom_ids = {self.send_file.custom_id}
        self._edit_via: discord.Interaction[Any] | discord.Message | None = None
        if len(self.pages) == 1:
            for item in (self.previous, self.counter, self.next_page):
                self.remove_item(item)
        if full_text is None:
            self.remove_item(self.send_file)
        # The decorators' labels are English, fixed at import: these speak the reader's language.
        self.previous.label = _(PREVIOUS)
        self.next_page.label = _(NEXT)
        self.send_file.label = _(SEND_AS_FILE)
        self._sync()

    # --- state -----------------------------------------------------------------------------------

    @property
    def current(self) -> discord.Embed:
        return self.pages[self.index]

    def show(self, index: int) -> discord.Embed:
        """Move to page ``index`` (clamped) and update the buttons to match."""
        self.index = max(0, min(index, len(self.pages) - 1))
        self._sync()
        return self.current

    def _sync(self) -> None:
        self.previous.disabled = self.index == 0
        self.next_page.disabled = self.index == len(self.pages) - 1
        # Translators: the pager's page counter (a disabled button between ◀ and ▶).
        self.counter.label = _("Page {page}/{pages}").format(
            page=self.index + 1, pages=len(self.pages)
        )

    def disable_all(self) -> None:
        for item in self.children:
            if isinstance(item, _Disableable) and not getattr(item, "url", None):
                item.disabled = True

    # --- Discord ---------------------------------------------------------------------------------

    async def send(
        self, interaction: discord.Interaction[Any], *, ephemeral: bool = False
    ) -> discord.Message | None:
        """Send the first page: as a followup after a defer (the message it made is returned),
        else as the response (None: the response's message is not fetched)."""
        view = self if self.children else MISSING
        sent: discord.Message | None = None
        if interaction.response.is_done():
            sent = await interaction.followup.send(
                embed=self.current, view=view, ephemeral=ephemeral, wait=True
            )
            self._edit_via = sent
        else:
            await interaction.response.send_message(
                embed=self.current, view=view, ephemeral=ephemeral
            )
            self._edit_via = interaction
        if not self.children:
            self.stop()
        return sent

    async def replace(self, interaction: discord.Interaction[Any]) -> None:
        """Show the first page in place of the message a component was used on (after a
        deferred update), and keep editing that message from then on."""
        view = self if self.children else MISSING
        await interaction.edit_original_response(embed=self.current, view=view)
        self._edit_via = interaction
        if not self.children:
            self.stop()

    async def send_to(
        self,
        channel: discord.abc.Messageable,
        *,
        content: str | None = None,
        reply_to: discord.MessageReference | None = None,
    ) -> discord.Message:
        """Send the first page as a plain message (a DM answer), not an interaction response;
        with ``reply_to``, as a reply to that message that pings nobody, its author included
        (``content``: a line above the page)."""
        view = self if self.children else MISSING
        if reply_to is None:
            message = await channel.send(content=content, embed=self.current, view=view)
        else:
            message = await channel.send(
                content=content,
                embed=self.current,
                view=view,
                reference=reply_to,
                mention_author=False,
            )
        self._edit_via = message
        if not self.children:
            self.stop()
        return message

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await super().interaction_check(interaction)
        if interaction.user.id == self.author_id:
            return True
        data: dict[str, Any] = dict(interaction.data or {})
        if data.get("custom_id") in self.public_custom_ids:
            return True
        await interaction.response.send_message(_(NOT_OWNER), ephemeral=True)
        return False

    async def on_timeout(self) -> None:
        self.disable_all()
        target = self._edit_via
        try:
            if isinstance(target, discord.Interaction):
                await target.edit_original_response(view=self)
            elif target is not None:
                await target.edit(view=self)
        except discord.HTTPException as exc:  # message deleted, token expired: nothing to grey
            log.info("pager buttons not disabled: HTTP %s code %s", exc.status, exc.code)

    async def _turn(self, interaction: discord.Interaction[Any], index: int) -> None:
        self.show(index)
        self._edit_via = interaction
        await interaction.response.edit_message(embed=self.current, view=self)

    @discord.ui.button(label=PREVIOUS, style=discord.ButtonStyle.secondary, row=0)
    async def previous(self, interaction: discord.Interaction[Any], _button: _Button) -> None:
        await self._turn(interaction, self.index - 1)

    @discord.ui.button(label="Page 1/1", style=discord.ButtonStyle.secondary, row=0, disabled=True)
    async def counter(self, interaction: discord.Interaction[Any], _button: _Button) -> None:
        await interaction.response.defer()  # disabled: Discord never sends this click

    @discord.ui.button(label=NEXT, style=discord.ButtonStyle.secondary, row=0)
    async def next_page(self, interaction: discord.Interaction[Any], _button: _Button) -> None:
        await self._turn(interaction, self.index + 1)

    @discord.ui.button(label=SEND_AS_FILE, emoji="📄", style=discord.ButtonStyle.secondary, row=0)
    async def send_file(self, interaction: discord.Interaction[Any], _button: _Button) -> None:
        text = self.full_text or ""
        await interaction.response.send_message(file=text_file(self.filename, text), ephemeral=True)


class ShownPagers:
    """The pager each message shows now, for pagers that replace one another on a message (a
    day button's next day): the one replaced is stopped, and its timeout asks :meth:`shows`
    before it edits the message. The bot holds one (``bot.shown_pagers``), so a new bot starts
    empty; the entries are weak, so a pager that is gone leaves by itself."""

    def __init__(self) -> None:
        self._by_message: WeakValueDictionary[int, Paginator] = WeakValueDictionary()

    def show(self, message_id: int, pager: Paginator) -> None:
        """``pager`` now shows on message ``message_id``; the one it replaces stops."""
        previous = self._by_message.get(message_id)
        if previous is not None and previous is not pager:
            previous.stop()
        self._by_message[message_id] = pager

    def shows(self, message_id: int, pager: Paginator) -> bool:
        """Whether ``pager`` is still the one message ``message_id`` shows."""
        return self._by_message.get(message_id) is pager
