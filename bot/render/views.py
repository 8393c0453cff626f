"""Base classes for every view and modal: errors go through the one reporting path.

That path belongs to the application (``bot.app.error_reporting``: storage, limits and accounts
errors mapped to messages), so it reaches these classes through the client that dispatched the
interaction, its ``report_interaction_error``, rather than an import into the render layer.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import discord

from bot.i18n import use_interaction_locale

if TYPE_CHECKING:
    from discord.ui.view import ViewStore

log = logging.getLogger(__name__)


def enter_interaction(interaction: discord.Interaction[Any]) -> None:
    """For the rest of this interaction's task: its user's language."""
    use_interaction_locale(interaction)


class ErrorReporter(Protocol):
    async def __call__(
        self, interaction: discord.Interaction[Any], error: BaseException, *, where: str
    ) -> None: ...


async def report_interaction_error(
    interaction: discord.Interaction[Any], error: BaseException, *, where: str
) -> None:
    """Hand ``error`` to the client's reporter (the bot's one error path); log it without one."""
    reporter: ErrorReporter | None = getattr(interaction.client, "report_interaction_error", None)
    if reporter is None:
        log.error("unhandled error in %s", where, exc_info=error)
        return
    await reporter(interaction, error, where=where)


class BaseView(discord.ui.View):
    """A view whose restart-safe buttons keep working after it stops.

    discord.py's view store, when a view holding a ``DynamicItem`` stops or times out, drops
    that DynamicItem *class* for the whole bot, so every other message's button of that kind
    would go dead. The view re-registers its DynamicItem classes once it has been removed.
    """

    _dynamic_store: ViewStore | None = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Answer in the person's language; subclasses that check more call this first."""
        enter_interaction(interaction)
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
        enter_interaction(interaction)
        try:
            await self.respond(interaction)
        except Exception as error:
            await report_interaction_error(interaction, error, where=type(self).__name__)

    async def respond(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class BaseModal(discord.ui.Modal):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        enter_interaction(interaction)
        return True

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await self.submitted(interaction)

    async def submitted(self, interaction: discord.Interaction[Any]) -> None:
        """The form was sent: subclasses answer it, typed for their own client."""
        raise NotImplementedError

    # discord.py's Modal.on_error drops the ``item`` argument of the View it derives from.
    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await report_interaction_error(interaction, error, where=type(self).__name__)
