"""Setting the instant the cogs that read the time see (``now``: an aware-datetime clock)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any, cast

from devtools.discord import Harness

DAY_COGS = ("ReadingsCog", "SaintsCog")


def set_cog_clock(
    harness: Harness, now: Callable[[], dt.datetime], cogs: Iterable[str] = DAY_COGS
) -> None:
    """Every cog named in ``cogs`` reads the time from ``now``."""
    for name in cogs:
        cog = harness.bot.get_cog(name)
        # Extensions are re-imported for each bot: reach the cog by name, not by class.
        assert cog is not None and "now" in vars(cog), name
        cast(Any, cog).now = now
