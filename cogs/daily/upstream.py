"""The daily planner's :class:`~bot.daily.planner.Upstream` on the bot's services.

Here because ``bot.daily`` may not import ``bot.services`` (the layers, ``tests/test_layers.py``);
nothing in it needs Discord.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from bot.a2a.skills import LITURGICAL_READINGS, SAINTS_OF_THE_DAY
from bot.daily import Feed, Schedule
from bot.daily.planner import Content, Fetch, TokenRefused
from bot.daily.schedule import Slotted
from bot.i18n import DEFAULT_LOCALE, using_locale
from bot.services.origin import Origin
from bot.services.tokens import (
    OWNER_NOT_LINKED,
    OWNER_REFUSED,
    SHARED_ACCOUNT_GONE,
    ChosenToken,
    LinkedTokenInvalid,
    ScheduleTokenUnavailable,
)
from bot.services.user_errors import message_for

if TYPE_CHECKING:
    from bot.app import MagisteriumBot
    from bot.app.composition import Services

# Token reasons a schedule pauses for; it resumes by itself once the token works again.
TOKEN_REASONS = frozenset({OWNER_NOT_LINKED, OWNER_REFUSED, SHARED_ACCOUNT_GONE})
TOKEN_ERRORS = (ScheduleTokenUnavailable, LinkedTokenInvalid)
S = TypeVar("S", bound=Slotted)


class ServicesCalls(Generic[S]):
    """What both kinds of schedule fetch with: the schedule's token (``for_schedule``), the
    day's call, and the errors the bot can explain. ``reworded``: the chooser's reasons for a
    refused token, as this kind of schedule records them."""

    reworded: ClassVar[Mapping[str, str]] = {}

    def __init__(self, bot: MagisteriumBot) -> None:
        self._bot = bot

    @property
    def services(self) -> Services:
        return self._bot.services

    async def fetcher(self, schedule: S) -> Fetch:
        try:
            token = await self.services.chooser.for_schedule(
                schedule.owner_id, schedule.token_source
            )
        except TOKEN_ERRORS as error:
            raise self._refused(error) from error
        user_id = schedule.owner_id or 0

        async def fetch(feed: Feed, day: dt.date) -> Content:
            try:
                return await self._call(feed, day, user_id, token)
            except TOKEN_ERRORS as error:
                raise self._refused(error) from error

        return fetch

    async def _call(self, feed: Feed, day: dt.date, user_id: int, token: ChosenToken) -> Content:
        magisterium = self.services.magisterium
        origin = Origin.schedule(user_id)
        if feed is Feed.SAINTS:
            return await magisterium.call(origin, SAINTS_OF_THE_DAY, day, token=token)
        return await magisterium.call(origin, LITURGICAL_READINGS, day, token=token)

    def known_failure(self, error: Exception) -> tuple[str, str] | None:
        with using_locale(DEFAULT_LOCALE):  # recorded in English, translated where shown
            known = message_for(error)
        return None if known is None else (known.title, known.text)

    def _refused(self, error: ScheduleTokenUnavailable | LinkedTokenInvalid) -> TokenRefused:
        reason = _refused(error).reason
        return TokenRefused(self.reworded.get(reason, reason))


class ServicesUpstream(ServicesCalls[Schedule]):
    """A server's schedules: its admin's token, or the shared one, as /daily set chose."""

    @property
    def pause_reasons(self) -> frozenset[str]:
        return TOKEN_REASONS

    async def token_problems(self, schedules: Sequence[Schedule]) -> Mapping[tuple[int, Feed], str]:
        owners = {s.owner_id for s in schedules if not s.on_shared_token and s.owner_id}
        statuses = await self.services.registry.statuses(owners)
        has_shared = self.services.chooser.has_shared_token
        problems = {s.key: _token_problem(s, statuses, has_shared) for s in schedules}
        return {key: problem for key, problem in problems.items() if problem is not None}


def _token_problem(
    schedule: Schedule, statuses: Mapping[int, str], has_shared_token: bool
) -> str | None:
    if schedule.on_shared_token:
        return None if has_shared_token else SHARED_ACCOUNT_GONE
    status = statuses.get(schedule.owner_id) if schedule.owner_id else None
    if status is None:
        return OWNER_NOT_LINKED
    return OWNER_REFUSED if status == "invalid" else None


def _refused(error: ScheduleTokenUnavailable | LinkedTokenInvalid) -> TokenRefused:
    if isinstance(error, ScheduleTokenUnavailable):
        return TokenRefused(error.reason)
    return TokenRefused(OWNER_REFUSED)  # Magisterium refused the owner's token (401)
