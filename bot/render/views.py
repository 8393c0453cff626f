"""Base classes for every view and modal: errors go through the one reporting path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.app.error_reporting import report_interaction_error
from bot.i18n import use_interaction_locale

if TYPE_CHECKING:
    from discord.ui.view import ViewStore


class BaseView(discord.ui.View):
    """A view whose restart-safe buttons keep working after it stops.

    discord.py's view store, when a view holding a ``DynamicItem`` stops or times out, drops
    that DynamicItem *class* for the whole bot, so every other message's button of that kind
    would go dead. The view re-registers its DynamicItem classes once it has been removed.
    """

    _dynamic_store: ViewStore | None = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Answer in the person's language; subclasses that check more call this first."""
        use_interaction_locale(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await report_interaction_error(
            interaction, error, where=f"{type(self).__name__} {type(item).__name__}"
        )

    def _start_listening_from_store(self, store: ViewStore) -> None:
        self._dynamic_store = store
        super()._start_listening_from_store(store)

    def _dispatch_timeout(self) -> None:
        super()._dispatch_timeout()  # type: ignore[no-untyped-call]
        self._keep_dynamic_items_registered()

    def stop(self) -> None:
        super().stop()
        self._keep_dynamic_items_registered()

    def _keep_dynamic_items_registered(self) -> None:
        classes = {type(i) for i in self.walk_children() if isinstance(i, discord.ui.DynamicItem)}
        if classes and self._dynamic_store is not None:
            self._dynamic_store.add_dynamic_items(*classes)


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class ReportedDynamicItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A restart-safe item whose errors reach the one reporting path.

    discord.py runs a DynamicItem's callback in a throwaway View whose ``on_error`` only logs,
    so the person would see "This interaction failed". Subclasses implement :meth:`respond`
    and give their own ``template``; this base matches no custom_id and is never registered.
    """

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        use_interaction_locale(interaction)
        try:
            await self.respond(interaction)
        except Exception as error:
            await report_interaction_error(interaction, error, where=type(self).__name__)

    async def respond(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class BaseModal(discord.ui.Modal):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        use_interaction_locale(interaction)
        return True

    # discord.py's Modal.on_error drops the ``item`` argument of the View it derives from.
    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await report_interaction_error(interaction, error, where=type(self).__name__)
