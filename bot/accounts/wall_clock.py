"""The wall clock: now, aware, in UTC, as the stores (accounts, sign-in states, timezones) and the
cogs that count a day read it; tests pass their own :data:`Clock`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)
