"""Counting and logging the clients the public listener turns away: each refusal counts in
``web_refusals_total{reason}``; a kind of refusal writes one line per interval at most, so a
flood costs a line a minute."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.observability.metrics import WebRefusal
from bot.web.log_throttle import LogThrottle

# Metrics.web_refused, or nothing for a listener without metrics (the operator's).
Record = Callable[[WebRefusal], None]


def unrecorded(reason: WebRefusal) -> None:
    """A :data:`Record` that records nothing."""


class Refusals:
    """One kind of refusal: ``message`` (a %-format for the first refusal's ``args``) is
    logged at ``level`` once per interval, saying how many more were held back."""

    def __init__(
        self,
        reason: WebRefusal,
        record: Record,
        logger: logging.Logger,
        message: str,
        *,
        level: int = logging.WARNING,
        throttle: LogThrottle | None = None,
    ) -> None:
        self._reason = reason
        self._record = record
        self._logger = logger
        self._message = message + " (%d more since the last such line)"
        self._level = level
        self._throttle = throttle or LogThrottle()

    def refused(self, *args: object) -> None:
        self._record(self._reason)
        held_back = self._throttle.event()
        if held_back is not None:
            self._logger.log(self._level, self._message, *args, held_back)
