"""The limiter's settings and the errors it raises to callers."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class LimiterConfig:
    """Per-token Magisterium pools (Pro plan defaults) and the in-flight caps.

    `safety_margin` lengthens our counting window beyond the upstream's 60 s: a request is
    counted upstream when it arrives, some network latency after we admit it, and several bot
    processes compare clocks through Redis. The margin must exceed that jitter plus the skew.
    """

    per_minute: int = 15
    qa_per_minute: int = 2
    max_in_flight_per_token: int = 4
    max_in_flight: int = 64
    safety_margin: float = 1.0

    def __post_init__(self) -> None:
        for name in ("per_minute", "qa_per_minute", "max_in_flight_per_token", "max_in_flight"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if not 0 <= self.safety_margin < 60:
            raise ValueError("safety_margin must be in [0, 60) seconds")


class LimiterBusy(Exception):
    """The expected wait exceeds the caller's budget: tell the user to try again later."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(f"rate limit busy; try again in {math.ceil(retry_after)} s")


class LimiterClosed(Exception):
    """The limiter was closed while the request waited, or before it arrived."""
