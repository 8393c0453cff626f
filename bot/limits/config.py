"""The limiter's settings and the errors it raises to callers."""

from __future__ import annotations

import math
from dataclasses import dataclass

KIB = 1024
# What one upstream call in flight costs in memory, measured by bench/in_flight_memory.py (RSS
# growth per call with 100 to 500 at once against the fake Magisterium, the same at each N):
# 330 KiB over TLS, where asyncio gives every TLS connection its own 256 KiB read buffer (30 KiB
# over plain HTTP), and 11 KiB more for the /ask interaction waiting on it (41 KiB a whole
# interaction over HTTP: discord.py's Interaction, the command's task, the limiter's admission).
# 341 KiB, rounded up with room for longer answers.
IN_FLIGHT_CALL_BYTES = 384 * KIB
# What the calls in flight may take together when MAX_IN_FLIGHT is unset, and so the default:
# 128 MiB / 384 KiB = 341 calls, above a burst of 200 people with their own tokens (each token
# is already bounded by its own caps) and far from any upstream pool or socket limit.
IN_FLIGHT_MEMORY_BUDGET = 128 * KIB * KIB
DEFAULT_MAX_IN_FLIGHT = IN_FLIGHT_MEMORY_BUDGET // IN_FLIGHT_CALL_BYTES
# Of the process's open-file limit, the share upstream sockets may take when MAX_IN_FLIGHT is
# unset (the web server keeps to another quarter; Discord, the database and logs use the rest).
OPEN_FILES_SHARE = 4


def default_max_in_flight(*, pool: int | None, open_files: int | None) -> int:
    """The process-wide cap when MAX_IN_FLIGHT is unset: what the memory budget pays for
    (:data:`DEFAULT_MAX_IN_FLIGHT`), lowered to the connection pool when one is set (a call
    beyond it would only wait for a connection, holding its memory) and to a quarter of the
    open-file limit (``open_files``: its soft value; None when unlimited)."""
    caps = [DEFAULT_MAX_IN_FLIGHT]
    if pool is not None:
        caps.append(pool)
    if open_files is not None:
        caps.append(open_files // OPEN_FILES_SHARE)
    return max(1, min(caps))


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
    max_in_flight: int = DEFAULT_MAX_IN_FLIGHT
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
