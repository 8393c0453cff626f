"""The planner's :class:`~bot.daily.planner.Upstream` for people's daily DMs (``/mydaily``).

The same calls as a server's posts (``cogs.daily.upstream``), with the person's token: their
own while they have one linked, else the operator's shared one (``TokenChooser.for_schedule``);
never a server's account. The reasons it records speak to the person, not to an admin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.daily import Feed
from bot.daily.personal import NO_TOKEN, OWN_TOKEN_REFUSED, TOKEN_PAUSES, PersonalSchedule
from bot.services.tokens import OWNER_NOT_LINKED, OWNER_REFUSED, SHARED_ACCOUNT_GONE
from cogs.daily.upstream import ServicesCalls


class PersonalUpstream(ServicesCalls[PersonalSchedule]):
    reworded: ClassVar[Mapping[str, str]] = {
        OWNER_NOT_LINKED: NO_TOKEN,  # their account went between the read and the fetch
        OWNER_REFUSED: OWN_TOKEN_REFUSED,
        SHARED_ACCOUNT_GONE: NO_TOKEN,
    }

    @property
    def pause_reasons(self) -> frozenset[str]:
        return TOKEN_PAUSES

    async def token_problems(
        self, schedules: Sequence[PersonalSchedule]
    ) -> Mapping[tuple[int, Feed], str]:
        """Own token refused (linked but invalid); or no token at all (no account linked, and
        no shared one)."""
        own = {s.user_id for s in schedules if not s.on_shared_token}
        statuses = await self.services.registry.statuses(own)
        has_shared = self.services.chooser.has_shared_token
        problems = {}
        for schedule in schedules:
            if schedule.on_shared_token:
                if not has_shared:
                    problems[schedule.key] = NO_TOKEN
            elif statuses.get(schedule.user_id, "invalid") == "invalid":
                problems[schedule.key] = OWN_TOKEN_REFUSED
        return problems
