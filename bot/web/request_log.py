"""Quietening aiohttp about requests it could not parse.

aiohttp's connection handler logs every malformed request at ERROR with a traceback: anyone on
the internet could fill the log (and the disk) with them. :class:`MalformedRequests` filters the
logger it writes to: such a record becomes one INFO line a minute at most; any other record
(a bug in a handler) passes as it is.
"""

from __future__ import annotations

import logging

from aiohttp.http_exceptions import HttpProcessingError

from bot.web.log_throttle import LogThrottle

log = logging.getLogger(__name__)

# The logger given to aiohttp's connection handlers (instead of its own "aiohttp.server").
CONNECTIONS_LOG = logging.getLogger("bot.web.connections")


class MalformedRequests(logging.Filter):
    def __init__(self, throttle: LogThrottle | None = None) -> None:
        super().__init__()
        self._throttle = throttle or LogThrottle()

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        held_back = self._throttle.event()
        if held_back is not None:
            # aiohttp's message is "Error handling request from %s", the peer's address.
            peer = record.args[0] if isinstance(record.args, tuple) and record.args else None
            log.info(
                "malformed HTTP request from %s (%s); %d more since the last such line",
                peer,
                type(error).__name__,
                held_back,
            )
        return False
