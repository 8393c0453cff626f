"""How long each interaction waited for the bot's first response; Discord allows 3 s.

Every interaction passes ``MagisteriumBot.dispatch("interaction", …)``, which discord.py calls
right after creating the tasks that will answer it and before any of them runs. There,
:meth:`Acknowledgements.watch` gives the interaction a response object that reports its first
response (a reply, a defer, a modal, autocomplete choices, a message update) the moment
Discord accepts it. The time is counted from the interaction's creation (its id's timestamp),
on the clock ``now``. Discord refuses a first response after 3 s, so an interaction still
unanswered :data:`GIVE_UP` after its creation never will be: :meth:`Acknowledgements.sweep`
counts it late.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.observability import Metrics
from bot.observability.metrics import InteractionKind

log = logging.getLogger(__name__)

# Well past Discord's 3 s and any response still in flight then.
GIVE_UP = dt.timedelta(seconds=10)

_KINDS: dict[discord.InteractionType, InteractionKind] = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
}


def interaction_kind(interaction: discord.Interaction[Any]) -> InteractionKind:
    return _KINDS.get(interaction.type, "other")


class TimedResponse(discord.InteractionResponse[Any]):
    """discord.py's response object, calling ``on_first`` when the first response is made.

    Each of its methods sets ``_response_type`` once Discord has accepted the response; this
    class hooks that assignment, so a response method discord.py adds is covered as well.
    """

    __slots__ = ("_on_first", "_type")

    def __init__(self, parent: discord.Interaction[Any], on_first: Callable[[], None]) -> None:
        self._type: discord.InteractionResponseType | None = None
        self._on_first = on_first
        super().__init__(parent)

    @property
    def _response_type(self) -> discord.InteractionResponseType | None:
        return self._type

    @_response_type.setter
    def _response_type(self, value: discord.InteractionResponseType | None) -> None:
        first = self._type is None and value is not None
        self._type = value
        if first:
            self._on_first()


class Acknowledgements:
    """The interactions waiting for their first response, and the metrics of each one's wait."""

    def __init__(
        self, metrics: Metrics, *, now: Callable[[], dt.datetime] = discord.utils.utcnow
    ) -> None:
        self.metrics = metrics
        self.now = now  # aware UTC; tests move it to make an interaction late
        self._waiting: dict[int, tuple[InteractionKind, dt.datetime]] = {}

    def watch(self, interaction: discord.Interaction[Any]) -> None:
        """Time ``interaction``'s first response (call before anything answers it)."""
        if hasattr(interaction, "_cs_response"):  # its response object exists: too late to time
            log.debug("interaction %s: response object made before dispatch", interaction.id)
            return
        self._waiting[interaction.id] = (interaction_kind(interaction), interaction.created_at)
        response = TimedResponse(interaction, functools.partial(self._answered, interaction.id))
        # discord.py's cached `response` property reads this slot first.
        interaction._cs_response = response  # type: ignore[attr-defined]

    def _answered(self, interaction_id: int) -> None:
        waiting = self._waiting.pop(interaction_id, None)
        if waiting is None:  # already counted as never answered
            return
        kind, created = waiting
        seconds = (self.now() - created).total_seconds()
        self.metrics.interaction_acknowledged(kind, max(seconds, 0.0))

    def sweep(self) -> int:
        """Count as late every interaction still unanswered :data:`GIVE_UP` after its
        creation; how many."""
        cutoff = self.now() - GIVE_UP
        expired = [key for key, (_, created) in self._waiting.items() if created <= cutoff]
        for key in expired:
            kind, _created = self._waiting.pop(key)
            self.metrics.interaction_unanswered(kind)
        return len(expired)

    @property
    def waiting(self) -> int:
        return len(self._waiting)
